// BUG (on purpose): the output index keeps the input's orientation. out is width x height, so
// element (y, x) of in belongs at out[x * height + y], not out[y * height + x].
__global__ void transpose_naive(const float* in, float* out, int width, int height)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < width && y < height) out[y * height + x] = in[y * width + x];
}
