// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/session/Session.h"
#include "ui/common/ArrayView.h"
#include "ui/common/WindowedTableModel.h"

#include <QColor>

namespace wb::ui {

/// Result and reference of one output side by side, element by element (any length: cells are
/// computed on demand), with the absolute and relative error; elements outside the tolerance
/// are highlighted.
class DiffTableModel : public WindowedTableModel {
    Q_OBJECT
public:
    enum Column { ResultColumn, ReferenceColumn, AbsErrorColumn, RelErrorColumn, ColumnCount };

    explicit DiffTableModel(QObject* parent = nullptr);

    void setArrays(ArrayView result, ArrayView reference, const session::Tolerance& tolerance);
    const ArrayView& result() const noexcept { return m_result; }
    const ArrayView& reference() const noexcept { return m_reference; }

    /// Elements the kernel never wrote (RunReport::unwrittenMask, one byte per element; empty:
    /// not poisoned). They get their own colour. setArrays() clears it.
    void setUnwrittenMask(std::vector<std::uint8_t> mask);
    const std::vector<std::uint8_t>& unwrittenMask() const noexcept { return m_unwritten; }
    bool isUnwritten(std::size_t i) const noexcept
    {
        return i < m_unwritten.size() && m_unwritten[i];
    }
    /// The never-written colour (table rows, heatmap mask): a light violet that stands out on
    /// light and dark palettes alike (its text is dark).
    static QColor unwrittenColour() { return QColor(196, 176, 255); }

    /// Whether element i is outside the tolerance (the diff engine's rule).
    bool isMismatch(std::size_t i) const noexcept;
    /// First mismatch after `from` (or before, backwards), wrapping; -1 when there is none.
    /// Scans at most the whole array once; thread-safe (reads only).
    std::int64_t findMismatch(std::int64_t from, bool backwards) const;

    std::int64_t totalRows() const override;
    QVariant cell(std::int64_t row, int column, int role) const override;
    QVariant rowHeader(std::int64_t row, int role) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    ArrayView m_result, m_reference;
    session::Tolerance m_tolerance;
    std::vector<std::uint8_t> m_unwritten;
};

} // namespace wb::ui
