// Global-memory races for the race-check tests (line numbers are checked: keep them).
__global__ void neighbour(float* data, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) data[i] = 2.0f * i;
    if (i + 1 < n) data[i] += data[i + 1]; // reads the neighbour's element: no barrier between
}

__global__ void same_cell(int* out)
{
    if (threadIdx.x == 0) out[0] = blockIdx.x; // every block writes out[0]
}
