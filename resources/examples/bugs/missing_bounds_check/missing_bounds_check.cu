// BUG (on purpose): no `if (i < n)`. Launching ceil(n/256) blocks would write past the end of c,
// so the grid was rounded down instead — and the last n % 256 elements are never written.
__global__ void vector_add(const float* a, const float* b, float* c, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    c[i] = a[i] + b[i];
}
