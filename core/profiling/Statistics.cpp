// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/profiling/Statistics.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace wb::profiling {

double quantileSorted(std::span<const double> sorted, double q) noexcept
{
    if (sorted.empty()) return 0;
    q = std::clamp(q, 0.0, 1.0);
    const double position = q * static_cast<double>(sorted.size() - 1);
    const auto lower = static_cast<std::size_t>(std::floor(position));
    const std::size_t upper = std::min(lower + 1, sorted.size() - 1);
    const double fraction = position - static_cast<double>(lower);
    return sorted[lower] + (sorted[upper] - sorted[lower]) * fraction;
}

Statistics computeStatistics(std::span<const double> samples)
{
    Statistics s;
    s.count = samples.size();
    if (samples.empty()) return s;
    std::vector<double> sorted(samples.begin(), samples.end());
    std::sort(sorted.begin(), sorted.end());
    s.min = sorted.front();
    s.max = sorted.back();
    s.median = quantileSorted(sorted, 0.5);
    s.p25 = quantileSorted(sorted, 0.25);
    s.p75 = quantileSorted(sorted, 0.75);
    RunningStatistics running;
    for (double v : samples)
        running.add(v);
    s.mean = running.mean();
    s.stdev = running.stdev();
    s.relativeNoise = running.relativeNoise();
    return s;
}

void RunningStatistics::add(double value) noexcept
{
    ++m_count;
    const double delta = value - m_mean;
    m_mean += delta / static_cast<double>(m_count);
    m_m2 += delta * (value - m_mean);
}

double RunningStatistics::stdev() const noexcept
{
    return m_count < 2 ? 0.0 : std::sqrt(m_m2 / static_cast<double>(m_count - 1));
}

double RunningStatistics::relativeNoise() const noexcept
{
    return m_mean == 0 ? 0.0 : stdev() / std::fabs(m_mean);
}

} // namespace wb::profiling
