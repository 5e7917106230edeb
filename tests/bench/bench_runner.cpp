// SPDX-License-Identifier: GPL-3.0-or-later
// bench_runner: what isolation costs. Each figure is printed next to its peer measured in the
// same run, with the ratio:
//   - hello_gpu through a warm warpbench-runner vs SessionRunner in-process on a warm backend
//   - a 256 MB output buffer the same way, and its shared-memory legs vs memcpy of 256 MB
//     (medians of the same number of runs on both sides)
//   - --soak N: N consecutive hello_gpu runs on one warm runner; runner VmRSS, device memory
//     (cuMemGetInfo inside the runner) and live wb::cuda handles every N/10 runs.
// Usage: bench_runner [--backend cpu|cuda] [--runs N] [--soak N]
#include "core/backend/Backend.h"
#include "core/common/Error.h"
#include "core/profiling/Statistics.h"
#include "core/runner/RunnerClient.h"
#include "core/session/ProjectFile.h"
#include "core/session/SessionRunner.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

using namespace wb;
using Clock = std::chrono::steady_clock;

namespace {

double msSince(Clock::time_point t0)
{
    return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

double median(const std::vector<double>& v)
{
    return profiling::computeStatistics(v).median;
}

session::Session hello()
{
    return session::ProjectFile::load(WB_SOURCE_DIR
                                      "/resources/examples/hello_gpu/hello_gpu.wbproj");
}

session::Session big(std::size_t elements)
{
    session::Session s;
    s.name = std::string("fill_256MB");
    s.kernelSource = "__global__ void fill(float* out, int n) {\n"
                     "  const int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                     "  if (i < n) out[i] = 0.5f * i; }\n";
    session::ScalarSpec n;
    n.name = std::string("n");
    n.value = std::to_string(elements);
    s.scalars.push_back(n);
    session::BufferSpec out;
    out.name = std::string("out");
    out.shape = {"n"};
    out.role = session::BufferRole::Out;
    s.buffers.push_back(out);
    s.launch.kernel = std::string("fill");
    s.launch.grid = {"ceil(n / 256)"};
    s.launch.block = {"256"};
    s.warmup = 0;
    s.iterations = 1;
    return s;
}

struct Pair {
    double inProcess, runner;
    runner::RunOutcome last;
    /// Medians over the same runs as `runner`: the shared-memory legs of each runner run.
    double transferWriteMs = 0, transferReadMs = 0;
};

Pair compare(const session::Session& s, BackendKind kind, int runs)
{
    auto backend = createBackend(kind);
    session::SessionRunner::Options opt;
    opt.backend = kind;
    opt.reuseBackend = backend.get();
    runner::RunnerClient client;
    runner::RunnerClient::Request req;
    req.session = s;
    req.options.backend = kind;
    req.timeoutMs = 120000;
    // Warm both: compile caches, runner start-up, CUDA context.
    for (int i = 0; i < 2; ++i) {
        const auto rep = session::SessionRunner::run(s, opt);
        if (rep.status != session::RunReport::Status::Passed)
            throw Error(Error::Kind::Runtime, s.name + " in-process: " + rep.message);
        const auto o = client.run(req);
        if (o.report.status != session::RunReport::Status::Passed)
            throw Error(Error::Kind::Runtime, s.name + " through the runner: " + o.report.message);
    }
    std::vector<double> a, b, writeMs, readMs;
    Pair p{};
    for (int i = 0; i < runs; ++i) {
        auto t0 = Clock::now();
        const auto rep = session::SessionRunner::run(s, opt);
        a.push_back(msSince(t0));
        t0 = Clock::now();
        p.last = client.run(req);
        b.push_back(msSince(t0));
        writeMs.push_back(p.last.transferWriteMs);
        readMs.push_back(p.last.transferReadMs);
        if (p.last.report.results != rep.results)
            throw Error(Error::Kind::Internal, "runner and in-process results differ");
    }
    p.inProcess = median(a);
    p.runner = median(b);
    p.transferWriteMs = median(writeMs);
    p.transferReadMs = median(readMs);
    return p;
}

double memcpyMs(std::size_t bytes, int reps)
{
    std::vector<unsigned char> src(bytes, 1);
    std::vector<double> t;
    for (int i = 0; i < reps; ++i) {
        std::vector<unsigned char> dst(bytes); // fresh and zeroed, like a received HostArray
        const auto t0 = Clock::now();
        std::memcpy(dst.data(), src.data(), bytes);
        t.push_back(msSince(t0));
        if (dst[bytes / 2] != 1) std::abort();
    }
    return median(t);
}

int soak(BackendKind kind, int n)
{
    runner::RunnerClient client;
    runner::RunnerClient::Request req;
    req.session = hello();
    req.options.backend = kind;
    std::printf("soak: %d consecutive hello_gpu runs (%s backend) on one warm runner\n", n,
                backendName(kind));
    std::printf("%8s %8s %12s %12s %10s %16s %10s\n", "run", "pid", "VmRSS kB", "heap kB",
                "handles", "device free MB", "ms/run");
    runner::RunnerStats first{};
    runner::RunnerStats last{};
    int failures = 0;
    const int step = std::max(1, n / 10);
    auto t0 = Clock::now();
    for (int i = 1; i <= n; ++i) {
        const auto o = client.run(req);
        if (o.report.status != session::RunReport::Status::Passed) {
            ++failures;
            std::printf("run %d: %s\n", i, o.report.message.c_str());
        }
        if (i == 10 || i % step == 0 || i == n) {
            const double per = msSince(t0) / (i == 10 ? 10 : step);
            t0 = Clock::now();
            last = client.stats(kind, 0);
            if (i == 10) first = last;
            std::printf("%8d %8d %12ld %12ld %10lld %16.1f %10.2f\n", i, static_cast<int>(last.pid),
                        last.vmRssKb, last.heapInUseKb, last.handles,
                        last.deviceFreeBytes < 0
                            ? -1.0
                            : static_cast<double>(last.deviceFreeBytes) / 1048576.0,
                        per);
        }
    }
    std::printf(
        "growth from run 10 to run %d: VmRSS %+ld kB, heap in use %+ld kB, handles %+lld, device "
        "memory used %+.1f MB; same runner throughout: %s; failed runs: %d\n",
        n, last.vmRssKb - first.vmRssKb, last.heapInUseKb - first.heapInUseKb,
        last.handles - first.handles,
        first.deviceFreeBytes < 0
            ? 0.0
            : static_cast<double>(first.deviceFreeBytes - last.deviceFreeBytes) / 1048576.0,
        first.pid == last.pid ? "yes" : "NO", failures);
    return failures == 0 ? 0 : 1;
}

} // namespace

