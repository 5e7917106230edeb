// SPDX-License-Identifier: GPL-3.0-or-later
// The driver layer's costs, each next to a peer measured in the same run:
//   1. launch overhead: Kernel::launch (checked arguments and shape) vs raw cuLaunchKernel
//   2. the seed's call shape: kernel(Out(dest), In(a), In(b)) with 400 floats, end to end,
//      vs the same work hand-written on the raw driver API (target <= 15 us)
//   3. pinned H2D / D2H through DeviceBuffer vs raw cuMemcpyHtoD / cuMemcpyDtoH (>= 0.9x)
//   4. a bandwidth-bound kernel's GB/s vs a device-to-device copy and the theoretical peak
// Prints the reason and exits 0 where no GPU is usable.
#include "core/backend/Backend.h"
#include "core/cuda/CudaError.h"
#include "core/cuda/Event.h"
#include "core/cuda/PinnedHostBuffer.h"
#include "core/cuda/SourceModule.h"
#include "core/cuda/detail/DriverApi.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <exception>
#include <functional>
#include <random>
#include <string>
#include <vector>

using namespace wb::cuda;
using Clock = std::chrono::steady_clock;

namespace {

const char* const kSource = R"(
__global__ void multiply_them(float *dest, float *a, float *b)
{
  const int i = threadIdx.x;
  dest[i] = a[i] * b[i];
}

extern "C" __global__ void empty(float* p, int n)
{
    if (n < 0) p[0] = 0.0f;
}

extern "C" __global__ void multiply_big(float* __restrict__ dest, const float* __restrict__ a,
                                        const float* __restrict__ b, long long n)
{
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n;
         i += (long long)gridDim.x * blockDim.x)
        dest[i] = a[i] * b[i];
}
)";

struct Row {
    std::string what;
    double ours = 0;
    std::string peerName;
    double peer = 0;
    std::string unit;
    bool lowerIsBetter = true;
    std::string target;
};

double seconds(Clock::time_point a, Clock::time_point b) {
    return std::chrono::duration<double>(b - a).count();
}

/// Best of `rounds` runs of `fn` (seconds each); runs the two contenders interleaved.
std::pair<double, double> bestOf(int rounds, const std::function<double()>& ours,
                                 const std::function<double()>& peer) {
    double bestOurs = 1e30, bestPeer = 1e30;
    for (int r = 0; r < rounds; ++r) {
        bestPeer = std::min(bestPeer, peer());
        bestOurs = std::min(bestOurs, ours());
    }
    return {bestOurs, bestPeer};
}

void printTable(const std::vector<Row>& rows) {
    std::printf("\n%-44s %12s  %-28s %12s %8s  %s\n", "measurement", "warpbench", "peer", "peer",
                "ratio", "target");
    for (const Row& r : rows) {
        const double ratio = r.peer > 0 ? r.ours / r.peer : 0;
        std::printf("%-44s %9.2f %-3s %-28s %9.2f %-3s %7.3fx  %s\n", r.what.c_str(), r.ours,
                    r.unit.c_str(), r.peerName.c_str(), r.peer, r.unit.c_str(), ratio,
                    r.target.c_str());
    }
}

} // namespace

