// SPDX-License-Identifier: GPL-3.0-or-later
// Reverses each block's segment through dynamic shared memory sized by the launch.
__global__ void reverse_segments(const double* in, double* out)
{
    extern __shared__ double segment[];
    const int t = threadIdx.x;
    const int base = blockIdx.x * blockDim.x;
    segment[t] = in[base + t];
    __syncthreads();
    out[base + t] = segment[blockDim.x - 1 - t];
}
