// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/session/RunReport.h"

#include "core/session/Pipeline.h"
#include "core/session/ReportFormat.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QString>

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

std::string toleranceText(const Tolerance& t)
{
    std::string s = t.mode == Tolerance::Mode::Ulp
                        ? "ulp<=" + std::to_string(t.maxUlp)
                        : "atol=" + fmt("%g", t.atol) + " rtol=" + fmt("%g", t.rtol);
    return s + (t.nanEqual ? " nan==nan" : "");
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

QJsonObject conditionsJson(const DeviceConditions& c)
{
    const auto v = [](int x) { return x < 0 ? QJsonValue() : QJsonValue(x); };
    return QJsonObject{{"smClockMHz", v(c.smClockMHz)},
                       {"memoryClockMHz", v(c.memoryClockMHz)},
                       {"temperatureC", v(c.temperatureC)},
                       {"source", QString::fromStdString(c.source)}};
}

QJsonValue num(double v)
{
    if (std::isfinite(v)) return v;
    return QString::fromStdString(std::isnan(v) ? "nan" : (v > 0 ? "inf" : "-inf"));
}

QJsonArray diagJson(const std::vector<Diagnostic>& ds)
{
    QJsonArray a;
    for (const Diagnostic& d : ds)
        a.append(QJsonObject{{"file", QString::fromStdString(d.file)},
                             {"line", d.line},
                             {"column", d.column},
                             {"severity", severityName(d.severity)},
                             {"message", QString::fromStdString(d.message)}});
    return a;
}

std::string traceSummary(const WriteTrace& t)
{
    std::string s = withThousands(t.count() - t.unwritten()) + " of " + withThousands(t.count()) +
                    " elements written";
    const std::size_t multi = t.writtenMoreThanOnce(), races = t.races();
    if (multi) s += ", " + withThousands(multi) + " more than once";
    s += races ? ", " + withThousands(races) + " by several threads non-atomically (race)"
               : ", no races";
    if (t.untraced)
        s += "; " + withThousands(t.untraced) +
             " changed through a raw pointer (not traced: passed to a __device__ function?)";
    return s;
}

QJsonArray dimJson(const Dim3& d)
{
    return QJsonArray{static_cast<double>(d.x), static_cast<double>(d.y), static_cast<double>(d.z)};
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
        o += "Trace     " + name + ": " + traceSummary(t) + "\n";
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
    QJsonObject root;
    root["status"] = statusName();
    root["exitCode"] = exitCodeWithFindings();
    root["message"] = QString::fromStdString(message);
    root["project"] = QString::fromStdString(project);
    root["backend"] = backendName(backend);
    root["device"] = QJsonObject{{"name", QString::fromStdString(device.name)},
                                 {"index", device.index},
                                 {"arch", QString::fromStdString(device.arch)},
                                 {"multiprocessors", device.multiprocessors},
                                 {"totalMemoryBytes", static_cast<double>(device.totalMemoryBytes)},
                                 {"peakBandwidthGBs", device.peakBandwidthGBs},
                                 {"peakFp32Gflops", device.peakFp32Gflops},
                                 {"driverVersion", QString::fromStdString(device.driverVersion)}};
    QJsonObject compile{{"ok", compiled},
                        {"compiler", QString::fromStdString(compilerVersion)},
                        {"target", QString::fromStdString(target)},
                        {"ms", compileMs},
                        {"diagnostics", diagJson(diagnostics)}};
    if (compiled)
        compile["kernel"] = QJsonObject{{"name", QString::fromStdString(kernel.name)},
                                        {"loweredName", QString::fromStdString(kernel.loweredName)},
                                        {"resourcesKnown", kernel.resources.known},
                                        {"registers", kernel.resources.registers},
                                        {"spillStoreBytes", kernel.resources.spillStoreBytes},
                                        {"spillLoadBytes", kernel.resources.spillLoadBytes},
                                        {"staticSharedBytes", kernel.resources.sharedBytes}};
    root["compile"] = compile;
    if (!timing.samplesMs.empty()) {
        root["launch"] = QJsonObject{{"grid", dimJson(launch.grid)},
                                     {"block", dimJson(launch.block)},
                                     {"sharedBytes", static_cast<double>(launch.sharedBytes)},
                                     {"warmup", warmup},
                                     {"iterations", iterations}};
        QJsonArray samples;
        for (double v : timing.samplesMs)
            samples.append(v);
        root["timing"] = QJsonObject{{"medianMs", timing.medianMs},
                                     {"minMs", timing.minMs},
                                     {"meanMs", timing.meanMs},
                                     {"stdevMs", timing.stdevMs},
                                     {"samplesMs", samples}};
        if (!pipeline.empty()) {
            QJsonArray launches;
            for (const PipelineLaunchTiming& l : pipeline) {
                QJsonObject vars;
                for (const auto& [name, value] : l.vars)
                    vars.insert(QString::fromStdString(name), static_cast<qint64>(value));
                launches.append(
                    QJsonObject{{"entry", static_cast<qint64>(l.entry)},
                                {"kernel", QString::fromStdString(l.kernel)},
                                {"vars", vars},
                                {"grid", dimJson(l.config.grid)},
                                {"block", dimJson(l.config.block)},
                                {"sharedBytes", static_cast<double>(l.config.sharedBytes)},
                                {"timing", QJsonObject{{"medianMs", l.timing.medianMs},
                                                       {"minMs", l.timing.minMs},
                                                       {"meanMs", l.timing.meanMs},
                                                       {"stdevMs", l.timing.stdevMs}}}});
            }
            root["pipeline"] = QJsonObject{
                {"launchesPerPass", static_cast<qint64>(pipeline.size())}, {"launches", launches}};
        }
        root["bandwidth"] = QJsonObject{{"bytesMoved", static_cast<double>(bytesMoved)},
                                        {"GBs", bandwidthGBs},
                                        {"percentOfPeak", peakPercent}};
        QJsonObject sol{{"checked", speedOfLight.checked},
                        {"impossible", speedOfLight.impossible},
                        {"achievedGBs", speedOfLight.achievedGBs},
                        {"peakGBs", speedOfLight.peakGBs},
                        {"peakSource", QString::fromStdString(speedOfLight.peakSource)},
                        {"message", QString::fromStdString(speedOfLight.message)}};
        if (flopsPerLaunch > 0) {
            sol["flopsPerLaunch"] = flopsPerLaunch;
            sol["flopsChecked"] = speedOfLight.flopsChecked;
            sol["flopsImpossible"] = speedOfLight.flopsImpossible;
            sol["achievedGflops"] = speedOfLight.achievedGflops;
            sol["peakGflops"] = speedOfLight.peakGflops;
            sol["flopsPeakSource"] = QString::fromStdString(speedOfLight.flopsPeakSource);
        }
        if (speedOfLight.checked || !speedOfLight.peakSource.empty() || flopsPerLaunch > 0)
            root["speedOfLight"] = sol;
        root["conditions"] = QJsonObject{{"before", conditionsJson(conditionsBefore)},
                                         {"after", conditionsJson(conditionsAfter)}};
        if (h2dMs >= 0 && d2hMs >= 0)
            root["transfers"] = QJsonObject{{"h2dMs", h2dMs},
                                            {"h2dBytes", static_cast<double>(h2dBytes)},
                                            {"d2hMs", d2hMs},
                                            {"d2hBytes", static_cast<double>(d2hBytes)}};
    }
    if (!sandbox.empty()) root["sandbox"] = QString::fromStdString(sandbox);
    QJsonObject ref{{"kind", referenceKindName(referenceKind)}};
    if (!referenceCompiler.empty()) ref["compiler"] = QString::fromStdString(referenceCompiler);
    if (!referenceDiagnostics.empty()) ref["diagnostics"] = diagJson(referenceDiagnostics);
    root["reference"] = ref;
    QJsonArray outs;
    for (const OutputResult& r : outputs) {
        QJsonObject o{{"buffer", QString::fromStdString(r.buffer)}, {"compared", r.compared}};
        if (!r.compared) {
            // What is known without a reference (a compared output has them in nan/inf below).
            o["nan"] = QJsonObject{{"result", static_cast<double>(r.nan)}};
            o["inf"] = QJsonObject{{"result", static_cast<double>(r.inf)}};
        }
        if (r.coverage.checked) {
            QJsonObject c{{"total", static_cast<double>(r.coverage.total)},
                          {"unwritten", static_cast<double>(r.coverage.unwritten)},
                          {"ambiguous", static_cast<double>(r.coverage.ambiguous)},
                          {"tailOnly", r.coverage.tailOnly},
                          {"message", QString::fromStdString(r.coverage.message(r.buffer))}};
            if (r.coverage.unwritten) {
                c["firstIndex"] = static_cast<double>(r.coverage.firstUnwritten);
                c["lastIndex"] = static_cast<double>(r.coverage.lastUnwritten);
                c["hint"] = QString::fromStdString(r.coverage.hint);
            }
            o["coverage"] = c;
        }
        if (r.compared) {
            const DiffStats& s = r.stats;
            o["result"] = s.passed() ? "PASS" : "FAIL";
            o["tolerance"] = QString::fromStdString(toleranceText(r.tolerance));
            o["count"] = static_cast<double>(s.count);
            o["maxAbs"] = num(s.maxAbs);
            o["maxRel"] = num(s.maxRel);
            o["maxUlp"] = s.maxUlp == std::numeric_limits<std::uint64_t>::max()
                              ? QJsonValue("inf")
                              : QJsonValue(static_cast<double>(s.maxUlp));
            o["meanAbs"] = num(s.meanAbs);
            o["rms"] = num(s.rms);
            o["mismatches"] = static_cast<double>(s.mismatches);
            o["mismatchFraction"] = s.mismatchFraction;
            o["nan"] = QJsonObject{{"result", static_cast<double>(s.nanActual)},
                                   {"reference", static_cast<double>(s.nanExpected)}};
            o["inf"] = QJsonObject{{"result", static_cast<double>(s.infActual)},
                                   {"reference", static_cast<double>(s.infExpected)}};
            QJsonArray first;
            for (const Mismatch& m : s.firstMismatches) {
                QJsonArray c;
                for (std::size_t x : m.coordinates)
                    c.append(static_cast<double>(x));
                QJsonObject mo{{"index", static_cast<double>(m.index)},
                               {"coordinates", c},
                               {"actual", num(m.actual)},
                               {"expected", num(m.expected)},
                               {"absError", num(m.absError)}};
                if (!m.actualText.empty()) { // integers: exact decimal text
                    mo["actualExact"] = QString::fromStdString(m.actualText);
                    mo["expectedExact"] = QString::fromStdString(m.expectedText);
                    mo["absErrorExact"] = QString::fromStdString(std::to_string(m.ulp));
                }
                first.append(mo);
            }
            o["firstMismatches"] = first;
            QJsonArray hist;
            for (int i = 0; i < DiffStats::kHistogramBins; ++i) {
                const auto c = s.histogram.at(static_cast<std::size_t>(i));
                if (c)
                    hist.append(QJsonObject{{"lowerEdge", DiffStats::binLowerEdge(i)},
                                            {"count", static_cast<double>(c)}});
            }
            o["histogram"] = hist;
        }
        outs.append(o);
    }
    root["outputs"] = outs;
    if (graded) {
        QJsonArray cs;
        for (const LaunchCheck& c : checks)
            cs.append(QJsonObject{{"label", QString::fromStdString(c.label)},
                                  {"launch", c.launch},
                                  {"passed", c.passed},
                                  {"mismatches", static_cast<double>(c.mismatches)},
                                  {"unwritten", static_cast<double>(c.unwritten)},
                                  {"nanWhereFinite", static_cast<double>(c.nanWhereFinite)},
                                  {"message", QString::fromStdString(c.message)}});
        root["grade"] = QJsonObject{{"coldSamples", coldSamples},
                                    {"freshInputs", freshInputs},
                                    {"freshTimedInputs", freshTimedInputs},
                                    {"pinnedInputs", QString::fromStdString(pinnedInputs)},
                                    {"seed", QString::number(checkSeed)},
                                    {"checks", cs}};
    }
    if (!traces.empty()) {
        QJsonObject tr;
        for (const auto& [name, t] : traces) {
            std::size_t atomicOnly = 0;
            for (std::size_t i = 0; i < t.count(); ++i)
                atomicOnly += t.isAtomic(i) ? 1 : 0;
            QJsonArray races;
            for (std::size_t i = 0; i < t.count() && races.size() < 16; ++i)
                if (t.isRace(i)) {
                    const Dim3 b = t.lastBlock(i), th = t.lastThread(i);
                    races.append(QJsonObject{{"index", static_cast<double>(i)},
                                             {"writes", static_cast<double>(t.writes[i])},
                                             {"lastBlock", dimJson(b)},
                                             {"lastThread", dimJson(th)}});
                }
            tr[QString::fromStdString(name)] =
                QJsonObject{{"elements", static_cast<double>(t.count())},
                            {"unwritten", static_cast<double>(t.unwritten())},
                            {"writtenMoreThanOnce", static_cast<double>(t.writtenMoreThanOnce())},
                            {"races", static_cast<double>(t.races())},
                            {"atomicOnly", static_cast<double>(atomicOnly)},
                            {"untraced", static_cast<double>(t.untraced)},
                            {"firstRaces", races},
                            {"summary", QString::fromStdString(traceSummary(t))}};
        }
        root["trace"] = tr;
    }
    // What the kernel printed and what the checks found (ReportFormat.h).
    root["kernelOutput"] = QString::fromStdString(kernelOutput);
    QJsonArray findings;
    for (const MemoryFinding& f : memoryFindings)
        findings.append(findingJson(f));
    root["findings"] = findings;
    if (check == CheckMode::Races) {
        QJsonArray raceList;
        for (const RaceFinding& f : races)
            raceList.append(raceJson(f));
        root["races"] = raceList;
        // Words with more accessors than the detector compares: [{location, memory, words}],
        // their total, and the note the text report prints.
        QJsonArray crowding;
        std::uint64_t crowdedWords = 0;
        for (const RaceCrowding& c : raceCrowding) {
            crowding.append(crowdingJson(c));
            crowdedWords += c.words;
        }
        root["raceCrowding"] = crowding;
        root["raceCrowdedWords"] = static_cast<double>(crowdedWords);
        if (crowdedWords)
            root["raceCrowdingNote"] = QString::fromStdString(raceCrowdingText(raceCrowding));
    }
    return QJsonDocument(root).toJson(QJsonDocument::Indented).toStdString();
}

} // namespace wb::session
