// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/results/DiffTableModel.h"

#include <QBrush>
#include <QColor>

#include <bit>
#include <cmath>
#include <cstdlib>

namespace wb::ui {

namespace {

std::uint64_t orderedBits(double v, ElementKind kind)
{
    // Maps floats onto integers in value order so that their difference counts ULPs.
    if (kind == ElementKind::F64) {
        const auto b = std::bit_cast<std::int64_t>(v);
        return static_cast<std::uint64_t>(b < 0 ? INT64_MIN - b : b);
    }
    const auto b = static_cast<std::int64_t>(std::bit_cast<std::int32_t>(static_cast<float>(v)));
    const std::int64_t ordered = b < 0 ? static_cast<std::int64_t>(INT32_MIN) - b : b;
    const int shift = kind == ElementKind::F16 ? 13 : kind == ElementKind::BF16 ? 16 : 0;
    return static_cast<std::uint64_t>(ordered >> shift);
}

std::uint64_t ulpDistance(double a, double b, ElementKind kind)
{
    if (!isFloatKind(kind)) return static_cast<std::uint64_t>(std::fabs(a - b));
    const std::uint64_t x = orderedBits(a, kind), y = orderedBits(b, kind);
    return x > y ? x - y : y - x;
}

} // namespace

DiffTableModel::DiffTableModel(QObject* parent)
    : WindowedTableModel(parent)
{
}

void DiffTableModel::setArrays(ArrayView result, ArrayView reference,
                               const session::Tolerance& tolerance)
{
    m_result = std::move(result);
    m_reference = std::move(reference);
    m_tolerance = tolerance;
    m_unwritten.clear();
    tableReset();
}

void DiffTableModel::setUnwrittenMask(std::vector<std::uint8_t> mask)
{
    m_unwritten = std::move(mask);
    tableReset();
}

bool DiffTableModel::isMismatch(std::size_t i) const noexcept
{
    const double a = m_result.value(i);
    const double b = m_reference.value(i);
    if (!std::isfinite(a) || !std::isfinite(b)) {
        if (std::isnan(a) && std::isnan(b)) return !m_tolerance.nanEqual;
        return !(a == b); // same infinity matches
    }
    if (m_tolerance.mode == session::Tolerance::Mode::Ulp)
        return ulpDistance(a, b, m_result.kind()) > m_tolerance.maxUlp;
    return std::fabs(a - b) > m_tolerance.atol + m_tolerance.rtol * std::fabs(b);
}

std::int64_t DiffTableModel::findMismatch(std::int64_t from, bool backwards) const
{
    const auto n = static_cast<std::int64_t>(std::min(m_result.size(), m_reference.size()));
    if (n == 0) return -1;
    std::int64_t i = from;
    for (std::int64_t step = 0; step < n; ++step) {
        i = backwards ? (i - 1 + n) % n : (i + 1) % n;
        if (i < 0) i += n;
        if (isMismatch(static_cast<std::size_t>(i))) return i;
    }
    return -1;
}

std::int64_t DiffTableModel::totalRows() const
{
    return static_cast<std::int64_t>(std::min(m_result.size(), m_reference.size()));
}

QVariant DiffTableModel::cell(std::int64_t row, int column, int role) const
{
    const auto i = static_cast<std::size_t>(row);
    if (i >= static_cast<std::size_t>(totalRows())) return {};
    switch (role) {
    case Qt::DisplayRole: {
        const double a = m_result.value(i), b = m_reference.value(i);
        switch (column) {
        case ResultColumn:
            return m_result.text(i);
        case ReferenceColumn:
            return m_reference.text(i);
        case AbsErrorColumn:
            return QString::number(std::fabs(a - b), 'g', 4);
        case RelErrorColumn:
            if (b == 0) return a == 0 ? QStringLiteral("0") : QStringLiteral("∞");
            return QString::number(std::fabs(a - b) / std::fabs(b), 'g', 4);
        default:
            return {};
        }
    }
    // Opaque light tints with dark text: as visible on a dark palette (Presentation Mode's
    // black) as on a light one.
    case Qt::BackgroundRole:
        if (isUnwritten(i)) return QBrush(unwrittenColour());
        if (isMismatch(i)) return QBrush(QColor(250, 185, 180));
        return {};
    case Qt::ForegroundRole:
        if (isUnwritten(i) || isMismatch(i)) return QBrush(QColor(20, 20, 20));
        return {};
    case Qt::ToolTipRole:
        if (isUnwritten(i)) return tr("never written: still holds the poison pattern");
        return {};
    case Qt::TextAlignmentRole:
        return int(Qt::AlignRight | Qt::AlignVCenter);
    default:
        return {};
    }
}

QVariant DiffTableModel::rowHeader(std::int64_t row, int role) const
{
    if (role != Qt::DisplayRole) return {};
    return m_result.coordinates(static_cast<std::size_t>(row));
}

int DiffTableModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant DiffTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation == Qt::Horizontal && role == Qt::DisplayRole) {
        switch (section) {
        case ResultColumn:
            return tr("result");
        case ReferenceColumn:
            return tr("reference");
        case AbsErrorColumn:
            return tr("abs err");
        case RelErrorColumn:
            return tr("rel err");
        default:
            return {};
        }
    }
    return WindowedTableModel::headerData(section, orientation, role);
}

} // namespace wb::ui
