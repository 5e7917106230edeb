// Only half of each block reaches the barrier: undefined behaviour that the CPU emulator reports.
__global__ void mul(float* dest, const float* a, const float* b, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (threadIdx.x < blockDim.x / 2) __syncthreads();
    if (i < n) dest[i] = a[i] * b[i];
}
