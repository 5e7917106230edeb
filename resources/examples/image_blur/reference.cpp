// The same blur on the CPU, in the same summation order as the kernel.
#include <algorithm>

void reference(const float* image, float* blurred, int width, int height)
{
    for (int y = 0; y < height; ++y)
        for (int x = 0; x < width; ++x) {
            float sum = 0.0f;
            for (int dy = -1; dy <= 1; ++dy)
                for (int dx = -1; dx <= 1; ++dx) {
                    const int sx = std::min(std::max(x + dx, 0), width - 1);
                    const int sy = std::min(std::max(y + dy, 0), height - 1);
                    sum += image[sy * width + sx];
                }
            blurred[y * width + x] = sum / 9.0f;
        }
}
