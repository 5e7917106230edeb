// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/profiling/RunRecord.h"
#include "core/profiling/history/RunHistory.h"

#include <QWidget>

#include <filesystem>
#include <memory>
#include <optional>

class QLabel;
class QPlainTextEdit;
class QPushButton;
class QTableView;
class QTableWidget;
class QChartView;

namespace wb::ui {

class HistoryTableModel;
class Worker;

/// The run history of the current project (RunHistory, SQLite beside the project or in the app
/// data folder for unsaved sessions): the runs, newest first; kernel time across runs as a
/// chart; two selected runs compared (source diff, setting changes, metric deltas); a run
/// marked as its kernel's baseline. The database is opened, written and read on the panel's
/// own worker thread (a Qt Sql connection belongs to the thread that opened it).
class HistoryPanel : public QWidget {
    Q_OBJECT
public:
    explicit HistoryPanel(QWidget* parent = nullptr);
    ~HistoryPanel() override;

    /// Opens (creating) the history at `file` and lists it.
    void setDatabase(const std::filesystem::path& file);
    const std::filesystem::path& database() const noexcept { return m_file; }
    /// Stores a run (on the worker) and lists again; runRecorded(id) follows.
    void record(profiling::RunRecord run);
    void refresh();
    /// Compares run `before` with run `after`; comparisonShown() follows.
    void compare(std::int64_t before, std::int64_t after);
    /// Compares the two runs selected in the table (older first).
    void compareSelected();
    /// Compares run `id` with its kernel's baseline (comparisonShown(), or a note when the
    /// kernel has none).
    void compareWithBaseline(std::int64_t id);
    void markBaseline(std::int64_t id);
    void markSelectedAsBaseline();

    HistoryTableModel* model() const noexcept { return m_model; }
    QTableView* table() const noexcept { return m_table; }
    const std::optional<profiling::RunComparison>& comparison() const noexcept
    {
        return m_comparison;
    }
    QString errorText() const;

Q_SIGNALS:
    void runsListed();
    void runRecorded(qint64 id);
    void comparisonShown();
    /// The baseline of `kernel` (after a listing): its metrics, empty when it has none.
    void baselineChanged(const QString& kernel, const std::vector<wb::profiling::Summary>& metrics,
                         const QString& label);

private:
    struct Listing;
    void post(std::function<Listing(profiling::RunHistory&)> job);
    void showListing(Listing listing);
    void showComparison(const profiling::RunComparison& c);
    void updateChart();
    void updateButtons();

    std::unique_ptr<Worker> m_worker;
    /// Touched only on the worker thread.
    std::shared_ptr<std::unique_ptr<profiling::RunHistory>> m_db;
    std::filesystem::path m_file;
    HistoryTableModel* m_model = nullptr;
    QTableView* m_table = nullptr;
    QChartView* m_chart = nullptr;
    QPushButton* m_compareButton = nullptr;
    QPushButton* m_baselineButton = nullptr;
    QPushButton* m_vsBaselineButton = nullptr;
    QLabel* m_status = nullptr;
    QLabel* m_compareSummary = nullptr;
    QTableWidget* m_deltas = nullptr;
    QPlainTextEdit* m_diff = nullptr;
    std::optional<profiling::RunComparison> m_comparison;
};

} // namespace wb::ui

Q_DECLARE_METATYPE(std::vector<wb::profiling::Summary>)
