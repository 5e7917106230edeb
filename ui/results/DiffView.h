// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ui/common/RunOutcome.h"

#include <QFutureWatcher>
#include <QWidget>

#include <memory>

class QChartView;
class QComboBox;
class QLabel;
class QTabWidget;
class QToolButton;

namespace wb::ui {

class DiffTableModel;
class ImageView;
class VirtualTableView;

/// Right or wrong, per output buffer: a PASS/FAIL badge with the diff statistics, the result
/// and reference side by side with mismatches highlighted (F8 / Shift+F8 step through them),
/// an error heatmap for 2-D buffers, the error histogram, and for image examples the input,
/// output, reference and difference as pictures side by side.
class DiffView : public QWidget {
    Q_OBJECT
public:
    explicit DiffView(QWidget* parent = nullptr);
    ~DiffView() override;

    void setOutcome(std::shared_ptr<const RunOutcome> outcome, const session::Session& session);
    void clear();

    /// Selects output `name`; false if the run has no such compared output.
    bool selectOutput(const QString& name);
    /// Moves to the next (previous) mismatch of the shown output; false when there is none.
    bool goToMismatch(bool backwards);

    /// "PASS" / "FAIL" / "" of the shown output, and the overall verdict text.
    QString badgeText() const;
    /// The statistics line; a FAIL caused only by never-written elements says that instead of
    /// numbers that are all 0 for the written ones, unless `numbers` (the line's tooltip).
    QString statsText(bool numbers = false) const;

public Q_SLOTS:
    /// Presentation Mode (PresentationMode's `setCompact` children): the statistics line cut
    /// to the mismatches and the largest error (the whole line on hover), so that at the large
    /// font the table keeps its rows in view.
    void setCompact(bool compact);

public:
    DiffTableModel* tableModel() const noexcept { return m_model; }
    VirtualTableView* table() const noexcept { return m_table; }
    ImageView* errorHeatmap() const noexcept { return m_heatmap; }
    /// The error histogram (log2 bins of |result − reference|) of the shown output.
    QChartView* errorHistogram() const noexcept { return m_histogram; }
    bool hasImageComparison() const noexcept { return m_hasImages; }
    /// Absolute row of the mismatch shown last (-1 none).
    std::int64_t currentMismatch() const noexcept { return m_currentMismatch; }

Q_SIGNALS:
    void mismatchShown(qint64 index);

protected:
    void resizeEvent(QResizeEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    /// The output chooser and Previous / Next beside the views' tabs where the width allows,
    /// else in a row of their own above them (a narrow panel, Presentation Mode's large font),
    /// Previous / Next as arrows when the chooser would be cut.
    void placeControls();

    void showOutput(int i);
    void buildImages(const session::Session& session);

    std::shared_ptr<const RunOutcome> m_outcome;
    std::vector<std::string> m_outputs;
    QComboBox* m_output = nullptr;
    QLabel* m_badge = nullptr;
    QLabel* m_stats = nullptr;
    QTabWidget* m_tabs = nullptr;
    QWidget* m_outputBox = nullptr; ///< the output chooser and its badge
    QWidget* m_stepBox = nullptr;   ///< Previous / Next
    QWidget* m_controlsRow = nullptr;
    QToolButton* m_prev = nullptr;
    QToolButton* m_next = nullptr;
    /// Where placeControls put them: -1 not yet, 0 beside the tabs, 1 a row of their own, 2 a
    /// row with Previous / Next as arrows only (named on hover).
    int m_controlsMode = -1;
    bool m_compact = false;
    DiffTableModel* m_model = nullptr;
    VirtualTableView* m_table = nullptr;
    ImageView* m_heatmap = nullptr;
    QChartView* m_histogram = nullptr;
    QWidget* m_images = nullptr;
    bool m_hasImages = false;
    std::int64_t m_currentMismatch = -1;
    QFutureWatcher<std::int64_t>* m_search = nullptr;
    QFutureWatcher<std::shared_ptr<std::vector<float>>>* m_errors = nullptr;
};

} // namespace wb::ui
