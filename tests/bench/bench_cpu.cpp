// SPDX-License-Identifier: GPL-3.0-or-later
// Benchmarks of the CPU emulator, each printed next to a peer measured in the same run:
//  1. an elementwise kernel over 16M floats vs the same loop compiled natively with -O2
//     (both through the host compiler, so the build type of this program does not matter),
//     on one thread, and the emulator's speed-up from 1 to all worker threads;
//  2. the cost of one thread-barrier (__syncthreads) in fiber mode;
//  3. compile latency of a small kernel, cold and cached, vs a bare host-compiler build.
#include "core/backend/Backend.h"
#include "core/common/DynamicLibrary.h"
#include "core/common/Error.h"
#include "core/cpu/CpuBackend.h"
#include "core/host/HostCompiler.h"

#include <QCoreApplication>
#include <QTemporaryDir>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <thread>
#include <vector>

using namespace wb;

namespace {

struct Row {
    std::string what;
    double value;
    std::string unit;
    std::string peer;
    double peerValue;
    std::string ratioNote; // how to read the ratio, and the target
};

double medianOf(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

double timeMs(const std::function<void()>& fn, int reps)
{
    std::vector<double> t;
    fn(); // warm-up: page faults, caches, library loading
    for (int i = 0; i < reps; ++i) {
        const auto a = std::chrono::steady_clock::now();
        fn();
        t.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - a)
                        .count());
    }
    return medianOf(t);
}

KernelArgValue ptrArg(const std::uint64_t& a)
{
    return {&a, 8, true};
}
template <typename T> KernelArgValue valArg(const T& v)
{
    return {&v, sizeof(T), false};
}

const char* kElementwise = R"(
__global__ void elementwise(const float* __restrict__ x, float* __restrict__ y, float a, float b, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + b;
}
)";

const char* kNative = R"(
extern "C" void native_elementwise(const float* __restrict x, float* __restrict y, float a, float b, int n)
{
    for (int i = 0; i < n; ++i) y[i] = a * x[i] + b;
}
)";

const char* kBarriers = R"(
__global__ void barriers(float* out, int iterations)
{
    __shared__ float s[256];
    const unsigned t = threadIdx.x;
    s[t] = static_cast<float>(t);
    __syncthreads();
    for (int k = 0; k < iterations; ++k) {
        s[t] += s[(t + 1) & 255u];
        __syncthreads();
    }
    if (t == 0) out[blockIdx.x] = s[0];
}
)";

const char* kReduction = R"(
__global__ void reduce(const float* in, float* partial)
{
    __shared__ float s[256];
    const unsigned t = threadIdx.x;
    s[t] = in[blockIdx.x * 256 + t];
    __syncthreads();
    for (unsigned stride = 128; stride > 0; stride >>= 1) {
        if (t < stride) s[t] += s[t + stride];
        __syncthreads();
    }
    if (t == 0) partial[blockIdx.x] = s[0];
}
)";

