// SPDX-License-Identifier: GPL-3.0-or-later
// The driver layer's costs, each next to a peer measured in the same run:
//   1. launch overhead: Kernel::launch (checked arguments and shape) vs raw cuLaunchKernel
//   2. the seed's call shape: kernel(Out(dest), In(a), In(b)) with 400 floats, end to end,
//      vs the best hand-written raw-driver equivalent with the API's batching (buffers made
//      once; a and b packed into one pinned buffer, one H2D copy, launch, one D2H copy, sync;
//      target <= 15 us); then each In/Out path beside its own peer: the zero-copy path (mapped
//      pinned memory) vs a hand-written zero-copy call, the device path forced for 400 floats
//      and taken for 64K floats vs that packed raw call
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

double seconds(Clock::time_point a, Clock::time_point b)
{
    return std::chrono::duration<double>(b - a).count();
}

/// Best of `rounds` runs of `fn` (seconds each); runs the two contenders interleaved.
std::pair<double, double> bestOf(int rounds, const std::function<double()>& ours,
                                 const std::function<double()>& peer)
{
    double bestOurs = 1e30, bestPeer = 1e30;
    for (int r = 0; r < rounds; ++r) {
        bestPeer = std::min(bestPeer, peer());
        bestOurs = std::min(bestOurs, ours());
    }
    return {bestOurs, bestPeer};
}

