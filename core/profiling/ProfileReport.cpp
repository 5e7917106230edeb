// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/profiling/ProfileReport.h"

#include "core/profiling/MetricTable.h"
#include "core/profiling/Roofline.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace wb::profiling {

namespace {

constexpr const char* kCounterPrefix = "wb/counter/";

/// Counts (bytes, ns, Hz) in full, other values with 6 significant digits.
std::string plain(double v)
{
    char b[64];
    if (std::isfinite(v) && v == std::floor(v) && std::fabs(v) < 1e15)
        std::snprintf(b, sizeof b, "%.0f", v);
    else
        std::snprintf(b, sizeof b, "%.6g", v);
    return b;
}

std::string padded(const std::string& s, std::size_t width)
{
    return s.size() >= width ? s + " " : s + std::string(width - s.size(), ' ');
}

} // namespace

std::vector<CounterRow> ProfileReport::counterRows() const
{
    std::vector<CounterRow> rows;
    const std::string prefix = kCounterPrefix;
    for (const Summary& s : summaries) {
        if (s.tag.rfind(prefix, 0) != 0 || s.tag == prefix + "passes") continue;
        CounterRow r;
        r.metric = s.tag.substr(prefix.size());
        r.name = s.name;
        r.value = s.value;
        if (const MetricInfo* info = findMetric(r.metric)) {
            r.unit = info->unit;
            if (info->toSummaryScale != 0) r.value = s.value / info->toSummaryScale;
        }
        rows.push_back(std::move(r));
    }
    return rows;
}

std::string ProfileReport::toText() const
{
    std::string out;
    if (!profiled()) {
        out += std::string("Profile   not profiled (") + profilerStateName(status.state) +
               "): " + status.message + "\n";
    } else {
        out += "Profile   " + device + " · " + timingMethod + " timing, " +
               (flushL2 ? "L2 flushed before every sample" : "warm L2 (no flush)") + "\n";
        auto value = [this](const char* tag) {
            const Summary* s = findSummary(summaries, tag);
            return s ? formatSummaryValue(*s) : std::string("-");
        };
        out += "Timing    median " + value("wb/timing/median") + "  min " + value("wb/timing/min") +
               "  mean " + value("wb/timing/mean") + "  noise " + value("wb/timing/noise") + "  (" +
               value("wb/timing/samples") + " samples, " + stopReason + ")\n";
        if (findSummary(summaries, "wb/throughput/bandwidth")) {
            out += "Bandwidth " + value("wb/throughput/bandwidth");
            if (findSummary(summaries, "wb/throughput/bandwidth_peak"))
                out += " (" + value("wb/throughput/bandwidth_peak") + " of peak)";
            out += "\n";
        }
    }
    if (counterStatus) {
        if (counterStatus->ok()) {
            out += "Counters  ok · " + std::to_string(passes) + " pass" +
                   (passes == 1 ? "" : "es") + (chip.empty() ? "" : " · " + chip) + "\n";
        } else {
            out += std::string("Counters  unavailable (") +
                   profilerStateName(counterStatus->state) + "): " + counterStatus->message + "\n";
            if (counterStatus->state == ProfilerStatus::State::InsufficientPrivileges &&
                counterStatus->message.find(counterPermissionHelp()) == std::string::npos)
                out += std::string("          ") + counterPermissionHelp() + "\n";
        }
    } else if (profiled()) {
        out += "Counters  not collected (--no-counters)\n";
    }
    const std::vector<CounterRow> rows = counterRows();
    if (!rows.empty()) {
        std::size_t nameWidth = 7, valueWidth = 5, unitWidth = 4;
        std::vector<std::string> values;
        for (const CounterRow& r : rows) {
            values.push_back(plain(r.value));
            nameWidth = std::max(nameWidth, r.name.size());
            valueWidth = std::max(valueWidth, values.back().size());
            unitWidth = std::max(unitWidth, r.unit.size());
        }
        out += padded("counter", nameWidth + 2) + padded("value", valueWidth + 2) +
               padded("unit", unitWidth + 2) + "metric\n";
        for (std::size_t i = 0; i < rows.size(); ++i)
            out += padded(rows[i].name, nameWidth + 2) + padded(values[i], valueWidth + 2) +
                   padded(rows[i].unit, unitWidth + 2) + rows[i].metric + "\n";
    }
    if (profiled()) {
        if (counterStatus && counterStatus->ok())
            out += rooflineText(summaries);
        else
            out += "Roofline  needs the hardware counters (FLOPs and DRAM bytes); timing and "
                   "bandwidth above are complete without them\n";
    }
    for (const std::string& w : warnings)
        if (!counterStatus || counterStatus->ok() ||
            w.find(counterStatus->message) == std::string::npos)
            out += "warning: " + w + "\n";
    return out;
}

ProfileReport ProfileReport::fromResult(const ProfileResult& result, bool flushL2)
{
    ProfileReport r;
    r.device = result.device.name;
    r.timingMethod = result.timing.method;
    r.flushL2 = flushL2;
    r.stopReason = stopReasonName(result.timing.stopReason);
    if (result.counters) {
        r.counterStatus = result.counters->status;
        r.chip = result.counters->chip;
        r.passes = result.counters->passes;
    }
    r.summaries = result.summaries();
    r.warnings = result.warnings;
    return r;
}

ProfileReport ProfileReport::notProfiled(ProfilerStatus why)
{
    ProfileReport r;
    r.status = std::move(why);
    return r;
}

} // namespace wb::profiling
