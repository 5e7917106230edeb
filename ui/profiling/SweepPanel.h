// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/profiling/Sweep.h"

#include <QWidget>

#include <atomic>
#include <memory>
#include <optional>

class QChartView;
class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QTableWidget;

namespace wb::runner {
class RunnerClient;
}

namespace wb::ui {

class SessionDocument;
class Worker;

/// Parameter sweeps (core/profiling/Sweep over runner::runnerSweepRunner): vary the block
/// size, a #define or a scalar over a list or range; every point runs the session in
/// warpbench-runner (the diff is checked at each point), driven from the panel's worker thread,
/// with progress and cancel; time against the parameter is charted, the fastest valid point is
/// marked and "Apply" writes it into the session. A point that crashes or hangs is that point's
/// verdict and the next point gets a fresh runner; cancel and closing the panel kill a point
/// that does not finish within the runner's grace period (1 s). A point that leaves output
/// elements unwritten, mismatches the reference or (with "Bounds-check each point", on the
/// CPU emulator) accesses memory out of bounds is invalid, says why in its verdict, and is
/// never the best point.
class SweepPanel : public QWidget {
    Q_OBJECT
public:
    explicit SweepPanel(SessionDocument* document, QWidget* parent = nullptr);
    ~SweepPanel() override;

    /// "32, 64, 128" (a list), "32..1024 x2" (×2 each step), "1..9 +2" or "1..9" (step 1).
    /// Throws wb::Error(InvalidArgument) with the reason.
    static std::vector<std::string> parseValues(const QString& text);

    void setParameter(profiling::SweepParameter::Kind kind, const QString& name,
                      const QString& values);
    /// Runs every point once bounds-checked on the CPU emulator before timing it.
    void setBoundsCheck(bool on);
    bool boundsCheck() const;
    /// The verdict cell of row `row` (its text, tooltip and colour), for tests.
    const QTableWidget* table() const noexcept { return m_table; }
    /// Starts a sweep of the session as it is now; false (with the reason shown) when the
    /// parameter is invalid or a sweep is running.
    bool start();
    void cancel();
    bool isRunning() const noexcept { return m_running; }
    /// Applies the best valid point to the session; false when there is none.
    bool applyBest();

    const std::optional<profiling::SweepResult>& result() const noexcept { return m_result; }
    QString statusText() const;

Q_SIGNALS:
    void pointFinished(int done, int total);
    void sweepFinished();
    void bestApplied(const QString& value);

private:
    void onPoint(std::size_t done, std::size_t total, const profiling::SweepPoint& point);
    void onFinished(profiling::SweepResult result);
    void updateChart();
    void refreshNames();
    void addRow(const profiling::SweepPoint& point);

    SessionDocument* m_doc;
    /// One warm runner for every point of every sweep (not the window's: a sweep must not
    /// wait for, or hold up, an ordinary run).
    std::shared_ptr<runner::RunnerClient> m_client;
    std::unique_ptr<Worker> m_worker;
    std::shared_ptr<std::atomic<bool>> m_cancel;
    bool m_running = false;
    std::vector<profiling::SweepPoint> m_points; ///< as they come in
    std::optional<profiling::SweepResult> m_result;

    QComboBox* m_kind = nullptr;
    QComboBox* m_name = nullptr;
    QLineEdit* m_values = nullptr;
    QCheckBox* m_boundsCheck = nullptr;
    QPushButton* m_runButton = nullptr;
    QPushButton* m_cancelButton = nullptr;
    QPushButton* m_applyButton = nullptr;
    QProgressBar* m_progress = nullptr;
    QLabel* m_status = nullptr;
    QTableWidget* m_table = nullptr;
    /// The project was replaced while a sweep ran: its result is not shown.
    bool m_dropNextResult = false;
    QChartView* m_chart = nullptr;
};

} // namespace wb::ui
