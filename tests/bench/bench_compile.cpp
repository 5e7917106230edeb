// SPDX-License-Identifier: GPL-3.0-or-later
// bench_compile — the NVRTC layer against raw NVRTC, measured in the same run:
//   cold compile through wb::cuda::Compiler (cache off) vs raw nvrtcCreateProgram/Compile and the
//   same outputs (log, PTX, CUBIN, lowered name) with Compiler's flags, written out here and
//   checked by comparing the CUBIN and ptxas's resource report (-v) in the log;
//   disk-cache hit in a fresh process (this program re-run as a child) and memory-cache hit.
// Runs without a GPU. Usage: bench_compile [--repeat N]
#include "core/cuda/Compiler.h"
#include "core/cuda/detail/NvrtcApi.h"
#include "core/profiling/Statistics.h"

#include <QCoreApplication>
#include <QProcess>
#include <QTemporaryDir>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;
using wb::CompileOptions;
using wb::CompileResult;
using wb::cuda::Compiler;

// A typical small workbench source: a template, a shared-memory reduction, a toolkit header.
const char* const kSource = R"(#include <cuda_fp16.h>
template <typename T, int BLOCK>
__global__ void __launch_bounds__(BLOCK) reduce(const T* __restrict__ in, T* out, int n)
{
    __shared__ T partial[BLOCK];
    int i = blockIdx.x * BLOCK + threadIdx.x;
    partial[threadIdx.x] = i < n ? in[i] : T(0);
    __syncthreads();
    for (int s = BLOCK / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s) partial[threadIdx.x] += partial[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0) atomicAdd(out, partial[0]);
}
extern "C" __global__ void saxpy(float a, const float* x, float* y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}
extern "C" __global__ void half_scale(__half* v, __half s, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) v[i] = __hmul(v[i], s);
}
)";
const char* const kArch = "sm_90";

double ms(Clock::duration d)
{
    return std::chrono::duration<double, std::milli>(d).count();
}

double median(const std::vector<double>& v)
{
    return wb::profiling::computeStatistics(v).median;
}

CompileOptions benchOptions()
{
    CompileOptions o;
    o.arch = kArch;
    o.nameExpressions = {"reduce<float, 256>"};
    return o;
}

/// What the peer's compile produced, to check that it did the same work as Compiler.
struct RawOutput {
    double ms = 0;
    std::vector<char> cubin;
    std::string log;
};

/// The peer: what a program calling NVRTC directly does for the same source, target and flags,
/// fetching the same outputs Compiler keeps (log, PTX, CUBIN, lowered name).
RawOutput rawNvrtcCompile(const wb::cuda::detail::NvrtcApi& api,
                          const std::vector<std::string>& flags)
{
    RawOutput out;
    const auto t0 = Clock::now();
    nvrtcProgram prog = nullptr;
    api.createProgram(&prog, kSource, "bench.cu", 0, nullptr, nullptr);
    api.addNameExpression(prog, "reduce<float, 256>");
    std::vector<const char*> argv;
    for (const std::string& f : flags)
        argv.push_back(f.c_str());
    const nvrtcResult rc = api.compileProgram(prog, static_cast<int>(argv.size()), argv.data());
    std::size_t size = 0;
    api.getProgramLogSize(prog, &size);
    out.log.resize(size);
    api.getProgramLog(prog, out.log.data());
    size = 0;
    api.getPTXSize(prog, &size);
    std::vector<char> ptx(size);
    api.getPTX(prog, ptx.data());
    size = 0;
    api.getCUBINSize(prog, &size);
    out.cubin.resize(size);
    api.getCUBIN(prog, out.cubin.data());
    const char* lowered = nullptr;
    api.getLoweredName(prog, "reduce<float, 256>", &lowered);
    const bool named = lowered != nullptr;
    api.destroyProgram(&prog);
    out.ms = ms(Clock::now() - t0);
    if (rc != NVRTC_SUCCESS || out.cubin.empty() || ptx.empty() || !named) {
        std::fprintf(stderr, "raw NVRTC compile failed: %s\n", api.errorString(rc).c_str());
        std::exit(1);
    }
    return out;
}

