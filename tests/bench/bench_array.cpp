// SPDX-License-Identifier: GPL-3.0-or-later
// Generated kernels and the device pool on the GPU, each beside a peer measured in this run:
//   1. ElementwiseKernel z = a*x + y over 64M floats (768 MiB moved) vs cuMemcpyDtoD moving the
//      same bytes (384 MiB copied = 384 read + 384 written); GB/s, target >= 0.95x. The kernel
//      is the library's (the vector path of its _noalias entry point); with --variants also
//      the scalar loop only and the vector path with 1 and 4 packs per trip, for comparison.
//      Each bandwidth figure is the best of 20 samples of 5 calls back to back (the kernels and
//      the copy alike, so the host's gap before the first launch of a sample hardly counts);
//      the library's kernel and the copy also one call per sample, as measured before.
//   2. wb::cuda::sum over 256M floats vs cub::DeviceReduce::Sum (what cupy.sum runs; built with
//      nvcc when CMake found it), each with its result copied back; target >= 0.9x
//   3. a pooled DeviceBuffer (allocate + release, steady state) vs cuMemAlloc + cuMemFree of the
//      same size; target <= 1 us per pooled allocation
// Also prints the device's theoretical DRAM bandwidth (memory clock x bus width x 2) and that
// CuPy is not a peer here. Prints the reason and exits 0 where no GPU is usable.
//
// Usage: bench_array [--variants]
#include "core/array/ArrayMath.h"
#include "core/backend/Backend.h"
#include "core/cuda/CudaError.h"
#include "core/cuda/DevicePool.h"
#include "core/cuda/Event.h"
#include "core/cuda/detail/ContextState.h"
#include "core/cuda/detail/DriverApi.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <exception>
#include <functional>
#include <string>
#include <string_view>
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

/// Best milliseconds per call of `rounds` timed samples of `fn` (events on the legacy default
/// stream), each sample `perSample` calls back to back: with more than one the stream stays
/// busy, so the host's gap between the start event and the first launch is not counted.
double bestMs(const Context& ctx, int rounds, const std::function<void()>& fn, int perSample = 1)
{
    Event start(ctx), stop(ctx);
    double best = 1e30;
    for (int r = 0; r < rounds; ++r) {
        start.record();
        for (int k = 0; k < perSample; ++k)
            fn();
        stop.record();
        stop.synchronize();
        best = std::min(best, Event::elapsedMs(start, stop) / perSample);
    }
    return best;
}

/// The device's theoretical DRAM bandwidth in GB/s (2 transfers per memory clock over the bus),
/// 0 when the driver does not report the memory clock or the bus width.
double theoreticalGBs(const Context& ctx)
{
    const detail::DriverApi& api = detail::driver();
    int clockKHz = 0, busBits = 0;
    if (api.cuDeviceGetAttribute(&clockKHz, CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE,
                                 ctx.state()->device) != CUDA_SUCCESS ||
        api.cuDeviceGetAttribute(&busBits, CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH,
                                 ctx.state()->device) != CUDA_SUCCESS)
        return 0;
    return 2.0 * clockKHz * 1e3 * (busBits / 8.0) / 1e9;
}

} // namespace

