// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/profiling/RooflineChart.h"

#include <QLabel>
#include <QPainter>
#include <QVBoxLayout>
#include <QtCharts/QChart>
#include <QtCharts/QChartView>
#include <QtCharts/QLegend>
#include <QtCharts/QLineSeries>
#include <QtCharts/QLogValueAxis>
#include <QtCharts/QScatterSeries>

#include <algorithm>
#include <cmath>

namespace wb::ui {

namespace {

using profiling::Ceiling;
using profiling::Precision;

/// "66.9 TFLOP/s", "4.81 TB/s": the summary formatter, so the chart and the table agree.
QString formatted(const char* hint, double value)
{
    return QString::fromStdString(
        profiling::formatSummaryValue(profiling::Summary{"", "", hint, value, ""}));
}

double floorDecade(double v)
{
    return std::pow(10.0, std::floor(std::log10(v)));
}

double ceilDecade(double v)
{
    return std::pow(10.0, std::ceil(std::log10(v)));
}

constexpr double kGiga = 1e9; // the y axis is in GFLOP/s

} // namespace

RooflineChart::RooflineChart(QWidget* parent)
    : QWidget(parent)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_message = new QLabel(tr("No roofline yet: Run → Profile a CUDA session."), this);
    m_message->setObjectName(QStringLiteral("rooflineMessage"));
    m_message->setWordWrap(true);
    m_message->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_summary = new QLabel(this);
    m_summary->setObjectName(QStringLiteral("rooflineSummary"));
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_summary->hide();
    m_chart = new QChart;
    m_chart->setTitle(tr("Roofline"));
    m_chart->legend()->setAlignment(Qt::AlignRight);
    m_chart->setMargins(QMargins(4, 4, 4, 4));
    m_view = new QChartView(m_chart, this);
    m_view->setRenderHint(QPainter::Antialiasing);
    m_view->setMinimumHeight(260);
    m_view->hide();
    layout->addWidget(m_message);
    layout->addWidget(m_summary);
    layout->addWidget(m_view, 1);
    setMaximumHeight(4 * fontMetrics().height() + 8); // a line until there is a chart
}

std::optional<RooflineChart::HistoryPoint>
RooflineChart::historyPoint(const std::vector<profiling::Summary>& metrics, const QString& label)
{
    const auto p = profiling::rooflinePoint(metrics);
    if (!p) return std::nullopt;
    return HistoryPoint{label, p->dramIntensity, p->achieved};
}

void RooflineChart::setProfile(const std::vector<profiling::Summary>& summaries,
                               const QString& unavailable)
{
    m_peaks = profiling::rooflinePeaks(summaries);
    m_point = profiling::rooflinePoint(summaries);
    if (!m_point) {
        QString why = unavailable;
        if (why.isEmpty())
            why = profiling::rooflineCounts(summaries)
                      ? tr("the kernel did no floating-point work or moved no DRAM bytes")
                      : tr("this run has no FLOP and DRAM counters");
        showMessage(
            tr("No roofline: %1. Timing and the figures above do not need counters.").arg(why));
        return;
    }
    m_message->hide();
    rebuild();
}

void RooflineChart::setHistory(std::vector<HistoryPoint> points)
{
    m_history = std::move(points);
    if (m_point) rebuild();
}

void RooflineChart::showMessage(const QString& text)
{
    m_point.reset();
    m_chart->removeAllSeries();
    m_view->hide();
    m_summary->hide();
    m_message->setText(text);
    m_message->show();
    // A line, not a chart: do not take half of the Profile dock for it.
    setMaximumHeight(4 * fontMetrics().height() + 8);
}

bool RooflineChart::chartShown() const
{
    return !m_view->isHidden();
}

QString RooflineChart::message() const
{
    return m_message->isHidden() ? QString() : m_message->text();
}

QString RooflineChart::summaryText() const
{
    return m_summary->text();
}

