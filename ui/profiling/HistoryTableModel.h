// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/profiling/RunRecord.h"

#include <QAbstractTableModel>

#include <vector>

namespace wb::ui {

/// Runs of a RunHistory, newest first: id, time, kernel, backend, median kernel time,
/// verdict and the baseline mark.
class HistoryTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Id, Time, Kernel, Backend, Median, Verdict, Baseline, ColumnCount };

    explicit HistoryTableModel(QObject* parent = nullptr);

    void setRuns(std::vector<profiling::RunRecord> runs);
    const std::vector<profiling::RunRecord>& runs() const noexcept { return m_runs; }
    const profiling::RunRecord* run(int row) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    std::vector<profiling::RunRecord> m_runs;
};

} // namespace wb::ui
