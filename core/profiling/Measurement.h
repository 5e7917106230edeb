// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/profiling/Statistics.h"
#include "core/profiling/Summary.h"

#include <atomic>
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace wb::profiling {

/// How long to measure, after nvbench's cold measurement (its `stdrel` criterion): warm-up
/// launches first, then samples until, once at least `minTimeS` of *measured* time and
/// `minSamples` samples are in, either the relative noise (stdev / mean) is below
/// `maxRelativeNoise` or the noise itself has stopped changing (a kernel whose noise stays
/// above the target: the relative stdev of the last kNoiseWindow noise values, about the
/// current one, below `noiseConvergence`; checked every 16 samples once more than 64 are
/// in), or until a hard limit is hit.
struct MeasurementOptions {
    int warmupLaunches = 1; ///< untimed launches before the first sample
    double minTimeS = 0.5;  ///< measured time (sum of samples) before noise can stop
    double maxTimeS = 15.0; ///< wall-clock limit for the whole measurement
    std::size_t minSamples = 10;
    std::size_t maxSamples = 100000;
    double maxRelativeNoise = 0.005; ///< 0.5 %
    double noiseConvergence = 0.05;  ///< 5 % (nvbench's); 0: run on until the noise target

    static constexpr std::size_t kNoiseWindow = 512; ///< nvbench's noise tracker
};

enum class StopReason { NoiseReached, NoiseConverged, MaxSamples, MaxTime, Cancelled };
const char* stopReasonName(StopReason reason) noexcept; ///< "noise reached", "noise converged", ...

/// Where a running measurement stands; given to the progress callback after every sample.
struct MeasurementProgress {
    std::size_t samples = 0;
    double relativeNoise = 0; ///< fraction
    double measuredS = 0;     ///< sum of samples so far
    double elapsedS = 0;      ///< wall clock since the start
};

/// Callbacks around the samples. All optional; they run on the measuring thread.
struct MeasurementHooks {
    std::function<void()> beforeSample; ///< untimed work before each sample (e.g. an L2 flush)
    std::function<void(const MeasurementProgress&)> progress;
    const std::atomic<bool>* cancel = nullptr; ///< checked before each sample
};

/// The samples and their statistics (milliseconds).
struct MeasurementResult {
    std::string method; ///< "cuda-event", "cupti-activity", "wall-clock", ...
    std::vector<double> samplesMs;
    Statistics statsMs;
    StopReason stopReason = StopReason::MaxSamples;
    int warmupLaunches = 0;
    double wallTimeS = 0;

    /// Timing as data: tags "wb/timing/{min,median,mean,stdev,p25,p75}" (hint duration, in
    /// seconds), "wb/timing/noise" (hint percentage), "wb/timing/samples" (sample_size).
    std::vector<Summary> summaries() const;
};

/// The backend-neutral measurement loop. `sample` launches the work once and returns its
/// duration in milliseconds (CUDA events, CUPTI records, wall clock: the caller decides).
class Measurement {
public:
    explicit Measurement(MeasurementOptions options = {})
        : m_options(options)
    {
    }
    const MeasurementOptions& options() const noexcept { return m_options; }

    /// Throws wb::Error (InvalidArgument) when a sample is negative or not finite, and lets
    /// any exception from `sample` through. A cancel yields StopReason::Cancelled with the
    /// samples gathered so far.
    MeasurementResult run(const std::function<double()>& sample,
                          const MeasurementHooks& hooks = {}) const;

private:
    MeasurementOptions m_options;
};

} // namespace wb::profiling