QStringList RooflineChart::seriesNames() const
{
    QStringList names;
    for (const QAbstractSeries* s : m_chart->series())
        names << s->name();
    return names;
}

void RooflineChart::rebuild()
{
    m_chart->removeAllSeries();
    for (QAbstractAxis* a : m_chart->axes())
        m_chart->removeAxis(a);
    const profiling::RooflinePoint& p = *m_point;

    // The x range covers the points and every ridge point, a decade either side.
    const Ceiling* roofs[] = {&m_peaks.fp32, &m_peaks.fp64, &m_peaks.fp16};
    double maxCompute = 0;
    for (const Ceiling* c : roofs)
        maxCompute = std::max(maxCompute, c->value);
    double xMin = p.dramIntensity, xMax = p.dramIntensity;
    double yMin = p.achieved, yMax = std::max(p.achieved, maxCompute);
    if (p.l2Intensity > 0) {
        xMin = std::min(xMin, p.l2Intensity);
        xMax = std::max(xMax, p.l2Intensity);
    }
    for (const HistoryPoint& h : m_history) {
        if (!(h.intensity > 0) || !(h.achieved > 0)) continue;
        xMin = std::min(xMin, h.intensity);
        xMax = std::max(xMax, h.intensity);
        yMin = std::min(yMin, h.achieved);
        yMax = std::max(yMax, h.achieved);
    }
    for (const Ceiling* bw : {&m_peaks.dram, &m_peaks.l2})
        if (bw->known() && maxCompute > 0) {
            xMin = std::min(xMin, maxCompute / bw->value);
            xMax = std::max(xMax, maxCompute / bw->value);
        }
    xMin = floorDecade(xMin / 3);
    xMax = ceilDecade(xMax * 3);
    if (m_peaks.dram.known()) yMin = std::min(yMin, xMin * m_peaks.dram.value);
    yMin = floorDecade(yMin / 2);
    yMax = ceilDecade(yMax * 1.5);

    auto* axisX = new QLogValueAxis;
    axisX->setBase(10);
    axisX->setLabelFormat(QStringLiteral("%g"));
    axisX->setTitleText(tr("Arithmetic intensity (FLOP / byte)"));
    axisX->setRange(xMin, xMax);
    axisX->setMinorTickCount(-1);
    auto* axisY = new QLogValueAxis;
    axisY->setBase(10);
    axisY->setLabelFormat(QStringLiteral("%g"));
    axisY->setTitleText(tr("Performance (GFLOP/s)"));
    axisY->setRange(yMin / kGiga, yMax / kGiga);
    m_chart->addAxis(axisX, Qt::AlignBottom);
    m_chart->addAxis(axisY, Qt::AlignLeft);

    auto add = [&](QAbstractSeries* s) {
        m_chart->addSeries(s);
        s->attachAxis(axisX);
        s->attachAxis(axisY);
    };
    // Bandwidth roofs: FLOP/s = intensity x bytes/s, up to the highest compute roof.
    auto bandwidthRoof = [&](const Ceiling& bw, const QString& name, QColor colour) {
        if (!bw.known()) return;
        auto* s = new QLineSeries;
        s->setName(tr("%1 %2").arg(name, formatted("bandwidth", bw.value)));
        const double xEnd = maxCompute > 0 ? std::min(xMax, maxCompute / bw.value) : xMax;
        s->append(xMin, xMin * bw.value / kGiga);
        s->append(xEnd, xEnd * bw.value / kGiga);
        QPen pen(colour);
        pen.setWidthF(2);
        s->setPen(pen);
        add(s);
    };
    bandwidthRoof(m_peaks.dram, tr("DRAM"), QColor(0x1f, 0x77, 0xb4));
    bandwidthRoof(m_peaks.l2, tr("L2"), QColor(0x17, 0xbe, 0xcf));
    // Compute roofs: flat from their ridge with the DRAM roof (or the left edge). FP16 last:
    // on sm_90 its roof (in the counters' unit) equals FP32's, and its dashes stay visible.
    const std::pair<Precision, QColor> computeRoofs[] = {
        {Precision::Fp32, QColor(0xd6, 0x27, 0x28)},
        {Precision::Fp64, QColor(0x94, 0x67, 0xbd)},
        {Precision::Fp16, QColor(0x2c, 0xa0, 0x2c)},
    };
    for (const auto& [precision, colour] : computeRoofs) {
        const Ceiling& c = m_peaks.compute(precision);
        if (!c.known()) continue;
        auto* s = new QLineSeries;
        s->setName(tr("%1 %2").arg(QString::fromUtf8(profiling::precisionName(precision)),
                                   formatted("flops", c.value)));
        const double xStart =
            m_peaks.dram.known() ? std::max(xMin, c.value / m_peaks.dram.value) : xMin;
        s->append(xStart, c.value / kGiga);
        s->append(xMax, c.value / kGiga);
        QPen pen(colour);
        pen.setWidthF(precision == p.precision ? 2.5 : 1.5);
        if (precision != p.precision) pen.setStyle(Qt::DashLine);
        s->setPen(pen);
        add(s);
    }
    if (!m_history.empty()) {
        auto* s = new QScatterSeries;
        s->setName(tr("Earlier runs (DRAM)"));
        s->setMarkerSize(8);
        s->setColor(QColor(0x99, 0x99, 0x99));
        s->setBorderColor(QColor(0x66, 0x66, 0x66));
        for (const HistoryPoint& h : m_history)
            if (h.intensity > 0 && h.achieved > 0) s->append(h.intensity, h.achieved / kGiga);
        add(s);
    }
    if (p.l2Intensity > 0) {
        auto* s = new QScatterSeries;
        s->setName(tr("This run (L2)"));
        s->setMarkerShape(QScatterSeries::MarkerShapeRectangle);
        s->setMarkerSize(10);
        s->setColor(QColor(0x17, 0xbe, 0xcf));
        s->append(p.l2Intensity, p.achieved / kGiga);
        add(s);
    }
    auto* point = new QScatterSeries;
    point->setName(tr("This run (DRAM)"));
    point->setMarkerSize(12);
    point->setColor(QColor(0xff, 0x7f, 0x0e));
    point->setBorderColor(Qt::black);
    point->append(p.dramIntensity, p.achieved / kGiga);
    add(point);

    QString text = tr("%1 · intensity %2 FLOP/B (DRAM)")
                       .arg(QString::fromUtf8(profiling::precisionName(p.precision)))
                       .arg(p.dramIntensity, 0, 'g', 3);
    if (p.l2Intensity > 0) text += tr(", %1 FLOP/B (L2)").arg(p.l2Intensity, 0, 'g', 3);
    text += tr(" · achieved %1").arg(formatted("flops", p.achieved));
    if (p.attainable > 0)
        text += tr(" · bound by %1: %2 % of its roof (%3)")
                    .arg(QString::fromStdString(p.bound))
                    .arg(p.percentOfRoof, 0, 'f', 1)
                    .arg(formatted("flops", p.attainable));
    m_summary->setText(text);
    QStringList sources;
    for (const auto& [name, c] : {std::pair<const char*, const Ceiling*>{"FP32", &m_peaks.fp32},
                                  {"FP64", &m_peaks.fp64},
                                  {"FP16", &m_peaks.fp16},
                                  {"DRAM", &m_peaks.dram},
                                  {"L2", &m_peaks.l2}})
        if (c->known() && !c->source.empty())
            sources << QStringLiteral("%1: %2").arg(QString::fromUtf8(name),
                                                    QString::fromStdString(c->source));
    m_summary->setToolTip(tr("Where the roofs come from:\n") + sources.join(u'\n'));
    m_view->setToolTip(m_summary->toolTip());
    m_summary->show();
    m_view->show();
    setMaximumHeight(QWIDGETSIZE_MAX);
}

} // namespace wb::ui
