// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/profiling/ProfileReport.h"
#include "core/profiling/SessionProfiler.h"

#include <QJsonArray>
#include <QJsonObject>

namespace wb::profiling {

/// Lossless JSON for profiles crossing the runner boundary (and `warpbench-cli profile --json`):
/// a ProfileReport (summaries with exact doubles, counter status as state name + message,
/// warnings, device, passes) and the profile request's options. Non-finite values travel as
/// the strings "nan", "inf", "-inf".
class ProfileCodec {
public:
    static QJsonObject toJson(const ProfileReport& report);
    /// Throws wb::Error(Internal) on malformed input (unknown state, missing summary fields).
    static ProfileReport fromJson(const QJsonObject& json);

    /// {"timing": "events"|"cupti", "flushL2", "counters", "replay": "kernel"|"user"}.
    static QJsonObject optionsToJson(const SessionProfileOptions& options);
    /// Missing keys keep their defaults; throws wb::Error(Internal) on unknown names.
    static SessionProfileOptions optionsFromJson(const QJsonObject& json);

    /// PC-sampling hotspots: {"kernel", "totalSamples", "droppedSamples", "samplingPeriodLog2",
    /// "launches", "collectMs", "instructions": [{"function", "pcOffset", "file", "line",
    /// "samples", "stalls": [{"reason", "samples"}]}], "lines": [{"file", "line", "samples",
    /// "stalls"}], "warnings"}.
    static QJsonObject hotspotsToJson(const HotspotReport& hotspots);
    /// Throws wb::Error(Internal) unless every count is a non-negative integer, every line and
    /// instruction's samples are the sum of its stall reasons, lines and instructions hold the
    /// same samples, and the sampling period is 2^5..2^31.
    static HotspotReport hotspotsFromJson(const QJsonObject& json);

    /// The `top` lines as `warpbench-cli profile --hotspots --json` prints them: [{"file", "line",
    /// "samples", "share" (0..1), "topStall", "source" (the line's text from `source`)}].
    static QJsonArray topLinesToJson(const HotspotReport& hotspots, const std::string& source,
                                     std::size_t top = 10);

    static QJsonObject summaryToJson(const Summary& summary);
    static Summary summaryFromJson(const QJsonObject& json);
    /// The state called `name` (profilerStateName's words); throws wb::Error(Internal).
    static ProfilerStatus::State stateFromName(const std::string& name);
};

} // namespace wb::profiling
