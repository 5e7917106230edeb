// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/session/RunReport.h"

#include "core/session/Pipeline.h"
#include "core/session/ReportFormat.h"
#include "core/session/ReportJson.h"

#include <QJsonDocument>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace wb::session {

namespace {
std::string fmt(const char* f, double v)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, f, v);
    return buf;
}

/// Milliseconds as "12.345 ms", or "3.21 µs" below a millisecond.
std::string timeText(double ms)
{
    return ms < 1.0 ? fmt("%.2f µs", ms * 1e3) : fmt("%.3f ms", ms);
}

std::string dimText(const Dim3& d)
{
    // Appends only: GCC 12 at -O3 warns falsely (-Wrestrict) on "literal" + std::string&&.
    std::string s = "(";
    s.append(std::to_string(d.x)).append(", ").append(std::to_string(d.y)).append(", ");
    s.append(std::to_string(d.z)).append(")");
    return s;
}

std::string launchText(const LaunchConfig& c)
{
    return "grid " + dimText(c.grid) + " block " + dimText(c.block) + " shared " +
           std::to_string(c.sharedBytes) + " B";
}

/// The pipeline lines of the text report: each `launches` entry's count and summed medians,
/// then each launch of a pass (up to kListed of them).
std::string pipelineText(const std::vector<PipelineLaunchTiming>& launches)
{
    constexpr std::size_t kListed = 32;
    struct Entry {
        std::string kernel;
        std::size_t count = 0;
        double medianSumMs = 0;
        const LaunchConfig* first = nullptr;
        bool sameConfig = true;
    };
    std::map<std::size_t, Entry> entries;
    for (const PipelineLaunchTiming& l : launches) {
        Entry& e = entries[l.entry];
        e.kernel = l.kernel;
        ++e.count;
        e.medianSumMs += l.timing.medianMs;
        if (!e.first)
            e.first = &l.config;
        else if (!(l.config.grid == e.first->grid && l.config.block == e.first->block &&
                   l.config.sharedBytes == e.first->sharedBytes))
            e.sameConfig = false;
    }
    std::string o;
    for (const auto& [index, e] : entries)
        o += (o.empty() ? "Pipeline  " : "          ") + std::string("launches[") +
             std::to_string(index) + "] " + e.kernel + " x" + std::to_string(e.count) + "  " +
             (e.sameConfig ? launchText(*e.first) : std::string("geometry varies")) +
             "  medians sum " + timeText(e.medianSumMs) + "\n";
    if (launches.size() > kListed) {
        o += "          (" + std::to_string(launches.size()) +
             " launches per pass; --json lists each)\n";
        return o;
    }
    for (std::size_t i = 0; i < launches.size(); ++i) {
        const PipelineLaunchTiming& l = launches[i];
        const std::string vars = loopValuesText(l.vars);
        o += "          #" + std::to_string(i + 1) + " " + l.kernel +
             (vars.empty() ? "" : " " + vars) + "  " + launchText(l.config) + "  median " +
             timeText(l.timing.medianMs) + "\n";
    }
    return o;
}

std::string diagText(const Diagnostic& d)
{
    std::string s = d.file;
    if (d.line) s.append(":").append(std::to_string(d.line));
    if (d.column) s.append(":").append(std::to_string(d.column));
    return s + ": " + severityName(d.severity) + ": " + d.message;
}

std::string ulpText(std::uint64_t u)
{
    return u == std::numeric_limits<std::uint64_t>::max() ? "inf" : std::to_string(u);
}

std::string conditionsText(const DeviceConditions& c)
{
    if (!c.known()) return "unknown (" + c.source + ")";
    const auto part = [](int v, const char* unit) {
        return v < 0 ? std::string("?") : std::to_string(v) + unit;
    };
    return "SM " + part(c.smClockMHz, " MHz") + ", memory " + part(c.memoryClockMHz, " MHz") +
           ", " + part(c.temperatureC, " °C");
}

} // namespace

int RunReport::exitCode() const noexcept
{
    switch (status) {
    case Status::Passed:
        return 0;
    case Status::Mismatch:
        return 1;
    case Status::CompileError:
        return 2;
    case Status::RuntimeError:
        return 3;
    case Status::Invalid:
        return 4;
    case Status::Unchecked:
        return unwrittenElements() ? 1 : 0;
    }
    return 3;
}

std::uint64_t RunReport::unwrittenElements() const noexcept
{
    std::uint64_t n = 0;
    for (const OutputResult& o : outputs)
        n += o.coverage.checked ? o.coverage.unwritten : 0;
    return n;
}

int RunReport::exitCodeWithFindings() const noexcept
{
    return races.empty() ? exitCode() : std::max(exitCode(), 3);
}

const char* RunReport::statusName() const noexcept
{
    switch (status) {
    case Status::Passed:
        return "pass";
    case Status::Mismatch:
        return "mismatch";
    case Status::CompileError:
        return "compile-error";
    case Status::RuntimeError:
        return "runtime-error";
    case Status::Invalid:
        return "invalid";
    case Status::Unchecked:
        return "unchecked";
    }
    return "runtime-error";
}

