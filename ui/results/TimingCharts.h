// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QWidget>

#include <vector>

class QChartView;
class QValueAxis;

namespace wb::ui {

/// The run's timing as pictures: a histogram of the timed iterations and one stacked bar of
/// host→device copy, kernel and device→host copy (Qt Charts). Time axes are numbers in one
/// unit named in the axis title, with as many labels as the chart's width carries unelided.
class TimingCharts : public QWidget {
    Q_OBJECT
public:
    explicit TimingCharts(QWidget* parent = nullptr);

    /// `samplesMs`: one entry per timed iteration. Stage times in ms; a negative value means
    /// "not measured" and leaves that segment out.
    void setTimes(const std::vector<double>& samplesMs, double h2dMs, double kernelMs,
                  double d2hMs);
    void clear();
    /// Histogram bins shown (for tests).
    int histogramBins() const noexcept { return m_bins; }

    /// Bins for `samples`: equal width between min and max (Freedman–Diaconis width, 5–30 bins).
    static std::vector<int> histogram(const std::vector<double>& samples, double* lo,
                                      double* width);
    QChartView* histogramView() const noexcept { return m_histogram; }
    QChartView* stagesView() const noexcept { return m_stages; }

    /// As tall as the minimum: the charts take the room the panel has, never more (a taller
    /// hint would make a short Results dock scroll its charts out of view).
    QSize sizeHint() const override;

    /// The two charts one above the other (Presentation Mode's narrow column: each gets the
    /// width its title needs, never "Where the time goes, in ms (total 114…"), or side by side.
    void setStacked(bool stacked);

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    QChartView* m_histogram = nullptr;
    QChartView* m_stages = nullptr;
    int m_bins = 0;
    int m_maxCount = 0; ///< the histogram's tallest bin

    void fitCountAxis(QValueAxis* y) const;
};

} // namespace wb::ui
