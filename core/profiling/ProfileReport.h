// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/profiling/Hotspots.h"
#include "core/profiling/KernelProfiler.h"
#include "core/profiling/ProfilerStatus.h"
#include "core/profiling/Summary.h"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace wb::profiling {

/// One hardware counter as a table row: the metric's own unit and value (as CUPTI evaluates
/// it, before the Summary scale).
struct CounterRow {
    std::string metric; ///< "dram__bytes_read.sum"
    std::string name;   ///< "DRAM read" (the metric name when not in the metric table)
    double value = 0;
    std::string unit; ///< "bytes", "%", "ns", ... ("" when not in the metric table)
};

/// A profile of a session's kernel as it travels from the runner and is shown (CLI, Profile
/// dock, history): plain data, no CUDA types. Made from a ProfileResult, or says why there is
/// none (`status`).
struct ProfileReport {
    /// Ok when the kernel was profiled; otherwise why not (CPU emulator, run stopped early,
    /// profiling failed). Counter problems alone do not make this fail: see counterStatus.
    ProfilerStatus status;
    std::string device;       ///< "NVIDIA H200"
    std::string timingMethod; ///< "cuda-event", "cupti-activity"
    bool flushL2 = false;     ///< L2 flushed before every sample
    std::string stopReason;   ///< why sampling stopped: "noise reached", "max time", ...
    /// Absent when counters were not asked for.
    std::optional<ProfilerStatus> counterStatus;
    std::string chip;       ///< "GH100"
    std::size_t passes = 0; ///< replay passes the counter set needed
    /// ProfileResult::summaries(): timing, throughput, nominal SM clock, counters.
    std::vector<Summary> summaries;
    std::vector<std::string> warnings; ///< degraded features, in words a user can act on
    /// PC sampling: absent when hotspots were not asked for; otherwise Ok or why not.
    std::optional<ProfilerStatus> hotspotStatus;
    /// Per-instruction and per-line samples (when hotspotStatus is Ok).
    std::optional<HotspotReport> hotspots;

    bool profiled() const noexcept { return status.ok(); }
    /// The counters among the summaries, in their order.
    std::vector<CounterRow> counterRows() const;
    /// What `warpbench-cli profile` prints: device and method, timing, counter status, the
    /// counter table (name, value, unit, metric) and the warnings.
    std::string toText() const;

    static ProfileReport fromResult(const ProfileResult& result, bool flushL2);
    /// A report of no profile, with the reason.
    static ProfileReport notProfiled(ProfilerStatus why);
};

} // namespace wb::profiling
