// SPDX-License-Identifier: GPL-3.0-or-later
// Warp-shuffle reduction: each warp reduces with __shfl_down_sync, lane 0 adds atomically.
__device__ __forceinline__ int warp_sum(int v)
{
    for (int offset = warpSize / 2; offset > 0; offset /= 2)
        v += __shfl_down_sync(0xffffffff, v, offset);
    return v;
}

__global__ void reduce_warp(const int* in, int* total, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = i < n ? in[i] : 0;
    v = warp_sum(v);
    if ((threadIdx.x & (warpSize - 1)) == 0) atomicAdd(total, v);
}
