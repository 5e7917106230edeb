// SPDX-License-Identifier: GPL-3.0-or-later
// Off by one: the thread with i == n writes one element past the end.
__global__ void off_by_one(float* data, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i <= n)
        data[i] = 2.0f * i;
}
