// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Sessions for the runner tests: one-kernel fault cases and the hello_gpu example.

#include "core/backend/Backend.h"
#include "core/runner/RunnerClient.h"
#include "core/session/ProjectFile.h"
#include "core/session/Session.h"

#include <QStringList>

#include <cstdio>
#include <string>
#include <utility>
#include <vector>

namespace wb::runner::test {

/// A session with one f32 output buffer `out` of `n` elements and optional i32/u64 scalars.
inline session::Session faultSession(const std::string& name, const std::string& source,
                                     BackendKind backend,
                                     std::vector<std::pair<std::string, std::string>> scalars = {},
                                     const std::string& outShape = "64")
{
    session::Session s;
    s.name = name;
    s.kernelSource = source;
    s.backend = backend;
    s.warmup = 0;
    s.iterations = 1;
    for (const auto& [n, v] : scalars) {
        session::ScalarSpec sc;
        sc.name = n;
        sc.type = n == "addr" ? session::ElementType::U64 : session::ElementType::I32;
        sc.value = v;
        s.scalars.push_back(sc);
    }
    session::BufferSpec out;
    out.name = std::string("out");
    out.type = session::ElementType::F32;
    out.shape = {outShape};
    out.role = session::BufferRole::Out;
    s.buffers.push_back(out);
    s.launch.kernel = std::string("k");
    s.launch.grid = {"1"};
    s.launch.block = {"32"};
    return s;
}

/// Data-table scalars written "name=value", as faultSession takes them.
inline std::vector<std::pair<std::string, std::string>> scalarPairs(const QStringList& scalars)
{
    std::vector<std::pair<std::string, std::string>> out;
    for (const QString& s : scalars)
        out.emplace_back(s.section(QLatin1Char('='), 0, 0).toStdString(),
                         s.section(QLatin1Char('='), 1).toStdString());
    return out;
}

inline session::Session helloSession()
{
    return session::ProjectFile::load(WB_SOURCE_DIR
                                      "/resources/examples/hello_gpu/hello_gpu.wbproj");
}

/// The runner built with these tests, started locally.
inline RunnerClient::Config localConfig()
{
    RunnerClient::Config c;
    c.command = {WB_RUNNER_EXE};
    return c;
}

inline RunnerClient::Request request(session::Session s, int timeoutMs = 10000)
{
    RunnerClient::Request r;
    r.session = std::move(s);
    r.timeoutMs = timeoutMs;
    return r;
}

/// hello_gpu on `backend`: the run that must pass after every fault.
inline RunnerClient::Request helloRequest(BackendKind backend)
{
    RunnerClient::Request r = request(helloSession());
    r.options.backend = backend;
    return r;
}

/// One line per outcome (and per memory finding), so the test log shows every message.
inline void print(const char* name, const RunOutcome& o)
{
    std::printf("  [%s] fault=%s elapsed=%.0f ms\n    message: %s\n", name, faultName(o.fault),
                o.elapsedMs, o.report.message.c_str());
    if (o.fault != Fault::None)
        std::printf("    what: %s\n    next: %s\n    runner log: %s\n", o.what.c_str(),
                    o.next.c_str(), o.runnerLog.c_str());
    for (const MemoryFinding& f : o.report.memoryFindings)
        std::printf(
            "    finding: %s kernel=%s %s:%d block (%u,%u,%u) thread (%u,%u,%u) addr 0x%llx: %s\n",
            memoryFindingKindName(f.kind), f.kernel.c_str(), f.file.c_str(), f.line, f.block.x,
            f.block.y, f.block.z, f.thread.x, f.thread.y, f.thread.z,
            static_cast<unsigned long long>(f.address), f.message.c_str());
    std::fflush(stdout);
}

} // namespace wb::runner::test
