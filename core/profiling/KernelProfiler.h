// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/backend/Backend.h"
#include "core/profiling/CudaTimer.h"
#include "core/profiling/Measurement.h"
#include "core/profiling/RangeProfiler.h"
#include "core/profiling/Throughput.h"

#include <cuda.h>

#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace wb::profiling {

/// Times a launch of any backend with the measurement loop: each sample is one
/// Backend::launch (CUDA events on CUDA, wall clock on the CPU emulator). method is
/// "backend-cuda" / "backend-cpu". No L2 flush (the Backend interface has none): use
/// profileLaunch for cold-cache CUDA timing.
MeasurementResult measureBackendLaunch(Backend& backend, BackendProgram& program,
                                       const std::string& kernel, const LaunchConfig& config,
                                       std::span<const KernelArgValue> args,
                                       const MeasurementOptions& options = {},
                                       const MeasurementHooks& hooks = {});

/// What profileLaunch does.
struct ProfileOptions {
    CudaTimingOptions timing;    ///< events by default, cold L2
    bool collectCounters = true; ///< Speed-of-Light counters after the timing
    CounterOptions counters;
    Workload workload; ///< stated bytes/FLOPs per launch (bytes: bound buffers by default)
    /// Runs after the timing and before the counters: e.g. restores the buffers that the
    /// timing launches changed in place, so the counters see the data one launch would.
    std::function<void()> beforeCounters;
};

/// Everything one profiling request produced — plain data for the GUI's panels and the history.
struct ProfileResult {
    CudaDeviceProperties device;
    MeasurementResult timing;
    std::optional<CounterReport> counters; ///< absent when not asked for
    std::vector<std::string> warnings;     ///< degraded features, in words a user can act on
    Workload workload;                     ///< as asked, for the throughput figures

    /// Timing, throughput (from the median), counters, and the nominal and observed SM clock
    /// ("wb/device/sm_clock_nominal", "wb/counter/sm__cycles_elapsed.avg.per_second").
    std::vector<Summary> summaries() const;
};

/// Cold-cache timing of `launch` in `context`, then (if asked) its hardware counters. The
/// launches go to a blocking stream of the profiler's own (a CudaTimer's), given to `launch` as
/// its argument: it is ordered with the legacy default stream, so synchronous uploads made
/// between samples (hooks, beforeCounters) complete before the next launch reads them.
/// When CUPTI timing is asked for but CUPTI cannot trace here, events are used and a warning
/// says why; when counters cannot be read, the result has the counter status and a warning.
/// Throws wb::Error only for driver failures of the timing itself (and for no driver).
ProfileResult profileLaunch(const cuda::Context& context, const StreamLaunch& launch,
                            const ProfileOptions& options = {}, const MeasurementHooks& hooks = {});

} // namespace wb::profiling
