// SPDX-License-Identifier: GPL-3.0-or-later
// The CUB peer of bench_array: cub::DeviceReduce::Sum (what cupy.sum runs underneath), built
// by nvcc when CMake finds the CUDA compiler. It runs in the primary context, which the
// runtime API shares with the driver API, so it reads the benchmark's device arrays directly.
#include <cub/device/device_reduce.cuh>

#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstddef>

extern "C" double wbBenchCubSumSeconds(unsigned long long input, unsigned long long output,
                                       std::size_t n, int rounds, float* result)
{
    const auto* in = reinterpret_cast<const float*>(input);
    auto* out = reinterpret_cast<float*>(output);
    std::size_t tempBytes = 0;
    if (cub::DeviceReduce::Sum(nullptr, tempBytes, in, out, static_cast<int>(n)) != cudaSuccess)
        return -1;
    void* temp = nullptr;
    if (cudaMalloc(&temp, tempBytes) != cudaSuccess) return -1;
    double best = 1e30;
    for (int r = 0; r < rounds; ++r) {
        const auto start = std::chrono::steady_clock::now();
        cub::DeviceReduce::Sum(temp, tempBytes, in, out, static_cast<int>(n));
        cudaMemcpy(result, out, sizeof(float), cudaMemcpyDeviceToHost);
        const auto stop = std::chrono::steady_clock::now();
        best = std::min(best, std::chrono::duration<double>(stop - start).count());
    }
    cudaFree(temp);
    return cudaGetLastError() == cudaSuccess ? best : -1;
}
