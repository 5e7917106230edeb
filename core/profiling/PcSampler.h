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

/// PC sampling enabled on a context (cuptiPCSamplingEnable) for as long as this object lives,
/// or until PcSampler::sample disables it. Measured on the H200 (CUDA 13.0): CUPTI attributes
/// samples only to modules it saw loaded while sampling was enabled, or that were loaded before
/// the first CUPTI use of the process. A module loaded earlier in a process that had used CUPTI
/// before (the counters of an earlier profile in a warm runner, an earlier context at the same
/// address) gets samples counted and no PC records ("not the user's module"). So a profile with
/// hotspots enables sampling before it loads its program (SessionRunner::Options::beforeLoad).
/// Holds the process's PC-sampling lock while enabled. Never throws: status() says why it is
/// not enabled.
class PcSamplingEnable {
public:
    explicit PcSamplingEnable(const cuda::Context& context);
    ~PcSamplingEnable();
    PcSamplingEnable(const PcSamplingEnable&) = delete;
    PcSamplingEnable& operator=(const PcSamplingEnable&) = delete;

    bool enabled() const noexcept { return m_enabled; }
    const ProfilerStatus& status() const noexcept { return m_status; }
    const cuda::Context& context() const noexcept { return m_context; }
    double enableMs() const noexcept { return m_enableMs; } ///< what cuptiPCSamplingEnable took
    void disable() noexcept; ///< cuptiPCSamplingDisable (once); releases the lock

private:
    const cuda::Context& m_context;
    ProfilerStatus m_status;
    bool m_enabled = false;
    bool m_locked = false;
    double m_enableMs = 0;
};

/// CUPTI's PC Sampling API (cupti_pcsampling.h, CUPTI 13) around launches of one kernel, in
/// kernel-serialised mode with start/stop control: enable on the context (or take a
/// PcSamplingEnable made before the program was loaded), read the stall reason names
/// (cuptiPCSamplingGetStallReasons), configure, then start → launch → synchronise → stop → get
/// data for each launch, and disable. Each sampled PC is mapped to its source line with
/// cuptiGetSassToSourceCorrelation on the program's CUBIN (line information needs -lineinfo).
///
/// Degrades like the counters: no driver / no CUPTI / no permission / another profiler become
/// the status, never a crash. Throws only what a launch or synchronisation throws (a kernel
/// fault is the run's fault, not the profiler's).
class PcSampler {
public:
    static ProfilerStatus availability();

    /// Samples launches of `launch` on a blocking stream of its own in `context` (ordered with
    /// the legacy default stream, where Backend::upload copies). `cubin` is the loaded
    /// program's binary and `function` the lowered name of the launched kernel. With
    /// `enabled` (on this context), its sampling is used and disabled at the end; without, the
    /// collection enables sampling itself, which sees the program's module only where
    /// PcSamplingEnable says (else the report warns that CUPTI returned no PC records).
    static PcSamplingResult sample(const cuda::Context& context, const StreamLaunch& launch,
                                   const std::vector<std::uint8_t>& cubin,
                                   const std::string& function,
                                   const PcSamplingOptions& options = {},
                                   PcSamplingEnable* enabled = nullptr);
};

} // namespace wb::profiling
