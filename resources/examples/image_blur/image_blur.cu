// 3x3 box blur of a greyscale image (values 0..1); edges clamp to the nearest pixel.
__global__ void box_blur(const float* image, float* blurred, int width, int height)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= width || y >= height) return;
    float sum = 0.0f;
    for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx) {
            const int sx = min(max(x + dx, 0), width - 1);
            const int sy = min(max(y + dy, 0), height - 1);
            sum += image[sy * width + sx];
        }
    blurred[y * width + x] = sum / 9.0f;
}