int main(int argc, char** argv)
{
    std::setvbuf(stdout, nullptr, _IOLBF, 0);
    BackendKind kind = cudaUnavailableReason() ? BackendKind::Cpu : BackendKind::Cuda;
    int runs = 30;
    int soakRuns = 0;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--backend" && i + 1 < argc)
            kind = parseBackendKind(argv[++i]).value_or(kind);
        else if (a == "--runs" && i + 1 < argc)
            runs = std::atoi(argv[++i]);
        else if (a == "--soak" && i + 1 < argc)
            soakRuns = std::atoi(argv[++i]);
        else {
            std::fprintf(stderr,
                         "usage: bench_runner [--backend cpu|cuda] [--runs N] [--soak N]\n");
            return 2;
        }
    }
    try {
        if (soakRuns > 0) return soak(kind, soakRuns);
        std::printf("bench_runner: %s backend, %s, median of %d runs each\n", backendName(kind),
                    createBackend(kind)->device().name.c_str(), runs);
        std::printf("%-34s %14s %14s %12s %8s\n", "session", "in-process ms", "runner ms",
                    "added ms", "ratio");
        const Pair h = compare(hello(), kind, runs);
        std::printf("%-34s %14.3f %14.3f %12.3f %8.2f   (target: added < 2 ms)\n", "hello_gpu",
                    h.inProcess, h.runner, h.runner - h.inProcess, h.runner / h.inProcess);
        {
            runner::RunnerClient client;
            client.stats(kind, 0);
            std::vector<double> t;
            for (int i = 0; i < 200; ++i) {
                const auto t0 = Clock::now();
                client.stats(kind, 0);
                t.push_back(msSince(t0));
            }
            std::printf("%-34s %14s %14.3f %12s %8s   (pure protocol round trip)\n",
                        "stats request", "-", median(t), "-", "-");
        }
        const std::size_t elements = std::size_t{64} << 20; // 256 MB of f32
        // Every figure of the transfer table is a median over the same number of runs.
        const int bigRuns = std::max(3, runs / 6);
        const Pair b = compare(big(elements), kind, bigRuns);
        std::printf("%-34s %14.3f %14.3f %12.3f %8.2f\n", "fill 256 MB output", b.inProcess,
                    b.runner, b.runner - b.inProcess, b.runner / b.inProcess);
        const double bytes = static_cast<double>(b.last.transferBytes);
        const double mc = memcpyMs(b.last.transferBytes, bigRuns);
        std::printf("\nshared-memory transfer of %.0f MB vs memcpy into a fresh zeroed buffer; "
                    "medians of %d runs each\n",
                    bytes / 1048576.0, bigRuns);
        std::printf("%-34s %10s %10s %8s\n", "leg", "ms", "GB/s", "ratio");
        std::printf("%-34s %10.2f %10.2f %8s\n", "memcpy (peer)", mc, bytes / (mc * 1e6), "1.00");
        std::printf("%-34s %10.2f %10.2f %8.2f\n", "runner: result -> arena", b.transferWriteMs,
                    bytes / (b.transferWriteMs * 1e6), mc / b.transferWriteMs);
        std::printf("%-34s %10.2f %10.2f %8.2f   (target: >= 0.8)\n", "client: arena -> HostArray",
                    b.transferReadMs, bytes / (b.transferReadMs * 1e6), mc / b.transferReadMs);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "bench_runner: %s\n", e.what());
        return 1;
    }
    return 0;
}
