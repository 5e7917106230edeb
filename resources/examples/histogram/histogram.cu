// 256-bin histogram of bytes: every thread adds its elements with atomicAdd.
__global__ void histogram(const unsigned char* data, unsigned int* bins, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        atomicAdd(&bins[data[i]], 1u);
}
