// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ui/common/ArrayView.h"
#include "ui/common/WindowedTableModel.h"

namespace wb::ui {

/// A typed buffer as a table, computed cell by cell: flat (one element per row, with its
/// coordinates) or as a grid (rows × last extent) for 2-D/3-D buffers.
class ArrayTableModel : public WindowedTableModel {
    Q_OBJECT
public:
    /// Flat layout columns. In grid layout there is one column per element of a row.
    enum Column { ValueColumn, ColumnCount };

    explicit ArrayTableModel(QObject* parent = nullptr);

    void setArray(ArrayView array);
    const ArrayView& array() const noexcept { return m_array; }
    /// Grid layout is available for 2-D/3-D arrays whose rows are at most 4096 wide.
    bool canShowGrid() const noexcept;
    void setGrid(bool grid);
    bool isGrid() const noexcept { return m_grid; }

    /// Absolute row/column of element `i` in the current layout.
    std::pair<std::int64_t, int> cellOf(std::size_t i) const;
    /// Element at an absolute row/column, or -1.
    std::int64_t elementAt(std::int64_t row, int column) const;

    std::int64_t totalRows() const override;
    QVariant cell(std::int64_t row, int column, int role) const override;
    QVariant rowHeader(std::int64_t row, int role) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    ArrayView m_array;
    bool m_grid = false;
};

} // namespace wb::ui
