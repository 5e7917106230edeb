// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/profiling/HistoryTableModel.h"

#include <QDateTime>
#include <QFont>

namespace wb::ui {

HistoryTableModel::HistoryTableModel(QObject* parent)
    : QAbstractTableModel(parent)
{
}

void HistoryTableModel::setRuns(std::vector<profiling::RunRecord> runs)
{
    beginResetModel();
    m_runs = std::move(runs);
    endResetModel();
}

const profiling::RunRecord* HistoryTableModel::run(int row) const
{
    if (row < 0 || row >= rowCount()) return nullptr;
    return &m_runs[static_cast<std::size_t>(row)];
}

int HistoryTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_runs.size());
}

int HistoryTableModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant HistoryTableModel::data(const QModelIndex& index, int role) const
{
    const auto* r = run(index.row());
    if (!r) return {};
    if (role == Qt::FontRole && r->baseline) {
        QFont f;
        f.setBold(true);
        return f;
    }
    if (role == Qt::ToolTipRole && index.column() == Verdict)
        return QString::fromStdString(r->verdict);
    if (role == Qt::TextAlignmentRole && (index.column() == Id || index.column() == Median))
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::UserRole) return QVariant::fromValue(static_cast<qlonglong>(r->id));
    if (role != Qt::DisplayRole) return {};
    switch (index.column()) {
    case Id:
        return static_cast<qlonglong>(r->id);
    case Time: {
        const auto t =
            QDateTime::fromString(QString::fromStdString(r->createdAt), Qt::ISODateWithMs);
        return t.isValid() ? t.toLocalTime().toString(QStringLiteral("yyyy-MM-dd HH:mm:ss"))
                           : QString::fromStdString(r->createdAt);
    }
    case Kernel:
        return QString::fromStdString(r->kernel);
    case Backend:
        return QString::fromStdString(r->backend);
    case Median: {
        const auto* m = profiling::findSummary(r->metrics, "wb/timing/median");
        return m ? QString::fromStdString(profiling::formatSummaryValue(*m)) : QStringLiteral("—");
    }
    case Verdict:
        return QString::fromStdString(r->verdict);
    case Baseline:
        return r->baseline ? tr("baseline") : QString();
    default:
        return {};
    }
}

QVariant HistoryTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
    case Id:
        return tr("Run");
    case Time:
        return tr("Time");
    case Kernel:
        return tr("Kernel");
    case Backend:
        return tr("Backend");
    case Median:
        return tr("Median");
    case Verdict:
        return tr("Verdict");
    case Baseline:
        return tr("Baseline");
    default:
        return {};
    }
}

} // namespace wb::ui
