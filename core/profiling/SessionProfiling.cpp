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

SweepPointOutcome sweepPointOutcome(const session::RunReport& report)
{
    SweepPointOutcome o;
    o.ok = report.status == session::RunReport::Status::Passed ||
           report.status == session::RunReport::Status::Mismatch;
    o.valid = report.status == session::RunReport::Status::Passed;
    o.verdict = report.statusName();
    if (!o.valid && !report.message.empty()) o.verdict += ": " + report.message;
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
