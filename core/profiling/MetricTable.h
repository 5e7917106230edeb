// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <span>
#include <string>
#include <vector>

namespace wb::profiling {

/// One hardware metric Warpbench knows how to show. The whole table is data: adding a metric
/// is adding a row in MetricTable.cpp.
struct MetricInfo {
    const char* name;        ///< CUPTI / Nsight Compute name: "dram__bytes_read.sum"
    const char* displayName; ///< "DRAM read"
    const char* unit;        ///< "ns", "%", "bytes", "Hz" — as CUPTI evaluates the metric
    const char* hint;        ///< Summary hint for formatting: "duration", "percentage", ...
    double toSummaryScale;   ///< multiply the CUPTI value by this for the Summary (ns → s: 1e-9)
    const char* description;
    bool speedOfLight; ///< part of the default Speed-of-Light set
};

/// Every known metric, Speed-of-Light set first.
std::span<const MetricInfo> metricTable() noexcept;

/// The metric called `name`, or nullptr.
const MetricInfo* findMetric(const std::string& name) noexcept;

/// Names of the Speed-of-Light set (what the Speed-of-Light panel and history record).
std::vector<std::string> speedOfLightMetricNames();

} // namespace wb::profiling
