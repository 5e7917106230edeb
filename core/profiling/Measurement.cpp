// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/profiling/Measurement.h"

#include "core/common/Error.h"

#include <chrono>
#include <cmath>

namespace wb::profiling {

const char* stopReasonName(StopReason reason) noexcept
{
    switch (reason) {
    case StopReason::NoiseReached:
        return "noise reached";
    case StopReason::NoiseConverged:
        return "noise converged";
    case StopReason::MaxSamples:
        return "max samples";
    case StopReason::MaxTime:
        return "max time";
    case StopReason::Cancelled:
        return "cancelled";
    }
    return "unknown";
}

std::vector<Summary> MeasurementResult::summaries() const
{
    const Statistics& s = statsMs;
    const std::string what = method.empty() ? std::string("time") : method + " time";
    return {
        {"wb/timing/min", "Min", "duration", s.min * 1e-3, "Shortest " + what},
        {"wb/timing/median", "Median", "duration", s.median * 1e-3, "Median " + what},
        {"wb/timing/mean", "Mean", "duration", s.mean * 1e-3, "Mean " + what},
        {"wb/timing/stdev", "Stdev", "duration", s.stdev * 1e-3, "Sample standard deviation"},
        {"wb/timing/noise", "Noise", "percentage", s.relativeNoise * 100.0,
         "Relative noise: stdev / mean"},
        {"wb/timing/p25", "P25", "duration", s.p25 * 1e-3, "First quartile"},
        {"wb/timing/p75", "P75", "duration", s.p75 * 1e-3, "Third quartile"},
        {"wb/timing/samples", "Samples", "sample_size", static_cast<double>(s.count),
         std::string("Samples taken; stopped on ") + stopReasonName(stopReason)},
    };
}

MeasurementResult Measurement::run(const std::function<double()>& sample,
                                   const MeasurementHooks& hooks) const
{
    using Clock = std::chrono::steady_clock;
    const auto start = Clock::now();
    const auto elapsed = [&] {
        return std::chrono::duration<double>(Clock::now() - start).count();
    };
    const auto cancelled = [&] {
        return hooks.cancel && hooks.cancel->load(std::memory_order_relaxed);
    };

    MeasurementResult result;
    for (int i = 0; i < m_options.warmupLaunches; ++i) {
        if (cancelled()) break;
        if (hooks.beforeSample) hooks.beforeSample();
        (void)sample();
        ++result.warmupLaunches;
    }

    RunningStatistics running;
    double measuredS = 0;
    // The last kNoiseWindow relative-noise values (a ring), for the convergence rule.
    std::vector<double> noiseWindow;
    std::size_t noiseNext = 0, noiseSeen = 0;
    const auto noiseSettled = [&] {
        if (m_options.noiseConvergence <= 0 || noiseSeen <= 64 || running.count() % 16 != 0)
            return false;
        const double current =
            noiseWindow[(noiseNext + noiseWindow.size() - 1) % noiseWindow.size()];
        if (!(current > 0)) return false;
        double sum = 0;
        for (const double n : noiseWindow)
            sum += (n - current) * (n - current);
        const double stdev = std::sqrt(sum / static_cast<double>(noiseWindow.size() - 1));
        return stdev / current < m_options.noiseConvergence;
    };
    for (;;) {
        if (cancelled()) {
            result.stopReason = StopReason::Cancelled;
            break;
        }
        if (result.samplesMs.size() >= m_options.maxSamples) {
            result.stopReason = StopReason::MaxSamples;
            break;
        }
        if (elapsed() >= m_options.maxTimeS) {
            result.stopReason = StopReason::MaxTime;
            break;
        }
        if (hooks.beforeSample) hooks.beforeSample();
        const double ms = sample();
        if (!std::isfinite(ms) || ms < 0)
            throw Error(Error::Kind::InvalidArgument,
                        "timing sample " + std::to_string(result.samplesMs.size()) +
                            " is not a valid duration (" + std::to_string(ms) + " ms)");
        result.samplesMs.push_back(ms);
        running.add(ms);
        measuredS += ms * 1e-3;
        if (hooks.progress)
            hooks.progress(
                {result.samplesMs.size(), running.relativeNoise(), measuredS, elapsed()});
        // From the second sample on (nvbench: a single sample's stdev is not finite).
        if (const double noise = running.relativeNoise();
            running.count() >= 2 && std::isfinite(noise)) {
            if (noiseWindow.size() < MeasurementOptions::kNoiseWindow)
                noiseWindow.push_back(noise);
            else
                noiseWindow[noiseNext] = noise;
            noiseNext = (noiseNext + 1) % MeasurementOptions::kNoiseWindow;
            ++noiseSeen;
        }
        if (measuredS < m_options.minTimeS || running.count() < m_options.minSamples) continue;
        if (running.relativeNoise() < m_options.maxRelativeNoise) {
            result.stopReason = StopReason::NoiseReached;
            break;
        }
        if (noiseSettled()) {
            result.stopReason = StopReason::NoiseConverged;
            break;
        }
    }
    result.statsMs = computeStatistics(result.samplesMs);
    result.wallTimeS = elapsed();
    return result;
}

} // namespace wb::profiling
