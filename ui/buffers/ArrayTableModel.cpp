// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/buffers/ArrayTableModel.h"

namespace wb::ui {

ArrayTableModel::ArrayTableModel(QObject* parent)
    : WindowedTableModel(parent)
{
}

void ArrayTableModel::setArray(ArrayView array)
{
    m_array = std::move(array);
    m_grid = m_grid && canShowGrid();
    tableReset();
}

bool ArrayTableModel::canShowGrid() const noexcept
{
    return m_array.is2D() && m_array.width() > 0 && m_array.width() <= 4096;
}

void ArrayTableModel::setGrid(bool grid)
{
    grid = grid && canShowGrid();
    if (grid == m_grid) return;
    m_grid = grid;
    tableReset();
}

std::pair<std::int64_t, int> ArrayTableModel::cellOf(std::size_t i) const
{
    if (!m_grid) return {static_cast<std::int64_t>(i), ValueColumn};
    return {static_cast<std::int64_t>(i / m_array.width()), static_cast<int>(i % m_array.width())};
}

std::int64_t ArrayTableModel::elementAt(std::int64_t row, int column) const
{
    if (row < 0 || column < 0) return -1;
    const auto r = static_cast<std::size_t>(row);
    const std::size_t i = m_grid ? r * m_array.width() + static_cast<std::size_t>(column) : r;
    return i < m_array.size() ? static_cast<std::int64_t>(i) : -1;
}

std::int64_t ArrayTableModel::totalRows() const
{
    if (m_array.isNull()) return 0;
    return static_cast<std::int64_t>(m_grid ? m_array.height() : m_array.size());
}

QVariant ArrayTableModel::cell(std::int64_t row, int column, int role) const
{
    const std::int64_t i = elementAt(row, column);
    if (i < 0) return {};
    switch (role) {
    case Qt::DisplayRole:
        return m_array.text(static_cast<std::size_t>(i));
    case Qt::ToolTipRole:
        return m_array.coordinates(static_cast<std::size_t>(i));
    case Qt::TextAlignmentRole:
        return int(Qt::AlignRight | Qt::AlignVCenter);
    default: // the font is the view's (VirtualTableView: fixed pitch at the window's size)
        return {};
    }
}

QVariant ArrayTableModel::rowHeader(std::int64_t row, int role) const
{
    if (role != Qt::DisplayRole) return {};
    if (m_grid) return QString::number(row);
    return m_array.is2D() ? m_array.coordinates(static_cast<std::size_t>(row))
                          : QString::number(row);
}

int ArrayTableModel::columnCount(const QModelIndex& parent) const
{
    if (parent.isValid()) return 0;
    return m_grid ? static_cast<int>(m_array.width()) : ColumnCount;
}

QVariant ArrayTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation == Qt::Horizontal && role == Qt::DisplayRole)
        return m_grid
                   ? QVariant(QString::number(section))
                   : QVariant(
                         tr("value (%1)").arg(QString::fromUtf8(elementKindName(m_array.kind()))));
    return WindowedTableModel::headerData(section, orientation, role);
}

} // namespace wb::ui
