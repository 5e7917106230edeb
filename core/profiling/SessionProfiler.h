// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/profiling/KernelProfiler.h"
#include "core/profiling/PcSampler.h"
#include "core/profiling/ProfileReport.h"
#include "core/session/SessionRunner.h"

#include <functional>
#include <memory>
#include <optional>

namespace wb::profiling {

/// What a session profile collects (the Profile action's and `warpbench-cli profile`'s options).
struct SessionProfileOptions {
    TimingMethod timing = TimingMethod::CudaEvents; ///< or CUPTI kernel records
    bool flushL2 = true;                            ///< cold L2 before every sample
    bool counters = true;                           ///< Speed-of-Light hardware counters
    /// Kernel replay (CUPTI saves and restores device memory); User replay restores the
    /// session's buffers with ProfileContext::restore before every pass (kernel replay too, if
    /// CUPTI ever asks for a second launch).
    ReplayMode replay = ReplayMode::Kernel;
    /// Noise target, minimum and maximum time. The Profile action is interactive: 20 ms of
    /// measured kernel time before the noise rules may stop it (nvbench's 0.5 s needs 100 000
    /// samples, 3.5 s, for a 4.5 µs kernel on the H200; 20 ms needed 4 288 samples, 0.16 s,
    /// with the same median, and 1 136 for matmul_tiled: docs/BENCHMARKS.md).
    MeasurementOptions measurement = interactiveMeasurement();

    static MeasurementOptions interactiveMeasurement()
    {
        MeasurementOptions m;
        m.minTimeS = 0.02;
        return m;
    }
    /// PC sampling before the timing and counters (ProfileReport::hotspots); the session must
    /// be compiled with -lineinfo for source lines (the runner does so when hotspots are asked
    /// for). Needs install() (or prepare() as SessionRunner::Options::beforeLoad).
    bool hotspots = false;
};

/// Profiles the kernel of a session run: installed as SessionRunner::Options::profile, it runs
/// profileLaunch (cold-L2 timing with CUDA events or CUPTI records, then the Speed-of-Light
/// counters) on the run's own program, arguments and device buffers, on the CUDA backend's
/// default stream through CudaBackend::submit. Before the timing and again before the counters
/// the buffers are restored to the data the result launch started from, so both see the run's
/// own data.
///
/// On another backend the report says that hardware counters and cold-cache timing need the
/// CUDA backend. Profiling problems (no CUPTI, no permission, a driver error in the timing)
/// become the report's status and warnings, never a failed run — except a lost context
/// (Error::Kind::ContextLost), which is rethrown so that the run reports it as the fault it is.
class SessionProfiler {
public:
    explicit SessionProfiler(SessionProfileOptions options = {});

    /// For SessionRunner::Options::profile; refers to this object, which must outlive the run.
    std::function<void(const session::ProfileContext&)> hook();
    /// For SessionRunner::Options::beforeLoad: with hotspots on CUDA, enables PC sampling on
    /// the backend's context before the program is loaded (PcSamplingEnable says why) and
    /// keeps it enabled until the collection (or the end of the run); nothing otherwise.
    std::shared_ptr<void> prepare(Backend& backend);
    /// Sets both hooks of `options` (profile and beforeLoad) to this profiler.
    void install(session::SessionRunner::Options& options);
    /// What the hook does.
    void profile(const session::ProfileContext& context);

    /// Until the hook runs: status Failed, "the run stopped before the kernel was
    /// profiled".
    const ProfileReport& report() const noexcept { return m_report; }
    /// The full result (CUDA only, after a successful profile).
    const std::optional<ProfileResult>& result() const noexcept { return m_result; }
    const SessionProfileOptions& options() const noexcept { return m_options; }

    /// The message for a session that does not run on CUDA.
    static const char* needsCudaMessage() noexcept;

private:
    PcSamplingResult sampleHotspots(const session::ProfileContext& context,
                                    const StreamLaunch& launch);

    SessionProfileOptions m_options;
    PcSamplingEnable* m_enabled = nullptr; ///< prepare()'s, while the run holds it
    ProfileReport m_report;
    std::optional<ProfileResult> m_result;
};

} // namespace wb::profiling
