// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/results/TimingCharts.h"

#include "ui/common/ChartTheme.h"

#include <QBoxLayout>
#include <QtCharts/QAreaSeries>
#include <QtCharts/QBarSet>
#include <QtCharts/QChart>
#include <QtCharts/QChartView>
#include <QtCharts/QHorizontalStackedBarSeries>
#include <QtCharts/QLineSeries>
#include <QtCharts/QValueAxis>

#include <algorithm>
#include <cmath>

namespace wb::ui {

namespace {
QString formatMs(double ms)
{
    if (ms < 1e-3) return QStringLiteral("%1 ns").arg(ms * 1e6, 0, 'f', 0);
    if (ms < 1.0) return QStringLiteral("%1 µs").arg(ms * 1e3, 0, 'g', 3);
    return QStringLiteral("%1 ms").arg(ms, 0, 'g', 4);
}

QChart* makeChart(const QString& title)
{
    auto* chart = new QChart;
    chart->setTitle(title);
    chart->setMargins(QMargins(2, 2, 2, 2));
    chart->setBackgroundRoundness(0);
    chart->legend()->setAlignment(Qt::AlignBottom);
    return chart;
}
} // namespace

TimingCharts::TimingCharts(QWidget* parent)
    : QWidget(parent)
{
    auto* layout = new QBoxLayout(QBoxLayout::LeftToRight, this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_histogram = new QChartView(makeChart(tr("Iteration times")), this);
    m_stages = new QChartView(makeChart(tr("Where the time goes")), this);
    for (QChartView* v : {m_histogram, m_stages}) {
        v->setRenderHint(QPainter::Antialiasing);
        v->setMinimumHeight(140);
    }
    layout->addWidget(m_histogram, 1);
    layout->addWidget(m_stages, 1);
}

std::vector<int> TimingCharts::histogram(const std::vector<double>& samples, double* lo,
                                         double* width)
{
    if (samples.empty()) return {};
    std::vector<double> s = samples;
    std::sort(s.begin(), s.end());
    const double mn = s.front(), mx = s.back();
    const double q1 = s[s.size() / 4], q3 = s[(3 * s.size()) / 4];
    double w = 2.0 * (q3 - q1) / std::cbrt(static_cast<double>(s.size()));
    int bins = w > 0 ? static_cast<int>(std::ceil((mx - mn) / w)) : 1;
    bins = std::clamp(bins, mx > mn ? 5 : 1, 30);
    w = mx > mn ? (mx - mn) / bins : 1.0;
    std::vector<int> counts(static_cast<std::size_t>(bins), 0);
    for (double v : s) {
        const auto b = std::min(bins - 1, static_cast<int>((v - mn) / w));
        ++counts[static_cast<std::size_t>(b)];
    }
    *lo = mn;
    *width = w;
    return counts;
}

void TimingCharts::clear()
{
    setTimes({}, -1, -1, -1);
}

void TimingCharts::setTimes(const std::vector<double>& samples, double h2d, double kernel,
                            double d2h)
{
    QChart* hist = m_histogram->chart();
    hist->removeAllSeries();
    applyChartTheme(hist, palette());
    for (QAbstractAxis* a : hist->axes())
        hist->removeAxis(a);
    double lo = 0, width = 0;
    const std::vector<int> counts = histogram(samples, &lo, &width);
    m_bins = static_cast<int>(counts.size());
    if (!counts.empty()) {
        // A stepped outline over a time axis in one unit (the title says which): the labels
        // are short numbers, as many as the chart's width carries.
        const ChartTimeUnit unit =
            chartTimeUnit((lo + width * static_cast<double>(counts.size())) * 1e-3);
        const double perMs = unit.perSecond * 1e-3;
        auto* series = new QAreaSeries;
        auto* outline = new QLineSeries(series);
        int maxCount = 0;
        for (std::size_t i = 0; i < counts.size(); ++i) {
            const double left = (lo + static_cast<double>(i) * width) * perMs;
            const double right = left + width * perMs;
            outline->append(left, 0);
            outline->append(left, counts[i]);
            outline->append(right, counts[i]);
            outline->append(right, 0);
            maxCount = std::max(maxCount, counts[i]);
        }
        series->setUpperSeries(outline);
        series->setName(tr("iterations"));
        series->setColor(QColor(0x3574c4));
        series->setBorderColor(QColor(0x3574c4).darker(130));
        hist->addSeries(series);
        auto* x = new QValueAxis;
        const double x0 = lo * perMs,
                     x1 = (lo + width * static_cast<double>(counts.size())) * perMs;
        x->setRange(x0, x1 > x0 ? x1 : x0 + 1);
        makeAxisReadable(x, tr("iteration time (%1)").arg(QString::fromUtf8(unit.name)),
                         std::clamp(m_histogram->width() / 90, 2, 6));
        auto* y = new QValueAxis;
        // Whole-number ticks: counts are integers.
        y->setLabelFormat(QStringLiteral("%d"));
        y->setTickType(QValueAxis::TicksDynamic);
        y->setTickAnchor(0);
        y->setTitleText(tr("runs"));
        m_maxCount = maxCount;
        fitCountAxis(y);
        hist->addAxis(x, Qt::AlignBottom);
        hist->addAxis(y, Qt::AlignLeft);
        series->attachAxis(x);
        series->attachAxis(y);
        hist->legend()->hide();
        hist->setTitle(tr("Iteration times (%n runs)", nullptr, static_cast<int>(samples.size())));
    } else {
        hist->setTitle(tr("Iteration times — run to measure"));
    }

    QChart* stages = m_stages->chart();
    stages->removeAllSeries();
    applyChartTheme(stages, palette());
    for (QAbstractAxis* a : stages->axes())
        stages->removeAxis(a);
    if (kernel >= 0) {
        auto* series = new QHorizontalStackedBarSeries;
        struct Stage {
            QString name;
            double ms;
            QColor colour;
        };
        // Short legend names: three entries side by side under a half-width chart.
        const Stage list[] = {{tr("H2D"), h2d, QColor(0x8fa8c8)},
                              {tr("kernel"), kernel, QColor(0x2e9e44)},
                              {tr("D2H"), d2h, QColor(0xc89f5a)}};
        double total = 0;
        for (const Stage& s : list)
            if (s.ms >= 0) total += s.ms;
        const ChartTimeUnit unit = chartTimeUnit(total * 1e-3);
        const double perMs = unit.perSecond * 1e-3;
        for (const Stage& s : list) {
            if (s.ms < 0) continue;
            auto* set = new QBarSet(QStringLiteral("%1 %2").arg(s.name, formatMs(s.ms)));
            *set << s.ms * perMs;
            set->setColor(s.colour);
            series->append(set);
        }
        stages->addSeries(series);
        auto* axis = new QValueAxis;
        axis->setRange(0, std::max(total * perMs, 1e-3));
        makeAxisReadable(axis, QString(), std::clamp(m_stages->width() / 90, 2, 5));
        stages->addAxis(axis, Qt::AlignBottom);
        series->attachAxis(axis);
        stages->legend()->show();
        stages->legend()->setAlignment(Qt::AlignBottom);
        // The unit in the title: under a short chart an axis title would take the labels' room.
        stages->setTitle(tr("Where the time goes, in %1 (total %2)")
                             .arg(QString::fromUtf8(unit.name), formatMs(total)));
    } else {
        stages->setTitle(tr("Where the time goes — run to measure"));
    }
}

void TimingCharts::fitCountAxis(QValueAxis* y) const
{
    // Whole-number ticks (counts are integers), as many as the chart's height carries
    // unelided (about 40 px apart).
    const int ticks = std::clamp(m_histogram->height() / 40 - 1, 1, 5);
    const int step = std::max(1, (m_maxCount + ticks - 1) / ticks);
    y->setRange(0, std::max(1, (m_maxCount + step - 1) / step) * step);
    y->setTickInterval(step);
}

QSize TimingCharts::sizeHint() const
{
    return {QWidget::sizeHint().width(), minimumSizeHint().height()};
}

void TimingCharts::setStacked(bool stacked)
{
    static_cast<QBoxLayout*>(layout())->setDirection(stacked ? QBoxLayout::TopToBottom
                                                             : QBoxLayout::LeftToRight);
}

void TimingCharts::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);

    // Labels about 90 px apart: "12.3" never needs eliding.
    for (auto [view, most] : {std::pair{m_histogram, 6}, std::pair{m_stages, 5}})
        for (QAbstractAxis* a : view->chart()->axes(Qt::Horizontal))
            if (auto* axis = qobject_cast<QValueAxis*>(a))
                axis->setTickCount(std::clamp(view->width() / 90, 2, most));
    for (QAbstractAxis* a : m_histogram->chart()->axes(Qt::Vertical))
        if (auto* axis = qobject_cast<QValueAxis*>(a)) fitCountAxis(axis);
}

} // namespace wb::ui
