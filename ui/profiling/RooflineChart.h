// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/profiling/Roofline.h"
#include "core/profiling/Summary.h"

#include <QString>
#include <QStringList>
#include <QWidget>

#include <optional>
#include <vector>

class QChart;
class QChartView;
class QLabel;

namespace wb::ui {

/// The kernel on the device's roofline (log-log, Qt Charts): FLOP/s against arithmetic
/// intensity (FLOP per byte), the DRAM and L2 bandwidth roofs and the FP32/FP64/FP16 compute
/// roofs from the profile's summaries, this run's point at its DRAM and its L2 intensity, and
/// earlier runs of the kernel (from the history) as grey points. Without the counters it
/// needs, it shows one line saying why instead of an empty chart.
class RooflineChart : public QWidget {
    Q_OBJECT
public:
    /// An earlier run's point.
    struct HistoryPoint {
        QString label;        ///< "run 12"
        double intensity = 0; ///< FLOP per DRAM byte
        double achieved = 0;  ///< FLOP/s
    };

    explicit RooflineChart(QWidget* parent = nullptr);

    /// A profile's summaries (ProfileReport::summaries). `unavailable`: why there are no
    /// counters (shown instead of the chart when the summaries have no roofline point).
    void setProfile(const std::vector<profiling::Summary>& summaries,
                    const QString& unavailable = {});
    /// Earlier runs of the same kernel, drawn as grey points.
    void setHistory(std::vector<HistoryPoint> points);
    /// No profile: the message instead of the chart.
    void showMessage(const QString& text);

    /// The point history records carry (rooflinePoint of their metrics), if any.
    static std::optional<HistoryPoint> historyPoint(const std::vector<profiling::Summary>& metrics,
                                                    const QString& label);

    const std::optional<profiling::RooflinePoint>& point() const noexcept { return m_point; }
    const profiling::RooflinePeaks& peaks() const noexcept { return m_peaks; }
    /// The names of the drawn series (roofs with their values, points), in legend order.
    QStringList seriesNames() const;
    int historyPointCount() const noexcept { return static_cast<int>(m_history.size()); }
    bool chartShown() const;
    QString message() const;
    QString summaryText() const;
    QChart* chart() const noexcept { return m_chart; }

private:
    void rebuild();

    QLabel* m_message = nullptr;
    QLabel* m_summary = nullptr;
    QChartView* m_view = nullptr;
    QChart* m_chart = nullptr;
    std::optional<profiling::RooflinePoint> m_point;
    profiling::RooflinePeaks m_peaks;
    double m_l2Intensity = 0;
    std::vector<HistoryPoint> m_history;
};

} // namespace wb::ui
