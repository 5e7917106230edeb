// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QWidget>

#include <cstdint>

class QScrollBar;
class QTableView;

namespace wb::ui {

class WindowedTableModel;

/// A table view over a WindowedTableModel of any length: the table shows as many rows as fit,
/// a separate scroll bar (and the wheel, arrows, Page Up/Down, Ctrl+Home/End) moves the
/// model's window. Scrolling 100M rows costs the same as scrolling 100.
class VirtualTableView : public QWidget {
    Q_OBJECT
public:
    explicit VirtualTableView(QWidget* parent = nullptr);

    void setModel(WindowedTableModel* model);
    WindowedTableModel* model() const noexcept { return m_model; }
    QTableView* table() const noexcept { return m_table; }

    /// Scrolls so that absolute `row` is visible and makes it current.
    void scrollToRow(std::int64_t row, int column = 0);
    /// Absolute row of the current cell, -1 when none.
    std::int64_t currentRow() const;

Q_SIGNALS:
    /// The current cell moved (absolute row).
    void currentRowChanged(std::int64_t row, int column);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
    /// Follows the window's font (Presentation Mode): cells, header and row height scale.
    void changeEvent(QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    void updateWindow();
    /// Fixed-pitch cells at this widget's (inherited) font size; rows as tall as the font.
    void applyFont();
    void scrollBy(std::int64_t rows);
    void setFirst(std::int64_t first);

    QTableView* m_table = nullptr;
    QScrollBar* m_scroll = nullptr;
    WindowedTableModel* m_model = nullptr;
    std::int64_t m_current = -1;
    int m_currentColumn = 0;
    int m_wheelRemainder = 0;
    bool m_inUpdate = false;
};

} // namespace wb::ui
