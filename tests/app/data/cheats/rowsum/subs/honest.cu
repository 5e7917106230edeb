// The honest solution: one thread per row reads the whole row (coalesced across the block).
__global__ void rowsum(const int* m, long long* sums, int rows, int cols)
{
    __shared__ long long partial[128];
    for (int r = blockIdx.x * 128; r < rows && r < (int)(blockIdx.x + 1) * 128; ++r) {
        long long s = 0;
        for (int c = threadIdx.x; c < cols; c += blockDim.x)
            s += m[(long long)r * cols + c];
        partial[threadIdx.x] = s;
        __syncthreads();
        for (int step = blockDim.x / 2; step > 0; step /= 2) {
            if ((int)threadIdx.x < step) partial[threadIdx.x] += partial[threadIdx.x + step];
            __syncthreads();
        }
        if (threadIdx.x == 0) sums[r] = partial[0];
        __syncthreads();
    }
}
