// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ui/common/ArrayView.h"

#include <QPointF>
#include <QVector>

#include <cstdint>

namespace wb::ui {

/// Range, mean and a min/max-decimated outline of a typed array: what the plot and the
/// auto range of the heatmap need. Computed off the GUI thread for large arrays.
struct ArraySummary {
    double min = 0, max = 0, mean = 0;
    std::uint64_t finite = 0, nonFinite = 0;
    /// (index, min) and (index, max) of each bucket in turn: a line through them draws the
    /// envelope of the data with at most 2 × buckets points.
    QVector<QPointF> outline;

    static ArraySummary compute(const ArrayView& array, int buckets = 2000);
};

} // namespace wb::ui
