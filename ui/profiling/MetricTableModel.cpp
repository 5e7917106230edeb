// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/profiling/MetricTableModel.h"

#include "core/profiling/MetricTable.h"
#include "core/profiling/Summary.h"

#include <QBrush>
#include <QColor>

#include <cmath>
#include <string_view>

namespace wb::ui {

namespace {

constexpr std::string_view kCounterPrefix = "wb/counter/";

const profiling::MetricInfo* metricOf(const profiling::Summary& s)
{
    if (!s.tag.starts_with(kCounterPrefix)) return nullptr;
    return profiling::findMetric(s.tag.substr(kCounterPrefix.size()));
}

/// Lower is better for durations; higher is better for throughput-like figures. Plain
/// counts (bytes, samples) have no direction.
int betterDirection(const profiling::Summary& s)
{
    if (s.hint == "duration") return -1;
    if (s.hint == "percentage" || s.hint == "bandwidth" || s.hint == "flops") {
        if (s.tag == "wb/timing/noise") return -1;
        return 1;
    }
    return 0;
}

} // namespace

QString summaryNumber(const profiling::Summary& summary)
{
    const QString shown = QString::fromStdString(profiling::formatSummaryValue(summary));
    const qsizetype space = shown.lastIndexOf(u' ');
    return space > 0 ? shown.left(space) : shown;
}

QString summaryUnit(const profiling::Summary& summary)
{
    // The unit the value is shown in ("9.941" "ms"), never the base unit beside a scaled value.
    const QString shown = QString::fromStdString(profiling::formatSummaryValue(summary));
    if (const qsizetype space = shown.lastIndexOf(u' '); space > 0) return shown.mid(space + 1);
    if (const auto* m = metricOf(summary)) return QString::fromUtf8(m->unit);
    const std::string& h = summary.hint;
    if (h == "duration") return QStringLiteral("s");
    if (h == "percentage") return QStringLiteral("%");
    if (h == "bandwidth") return QStringLiteral("B/s");
    if (h == "flops") return QStringLiteral("FLOP/s");
    if (h == "frequency") return QStringLiteral("Hz");
    if (h == "bytes") return QStringLiteral("bytes");
    if (h == "sample_size") return QStringLiteral("count");
    return {};
}

MetricTableModel::MetricTableModel(QObject* parent)
    : QAbstractTableModel(parent)
{
}

void MetricTableModel::setSummaries(std::vector<profiling::Summary> summaries)
{
    beginResetModel();
    m_rows = std::move(summaries);
    endResetModel();
}

void MetricTableModel::setBaseline(std::vector<profiling::Summary> baseline)
{
    m_baseline = std::move(baseline);
    if (!m_rows.empty()) Q_EMIT dataChanged(index(0, Delta), index(rowCount() - 1, Delta));
    Q_EMIT headerDataChanged(Qt::Horizontal, Delta, Delta);
}

std::optional<double> MetricTableModel::deltaPercent(int row) const
{
    if (row < 0 || row >= rowCount()) return std::nullopt;
    const auto& s = m_rows[static_cast<std::size_t>(row)];
    const profiling::Summary* b = profiling::findSummary(m_baseline, s.tag);
    if (!b || b->value == 0 || !std::isfinite(b->value)) return std::nullopt;
    return (s.value - b->value) / std::abs(b->value) * 100.0;
}

int MetricTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int MetricTableModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant MetricTableModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount()) return {};
    const auto& s = m_rows[static_cast<std::size_t>(index.row())];
    if (role == Qt::ToolTipRole) {
        QString tip = QString::fromStdString(s.description);
        const auto* m = metricOf(s);
        const QString name = QString::fromStdString(m ? std::string(m->name) : s.tag);
        return tip.isEmpty() ? name : tip + QStringLiteral("\n") + name;
    }
    if (role == Qt::TextAlignmentRole && index.column() != Name)
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ForegroundRole && index.column() == Delta) {
        const auto d = deltaPercent(index.row());
        const int dir = betterDirection(s);
        if (!d || dir == 0 || std::abs(*d) < 0.5) return {};
        const bool better = (*d > 0) == (dir > 0);
        return QBrush(better ? QColor(0x1b, 0x7f, 0x3b) : QColor(0xc0, 0x1c, 0x28));
    }
    if (role != Qt::DisplayRole) return {};
    switch (index.column()) {
    case Name: {
        const auto* m = metricOf(s);
        return QString::fromUtf8(m ? m->displayName : s.name.c_str());
    }
    case Value:
        return summaryNumber(s);
    case Unit:
        return summaryUnit(s);
    case Delta: {
        const auto d = deltaPercent(index.row());
        if (!d) return hasBaseline() ? QStringLiteral("—") : QString();
        return QStringLiteral("%1%2 %")
            .arg(*d >= 0 ? QStringLiteral("+") : QString())
            .arg(*d, 0, 'f', 1);
    }
    default:
        return {};
    }
}

QVariant MetricTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
    case Name:
        return tr("Metric");
    case Value:
        return tr("Value");
    case Unit:
        return tr("Unit");
    case Delta:
        return hasBaseline() ? tr("vs baseline") : tr("Δ");
    default:
        return {};
    }
}

} // namespace wb::ui
