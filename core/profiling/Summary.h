// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>
#include <vector>

namespace wb::profiling {

/// One figure of a measurement, as data (after nvbench's `summary`): tables, history rows,
/// charts and baselines are all generated from lists of these.
///
/// `tag` is a stable machine key ("wb/timing/median"), `name` the column header ("Median"),
/// `hint` says how to format and compare the value: "duration" (seconds), "percentage"
/// (0..100), "bandwidth" (bytes/s), "flops" (FLOP/s), "frequency" (Hz), "bytes",
/// "sample_size", "ratio" (plain number, relative noise in %), or "" for a plain number.
struct Summary {
    std::string tag;
    std::string name;
    std::string hint;
    double value = 0;
    std::string description; ///< one sentence for tooltips; may be empty

    friend bool operator==(const Summary&, const Summary&) = default;
};

/// The summary with `tag`, or nullptr.
const Summary* findSummary(const std::vector<Summary>& summaries, const std::string& tag) noexcept;

/// Human-readable value for a summary: "12.345 us", "3.21 TB/s", "87.4 %", "1.98 GHz".
std::string formatSummaryValue(const Summary& summary);

/// A plain-text table: one row per list, the columns are the union of tags in order of first
/// appearance; missing cells are "-". `rowLabels` (optional) gives a first column.
std::string formatSummaryTable(const std::vector<std::vector<Summary>>& rows,
                               const std::vector<std::string>& rowLabels = {});

} // namespace wb::profiling
