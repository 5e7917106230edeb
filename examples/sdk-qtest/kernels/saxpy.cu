// SPDX-License-Identifier: GPL-3.0-or-later
// y = a * x + y, one thread per element.
extern "C" __global__ void saxpy(float* y, const float* x, float a, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}
