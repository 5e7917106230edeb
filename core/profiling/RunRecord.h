// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/backend/Backend.h"
#include "core/common/CompileOptions.h"
#include "core/common/LaunchConfig.h"
#include "core/profiling/Summary.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace wb::profiling {

/// One run as the history keeps it. A plain value, independent of the session types: the
/// caller maps a session result into it (timing, throughput and counter summaries all go
/// into `metrics`).
struct RunRecord {
    std::int64_t id = 0;    ///< assigned by RunHistory::record
    std::string createdAt;  ///< ISO 8601 UTC, e.g. "2026-11-29T18:52:04.123Z"; set by record
    std::string kernel;     ///< "multiply_them"
    std::string backend;    ///< "cuda", "cpu"
    std::string source;     ///< the full source snapshot (empty in list() results)
    std::string sourceHash; ///< SHA-256 hex of `source`; set by record
    CompileOptions options;
    LaunchConfig launch;
    DeviceDescription device;
    std::vector<Summary> metrics; ///< "wb/timing/median", "wb/counter/dram__bytes_read.sum", ...
    std::string
        verdict; ///< the diff against the reference: "pass", "mismatch: ...", "unchecked: ...", ""
    std::string note;
    bool baseline = false; ///< the baseline of its kernel
};

/// A metric in two runs and the change from `before` to `after`.
struct MetricDelta {
    std::string tag;
    std::string name;
    std::string hint;
    std::optional<double> before;
    std::optional<double> after;
    /// (after - before) / |before| × 100, when both exist and before ≠ 0.
    std::optional<double> deltaPercent;
};

/// Pairs the metrics of two runs by tag (order of `before`, then new ones of `after`).
std::vector<MetricDelta> metricDeltas(const std::vector<Summary>& before,
                                      const std::vector<Summary>& after);

/// Two runs side by side: a unified source diff and metric deltas.
struct RunComparison {
    RunRecord before;
    RunRecord after;
    bool sameSource = false;
    std::string sourceDiff; ///< `diff -u` text; empty when the sources are equal
    std::vector<MetricDelta> metrics;
    /// Launch, options, device and verdict changes: "launch: grid … block 128x1x1 → …".
    std::vector<std::string> settingChanges;
};

} // namespace wb::profiling
