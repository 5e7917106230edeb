// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ui/common/RunOutcome.h"

#include <QWidget>

#include <memory>

class QLabel;
class QPlainTextEdit;
class QTabWidget;
class QTableView;
class QTableWidget;
class QTimer;

namespace wb::ui {

class DiagnosticsModel;
class DiffView;
class InspectPanel;
class RunController;
class SessionDocument;
class TimingCharts;

/// The answer to "is it right and how fast": a one-line verdict with the median time always in
/// view, then tabs — Summary (timing statistics, histogram, H2D/kernel/D2H bar, bandwidth and
/// GFLOP/s against the device's peak), Diff, Inspect (PTX, SASS, resources), Problems
/// (compiler messages; activating one jumps to the line), the run log, and for a pipeline
/// project Launches (each launch of a pass: kernel, loop values, geometry, median).
class ResultsPanel : public QWidget {
    Q_OBJECT
public:
    enum class Tab { Summary, Diff, Inspect, Problems, Log, Launches };

    explicit ResultsPanel(DiagnosticsModel* diagnostics, QWidget* parent = nullptr);

    /// Follows the runs (the running line with its elapsed time, the outcome, a cancel) and
    /// the document (another project clears the results).
    void subscribe(RunController* runner, SessionDocument* document);
    void setOutcome(std::shared_ptr<const RunOutcome> outcome, const session::Session& session);
    void setRunning(bool running, const QString& what = {});
    /// Results belong to a run of one project: another project (open, new) clears them — the
    /// verdict, timing, charts and diff (the log stays).
    void clearResults();

public Q_SLOTS:
    /// Presentation Mode (PresentationMode's `setCompact` children): the verdict's first line
    /// cut to the word and the median time (all of it on hover), one line at the large font.
    void setCompact(bool compact);

public:
    /// The session changed since the shown run (`why`: "the kernel source changed"): the
    /// verdict, timing, charts and diff are greyed and labelled "from an earlier version" until
    /// the next outcome arrives. Nothing happens while no run's results are shown.
    void setStale(const QString& why);
    bool hasResults() const noexcept { return m_hasResults; }
    bool isStale() const noexcept { return m_stale; }
    /// Whether the grey veil is over the current page (Summary or Diff while stale).
    bool isVeiled() const;
    /// The "from an earlier version" label's text (empty when the results are current).
    QString staleText() const;
    void appendLog(const QString& line);
    void showTab(Tab tab);

    QString verdictText() const;
    /// Messages longer than this show shortened in the verdict (whole in its tooltip and Log).
    static constexpr int kVerdictMessageChars = 420;
    /// The Summary tab's throughput and timing lines (bandwidth, compile, the run's copies).
    QString throughputText() const;
    /// The timing summary as shown (rich text; a pipeline's launches summed per entry).
    QString timingText() const;
    /// A pipeline's launches (the Launches tab, shown only after a pipeline's run).
    QTableWidget* launchesTable() const noexcept { return m_launches; }
    bool launchesTabVisible() const;
    DiffView* diffView() const noexcept { return m_diff; }
    InspectPanel* inspectPanel() const noexcept { return m_inspect; }
    TimingCharts* timingCharts() const noexcept { return m_charts; }
    QTableView* problemsView() const noexcept { return m_problems; }
    QPlainTextEdit* logView() const noexcept { return m_log; }

Q_SIGNALS:
    /// A problem row was activated: jump to it.
    void diagnosticActivated(int row);
    /// A "file(line)" or "file:line:col" location was clicked in the run log.
    void locationActivated(const QString& file, int line, int column);
    /// The verdict's "Run with Bounds Checking" link (offered after a crash) was clicked.
    void boundsCheckRequested();

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
    void changeEvent(QEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;

private:
    /// The run's verdict, whole or (compact) short.
    void showVerdict();
    /// A wrapped label never shorter than its text at its width (the dock scrolls instead).
    void keepLines(QLabel* label);
    QLabel* m_verdict = nullptr; ///< wraps; never widens the window (see the constructor)
    void setGreyed(bool greyed);

    bool m_hasResults = false;
    bool m_stale = false;
    QString m_verdictHtml;        ///< the current run's verdict, kept while it is shown greyed
    QString m_verdictCompactHtml; ///< its first line cut to the word and the median
    QString m_verdictTip;         ///< a long message's whole text
    bool m_compact = false;
    bool m_verdictShown = false; ///< the verdict label shows the run's verdict (showVerdict)
    QLabel* m_staleLabel = nullptr;
    QWidget* m_veil = nullptr; ///< greys the Summary and Diff pages while stale
    QTabWidget* m_tabs = nullptr;
    QLabel* m_timing = nullptr;
    QLabel* m_throughput = nullptr;
    TimingCharts* m_charts = nullptr;
    DiffView* m_diff = nullptr;
    InspectPanel* m_inspect = nullptr;
    QTableView* m_problems = nullptr;
    QPlainTextEdit* m_log = nullptr;
    QTableWidget* m_launches = nullptr;
    QTimer* m_elapsed = nullptr; ///< refreshes the running line while a run runs
};

} // namespace wb::ui
