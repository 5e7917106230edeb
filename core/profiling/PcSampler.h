// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/cuda/Context.h"
#include "core/profiling/CudaTimer.h"
#include "core/profiling/Hotspots.h"
#include "core/profiling/ProfilerStatus.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace wb::profiling {

/// How PC sampling samples a launch.
struct PcSamplingOptions {
    /// One sample per SM every 2^n cycles (CUPTI allows 5..31). 2^8 loses no samples on the
    /// H200 (2^5 drops about three quarters to buffer back-pressure: docs/profiling.md).
    int samplingPeriodLog2 = 8;
    /// Launch again (each launch sampled) until this many samples are in ...
    std::uint64_t targetSamples = 20000;
    int maxLaunches = 20;    ///< ... or this many launches ran ...
    double maxSeconds = 1.0; ///< ... or this much wall time went by (at least one launch runs).
    /// Runs before every launch, e.g. restores the buffers a previous launch changed.
    std::function<void()> beforeLaunch;
};

/// What one PC-sampling collection produced.
struct PcSamplingResult {
    ProfilerStatus status; ///< Ok, or why there are no samples
    HotspotReport report;  ///< per-instruction and per-line samples with stall reasons
};

/// CUPTI's PC Sampling API (cupti_pcsampling.h, CUPTI 13) around launches of one kernel, in
/// kernel-serialised mode with start/stop control: enable on the context, read the stall reason
/// names (cuptiPCSamplingGetStallReasons), configure, then start → launch → synchronise → stop →
/// get data for each launch, and disable. Each sampled PC is mapped to its source line with
/// cuptiGetSassToSourceCorrelation on the program's CUBIN (line information needs -lineinfo).
/// The module may have been loaded before sampling is enabled (checked on the H200).
///
/// Degrades like the counters: no driver / no CUPTI / no permission / another profiler become
/// the status, never a crash. Throws only what a launch or synchronisation throws (a kernel
/// fault is the run's fault, not the profiler's).
class PcSampler {
public:
    static ProfilerStatus availability();

    /// Samples launches of `launch` on a blocking stream of its own in `context` (ordered with
    /// the legacy default stream, where Backend::upload copies). `cubin` is the loaded
    /// program's binary and `function` the lowered name of the launched kernel.
    static PcSamplingResult sample(const cuda::Context& context, const StreamLaunch& launch,
                                   const std::vector<std::uint8_t>& cubin,
                                   const std::string& function,
                                   const PcSamplingOptions& options = {});
};

} // namespace wb::profiling
