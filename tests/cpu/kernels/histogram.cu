// SPDX-License-Identifier: GPL-3.0-or-later
// 64-bin histogram: per-block bins in shared memory, then merged with global atomics.
#define BINS 64

__global__ void histogram(const unsigned char* data, int n, unsigned int* bins)
{
    __shared__ unsigned int local[BINS];
    for (int b = threadIdx.x; b < BINS; b += blockDim.x) local[b] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        atomicAdd(&local[data[i] % BINS], 1u);
    __syncthreads();
    for (int b = threadIdx.x; b < BINS; b += blockDim.x) atomicAdd(&bins[b], local[b]);
}
