// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/profiling/SessionProfiling.h"

#include "core/common/Error.h"
#include "core/profiling/Measurement.h"
#include "core/profiling/Throughput.h"

#include <algorithm>

namespace wb::profiling {

std::vector<Summary> sessionSummaries(const session::RunReport& report)
{
    std::vector<Summary> out;
    if (!report.timing.samplesMs.empty()) {
        MeasurementResult m;
        m.method = "session";
        m.samplesMs = report.timing.samplesMs;
        m.statsMs = computeStatistics(m.samplesMs);
        m.warmupLaunches = report.warmup;
        m.stopReason = StopReason::MaxSamples; // a session runs a fixed number of iterations
        out = m.summaries();
        DevicePeaks peaks;
        peaks.bandwidthBytesPerS = report.device.peakBandwidthGBs * 1e9;
        Workload work;
        if (report.bytesMoved) work.bytes = static_cast<double>(report.bytesMoved);
        for (Summary& s : throughputSummaries(m.statsMs.median * 1e-3, work, peaks))
            out.push_back(std::move(s));
    }
    return out;
}

RunRecord toRunRecord(const session::Session& session, const session::RunReport& report,
                      const std::vector<Summary>& extra)
{
    RunRecord r;
    r.kernel = session.launch.kernel;
    r.backend = backendName(report.backend);
    try {
        r.source = session.loadKernelSource();
    } catch (const Error&) {
        r.source = session.kernelSource; // the file went away: keep what the session holds
    }
    r.options = session.compileOptions;
    r.launch = report.launch;
    r.device = report.device;
    r.metrics = sessionSummaries(report);
    for (const Summary& e : extra) {
        auto same = std::find_if(r.metrics.begin(), r.metrics.end(),
                                 [&e](const Summary& m) { return m.tag == e.tag; });
        if (same != r.metrics.end())
            *same = e;
        else
            r.metrics.push_back(e);
    }
    r.verdict = report.statusName();
    if (report.status != session::RunReport::Status::Passed && !report.message.empty())
        r.verdict += ": " + report.message;
    return r;
}

void applySweepValue(session::Session& session, const SweepParameter& parameter,
                     const std::string& value)
{
    switch (parameter.kind) {
    case SweepParameter::Kind::BlockSize: {
        auto& block = session.launch.block;
        auto& grid = session.launch.grid;
        if (block.empty()) block = {"1"};
        if (grid.empty()) grid = {"1"};
        grid[0] = "ceil((" + grid[0] + ") * (" + block[0] + ") / (" + value + "))";
        block[0] = value;
        return;
    }
    case SweepParameter::Kind::Define: {
        auto& defines = session.compileOptions.defines;
        auto it = std::find_if(defines.begin(), defines.end(),
                               [&](const auto& d) { return d.first == parameter.name; });
        if (it != defines.end())
            it->second = value;
        else
            defines.emplace_back(parameter.name, value);
        return;
    }
    case SweepParameter::Kind::Scalar: {
        for (session::ScalarSpec& s : session.scalars)
            if (s.name == parameter.name) {
                s.value = value;
                return;
            }
        throw Error(Error::Kind::InvalidArgument,
                    "sweep: the session has no scalar '" + parameter.name + "'");
    }
    }
}

std::string findingProblem(const MemoryFinding& f)
{
    const auto dim = [](const Dim3& d) {
        return "(" + std::to_string(d.x) + ", " + std::to_string(d.y) + ", " + std::to_string(d.z) +
               ")";
    };
    std::string s = memoryFindingKindName(f.kind);
    if (!f.file.empty()) s += " at " + f.file + ":" + std::to_string(f.line);
    if (f.located) s += " (block " + dim(f.block) + ", thread " + dim(f.thread) + ")";
    // The access, without the sanitizer's addresses: "write of 4 bytes (heap-buffer-overflow)".
    if (!f.message.empty()) s += ": " + f.message.substr(0, f.message.find(": "));
    return s;
}

SweepPointOutcome sweepPointOutcome(const session::RunReport& report,
                                    const std::vector<MemoryFinding>& findings)
{
    using Status = session::RunReport::Status;
    SweepPointOutcome o;
    o.ok = report.status == Status::Passed || report.status == Status::Mismatch ||
           report.status == Status::Unchecked;
    o.findings = findings;
    for (const MemoryFinding& f : findings)
        o.problems.push_back(findingProblem(f));
    if (o.ok) {
        const auto plural = [](std::size_t n, const char* one, const char* many) {
            return session::withThousands(n) + " " + (n == 1 ? one : many);
        };
        for (const session::OutputResult& out : report.outputs) {
            const std::size_t unwritten = out.coverage.checked ? out.coverage.unwritten : 0;
            const std::size_t mismatches = out.compared ? out.stats.mismatches : 0;
            o.unwritten += unwritten;
            o.mismatches += mismatches;
            if (unwritten)
                o.problems.push_back(
                    plural(unwritten, "never-written element", "never-written elements") + " in '" +
                    out.buffer + "'");
            // An unwritten element holds a NaN, so it is a mismatch too: count the others.
            const std::size_t other = mismatches > unwritten ? mismatches - unwritten : 0;
            if (other)
                o.problems.push_back(plural(other, unwritten ? "other mismatch" : "mismatch",
                                            unwritten ? "other mismatches" : "mismatches") +
                                     " in '" + out.buffer + "'");
        }
    }
    // A point of a session without a reference is valid on its coverage alone ("unchecked").
    o.valid = (report.status == Status::Passed || report.status == Status::Unchecked) &&
              o.problems.empty();
    if (o.valid) {
        o.verdict = report.statusName();
    } else if (!o.problems.empty()) {
        o.verdict = report.status == Status::Mismatch ? "mismatch: " : "invalid: ";
        for (std::size_t i = 0; i < o.problems.size(); ++i)
            o.verdict += (i ? "; " : "") + o.problems[i];
    } else {
        o.verdict = report.statusName();
        if (!report.message.empty()) o.verdict += ": " + report.message;
    }
    o.timeSeconds = report.timing.medianMs * 1e-3;
    o.summaries = sessionSummaries(report);
    return o;
}

SweepPointRunner sessionSweepRunner(session::Session base, session::SessionRunner::Options options)
{
    return [base = std::move(base), options](const SweepParameter& parameter,
                                             const std::string& value) {
        session::Session s = base;
        applySweepValue(s, parameter, value);
        return sweepPointOutcome(session::SessionRunner::run(s, options));
    };
}

} // namespace wb::profiling
