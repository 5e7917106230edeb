// Each block sums its blockDim.x elements in shared memory (tree reduction) and writes one
// partial sum. blockDim.x must be a power of two; the dynamic shared memory holds one float per
// thread (launch.sharedBytes = block * 4).
__global__ void block_sum(const float* in, float* partial, int n)
{
    extern __shared__ float cache[];
    const unsigned t = threadIdx.x;
    const unsigned i = blockIdx.x * blockDim.x + t;
    cache[t] = i < n ? in[i] : 0.0f;
    __syncthreads();
    for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {
        if (t < stride) cache[t] += cache[t + stride];
        __syncthreads();
    }
    if (t == 0) partial[blockIdx.x] = cache[0];
}
