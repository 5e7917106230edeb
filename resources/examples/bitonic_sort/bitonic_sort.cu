// Bitonic sort of n = 2^log2n keys, ascending, in two kinds of launches.
//
// bitonic_sort_block: each block sorts its blockDim.x keys in shared memory with the whole
// bitonic network for k = 2 .. blockDim.x, every block in the direction the global network
// gives it (the bit k of the global index), so that neighbouring blocks form bitonic runs.
//
// bitonic_step: one compare-and-swap step of the global network. The host loop of the textbook
// version,
//     for (k = 2 * threads; k <= n; k <<= 1)
//         for (j = k >> 1; j > 0; j >>= 1)
//             bitonic_step<<<n / threads, threads>>>(keys, j, k);
// is the project's "repeat": j and k are loop variables bound to the kernel's parameters.
__global__ void bitonic_sort_block(float* keys)
{
    extern __shared__ float tile[];
    const unsigned int t = threadIdx.x;
    const unsigned int i = blockIdx.x * blockDim.x + t;
    tile[t] = keys[i];
    __syncthreads();
    for (unsigned int k = 2; k <= blockDim.x; k <<= 1) {
        for (unsigned int j = k >> 1; j > 0; j >>= 1) {
            const unsigned int partner = t ^ j;
            if (partner > t) {
                const bool ascending = (i & k) == 0;
                const float a = tile[t];
                const float b = tile[partner];
                if ((a > b) == ascending) {
                    tile[t] = b;
                    tile[partner] = a;
                }
            }
            __syncthreads();
        }
    }
    keys[i] = tile[t];
}

__global__ void bitonic_step(float* keys, unsigned int j, unsigned int k)
{
    const unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    const unsigned int partner = i ^ j;
    if (partner <= i) return; // the lower index of each pair does the swap
    const bool ascending = (i & k) == 0;
    const float a = keys[i];
    const float b = keys[partner];
    if ((a > b) == ascending) {
        keys[i] = b;
        keys[partner] = a;
    }
}
