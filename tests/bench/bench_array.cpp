// SPDX-License-Identifier: GPL-3.0-or-later
// Generated kernels and the device pool on the GPU, each beside a peer measured in this run:
//   1. ElementwiseKernel z = a*x + y over 64M floats (768 MiB moved) vs cuMemcpyDtoD moving the
//      same bytes (384 MiB copied = 384 read + 384 written); GB/s, target >= 0.95x
//   2. wb::cuda::sum over 256M floats vs cub::DeviceReduce::Sum (what cupy.sum runs; built with
//      nvcc when CMake found it), each with its result copied back; target >= 0.9x
//   3. a pooled DeviceBuffer (allocate + release, steady state) vs cuMemAlloc + cuMemFree of the
//      same size; target <= 1 us per pooled allocation
// Prints the reason and exits 0 where no GPU is usable.
#include "core/array/ArrayMath.h"
#include "core/backend/Backend.h"
#include "core/cuda/CudaError.h"
#include "core/cuda/DevicePool.h"
#include "core/cuda/Event.h"
#include "core/cuda/detail/DriverApi.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <exception>
#include <functional>
#include <string>
#include <vector>

#ifdef WB_BENCH_HAVE_CUB
extern "C" double wbBenchCubSumSeconds(unsigned long long input, unsigned long long output,
                                       std::size_t n, int rounds, float* result);
#endif

using namespace wb::cuda;
using Clock = std::chrono::steady_clock;

namespace {

struct Row {
    std::string what;
    double ours = 0;
    std::string peerName;
    double peer = 0;
    std::string unit;
    std::string target;
};

double seconds(Clock::time_point a, Clock::time_point b)
{
    return std::chrono::duration<double>(b - a).count();
}

void printTable(const std::vector<Row>& rows)
{
    std::printf("\n%-44s %12s  %-30s %12s %8s  %s\n", "measurement", "warpbench", "peer", "peer",
                "ratio", "target");
    for (const Row& r : rows) {
        const double ratio = r.peer > 0 ? r.ours / r.peer : 0;
        std::printf("%-44s %9.2f %-3s %-30s %9.2f %-3s %7.3fx  %s\n", r.what.c_str(), r.ours,
                    r.unit.c_str(), r.peerName.c_str(), r.peer, r.unit.c_str(), ratio,
                    r.target.c_str());
    }
}

/// Best milliseconds of `rounds` timed runs of `fn` (events on the legacy default stream).
double bestMs(const Context& ctx, int rounds, const std::function<void()>& fn)
{
    Event start(ctx), stop(ctx);
    double best = 1e30;
    for (int r = 0; r < rounds; ++r) {
        start.record();
        fn();
        stop.record();
        stop.synchronize();
        best = std::min(best, Event::elapsedMs(start, stop));
    }
    return best;
}

} // namespace

