// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ui/buffers/ArraySummary.h"
#include "ui/common/ArrayView.h"

#include <QFutureWatcher>
#include <QWidget>

class QCheckBox;
class QChartView;
class QComboBox;
class QLabel;
class QLineEdit;
class QTabWidget;

namespace wb::ui {

class ArrayTableModel;
class ImageView;
class VirtualTableView;

/// A buffer's contents three ways: a virtualized typed table (any length), a line plot
/// (1-D, min/max decimated) and an image/heatmap (2-D, colormap and value range). The element
/// picker shows the coordinates and value under the cursor or of the selected cell; the
/// "Go to" box jumps to an index or coordinates.
class BufferViewer : public QWidget {
    Q_OBJECT
public:
    enum class Page { Table, Plot, Image };

    explicit BufferViewer(QWidget* parent = nullptr);
    ~BufferViewer() override;

    /// Shows `array` as buffer `name`; 2-D arrays open on the image page, 1-D on the table.
    void setBuffer(const QString& name, ArrayView array);
    const QString& bufferName() const noexcept { return m_name; }
    /// Shows nothing (another project was opened: its buffers are not this one's).
    void clear();
    /// The shown data is from a run of an earlier version of the session: said in the header.
    void setStale(bool stale);
    bool isStale() const noexcept { return m_stale; }
    QString headerText() const;
    const ArrayView& array() const noexcept { return m_array; }

    void showPage(Page page);
    Page currentPage() const;
    ImageView* imageView() const noexcept { return m_image; }
    VirtualTableView* tableView() const noexcept { return m_table; }
    /// Text of the element picker ("[3, 4] = 0.25").
    QString pickerText() const;
    /// Summary once computed (mean/min/max); the summary is computed in the background.
    bool summaryReady() const noexcept { return m_summaryReady; }
    const ArraySummary& summary() const noexcept { return m_summary; }

    /// Parses "17" or "3, 4" (coordinates) and selects that element; false if out of range.
    bool goToElement(const QString& text);

Q_SIGNALS:
    void summaryComputed();

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    void pick(qint64 index);
    void applySummary();
    void applyRange();
    void updatePlot();
    void updateVeil();

    QString m_name;
    QString m_headerHtml;
    bool m_stale = false;
    QWidget* m_veil = nullptr; ///< greys the pages while stale
    ArrayView m_array;
    ArraySummary m_summary;
    bool m_summaryReady = false;
    QFutureWatcher<ArraySummary>* m_watcher = nullptr;

    QLabel* m_header = nullptr;
    QLabel* m_picker = nullptr;
    QLineEdit* m_goTo = nullptr;
    QTabWidget* m_tabs = nullptr;
    VirtualTableView* m_table = nullptr;
    ArrayTableModel* m_model = nullptr;
    QCheckBox* m_grid = nullptr;
    QChartView* m_plot = nullptr;
    ImageView* m_image = nullptr;
    QComboBox* m_colormap = nullptr;
    QCheckBox* m_autoRange = nullptr;
    QLineEdit* m_lo = nullptr;
    QLineEdit* m_hi = nullptr;
};

} // namespace wb::ui