void printTable(const std::vector<Row>& rows)
{
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

int main()
{
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

        // 2. The seed's call shape, end to end, on each In/Out path.
        {
            detail::ContextState& state = *ctx.state();
            const bool zeroCopy = state.canMapHost;
            std::mt19937 rng(1);
            std::normal_distribution<float> normal;
            const std::size_t small = 400, large = std::size_t{64} << 10;
            std::vector<float> a(large), b(large), dest(large), check(large);
            for (float& x : a)
                x = normal(rng);
            for (float& x : b)
                x = normal(rng);
            const std::vector<float> a400(a.begin(), a.begin() + 400),
                b400(b.begin(), b.begin() + 400);
            std::vector<float> dest400(small);
            const int calls = 5000, largeCalls = 500;

            // The peers: the best hand-written raw equivalent of the same work, batched as the
            // API batches it. Buffers are made once (the API pools them too); per call: pack a
            // and b into one pinned staging buffer, ONE host-to-device copy of both, the launch,
            // ONE device-to-host copy of dest, synchronise, unpack dest. Same 256-byte
            // alignment of each argument in one device allocation as Kernel::call.
            const auto aligned = [](std::size_t bytes) { return (bytes + 255) / 256 * 256; };
            const std::size_t maxSlot = aligned(large * sizeof(float));
            DeviceBuffer packed(ctx, 3 * maxSlot, "packed a, b, dest");
            PinnedHostBuffer staging(ctx, 3 * maxSlot, "staging");
            const Stream stream(ctx, false); // blocking, like the API's call stream
            auto* host = static_cast<unsigned char*>(staging.data());
            const unsigned largeBlocks = static_cast<unsigned>(large / 256);
            const long long nLarge = static_cast<long long>(large);
            const auto rawCopies = [&](std::size_t n, int count, bool big) {
                const std::size_t bytes = n * sizeof(float), slot = aligned(bytes);
                CUdeviceptr pa = packed.ptr(), pb = packed.ptr() + slot,
                            pd = packed.ptr() + 2 * slot;
                long long nArg = static_cast<long long>(n);
                void* paramsSmall[] = {&pd, &pa, &pb};
                void* paramsLarge[] = {&pd, &pa, &pb, &nArg};
                const auto t0 = Clock::now();
                for (int i = 0; i < count; ++i) {
                    std::memcpy(host, a.data(), bytes);
                    std::memcpy(host + slot, b.data(), bytes);
                    CU_CHECK(api.cuMemcpyHtoDAsync(pa, host, slot + bytes, stream.handle()),
                             "a and b");
                    if (big)
                        CU_CHECK(api.cuLaunchKernel(multiplyBig.handle(), largeBlocks, 1, 1, 256, 1,
                                                    1, 0, stream.handle(), paramsLarge, nullptr),
                                 "raw launch");
                    else
                        CU_CHECK(api.cuLaunchKernel(multiplyThem.handle(), 1, 1, 1,
                                                    static_cast<unsigned>(n), 1, 1, 0,
                                                    stream.handle(), paramsSmall, nullptr),
                                 "raw launch");
                    CU_CHECK(api.cuMemcpyDtoHAsync(host + 2 * slot, pd, bytes, stream.handle()),
                             "dest");
                    CU_CHECK(api.cuStreamSynchronize(stream.handle()), "sync");
                    std::memcpy(check.data(), host + 2 * slot, bytes);
                }
                return seconds(t0, Clock::now());
            };
            // Zero-copy by hand: the kernel reads and writes mapped pinned memory.
            void* mapped = nullptr;
            CUdeviceptr mappedDevice = 0;
            if (zeroCopy) {
                CU_CHECK(api.cuMemHostAlloc(&mapped, 3 * small * sizeof(float),
                                            CU_MEMHOSTALLOC_PORTABLE | CU_MEMHOSTALLOC_DEVICEMAP),
                         "allocating mapped pinned memory");
                CU_CHECK(api.cuMemHostGetDevicePointer(&mappedDevice, mapped, 0),
                         "mapping pinned memory");
            }
            const std::size_t smallBytes = small * sizeof(float);
            CUdeviceptr md = mappedDevice + 2 * smallBytes, ma = mappedDevice,
                        mb = mappedDevice + smallBytes;
            void* paramsMapped[] = {&md, &ma, &mb};
            const auto rawMapped = [&] {
                auto* m = static_cast<unsigned char*>(mapped);
                const auto t0 = Clock::now();
                for (int i = 0; i < calls; ++i) {
                    std::memcpy(m, a.data(), smallBytes);
                    std::memcpy(m + smallBytes, b.data(), smallBytes);
                    CU_CHECK(api.cuLaunchKernel(multiplyThem.handle(), 1, 1, 1, 400, 1, 1, 0,
                                                stream.handle(), paramsMapped, nullptr),
                             "raw launch");
                    CU_CHECK(api.cuStreamSynchronize(stream.handle()), "sync");
                    std::memcpy(check.data(), m + 2 * smallBytes, smallBytes);
                }
                return seconds(t0, Clock::now());
            };
            const auto seed = [&] {
                const auto t0 = Clock::now();
                for (int i = 0; i < calls; ++i)
                    multiplyThem(Out(dest400), In(a400), In(b400), Block{400, 1, 1}, Grid{1, 1});
                return seconds(t0, Clock::now());
            };
            const auto seedForced = [&] {
                state.zeroCopyLimit.store(0);
                const double t = seed();
                state.zeroCopyLimit.store(detail::kZeroCopyLimit);
                return t;
            };
            const auto big = [&] {
                const auto t0 = Clock::now();
                for (int i = 0; i < largeCalls; ++i)
                    multiplyBig(Out(dest), In(a), In(b), nLarge, Block{256}, Grid{largeBlocks});
                return seconds(t0, Clock::now());
            };
            const auto fail = [&](const char* what, std::size_t n, const std::vector<float>& got) {
                for (std::size_t i = 0; i < n; ++i)
                    if (got[i] != a[i] * b[i]) {
                        std::printf("bench_cuda: %s: wrong result at %zu\n", what, i);
                        return true;
                    }
                return false;
            };

            // Warm up everything, check every contender's result, then measure interleaved.
            seed();
            if (fail("seed call", small, dest400)) return 1;
            seedForced();
            if (fail("seed call, device path", small, dest400)) return 1;
            rawCopies(small, 1, false);
            if (fail("raw copies", small, check)) return 1;
            if (zeroCopy) {
                rawMapped();
                if (fail("raw zero-copy", small, check)) return 1;
            }
            big();
            if (fail("64K call", large, dest)) return 1;
            rawCopies(large, 1, true);
            if (fail("raw copies 64K", large, check)) return 1;

            double bSeed = 1e30, bForced = 1e30, bCopies = 1e30, bMapped = 1e30, bBig = 1e30,
                   bBigRaw = 1e30;
            for (int r = 0; r < 5; ++r) {
                bCopies = std::min(bCopies, rawCopies(small, calls, false));
                bSeed = std::min(bSeed, seed());
                if (zeroCopy) bMapped = std::min(bMapped, rawMapped());
                bForced = std::min(bForced, seedForced());
                bBigRaw = std::min(bBigRaw, rawCopies(large, largeCalls, true));
                bBig = std::min(bBig, big());
            }
            if (mapped) CU_CHECK(api.cuMemFreeHost(mapped), "freeing mapped pinned memory");

            const auto perCall = [](double s, int count) { return s / count * 1e6; };
            rows.push_back({zeroCopy ? "seed call Out/In/In, 400 floats (zero-copy)"
                                     : "seed call Out/In/In, 400 floats (device path)",
                            perCall(bSeed, calls), "raw: packed 1 H2D, 1 D2H",
                            perCall(bCopies, calls), "us", true, "<= 15 us absolute"});
            if (zeroCopy)
                rows.push_back({"  the same, zero-copy path (per call)", perCall(bSeed, calls),
                                "raw mapped pinned, 1 launch", perCall(bMapped, calls), "us", true,
                                "<= 1.10x"});
            rows.push_back({"  the same, device path forced (per call)", perCall(bForced, calls),
                            "raw: packed 1 H2D, 1 D2H", perCall(bCopies, calls), "us", true,
                            "<= 1.10x"});
            rows.push_back({"call Out/In/In, 64K floats (device path)", perCall(bBig, largeCalls),
                            "raw: packed 1 H2D, 1 D2H", perCall(bBigRaw, largeCalls), "us", true,
                            "<= 1.10x"});
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
