// SPDX-License-Identifier: GPL-3.0-or-later
// A template kernel: launched through the name expression "scale<float, 128>".
template <typename T, int Factor>
__global__ void scale(T* data, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) data[i] = data[i] * static_cast<T>(Factor);
}
