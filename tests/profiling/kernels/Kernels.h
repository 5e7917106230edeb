// SPDX-License-Identifier: GPL-3.0-or-later
// CUDA sources of the kernels the GPU tests and bench_profiling measure (embedded, compiled
// with NVRTC at run time). extern "C" keeps the symbol names plain for ncu's kernel filter.
#pragma once

namespace wb::profiling::testkernels {

/// out[i] = in[i]: reads and writes n floats once each.
inline constexpr const char* kCopy = R"(
extern "C" __global__ void wb_copy(const float* __restrict__ in, float* __restrict__ out,
                                   unsigned long long n)
{
    const unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i];
}
)";

/// y[i] = a * x[i] + y[i]: reads 2n floats, writes n.
inline constexpr const char* kSaxpy = R"(
extern "C" __global__ void wb_saxpy(float a, const float* __restrict__ x, float* __restrict__ y,
                                    unsigned long long n)
{
    const unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}
)";

/// C = A × B for n × n row-major matrices (n a multiple of 32), 32 × 32 shared-memory tiles.
inline constexpr const char* kMatmul = R"(
#define TILE 32
extern "C" __global__ void wb_matmul(const float* __restrict__ a, const float* __restrict__ b,
                                     float* __restrict__ c, int n)
{
    __shared__ float as[TILE][TILE];
    __shared__ float bs[TILE][TILE];
    const int row = blockIdx.y * TILE + threadIdx.y;
    const int col = blockIdx.x * TILE + threadIdx.x;
    float sum = 0.0f;
    for (int t = 0; t < n; t += TILE) {
        as[threadIdx.y][threadIdx.x] = a[row * n + t + threadIdx.x];
        bs[threadIdx.y][threadIdx.x] = b[(t + threadIdx.y) * n + col];
        __syncthreads();
        #pragma unroll
        for (int k = 0; k < TILE; ++k) sum += as[threadIdx.y][k] * bs[k][threadIdx.x];
        __syncthreads();
    }
    c[row * n + col] = sum;
}
)";

/// x[i] += 1: a kernel that writes its own input, to show whether replay restores memory.
inline constexpr const char* kIncrement = R"(
extern "C" __global__ void wb_increment(float* x, unsigned long long n)
{
    const unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;
    if (i < n) x[i] += 1.0f;
}
)";

} // namespace wb::profiling::testkernels
