// SPDX-License-Identifier: GPL-3.0-or-later
// Does not compile: `undeclared_scale` is not declared anywhere.
extern "C" __global__ void broken(float* y, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = undeclared_scale * 2.0f;
}