/// The lines of `log` that contain `needle`, sorted (ptxas may report the kernels in another
/// order from run to run); trailing NULs are dropped (NVRTC's log size counts its terminator).
std::vector<std::string> sortedLines(const std::string& log, std::string_view needle = {})
{
    std::vector<std::string> lines;
    std::size_t begin = 0;
    while (begin < log.size()) {
        std::size_t end = log.find('\n', begin);
        if (end == std::string::npos) end = log.size();
        std::string line = log.substr(begin, end - begin);
        while (!line.empty() && line.back() == '\0')
            line.pop_back();
        if (!line.empty() && line.find(needle) != std::string::npos &&
            line.find("Compile time =") == std::string::npos)
            lines.push_back(std::move(line));
        begin = end + 1;
    }
    std::sort(lines.begin(), lines.end());
    return lines;
}

/// Child mode: a fresh process times Compiler creation and its first compile (a disk hit).
int child()
{
    const auto t0 = Clock::now();
    Compiler& c = Compiler::instance();
    const auto t1 = Clock::now();
    const CompileResult r = c.compile(kSource, "bench.cu", benchOptions());
    const auto t2 = Clock::now();
    if (!r.ok || r.cache != CompileResult::Cache::DiskHit) {
        std::fprintf(stderr, "child: expected a disk hit (ok=%d cache=%d)\n", r.ok,
                     static_cast<int>(r.cache));
        return 1;
    }
    std::printf("%.6f %.6f\n", ms(t1 - t0), ms(t2 - t1));
    return 0;
}

} // namespace

