// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstddef>
#include <span>

namespace wb::profiling {

/// Order statistics and moments of a list of samples (any unit; the caller's).
struct Statistics {
    std::size_t count = 0;
    double min = 0;
    double max = 0;
    double mean = 0;
    double median = 0;
    double p25 = 0;           ///< first quartile (linear interpolation, like numpy's default)
    double p75 = 0;           ///< third quartile
    double stdev = 0;         ///< sample standard deviation (n - 1); 0 for fewer than 2 samples
    double relativeNoise = 0; ///< stdev / mean (a fraction: 0.005 = 0.5 %); 0 when mean is 0
};

/// Computes all fields of Statistics; an empty span gives count = 0 and zeros.
Statistics computeStatistics(std::span<const double> samples);

/// The q-quantile (0..1) of *sorted* samples with linear interpolation between order
/// statistics (Hyndman & Fan type 7). Empty input gives 0.
double quantileSorted(std::span<const double> sorted, double q) noexcept;

/// Mean and sample standard deviation kept incrementally (Welford), so that a stopping
/// criterion can be checked after every sample at O(1) cost.
class RunningStatistics {
public:
    void add(double value) noexcept;
    std::size_t count() const noexcept { return m_count; }
    double mean() const noexcept { return m_mean; }
    double stdev() const noexcept;
    double relativeNoise() const noexcept; ///< stdev / mean; 0 when mean is 0

private:
    std::size_t m_count = 0;
    double m_mean = 0;
    double m_m2 = 0;
};

} // namespace wb::profiling