std::unique_ptr<BackendProgram> build(Backend& backend, const std::string& src,
                                      const std::string& name, int opt)
{
    CompileOptions o;
    o.optLevel = opt;
    const CompileResult r = backend.compile(src, name, o);
    if (!r.ok) throw Error(Error::Kind::Runtime, "compile of " + name + " failed:\n" + r.log);
    return backend.load(r);
}

} // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    QTemporaryDir cache;
    qputenv("WARPBENCH_CACHE_DIR", cache.path().toUtf8());
    const int cores = std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
    std::vector<Row> rows;
    try {
        const auto cxx = HostCompiler::find();
        if (!cxx) throw Error(Error::Kind::Unavailable, HostCompiler::unavailableReason());
        cpu::CpuBackend backend(1);
        std::printf("CPU emulator benchmark — %s, host compiler %s\n\n",
                    backend.device().name.c_str(), cxx->version().c_str());

        // 1. Elementwise, 16M floats.
        const int n = 16 * 1024 * 1024;
        std::vector<float> x(static_cast<std::size_t>(n));
        for (int i = 0; i < n; ++i)
            x[static_cast<std::size_t>(i)] = static_cast<float>(i % 1000) * 0.001f;
        auto program = build(backend, kElementwise, "elementwise.cu", 2);
        auto bx = backend.allocate(x.size() * 4, "x");
        auto by = backend.allocate(x.size() * 4, "y");
        backend.upload(*bx, x.data(), x.size() * 4);
        const std::uint64_t ax = bx->address(), ay = by->address();
        const float a = 1.5f, b = 0.25f;
        const KernelArgValue args[] = {ptrArg(ax), ptrArg(ay), valArg(a), valArg(b), valArg(n)};
        LaunchConfig cfg;
        cfg.grid = {static_cast<unsigned>((n + 255) / 256), 1, 1};
        cfg.block = {256, 1, 1};
        const auto emulated = [&] { backend.launch(*program, "elementwise", cfg, args); };

        HostCompileRequest nreq;
        nreq.sourceName = "native.cpp";
        nreq.source = kNative;
        nreq.flags = {"-O2"};
        const HostCompileResult native = cxx->compileSharedLibrary(nreq);
        if (!native.ok) throw Error(Error::Kind::Runtime, native.log);
        DynamicLibrary nlib = DynamicLibrary::open({native.libraryPath});
        auto nfn =
            nlib.function<void (*)(const float*, float*, float, float, int)>("native_elementwise");
        if (!nfn) throw Error(Error::Kind::Runtime, "native_elementwise missing: " + nlib.error());
        std::vector<float> ny(x.size());
        const double nativeMs = timeMs([&] { nfn(x.data(), ny.data(), a, b, n); }, 7);
        const double emu1Ms = timeMs(emulated, 7);
        std::vector<float> ey(x.size());
        backend.download(*by, ey.data(), ey.size() * 4);
        if (std::memcmp(ey.data(), ny.data(), ey.size() * 4) != 0)
            throw Error(Error::Kind::Runtime, "emulated and native results differ");
        rows.push_back({"elementwise 16M floats, emulated, 1 thread (GB/s)", 134.217728 / emu1Ms,
                        "GB/s", "native -O2 loop, 1 thread", 134.217728 / nativeMs,
                        "emulated/native; target >= 0.5"});
        backend.setThreadCount(2);
        const double emu2Ms = timeMs(emulated, 7);
        rows.push_back({"elementwise 16M floats, emulated, 2 threads (GB/s)", 134.217728 / emu2Ms,
                        "GB/s", "emulated, 1 thread", 134.217728 / emu1Ms,
                        "speed-up on 2 cores; target >= 1.7"});
        // What two cores give native code here, right now: tells whether the machine has them.
        const double native2Ms = timeMs(
            [&] {
                const int half = n / 2;
                std::thread other([&] { nfn(x.data() + half, ny.data() + half, a, b, n - half); });
                nfn(x.data(), ny.data(), a, b, half);
                other.join();
            },
            7);
        rows.push_back({"elementwise 16M floats, native -O2, 2 threads (GB/s)",
                        134.217728 / native2Ms, "GB/s", "native -O2 loop, 1 thread",
                        134.217728 / nativeMs,
                        "what 2 cores give native code on this machine now"});
        if (cores > 2) {
            backend.setThreadCount(cores);
            const double emuNMs = timeMs(emulated, 7);
            rows.push_back(
                {"elementwise 16M floats, emulated, " + std::to_string(cores) + " threads (GB/s)",
                 134.217728 / emuNMs, "GB/s", "emulated, 1 thread", 134.217728 / emu1Ms,
                 "speed-up on all cores"});
        }

        // 2. Barriers: the marginal cost of one thread-barrier, and a whole reduction.
        backend.setThreadCount(1);
        const unsigned blocks = 512, threads = 256;
        auto bprog = build(backend, kBarriers, "barriers.cu", 2);
        auto bout = backend.allocate(blocks * 4, "out");
        const std::uint64_t aout = bout->address();
        LaunchConfig bcfg;
        bcfg.grid = {blocks, 1, 1};
        bcfg.block = {threads, 1, 1};
        const int iters = 64, zero = 0;
        const KernelArgValue withLoop[] = {ptrArg(aout), valArg(iters)};
        const KernelArgValue noLoop[] = {ptrArg(aout), valArg(zero)};
        const double loopMs =
            timeMs([&] { backend.launch(*bprog, "barriers", bcfg, withLoop); }, 5);
        const double baseMs = timeMs([&] { backend.launch(*bprog, "barriers", bcfg, noLoop); }, 5);
        const double threadBarriers = double(blocks) * threads * iters;
        const double perBarrierNs = (loopMs - baseMs) * 1e6 / threadBarriers;
        const double perBarrierAllNs = loopMs * 1e6 / (double(blocks) * threads * (iters + 1));
        rows.push_back({"__syncthreads, marginal cost per thread-barrier, 1 thread", perBarrierNs,
                        "ns", "same kernel, all costs included (fiber setup, loads/stores)",
                        perBarrierAllNs, "marginal/inclusive; target: marginal <= 50 ns"});

        auto rprog = build(backend, kReduction, "reduce.cu", 2);
        const unsigned rblocks = 4096;
        std::vector<float> rin(rblocks * 256, 1.0f);
        auto brin = backend.allocate(rin.size() * 4, "in");
        auto brout = backend.allocate(rblocks * 4, "partial");
        backend.upload(*brin, rin.data(), rin.size() * 4);
        const std::uint64_t arin = brin->address(), arout = brout->address();
        const KernelArgValue rargs[] = {ptrArg(arin), ptrArg(arout)};
        LaunchConfig rcfg;
        rcfg.grid = {rblocks, 1, 1};
        rcfg.block = {256, 1, 1};
        const double reduceMs = timeMs([&] { backend.launch(*rprog, "reduce", rcfg, rargs); }, 5);
        std::vector<float> partial(rblocks);
        backend.download(*brout, partial.data(), rblocks * 4);
        for (float p : partial)
            if (p != 256.0f) throw Error(Error::Kind::Runtime, "reduction result is wrong");
        const double reduceNs = reduceMs * 1e6 / (double(rblocks) * 256 * 9);
        rows.push_back(
            {"shared-memory reduction (256 threads, 9 barriers), per thread-barrier, 1 thread",
             reduceNs, "ns", "marginal barrier cost above", perBarrierNs,
             "whole reduction/barrier alone; target <= 50 ns"});

        // 3. Compile latency.
        const auto stamp =
            std::to_string(std::chrono::steady_clock::now().time_since_epoch().count());
        CompileOptions o; // defaults: -O3
        const CompileResult first =
            backend.compile("// first " + stamp + "\n" + kElementwise, "first.cu", o);
        const std::string small = "// " + stamp + "\n" + kElementwise;
        const CompileResult cold = backend.compile(small, "small.cu", o);
        const CompileResult warm = backend.compile(small, "small.cu", o);
        if (!first.ok || !cold.ok || !warm.ok || warm.cache != CompileResult::Cache::DiskHit)
            throw Error(Error::Kind::Runtime, "compile latency run failed");
        HostCompileRequest bare;
        bare.sourceName = "bare.cpp";
        bare.source = "// " + stamp +
                      "\nextern \"C\" void f(const float* x, float* y, int n) { for (int i = 0; i "
                      "< n; ++i) y[i] = 2 * x[i]; }\n";
        bare.flags = {"-O3"};
        const HostCompileResult bareResult = cxx->compileSharedLibrary(bare);
        rows.push_back({"compile small kernel, first with these flags (builds the prelude PCH)",
                        first.compileMs, "ms", "bare host-compiler build of a C++ loop, -O3",
                        bareResult.compileMs, "emulator/bare"});
        rows.push_back({"compile small kernel, cold (new source, prelude PCH ready)",
                        cold.compileMs, "ms", "bare host-compiler build of a C++ loop, -O3",
                        bareResult.compileMs, "emulator/bare"});
        rows.push_back({"compile small kernel, cached", warm.compileMs, "ms", "cold compile",
                        cold.compileMs, "cached/cold"});
    } catch (const std::exception& e) {
        std::fprintf(stderr, "bench_cpu: %s\n", e.what());
        return 1;
    }

    std::printf("| %-82s | %10s | %-62s | %10s | %7s | %s\n", "measurement", "value",
                "peer (same run)", "peer", "ratio", "reading");
    std::printf("|%s|%s|%s|%s|%s|%s\n", std::string(84, '-').c_str(), std::string(12, '-').c_str(),
                std::string(64, '-').c_str(), std::string(12, '-').c_str(),
                std::string(9, '-').c_str(), std::string(30, '-').c_str());
    for (const Row& r : rows)
        std::printf("| %-82s | %7.2f %-2s | %-62s | %7.2f %-2s | %7.2f | %s\n", r.what.c_str(),
                    r.value, r.unit.c_str(), r.peer.c_str(), r.peerValue, r.unit.c_str(),
                    r.value / r.peerValue, r.ratioNote.c_str());
    return 0;
}
