// SPDX-License-Identifier: GPL-3.0-or-later
// Evaluates c0 + c1 x + c2 x^2 + c3 x^3 with coefficients in constant memory.
__constant__ float coeffs[4];

__global__ void poly(const float* x, float* y, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const float v = x[i];
    y[i] = coeffs[0] + v * (coeffs[1] + v * (coeffs[2] + v * coeffs[3]));
}