int main() {
    if (const auto reason = wb::cudaUnavailableReason()) {
        std::printf("bench_cuda: no usable GPU, nothing measured: %s\n", reason->c_str());
        return 0;
    }
    try {
        const Context ctx = Context::primary(0);
        const Device dev = ctx.device();
        const detail::DriverApi& api = detail::driver();
        std::printf("device 0: %s (%s, %d SMs, %.1f GB), driver CUDA %s\n", dev.name().c_str(),
                    dev.arch().c_str(), dev.multiprocessorCount(),
                    static_cast<double>(dev.totalMemory()) / 1e9, Device::driverVersion().c_str());
        std::printf("memory: clock attribute %d kHz, bus %d bits -> theoretical peak %.0f GB/s\n",
                    dev.memoryClockKHz(), dev.memoryBusWidthBits(), dev.peakBandwidthGBs());

        SourceModule mod(ctx, kSource);
        const Kernel emptyKernel = mod.function("empty");
        const Kernel multiplyThem = mod.function("multiply_them");
        const Kernel multiplyBig = mod.function("multiply_big");
        std::vector<Row> rows;

        // 1. Launch overhead.
        {
            DeviceBuffer p(ctx, 256, "p");
            const int n = 1;
            const int launches = 20000;
            const wb::LaunchConfig config{{1, 1, 1}, {32, 1, 1}};
            CUdeviceptr raw = p.ptr();
            int rawN = n;
            void* params[] = {&raw, &rawN};
            const auto ours = [&] {
                const auto t0 = Clock::now();
                for (int i = 0; i < launches; ++i)
                    emptyKernel.launch(config, p, n);
                CU_CHECK(api.cuCtxSynchronize(), "synchronising");
                return seconds(t0, Clock::now());
            };
            const auto peer = [&] {
                const auto t0 = Clock::now();
                for (int i = 0; i < launches; ++i)
                    CU_CHECK(api.cuLaunchKernel(emptyKernel.handle(), 1, 1, 1, 32, 1, 1, 0, nullptr,
                                                params, nullptr),
                             "raw launch");
                CU_CHECK(api.cuCtxSynchronize(), "synchronising");
                return seconds(t0, Clock::now());
            };
            ours();
            peer();
            const auto [o, r] = bestOf(5, ours, peer);
            rows.push_back({"launch, 20000x then sync (per launch)", o / launches * 1e6,
                            "raw cuLaunchKernel", r / launches * 1e6, "us", true, "<= 1.10x"});
        }

        // 2. The seed's call shape, end to end.
        {
            std::mt19937 rng(1);
            std::normal_distribution<float> normal;
            std::vector<float> a(400), b(400), dest(400), check(400);
            for (float& x : a)
                x = normal(rng);
            for (float& x : b)
                x = normal(rng);
            const int calls = 5000;
            const std::size_t bytes = a.size() * sizeof(float);
            // The peer: the same copies and launch written by hand, buffers made once.
            DeviceBuffer dDest(ctx, bytes, "dest"), dA(ctx, bytes, "a"), dB(ctx, bytes, "b");
            PinnedHostBuffer staging(ctx, 3 * bytes, "staging");
            const Stream stream(ctx, false);
            auto* host = static_cast<unsigned char*>(staging.data());
            CUdeviceptr pd = dDest.ptr(), pa = dA.ptr(), pb = dB.ptr();
            void* params[] = {&pd, &pa, &pb};
            const auto ours = [&] {
                const auto t0 = Clock::now();
                for (int i = 0; i < calls; ++i)
                    multiplyThem(Out(dest), In(a), In(b), Block{400, 1, 1}, Grid{1, 1});
                return seconds(t0, Clock::now());
            };
            const auto peer = [&] {
                const auto t0 = Clock::now();
                for (int i = 0; i < calls; ++i) {
                    std::memcpy(host, a.data(), bytes);
                    std::memcpy(host + bytes, b.data(), bytes);
                    CU_CHECK(api.cuMemcpyHtoDAsync(pa, host, bytes, stream.handle()), "a");
                    CU_CHECK(api.cuMemcpyHtoDAsync(pb, host + bytes, bytes, stream.handle()), "b");
                    CU_CHECK(api.cuLaunchKernel(multiplyThem.handle(), 1, 1, 1, 400, 1, 1, 0,
                                                stream.handle(), params, nullptr),
                             "raw launch");
                    CU_CHECK(api.cuMemcpyDtoHAsync(host + 2 * bytes, pd, bytes, stream.handle()),
                             "dest");
                    CU_CHECK(api.cuStreamSynchronize(stream.handle()), "sync");
                    std::memcpy(check.data(), host + 2 * bytes, bytes);
                }
                return seconds(t0, Clock::now());
            };
            ours();
            peer();
            const auto [o, r] = bestOf(5, ours, peer);
            for (std::size_t i = 0; i < dest.size(); ++i)
                if (dest[i] != a[i] * b[i] || check[i] != dest[i]) {
                    std::printf("bench_cuda: wrong result at %zu\n", i);
                    return 1;
                }
            rows.push_back({"seed call Out/In/In, 400 floats (per call)", o / calls * 1e6,
                            "hand-written raw driver", r / calls * 1e6, "us", true,
                            "<= 15 us absolute"});
        }

        // 3. Pinned copies, 256 MB.
        {
            const std::size_t bytes = std::size_t{256} << 20;
            PinnedHostBuffer pinned(ctx, bytes, "pinned");
            std::memset(pinned.data(), 1, bytes);
            DeviceBuffer device(ctx, bytes, "device");
            const auto gbs = [&](double s) { return static_cast<double>(bytes) / s / 1e9; };
            const auto upOurs = [&] {
                const auto t0 = Clock::now();
                device.upload(pinned.data(), bytes);
                return seconds(t0, Clock::now());
            };
            const auto upRaw = [&] {
                const auto t0 = Clock::now();
                CU_CHECK(api.cuMemcpyHtoD(device.ptr(), pinned.data(), bytes), "raw upload");
                return seconds(t0, Clock::now());
            };
            const auto downOurs = [&] {
                const auto t0 = Clock::now();
                device.download(pinned.data(), bytes);
                return seconds(t0, Clock::now());
            };
            const auto downRaw = [&] {
                const auto t0 = Clock::now();
                CU_CHECK(api.cuMemcpyDtoH(pinned.data(), device.ptr(), bytes), "raw download");
                return seconds(t0, Clock::now());
            };
            upOurs();
            upRaw();
            const auto [uo, ur] = bestOf(10, upOurs, upRaw);
            const auto [dO, dr] = bestOf(10, downOurs, downRaw);
            rows.push_back({"pinned H2D 256 MB (DeviceBuffer::upload)", gbs(uo), "raw cuMemcpyHtoD",
                            gbs(ur), "GB/s", false, ">= 0.90x"});
            rows.push_back({"pinned D2H 256 MB (DeviceBuffer::download)", gbs(dO),
                            "raw cuMemcpyDtoH", gbs(dr), "GB/s", false, ">= 0.90x"});
        }

        // 4. A bandwidth-bound kernel: dest = a * b over 64M floats (768 MB moved).
        {
            const long long n = 64ll << 20;
            const std::size_t count = static_cast<std::size_t>(n);
            DeviceArray<float> a(ctx, {count}, "a"), b(ctx, {count}, "b"),
                dest(ctx, {count}, "dest");
            a.fill(1.5f);
            b.fill(2.0f);
            const unsigned blocks = static_cast<unsigned>(dev.multiprocessorCount()) * 8;
            double bestKernelMs = 1e30;
            for (int r = 0; r < 10; ++r)
                bestKernelMs = std::min(
                    bestKernelMs, multiplyBig.timedCall(dest, a, b, n, Block{256}, Grid{blocks}));
            const double kernelGBs =
                3.0 * static_cast<double>(n) * sizeof(float) / (bestKernelMs * 1e6);
            Event start(ctx), stop(ctx);
            double bestCopyMs = 1e30;
            for (int r = 0; r < 10; ++r) {
                start.record();
                dest.buffer().copyFrom(a.buffer(), a.bytes());
                stop.record();
                bestCopyMs = std::min(bestCopyMs, Event::elapsedMs(start, stop));
            }
            const double copyGBs = 2.0 * static_cast<double>(a.bytes()) / (bestCopyMs * 1e6);
            if (dest.download()[12345] != 1.5f) {
                std::printf("bench_cuda: the copy went wrong\n");
                return 1;
            }
            rows.push_back({"elementwise multiply 64M floats", kernelGBs, "cuMemcpyDtoD 256 MB",
                            copyGBs, "GB/s", false, "(device copy)"});
            rows.push_back({"elementwise multiply 64M floats", kernelGBs, "theoretical peak",
                            dev.peakBandwidthGBs(), "GB/s", false, "(fraction of peak)"});
        }

        printTable(rows);
        std::printf("\nratio = warpbench / peer (times for launches and calls: lower is better;"
                    " GB/s: higher is better).\n");
        return 0;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "bench_cuda: %s\n", e.what());
        return 1;
    }
}
