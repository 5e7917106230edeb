// SPDX-License-Identifier: GPL-3.0-or-later
// bench_debugger: how long the thread debugger (core/debug) takes to stop at the first
// breakpoint of matmul_tiled (issue 18's target: < 1 s on the 2-core machine), printed next to
// a plain CPU-emulator run of the same session measured in the same run (SessionRunner
// in-process: compile cache hit, result launch, timed launch, reference kernel, diff), with the
// ratio. Also: one step over a __syncthreads(), and the all-threads table (a replayed run).
// Medians of --runs N (default 5) after one warm-up of each (which fills the compile caches).
// Usage: bench_debugger [--runs N]
#include "core/common/Error.h"
#include "core/debug/DebugSession.h"
#include "core/debug/GdbMi.h"
#include "core/profiling/Statistics.h"
#include "core/session/ProjectFile.h"
#include "core/session/SessionRunner.h"

#include <QCoreApplication>
#include <QTemporaryDir>

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

struct DebugTimes {
    double prepare = 0, firstStop = 0, total = 0, step = 0, table = 0;
};

// matmul_tiled.cu:23 is the first statement of the tile loop's body (the load of As); 29 the
// barrier after the loads (the blockDim-general kernel of issue 17: with 16x16 threads each
// thread loads one element of each tile).
constexpr int kFirstLine = 23;
constexpr int kBarrierLine = 29;
DebugTimes debugOnce(const session::Session& s, const std::string& condition)
{
    DebugTimes t;
    QTemporaryDir work;
    const auto t0 = Clock::now();
    debug::DebugTarget target = debug::DebugTarget::prepare(s, work.path().toStdString());
    t.prepare = msSince(t0);
    const auto t1 = Clock::now();
    debug::DebugSession d(target);
    d.addBreakpoint({kFirstLine, condition});
    const debug::DebugStop stop = d.start();
    t.firstStop = msSince(t1);
    t.total = msSince(t0);
    if (stop.line != kFirstLine)
        throw Error(Error::Kind::Runtime,
                    "did not stop at line " + std::to_string(kFirstLine) + ": " + stop.message);
    // Over the rest of the loads (their loop headers) to the barrier.
    int line = stop.line;
    for (int i = 0; i < 12 && line != kBarrierLine; ++i)
        line = d.stepOver().line;
    if (line != kBarrierLine)
        throw Error(Error::Kind::Runtime, "did not step to line " + std::to_string(kBarrierLine) +
                                              " (at " + std::to_string(line) + ")");
    const auto t2 = Clock::now();
    const debug::DebugStop after = d.stepOver(); // the __syncthreads() of line 17
    t.step = msSince(t2);
    if (after.phase != 1) throw Error(Error::Kind::Runtime, "the step did not pass the barrier");
    const auto t3 = Clock::now();
    d.allThreads("acc");
    t.table = msSince(t3);
    return t;
}

void row(const char* what, double value, const char* peerName, double peer, const char* reading)
{
    std::printf("| %-62s | %9.1f ms | %-44s | %9.1f ms | %6.2f | %s\n", what, value, peerName, peer,
                peer > 0 ? value / peer : 0.0, reading);
}

} // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    int runs = 5;
    for (int i = 1; i + 1 < argc; ++i)
        if (std::strcmp(argv[i], "--runs") == 0) runs = std::max(1, std::atoi(argv[i + 1]));
    if (const std::string why = debug::GdbMi::unavailableReason(); !why.empty()) {
        std::fprintf(stderr, "bench_debugger: %s\n", why.c_str());
        return 2;
    }
    try {
        const session::Session s = session::ProjectFile::load(
            WB_SOURCE_DIR "/resources/examples/matmul_tiled/matmul_tiled.wbproj");
        session::SessionRunner::Options plain;
        plain.backend = BackendKind::Cpu;
        plain.iterations = 1;
        const std::string first = "";
        const std::string later = "blockIdx.x == 3 && blockIdx.y == 2 && threadIdx.x == 5 && "
                                  "threadIdx.y == 7";
        // Warm-up: fills the compile caches (the -O0 -g3 build and the plain one).
        session::SessionRunner::run(s, plain);
        debugOnce(s, first);
        std::vector<double> plainMs, kernelMs, prep, stop, total, step, table, laterTotal;
        for (int r = 0; r < runs; ++r) {
            const auto t0 = Clock::now();
            const session::RunReport rep = session::SessionRunner::run(s, plain);
            plainMs.push_back(msSince(t0));
            if (rep.status != session::RunReport::Status::Passed)
                throw Error(Error::Kind::Runtime, "the plain run failed: " + rep.message);
            kernelMs.push_back(rep.timing.medianMs);
            const DebugTimes d = debugOnce(s, first);
            prep.push_back(d.prepare);
            stop.push_back(d.firstStop);
            total.push_back(d.total);
            step.push_back(d.step);
            table.push_back(d.table);
            laterTotal.push_back(debugOnce(s, later).total);
        }
        std::printf("Thread debugger benchmark — matmul_tiled (n = 200, 13x13 blocks of 16x16), "
                    "gdb on the CPU emulator's sandbox, medians of %d runs\n\n",
                    runs);
        std::printf("| %-62s | %12s | %-44s | %12s | %6s | reading\n", "measurement", "value",
                    "peer (same run)", "peer", "ratio");
        std::printf("|%s|%s|%s|%s|%s|%s\n", std::string(64, '-').c_str(),
                    std::string(14, '-').c_str(), std::string(46, '-').c_str(),
                    std::string(14, '-').c_str(), std::string(8, '-').c_str(),
                    std::string(20, '-').c_str());
        row("first breakpoint (line 23, block 0 thread 0), click to stop", median(total),
            "plain emulator run of the session", median(plainMs),
            "debugger/plain; target: < 1000 ms");
        row("  of which: prepare (child: load, cached -O0 -g3 build, inputs)", median(prep),
            "plain emulator run of the session", median(plainMs), "");
        row("  of which: gdb start, run to the breakpoint", median(stop),
            "plain emulator run of the session", median(plainMs), "");
        row("first breakpoint in block (3,2), thread (5,7) (conditional)", median(laterTotal),
            "plain emulator run of the session", median(plainMs), "debugger/plain");
        row("step over __syncthreads() (all 256 threads run their phase)", median(step),
            "the kernel's launch (169 blocks), plain run", median(kernelMs), "");
        row("all-threads table of `acc` (replayed run to the stop)", median(table),
            "plain emulator run of the session", median(plainMs), "");
    } catch (const std::exception& e) {
        std::fprintf(stderr, "bench_debugger: %s\n", e.what());
        return 1;
    }
    return 0;
}
