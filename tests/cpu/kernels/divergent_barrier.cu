// SPDX-License-Identifier: GPL-3.0-or-later
// A barrier that half of block 1 never reaches: an error, never a hang.
__global__ void divergent_barrier(float* data)
{
    if (blockIdx.x == 1 && threadIdx.x >= 16) return;
    data[blockIdx.x * blockDim.x + threadIdx.x] = 1.0f;
    __syncthreads();
    data[blockIdx.x * blockDim.x + threadIdx.x] += 1.0f;
}
