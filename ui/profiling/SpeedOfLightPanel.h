// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/profiling/KernelProfiler.h"
#include "core/profiling/ProfileReport.h"
#include "core/profiling/ProfilerStatus.h"
#include "core/profiling/Summary.h"

#include <QWidget>

#include <optional>
#include <vector>

class QLabel;
class QProgressBar;
class QTableView;

namespace wb::ui {

class MetricTableModel;

/// Nsight Compute's Speed-of-Light header for one launch: two bars (SM throughput and memory
/// throughput, % of peak), the metric table with descriptions as tooltips, and a status line
/// saying why counters are missing (ProfilerStatus) when they are. With a baseline set, every
/// figure also shows its change in %.
class SpeedOfLightPanel : public QWidget {
    Q_OBJECT
public:
    explicit SpeedOfLightPanel(QWidget* parent = nullptr);

    /// A KernelProfiler result: its timing, throughput and counters (or the counter status).
    void setResult(const profiling::ProfileResult& result);
    /// A profile from the runner (the Profile action): its figures, the counter status and the
    /// warnings; when there is no profile, the reason in the status line.
    void setProfile(const profiling::ProfileReport& report, const QString& title = {});
    /// Figures of a run that collected no counters (a session run); `counterStatus` says why
    /// there are none, `title` names the run.
    void setSummaries(std::vector<profiling::Summary> summaries,
                      const profiling::ProfilerStatus& counterStatus, const QString& title = {});
    /// Replaces the status line with `text` (e.g. why a profile could not start); the figures
    /// shown stay.
    void showMessage(const QString& text);
    /// No figures, title or status: as before the first run (another project was opened).
    void clear();
    /// The title line (the run or profile the figures are of).
    QString titleText() const;
    /// Baseline figures (from the history); empty clears it.
    void setBaseline(std::vector<profiling::Summary> baseline, const QString& label = {});

    MetricTableModel* model() const noexcept { return m_model; }
    std::optional<double> smPercent() const noexcept { return m_sm; }
    std::optional<double> memoryPercent() const noexcept { return m_memory; }
    QString statusText() const;

private:
    void updateBars();

    QLabel* m_title = nullptr;
    QLabel* m_status = nullptr;
    QLabel* m_baselineLabel = nullptr;
    QProgressBar* m_smBar = nullptr;
    QProgressBar* m_memoryBar = nullptr;
    QTableView* m_table = nullptr;
    MetricTableModel* m_model = nullptr;
    std::optional<double> m_sm;
    std::optional<double> m_memory;
};

} // namespace wb::ui
