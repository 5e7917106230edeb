// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/profiling/TimingComparison.h"

#include "core/profiling/Statistics.h"

#include <boost/math/distributions/normal.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <utility>
#include <vector>

namespace wb::profiling {

const char* timingVerdictName(TimingVerdict v) noexcept
{
    switch (v) {
    case TimingVerdict::Faster:
        return "faster";
    case TimingVerdict::Slower:
        return "slower";
    case TimingVerdict::Same:
        return "no significant difference";
    case TimingVerdict::TooFewSamples:
        return "too few samples";
    }
    return "too few samples";
}

TimingComparison compareTimings(std::span<const double> baseline, std::span<const double> current,
                                double alpha, double minThreshold)
{
    TimingComparison c;
    c.alpha = alpha;
    c.baselineCount = baseline.size();
    c.currentCount = current.size();
    const Statistics a = computeStatistics(baseline), b = computeStatistics(current);
    c.baselineMedian = a.median;
    c.currentMedian = b.median;
    c.ratio = a.median > 0 ? b.median / a.median : 0;
    // nvbench's compare: the more precise run's noise, here at least `minThreshold`.
    c.threshold = std::max(minThreshold, std::min(a.relativeNoise, b.relativeNoise));
    if (baseline.size() < kMinComparisonSamples || current.size() < kMinComparisonSamples) return c;

    // Ranks of the pooled samples, ties sharing their average rank.
    const std::size_t n1 = baseline.size(), n2 = current.size(), n = n1 + n2;
    std::vector<std::pair<double, int>> pooled;
    pooled.reserve(n);
    for (double v : baseline)
        pooled.emplace_back(v, 0);
    for (double v : current)
        pooled.emplace_back(v, 1);
    std::sort(pooled.begin(), pooled.end(),
              [](const auto& x, const auto& y) { return x.first < y.first; });
    double rankSum1 = 0, tieTerm = 0;
    for (std::size_t i = 0; i < n;) {
        std::size_t j = i;
        while (j < n && pooled[j].first == pooled[i].first)
            ++j;
        const double t = static_cast<double>(j - i);
        const double rank = (static_cast<double>(i + 1) + static_cast<double>(j)) / 2.0;
        for (std::size_t k = i; k < j; ++k)
            if (pooled[k].second == 0) rankSum1 += rank;
        tieTerm += t * t * t - t;
        i = j;
    }
    const double dn1 = static_cast<double>(n1), dn2 = static_cast<double>(n2),
                 dn = static_cast<double>(n);
    c.u = rankSum1 - dn1 * (dn1 + 1) / 2;
    const double mean = dn1 * dn2 / 2;
    const double var = dn1 * dn2 / 12.0 * ((dn + 1) - tieTerm / (dn * (dn - 1)));
    if (var > 0) {
        const double d = c.u - mean;
        c.z = (d - (d > 0 ? 0.5 : d < 0 ? -0.5 : 0.0)) / std::sqrt(var);
        const boost::math::normal_distribution<double> standard;
        c.pValue =
            std::min(1.0, 2 * boost::math::cdf(boost::math::complement(standard, std::fabs(c.z))));
    } else {
        c.z = 0;
        c.pValue = 1; // every sample equal
    }
    // Symmetric in the two runs: 2x slower and 2x faster are the same distance from 1.
    const bool significant =
        c.pValue < alpha && c.ratio > 0 && std::fabs(std::log(c.ratio)) > std::log1p(c.threshold);
    c.verdict = !significant          ? TimingVerdict::Same
                : b.median < a.median ? TimingVerdict::Faster
                                      : TimingVerdict::Slower;
    return c;
}

std::string TimingComparison::text() const
{
    char buf[320];
    if (verdict == TimingVerdict::TooFewSamples) {
        std::snprintf(buf, sizeof buf,
                      "too few samples to compare (%zu and %zu; at least %zu each): run with more "
                      "--iterations",
                      baselineCount, currentCount, kMinComparisonSamples);
        return buf;
    }
    std::snprintf(buf, sizeof buf,
                  "%s: %.3gx the baseline's median (%.4g ms vs %.4g ms), Mann-Whitney p = %.2g "
                  "(alpha %.2g), noise threshold %.1f %%",
                  timingVerdictName(verdict), ratio, currentMedian, baselineMedian, pValue, alpha,
                  threshold * 100);
    return buf;
}

} // namespace wb::profiling
