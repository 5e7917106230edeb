// SPDX-License-Identifier: GPL-3.0-or-later
// y = alpha * x, checked against a plain one-thread-per-element reference kernel.
extern "C" __global__ void scale(float* y, const float* x, float alpha, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = alpha * x[i];
}

extern "C" __global__ void scale_reference(float* y, const float* x, float alpha, int n)
{
    for (int i = threadIdx.x; i < n; i += blockDim.x)
        y[i] = x[i] * alpha;
}