int main(int argc, char** argv)
{
    if (argc == 2 && std::string(argv[1]) == "--child-disk-hit") return child();
    int repeat = 9;
    if (argc == 3 && std::string(argv[1]) == "--repeat") repeat = std::max(3, std::atoi(argv[2]));

    QTemporaryDir cacheDir;
    if (qEnvironmentVariableIsEmpty("WARPBENCH_CACHE_DIR"))
        qputenv("WARPBENCH_CACHE_DIR", cacheDir.path().toLocal8Bit());
    QCoreApplication app(argc, argv);

    Compiler& compiler = Compiler::instance();
    if (!compiler.available()) {
        std::fprintf(stderr, "bench_compile: %s\n", compiler.unavailableReason().c_str());
        return 1;
    }
    const auto& nvrtc = wb::cuda::detail::NvrtcApi::get();
    // The flags Compiler passes for benchOptions() (CompileOptions defaults: c++17, ptxas -O3,
    // the toolkit's include dirs, ptxas's resource report), written out as a raw user would.
    std::vector<std::string> rawFlags{std::string("-arch=") + kArch, "-std=c++17",
                                      "--ptxas-options=-O3"};
    for (const std::string& dir : wb::cuda::detail::toolkitIncludeDirs(nvrtc.libraryPath))
        rawFlags.push_back("-I" + dir);
    rawFlags.emplace_back("--ptxas-options=-v");

    // 1. Cold compile: API with the cache off vs raw NVRTC, interleaved, after one warm-up each.
    compiler.setCacheEnabled(false);
    const CompileResult warm = compiler.compile(kSource, "bench.cu", benchOptions());
    if (!warm.ok) {
        std::fprintf(stderr, "bench source failed to compile:\n%s\n", warm.log.c_str());
        return 1;
    }
    // Same flags, same work: every compile of the peer must give Compiler's CUBIN byte for byte
    // (without -v, for one, it differs), and its log holds ptxas's resource report ("Used N
    // registers, ...", there only with --ptxas-options=-v) as Compiler's does.
    const auto sameCubin = [&](const RawOutput& raw) {
        return raw.cubin.size() == warm.binary.size() &&
               std::equal(raw.cubin.begin(), raw.cubin.end(), warm.binary.begin(),
                          [](char x, auto y) { return static_cast<unsigned char>(x) == y; });
    };
    const std::vector<std::string> apiReport = sortedLines(warm.log, "Used ");
    int peerCompiles = 0, peerReports = 0, peerSameLogs = 0;
    const auto checkPeer = [&](const RawOutput& raw) {
        ++peerCompiles;
        if (!sameCubin(raw)) {
            std::fprintf(stderr, "bench_compile: the raw peer's CUBIN differs from Compiler's: its "
                                 "flags differ from Compiler's\n");
            std::exit(1);
        }
        const std::vector<std::string> report = sortedLines(raw.log, "Used ");
        if (!report.empty()) ++peerReports;
        if (report == apiReport && sortedLines(raw.log) == sortedLines(warm.log))
            ++peerSameLogs;
        else if (peerCompiles - peerSameLogs == 1)
            std::printf("note: peer compile %d: its ptxas log differs from Compiler's beyond "
                        "compile times and kernel order (same CUBIN):\n--- Compiler\n%s\n--- "
                        "raw peer\n%s\n---\n",
                        peerCompiles, warm.log.c_str(), raw.log.c_str());
    };
    checkPeer(rawNvrtcCompile(nvrtc, rawFlags));
    std::vector<double> apiMs;
    std::vector<double> rawMs;
    for (int i = 0; i < repeat; ++i) {
        const auto t0 = Clock::now();
        const CompileResult r = compiler.compile(kSource, "bench.cu", benchOptions());
        apiMs.push_back(ms(Clock::now() - t0));
        if (!r.ok || r.kernels.size() != 3) {
            std::fprintf(stderr, "bench_compile: a timed compile failed:\n%s\n", r.log.c_str());
            return 1;
        }
        const RawOutput raw = rawNvrtcCompile(nvrtc, rawFlags);
        rawMs.push_back(raw.ms);
        checkPeer(raw);
    }
    if (apiReport.empty()) {
        std::fprintf(stderr, "bench_compile: no ptxas resource report in Compiler's log: "
                             "--ptxas-options=-v is not in effect\n");
        return 1;
    }
    // Seen on the H200 (2026-12-01, not understood): in some processes NVRTC hands the raw peer
    // an empty log on every compile although -v is passed. Its CUBIN is still Compiler's byte
    // for byte (and -v changes the CUBIN), so the flags are the same; say so and go on.
    if (peerReports == 0)
        std::printf("note: NVRTC returned no ptxas report in any of the raw peer's %d logs; its "
                    "CUBIN equals Compiler's on every compile, so the flags are the same\n\n",
                    peerCompiles);
    compiler.setCacheEnabled(true);

    // 2. Fill the cache (a miss writes the disk entry), then time fresh processes.
    const CompileResult miss = compiler.compile(kSource, "bench.cu", benchOptions());
    if (miss.cache != CompileResult::Cache::Miss) {
        std::fprintf(stderr, "bench_compile: the first cached compile was not a miss (a stale "
                             "cache folder? set WARPBENCH_CACHE_DIR to an empty folder)\n");
        return 1;
    }
    std::vector<double> diskMs;
    std::vector<double> createMs;
    for (int i = 0; i < repeat; ++i) {
        QProcess child;
        child.start(QCoreApplication::applicationFilePath(), {"--child-disk-hit"});
        if (!child.waitForFinished(60000) || child.exitCode() != 0) {
            std::fprintf(stderr, "child failed: %s\n", child.readAllStandardError().constData());
            return 1;
        }
        const QList<QByteArray> fields = child.readAllStandardOutput().trimmed().split(' ');
        if (fields.size() != 2) {
            std::fprintf(stderr, "bench_compile: the child printed no timing\n");
            return 1;
        }
        createMs.push_back(fields[0].toDouble());
        diskMs.push_back(fields[1].toDouble());
    }
    // Same-process disk hit (memory layer cleared), for comparison.
    std::vector<double> diskSameMs;
    for (int i = 0; i < repeat; ++i) {
        compiler.clearMemoryCache();
        const auto t0 = Clock::now();
        const CompileResult r = compiler.compile(kSource, "bench.cu", benchOptions());
        diskSameMs.push_back(ms(Clock::now() - t0));
        if (r.cache != CompileResult::Cache::DiskHit) {
            std::fprintf(stderr, "bench_compile: expected a disk hit\n");
            return 1;
        }
    }

    // 3. Memory hit.
    compiler.compile(kSource, "bench.cu", benchOptions());
    std::vector<double> memMs;
    for (int i = 0; i < 2000; ++i) {
        const auto t0 = Clock::now();
        const CompileResult r = compiler.compile(kSource, "bench.cu", benchOptions());
        memMs.push_back(ms(Clock::now() - t0));
        if (r.cache != CompileResult::Cache::MemoryHit) {
            std::fprintf(stderr, "bench_compile: expected a memory hit\n");
            return 1;
        }
    }

    const double api = median(apiMs);
    const double raw = median(rawMs);
    const double disk = median(diskMs);
    const double mem = median(memMs);
    std::printf("bench_compile — %s, target %s, source %zu bytes (3 kernels, cuda_fp16.h), "
                "PTX %zu bytes, CUBIN %zu bytes; medians of %d runs (memory hit: 2000)\n",
                compiler.version().c_str(), kArch, std::string(kSource).size(), warm.ptx.size(),
                warm.binary.size(), repeat);
    std::printf("raw peer flags:");
    for (const std::string& f : rawFlags)
        std::printf(" %s", f.c_str());
    std::printf("\n(checked on each of the peer's %d compiles: CUBIN equal to Compiler's byte for "
                "byte; ptxas log equal to Compiler's but for compile times and kernel order in %d, "
                "with ptxas's resource report in %d)\n\n",
                peerCompiles, peerSameLogs, peerReports);
    std::printf("%-40s %12s  %-36s %8s  %s\n", "figure", "measured", "peer", "ratio", "target");
    std::printf("%-40s %9.3f ms  %-36s %7.3fx  %s\n", "cold compile (Compiler, cache off)", api,
                ("raw NVRTC " + std::to_string(raw).substr(0, 6) + " ms (measured)").c_str(),
                api / raw, api / raw <= 1.05 ? "<= 1.05x  met" : "<= 1.05x  MISSED");
    std::printf("%-40s %9.3f ms  %-36s %7.3fx  %s\n", "disk hit, fresh process (1st compile)", disk,
                "CuPy 0.39 ms (quoted, not measured)", disk / 0.39,
                disk <= 1.0 ? "<= 1 ms    met" : "<= 1 ms    MISSED");
    std::printf("%-40s %9.3f ms  %-36s %7.3fx  %s\n", "disk hit, same process (memory cleared)",
                median(diskSameMs), "CuPy 0.39 ms (quoted, not measured)",
                median(diskSameMs) / 0.39, "(info)");
    std::printf("%-40s %9.4f ms  %-36s %8s  %s\n", "memory hit", mem, "CuPy 0.02-0.06 ms (quoted)",
                "-", mem <= 0.05 ? "<= 0.05 ms met" : "<= 0.05 ms MISSED");
    std::printf("%-40s %9.3f ms  %-36s %8s  %s\n", "Compiler::instance() in fresh process",
                median(createMs), "(dlopen libnvrtc.so.13)", "-", "(info)");
    std::printf("%-40s %12s  %-36s %8s  %s\n", "reference: PyCUDA cache hit", "-",
                "2.7-6.2 ms (quoted, not measured)", "-", "-");
    std::printf("\ncold compile spread: API min %.3f max %.3f ms; raw min %.3f max %.3f ms\n",
                *std::min_element(apiMs.begin(), apiMs.end()),
                *std::max_element(apiMs.begin(), apiMs.end()),
                *std::min_element(rawMs.begin(), rawMs.end()),
                *std::max_element(rawMs.begin(), rawMs.end()));
    return 0;
}
