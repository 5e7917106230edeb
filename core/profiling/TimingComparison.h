// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstddef>
#include <span>
#include <string>

namespace wb::profiling {

/// What two timing distributions say about each other.
enum class TimingVerdict { Faster, Slower, Same, TooFewSamples };
const char* timingVerdictName(TimingVerdict v) noexcept; ///< "faster", "slower", "same", …

/// "Is the current run faster or slower than the baseline?" answered from both distributions of
/// per-launch times, not from their medians alone: the two-sided Mann–Whitney U test (normal
/// approximation with the tie correction; the normal distribution from Boost.Math) must reject
/// "same distribution" at `alpha`, *and* the medians must differ by more than the noise
/// threshold — the smaller of the two runs' relative noise (stdev / mean), as nvbench's compare
/// script takes it, but at least `minThreshold` —, measured symmetrically (|ln ratio| >
/// ln(1 + threshold)). Otherwise: no significant difference.
struct TimingComparison {
    TimingVerdict verdict = TimingVerdict::TooFewSamples;
    std::size_t baselineCount = 0, currentCount = 0;
    double baselineMedian = 0, currentMedian = 0;
    double ratio = 0;     ///< current median / baseline median
    double u = 0;         ///< U statistic of the baseline sample
    double z = 0;         ///< its standardised value (continuity-corrected)
    double pValue = 1;    ///< two-sided
    double threshold = 0; ///< relative median difference below which runs count as the same
    double alpha = 0.01;

    /// "slower: 1.32x the baseline's median (12.1 µs vs 9.2 µs), p = 2.4e-06, noise threshold
    /// 1.0 %".
    std::string text() const;
};

/// At least this many samples per side are needed for the normal approximation.
inline constexpr std::size_t kMinComparisonSamples = 5;

TimingComparison compareTimings(std::span<const double> baseline, std::span<const double> current,
                                double alpha = 0.01, double minThreshold = 0.01);

} // namespace wb::profiling
