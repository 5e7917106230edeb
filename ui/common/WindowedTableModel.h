// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QAbstractTableModel>

#include <cstdint>

namespace wb::ui {

/// A table model that shows a window of a very long table: rowCount() is the number of rows
/// on screen, and cells are computed on demand from the absolute row firstRow() + row.
/// QHeaderView keeps per-section state and pixel positions in ints, so a view over 100M rows
/// cannot hold them all; VirtualTableView drives the window from its own scroll bar instead.
class WindowedTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    using QAbstractTableModel::QAbstractTableModel;

    /// Rows of the whole table.
    virtual std::int64_t totalRows() const = 0;
    /// A cell by absolute row.
    virtual QVariant cell(std::int64_t row, int column, int role) const = 0;
    /// Vertical header text of an absolute row (its index or coordinates).
    virtual QVariant rowHeader(std::int64_t row, int role) const;

    std::int64_t firstRow() const noexcept { return m_first; }
    int windowRows() const noexcept { return m_window; }
    /// Moves/resizes the window; cells are re-read, no reset (cheap while scrolling).
    void setWindow(std::int64_t first, int rows);

    int rowCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

Q_SIGNALS:
    void windowMoved();

protected:
    /// Call after the whole table changed (new data); keeps the window inside the table.
    void tableReset();

private:
    std::int64_t m_first = 0;
    int m_window = 0;
};

} // namespace wb::ui
