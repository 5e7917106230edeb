// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/common/WindowedTableModel.h"

#include <algorithm>

namespace wb::ui {

QVariant WindowedTableModel::rowHeader(std::int64_t row, int role) const
{
    if (role == Qt::DisplayRole) return QString::number(row);
    return {};
}

void WindowedTableModel::setWindow(std::int64_t first, int rows)
{
    const std::int64_t total = totalRows();
    rows = static_cast<int>(std::clamp<std::int64_t>(rows, 0, total));
    first = std::clamp<std::int64_t>(first, 0, std::max<std::int64_t>(0, total - rows));
    if (rows != m_window) {
        beginResetModel();
        m_first = first;
        m_window = rows;
        endResetModel();
    } else if (first != m_first) {
        m_first = first;
        if (m_window > 0) {
            Q_EMIT dataChanged(index(0, 0), index(m_window - 1, std::max(0, columnCount() - 1)));
            Q_EMIT headerDataChanged(Qt::Vertical, 0, m_window - 1);
        }
    }
    Q_EMIT windowMoved();
}

void WindowedTableModel::tableReset()
{
    beginResetModel();
    const std::int64_t total = totalRows();
    m_window = static_cast<int>(std::min<std::int64_t>(m_window, total));
    m_first = std::clamp<std::int64_t>(m_first, 0, std::max<std::int64_t>(0, total - m_window));
    endResetModel();
    Q_EMIT windowMoved();
}

int WindowedTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : m_window;
}

QVariant WindowedTableModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid()) return {};
    return cell(m_first + index.row(), index.column(), role);
}

QVariant WindowedTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation == Qt::Vertical) return rowHeader(m_first + section, role);
    return QAbstractTableModel::headerData(section, orientation, role);
}

} // namespace wb::ui