int main()
{
    if (const auto reason = wb::cudaUnavailableReason()) {
        std::printf("bench_array: no usable GPU, nothing measured: %s\n", reason->c_str());
        return 0;
    }
    try {
        const Context ctx = Context::primary(0);
        const detail::DriverApi& api = detail::driver();
        std::vector<Row> rows;
        constexpr int kRounds = 20;

        // 1. Elementwise a*x + y vs a device-to-device copy of the same bytes.
        {
            const std::size_t n = std::size_t{64} << 20;
            DeviceArray<float> x(ctx, {n}, "x"), y(ctx, {n}, "y"), z(ctx, {n}, "z");
            x.fill(1.0f);
            y.fill(2.0f);
            wb::ElementwiseKernel axpy("float a, const float *x, const float *y, float *z",
                                       "z[i] = a*x[i] + y[i]", "axpy");
            axpy(2.0f, x, y, z); // compile, load, warm up
            const double kernelMs = bestMs(ctx, kRounds, [&] { axpy(2.0f, x, y, z); });
            const std::vector<float> check = z.download();
            if (check.front() != 4.0f || check.back() != 4.0f)
                throw std::runtime_error("axpy computed a wrong result");
            const std::size_t moved = 3 * n * sizeof(float);
            DeviceBuffer src(ctx, moved / 2, "copy source"), dst(ctx, moved / 2, "copy dest");
            dst.copyFrom(src, moved / 2);
            const double copyMs = bestMs(ctx, kRounds, [&] {
                CU_CHECK(api.cuMemcpyDtoD(dst.ptr(), src.ptr(), moved / 2), "cuMemcpyDtoD");
            });
            rows.push_back({"ElementwiseKernel a*x+y, 64M floats", moved / kernelMs / 1e6,
                            "cuMemcpyDtoD, same bytes", moved / copyMs / 1e6, "GB/s", ">= 0.95x"});
            // The same through DeviceArray arithmetic (one fused kernel, allocates its result
            // from the pool).
            DeviceArray<float> warm = 2.0f * x + y;
            const double exprMs =
                bestMs(ctx, kRounds, [&] { DeviceArray<float> r = 2.0f * x + y; });
            rows.push_back({"DeviceArray 2*x + y (fused, pooled result)", moved / exprMs / 1e6,
                            "cuMemcpyDtoD, same bytes", moved / copyMs / 1e6, "GB/s", "info"});
        }

        // 2. Sum over 256M floats vs CUB.
        {
            const std::size_t n = std::size_t{256} << 20;
            DeviceArray<float> a(ctx, {n}, "a");
            a.fill(1.0f / 1024);
            float ours = sum(a); // compile, warm up
            double best = 1e30;
            for (int r = 0; r < kRounds; ++r) {
                const auto t0 = Clock::now();
                ours = sum(a);
                best = std::min(best, seconds(t0, Clock::now()));
            }
            const double bytes = static_cast<double>(n * sizeof(float));
            const double oursGBs = bytes / best / 1e9;
#ifdef WB_BENCH_HAVE_CUB
            DeviceArray<float> out(ctx, {1}, "cub out");
            float cub = 0;
            const double cubSeconds = wbBenchCubSumSeconds(a.ptr(), out.ptr(), n, kRounds, &cub);
            if (cubSeconds <= 0) throw std::runtime_error("the CUB peer failed");
            std::printf("sum: warpbench %.1f, CUB %.1f (exact %.1f)\n", double(ours), double(cub),
                        double(n) / 1024);
            rows.push_back({"sum, 256M floats (with result copy)", oursGBs,
                            "cub::DeviceReduce::Sum", bytes / cubSeconds / 1e9, "GB/s", ">= 0.9x"});
#else
            std::printf("sum: warpbench %.1f (exact %.1f); no CUB peer: this build found no "
                        "CUDA compiler (nvcc)\n",
                        double(ours), double(n) / 1024);
            rows.push_back({"sum, 256M floats (with result copy)", oursGBs, "(CUB peer not built)",
                            0, "GB/s", ">= 0.9x"});
#endif
        }

        // 3. A pooled allocation in steady state vs cuMemAlloc + cuMemFree.
        {
            const std::size_t bytes = std::size_t{1} << 20;
            constexpr int kAllocs = 10000;
            {
                DeviceBuffer warm = DeviceBuffer::pooled(ctx, bytes, "warm");
            }
            auto t0 = Clock::now();
            for (int i = 0; i < kAllocs; ++i) {
                DeviceBuffer b = DeviceBuffer::pooled(ctx, bytes, "pooled");
            }
            const double pooledUs = seconds(t0, Clock::now()) / kAllocs * 1e6;
            t0 = Clock::now();
            for (int i = 0; i < kAllocs; ++i) {
                CUdeviceptr p = 0;
                CU_CHECK(api.cuMemAlloc(&p, bytes), "cuMemAlloc");
                CU_CHECK(api.cuMemFree(p), "cuMemFree");
            }
            const double rawUs = seconds(t0, Clock::now()) / kAllocs * 1e6;
            rows.push_back({"pooled 1 MiB alloc + free, steady state", pooledUs,
                            "cuMemAlloc + cuMemFree", rawUs, "us", "<= 1 us"});
        }

        printTable(rows);
        return 0;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "bench_array: %s\n", e.what());
        return 1;
    }
}