int main(int argc, char** argv)
{
    bool variants = false;
    for (int a = 1; a < argc; ++a) {
        const std::string_view arg = argv[a];
        if (arg == "--variants") {
            variants = true;
        } else {
            std::fprintf(stderr,
                         "bench_array: unknown argument '%s'\nusage: bench_array [--variants]\n"
                         "  --variants  also measure the elementwise kernel's scalar loop and its "
                         "vector path with 1 and 4 packs per trip\n",
                         argv[a]);
            return 2;
        }
    }
    if (const auto reason = wb::cudaUnavailableReason()) {
        std::printf("bench_array: no usable GPU, nothing measured: %s\n", reason->c_str());
        return 0;
    }
    try {
        const Context ctx = Context::primary(0);
        const detail::DriverApi& api = detail::driver();
        std::vector<Row> rows;
        constexpr int kRounds = 20;
        const double peak = theoreticalGBs(ctx);
        std::printf("device 0: %s, %d SMs, theoretical DRAM bandwidth %s\n",
                    ctx.state()->deviceName.c_str(), ctx.state()->multiprocessors,
                    peak > 0 ? (std::to_string(static_cast<long long>(peak + 0.5)) +
                                " GB/s (memory clock x bus width x 2, from the driver)")
                                   .c_str()
                             : "unknown (the driver reports no memory clock or bus width)");
        std::printf("CuPy: not measured. This C++ program cannot run CuPy (Python), and the H200 "
                    "machine has no CuPy and no network to install it. The strongest peers "
                    "available run instead: cuMemcpyDtoD of the same bytes (the bandwidth bound "
                    "of an elementwise kernel) and cub::DeviceReduce::Sum (what cupy.sum runs "
                    "underneath).\n");

        // 1. Elementwise a*x + y vs a device-to-device copy of the same bytes.
        {
            const std::size_t n = std::size_t{64} << 20;
            DeviceArray<float> x(ctx, {n}, "x"), y(ctx, {n}, "y"), z(ctx, {n}, "z");
            x.fill(1.0f);
            y.fill(2.0f);
            // The library's kernel, then (--variants) the same with other tunings.
            struct Variant {
                std::string row;
                wb::ElementwiseTuning tuning;
            };
            std::vector<Variant> kernels{{"ElementwiseKernel a*x+y, 64M floats", {}}};
            if (variants) {
                kernels.push_back({"  variant: scalar loop only", {.vectorize = false}});
                kernels.push_back({"  variant: vector path, 1 pack/trip", {.packsPerTrip = 1}});
                kernels.push_back({"  variant: vector path, 4 packs/trip", {.packsPerTrip = 4}});
            }
            // Bandwidth: kPerSample calls per timed sample for the kernels and the copy alike;
            // the library's kernel also one call per sample (the host's launch gap included).
            constexpr int kPerSample = 5;
            std::vector<double> kernelMs;
            double singleMs = 0;
            for (std::size_t k = 0; k < kernels.size(); ++k) {
                const Variant& v = kernels[k];
                const wb::ElementwiseKernel axpy(
                    "float a, const float *x, const float *y, float *z", "z[i] = a*x[i] + y[i]",
                    "axpy", {}, v.tuning);
                std::printf("%s: %s\n", v.row.c_str(),
                            axpy.vectorized()
                                ? ("vector path, " + std::to_string(axpy.elementsPerPack()) +
                                   " floats per 16-byte load, " +
                                   std::to_string(v.tuning.packsPerTrip) + " packs per trip")
                                      .c_str()
                                : "scalar loop (4 floats per thread per trip, 4-byte loads)");
                z.fill(0.0f);
                axpy(2.0f, x, y, z); // compile, load, warm up
                kernelMs.push_back(bestMs(
                    ctx, kRounds, [&] { axpy(2.0f, x, y, z); }, kPerSample));
                if (k == 0) singleMs = bestMs(ctx, kRounds, [&] { axpy(2.0f, x, y, z); });
                const std::vector<float> check = z.download();
                if (std::any_of(check.begin(), check.end(), [](float e) { return e != 4.0f; }))
                    throw std::runtime_error(v.row + ": axpy computed a wrong result");
            }
            if (x.ptr() % 16 != 0 || y.ptr() % 16 != 0 || z.ptr() % 16 != 0)
                std::printf("note: an array is not 16-byte aligned: the vector path did not run\n");
            const std::size_t moved = 3 * n * sizeof(float);
            DeviceBuffer src(ctx, moved / 2, "copy source"), dst(ctx, moved / 2, "copy dest");
            dst.copyFrom(src, moved / 2);
            const auto copy = [&] {
                CU_CHECK(api.cuMemcpyDtoD(dst.ptr(), src.ptr(), moved / 2), "cuMemcpyDtoD");
            };
            const double copyMs = bestMs(ctx, kRounds, copy, kPerSample);
            const double singleCopyMs = bestMs(ctx, kRounds, copy);
            const double copyGBs = moved / copyMs / 1e6;
            for (std::size_t k = 0; k < kernels.size(); ++k) {
                const double gbs = moved / kernelMs[k] / 1e6;
                rows.push_back({kernels[k].row, gbs, "cuMemcpyDtoD, same bytes", copyGBs, "GB/s",
                                k == 0 ? ">= 0.95x" : "info"});
                if (peak > 0)
                    std::printf("%s: %.1f GB/s = %.3f of the theoretical %.1f GB/s\n",
                                kernels[k].row.c_str(), gbs, gbs / peak, peak);
            }
            if (peak > 0)
                std::printf("cuMemcpyDtoD: %.1f GB/s = %.3f of the theoretical %.1f GB/s\n",
                            copyGBs, copyGBs / peak, peak);
            // Placed right after the library's row.
            rows.insert(rows.end() - static_cast<std::ptrdiff_t>(kernels.size() - 1),
                        Row{"  the same, one call per sample", moved / singleMs / 1e6,
                            "cuMemcpyDtoD, one per sample", moved / singleCopyMs / 1e6, "GB/s",
                            "info"});
            // The same through DeviceArray arithmetic (one fused kernel, allocates its result
            // from the pool).
            DeviceArray<float> warm = 2.0f * x + y;
            const double exprMs = bestMs(
                ctx, kRounds, [&] { DeviceArray<float> r = 2.0f * x + y; }, kPerSample);
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