std::vector<std::uint8_t> RunReport::unwrittenMask(const std::string& buffer) const
{
    const auto out = std::find_if(outputs.begin(), outputs.end(),
                                  [&](const OutputResult& r) { return r.buffer == buffer; });
    const auto res = results.find(buffer);
    if (out == outputs.end() || !out->coverage.checked || res == results.end()) return {};
    const auto exp = expected.find(buffer);
    return Poison::unwrittenMask(res->second, exp != expected.end() ? &exp->second : nullptr);
}

std::string RunReport::toText() const
{
    std::string o;
    o += "Project   " + (project.empty() ? std::string("(unnamed)") : project) + "\n";
    if (!device.name.empty())
        o += "Device    " + device.name + " [" + backendName(backend) + ", " + device.arch + "]\n";
    if (!compilerVersion.empty() || !diagnostics.empty()) {
        o += "Compile   " + compilerVersion + (target.empty() ? "" : " → " + target) + ", " +
             fmt("%.1f ms", compileMs) + (compiled ? "" : ", FAILED") + "\n";
        for (const Diagnostic& d : diagnostics)
            o += "          " + diagText(d) + "\n";
    }
    if (compiled && !kernel.name.empty()) {
        o += "Kernel    " + kernel.name;
        if (kernel.resources.known)
            o += ": " + std::to_string(kernel.resources.registers) + " registers, " +
                 std::to_string(kernel.resources.spillStoreBytes) + " B spill stores, " +
                 std::to_string(kernel.resources.spillLoadBytes) + " B spill loads, " +
                 std::to_string(kernel.resources.sharedBytes) + " B static shared";
        else
            o += ": registers/spills not reported by this backend";
        o += "\n";
    }
    if (!sandbox.empty()) o += "Sandbox   " + sandbox + "\n";
    if (!referenceDiagnostics.empty()) {
        o += "Reference " + referenceCompiler + "\n";
        for (const Diagnostic& d : referenceDiagnostics)
            o += "          " + diagText(d) + "\n";
    }
    if (!timing.samplesMs.empty() && !pipeline.empty()) {
        o += "Launch    pipeline of " + std::to_string(pipeline.size()) + " launch" +
             (pipeline.size() == 1 ? "" : "es") + " per pass, " + std::to_string(warmup) +
             " warm-up + " + std::to_string(iterations) +
             " timed passes (a pass's time: the sum of its launches')\n";
        o += pipelineText(pipeline);
    } else if (!timing.samplesMs.empty()) {
        o += "Launch    grid " + dimText(launch.grid) + " block " + dimText(launch.block) +
             " shared " + std::to_string(launch.sharedBytes) + " B, " + std::to_string(warmup) +
             " warm-up + " + std::to_string(iterations) + " timed\n";
    }
    if (!timing.samplesMs.empty()) {
        o += "Timing    median " + timeText(timing.medianMs) + "  min " + timeText(timing.minMs) +
             "  mean " + timeText(timing.meanMs) + "  stdev " + timeText(timing.stdevMs) + "\n";
        o += "Bandwidth " + fmt("%.2f GB/s", bandwidthGBs) + " (" + std::to_string(bytesMoved) +
             " B moved)" +
             (peakPercent > 0 ? ", " + fmt("%.1f%%", peakPercent) + " of the device peak " +
                                    fmt("%.0f GB/s", device.peakBandwidthGBs)
                              : ", device peak unknown") +
             "\n";
        if (flopsPerLaunch > 0)
            o += "FLOPs     " + fmt("%.4g", flopsPerLaunch) +
                 (pipeline.empty() ? " per launch" : " per pass") + " (stated), " +
                 fmt("%.2f GFLOP/s", gflops) + "\n";
        if (!speedOfLight.message.empty() || !speedOfLight.peakSource.empty())
            o += std::string(speedOfLight.impossible ? "IMPOSSIBLE " : "Speed of light ") +
                 (speedOfLight.message.empty() ? speedOfLight.peakSource : speedOfLight.message) +
                 "\n";
        if (conditionsBefore.known() || conditionsAfter.known())
            o += "Clocks    before " + conditionsText(conditionsBefore) + "; after " +
                 conditionsText(conditionsAfter) + "\n";
        else
            o += "Clocks    " + conditionsText(conditionsAfter) + "\n";
        if (h2dMs >= 0 && d2hMs >= 0)
            o += "Copies    H2D " + timeText(h2dMs) + " (" + std::to_string(h2dBytes) +
                 " B)  D2H " + timeText(d2hMs) + " (" + std::to_string(d2hBytes) + " B)\n";
    }
    if (!outputs.empty()) {
        o += "Reference " + std::string(referenceKindName(referenceKind)) + "\n";
        char line[256];
        std::snprintf(line, sizeof line, "%-12s %-6s %11s %11s %9s %11s %11s %10s  %s\n", "output",
                      "result", "max abs", "max rel", "max ulp", "mean abs", "rms", "mismatch",
                      "tolerance");
        o += line;
        for (const OutputResult& r : outputs) {
            const std::string unwritten = r.coverage.message(r.buffer);
            if (!r.compared) {
                std::snprintf(line, sizeof line, "%-12s %-6s (no reference for this output)\n",
                              r.buffer.c_str(), "-");
                o += line;
                if (!unwritten.empty()) o += "             " + unwritten + "\n";
                if (r.nan + r.inf)
                    o += "             NaN " + withThousands(r.nan) + ", Inf " +
                         withThousands(r.inf) + " in the result" +
                         (r.coverage.unwritten ? " (besides the unwritten)" : "") + "\n";
                continue;
            }
            const DiffStats& s = r.stats;
            // Integer outputs: max abs is the exact largest |a - b| (their "ULP" distance).
            const auto res = results.find(r.buffer);
            const bool integer = res != results.end() && isInteger(res->second.type());
            char maxAbs[32];
            if (integer)
                std::snprintf(maxAbs, sizeof maxAbs, "%s", std::to_string(s.maxUlp).c_str());
            else
                std::snprintf(maxAbs, sizeof maxAbs, "%.4g", s.maxAbs);
            std::snprintf(line, sizeof line, "%-12s %-6s %11s %11.4g %9s %11.4g %11.4g %10zu  %s\n",
                          r.buffer.c_str(), s.passed() ? "PASS" : "FAIL", maxAbs, s.maxRel,
                          ulpText(s.maxUlp).c_str(), s.meanAbs, s.rms, s.mismatches,
                          toleranceText(r.tolerance).c_str());
            o += line;
            if (s.nanActual + s.nanExpected + s.infActual + s.infExpected)
                o += "             NaN " + std::to_string(s.nanActual) + "/" +
                     std::to_string(s.nanExpected) + ", Inf " + std::to_string(s.infActual) + "/" +
                     std::to_string(s.infExpected) + " (result/reference)\n";
            if (!unwritten.empty()) o += "             " + unwritten + "\n";
            for (const Mismatch& m : s.firstMismatches) {
                std::string c = "[";
                for (std::size_t i = 0; i < m.coordinates.size(); ++i)
                    c += (i ? ", " : "") + std::to_string(m.coordinates[i]);
                c += "]";
                if (!m.actualText.empty()) // integers: exact
                    std::snprintf(line, sizeof line,
                                  "             %-14s got %-14s expected %-14s |diff| %s\n",
                                  c.c_str(), m.actualText.c_str(), m.expectedText.c_str(),
                                  std::to_string(m.ulp).c_str());
                else
                    std::snprintf(line, sizeof line,
                                  "             %-14s got %-14.9g expected %-14.9g |diff| %.4g\n",
                                  c.c_str(), m.actual, m.expected, m.absError);
                o += line;
            }
        }
    }
    if (graded) {
        o += "Checks    every launch started from restored inputs and poisoned outputs" +
             std::string(coldSamples ? ", L2 reset and flushed before each timed launch" : "") +
             " (seed " + std::to_string(checkSeed) + ")\n";
        if (freshTimedInputs)
            o += "Inputs    fresh for every timed launch (new seeds), each checked against the "
                 "reference for its inputs\n";
        else if (!pinnedInputs.empty())
            o += "Inputs    pinned by the project: " + pinnedInputs + "\n";
        for (const LaunchCheck& c : checks)
            o += "          " + c.label + ": " + (c.passed ? "PASS" : "FAIL: " + c.message) + "\n";
    }
    for (const auto& [name, t] : traces) {
        o += "Trace     " + name + ": " + traceText(t) + "\n";
        for (std::size_t i = 0, shown = 0; i < t.count() && shown < 3; ++i)
            if (t.isRace(i)) {
                o += "             race at " + withThousands(i) + ": " +
                     std::to_string(t.writes[i]) + " stores, last by block " +
                     dimText(t.lastBlock(i)) + " thread " + dimText(t.lastThread(i)) + "\n";
                ++shown;
            }
    }
    o += std::string("Result    ") +
         (status == Status::Passed      ? "PASS"
          : status == Status::Mismatch  ? "FAIL"
          : status == Status::Unchecked ? "RAN, NOT CHECKED"
                                        : "ERROR") +
         (message.empty() ? "" : ": " + message) + " (exit " + std::to_string(exitCode()) + ")\n";
    return o;
}

std::string RunReport::findingsText() const
{
    std::string o;
    for (const MemoryFinding& f : memoryFindings)
        o += findingText(f);
    if (!races.empty())
        o += "Races     " + std::to_string(races.size()) + " found (exit " +
             std::to_string(exitCodeWithFindings()) + ")\n";
    for (const RaceFinding& f : races)
        o += raceText(f);
    if (check == CheckMode::Races && races.empty() && exitCode() <= 1) o += "races: none found\n";
    if (check == CheckMode::Races && !raceCrowding.empty())
        o += "note: " + raceCrowdingText(raceCrowding) + "\n";
    return o;
}

std::string RunReport::toJson() const
{
    return QJsonDocument(reportToJson(*this)).toJson(QJsonDocument::Indented).toStdString();
}

} // namespace wb::session
