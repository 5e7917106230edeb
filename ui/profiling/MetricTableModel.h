// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/profiling/Summary.h"

#include <QAbstractTableModel>

#include <vector>

namespace wb::ui {

/// The metric table of the Speed-of-Light panel: one row per figure (timing, throughput,
/// hardware counters), its value formatted with its unit, the unit the metric is measured in,
/// and — when a baseline is set — the change against the baseline in %. The metric's
/// description (from core/profiling/MetricTable) is the row's tooltip.
class MetricTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Name, Value, Unit, Delta, ColumnCount };

    explicit MetricTableModel(QObject* parent = nullptr);

    void setSummaries(std::vector<profiling::Summary> summaries);
    /// Deltas are shown against these (matched by tag); empty = no baseline.
    void setBaseline(std::vector<profiling::Summary> baseline);
    const std::vector<profiling::Summary>& summaries() const noexcept { return m_rows; }
    bool hasBaseline() const noexcept { return !m_baseline.empty(); }
    /// (value - baseline) / |baseline| × 100 of row `row`, when the baseline has its tag.
    std::optional<double> deltaPercent(int row) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    std::vector<profiling::Summary> m_rows;
    std::vector<profiling::Summary> m_baseline;
};

/// The unit a summary's value is shown in: the scale profiling::formatSummaryValue picked
/// ("ms" for 9.941 ms, "MB/s"), else the metric table's unit for hardware counters
/// ("wb/counter/<metric>"), else one derived from its hint.
QString summaryUnit(const profiling::Summary& summary);
/// The value without its unit ("9.941"), to sit beside summaryUnit().
QString summaryNumber(const profiling::Summary& summary);

} // namespace wb::ui
