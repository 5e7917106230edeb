// SPDX-License-Identifier: GPL-3.0-or-later
// One partial sum per block: shared-memory tree with __syncthreads (blockDim.x = 256).
__global__ void reduce_tree(const float* in, float* partial, int n)
{
    __shared__ float s[256];
    const unsigned tid = threadIdx.x;
    const unsigned i = blockIdx.x * blockDim.x * 2 + threadIdx.x;
    float v = 0.0f;
    if (i < n) v += in[i];
    if (i + blockDim.x < n) v += in[i + blockDim.x];
    s[tid] = v;
    __syncthreads();
    for (unsigned stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (tid < stride) s[tid] += s[tid + stride];
        __syncthreads();
    }
    if (tid == 0) partial[blockIdx.x] = s[0];
}
