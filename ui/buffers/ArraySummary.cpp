// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/buffers/ArraySummary.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace wb::ui {

ArraySummary ArraySummary::compute(const ArrayView& array, int buckets)
{
    ArraySummary s;
    const std::size_t n = array.size();
    if (array.isNull() || n == 0) return s;
    const auto nb = static_cast<std::size_t>(std::max(1, buckets));
    const std::size_t per = std::max<std::size_t>(1, (n + nb - 1) / nb);
    double lo = std::numeric_limits<double>::infinity();
    double hi = -std::numeric_limits<double>::infinity();
    double sum = 0;
    s.outline.reserve(static_cast<qsizetype>(2 * std::min(n, nb)));
    for (std::size_t start = 0; start < n; start += per) {
        const std::size_t end = std::min(n, start + per);
        double bmin = std::numeric_limits<double>::infinity();
        double bmax = -std::numeric_limits<double>::infinity();
        for (std::size_t i = start; i < end; ++i) {
            const double v = array.value(i);
            if (!std::isfinite(v)) {
                ++s.nonFinite;
                continue;
            }
            ++s.finite;
            sum += v;
            bmin = std::min(bmin, v);
            bmax = std::max(bmax, v);
        }
        if (bmin <= bmax) {
            lo = std::min(lo, bmin);
            hi = std::max(hi, bmax);
            const auto x = static_cast<double>(start);
            s.outline.append(QPointF(x, bmin));
            if (per > 1) s.outline.append(QPointF(x, bmax));
        }
    }
    if (s.finite > 0) {
        s.min = lo;
        s.max = hi;
        s.mean = sum / static_cast<double>(s.finite);
    }
    return s;
}

} // namespace wb::ui
