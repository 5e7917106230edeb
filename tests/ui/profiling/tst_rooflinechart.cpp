// SPDX-License-Identifier: GPL-3.0-or-later
// The roofline chart (offscreen): roofs and points from given summaries, readable axes and
// labels, earlier runs as points, and a clear line instead of an empty chart when there are no
// counters; and a real H200 profile (tests/ui/profiling/data/roofline-h200.json, from the runner
// through the CLI's --json) shown as the CLI computed it. WARPBENCH_SCREENSHOT_DIR=dir writes
// roofline-h200.png there (the docs' screenshot: the H200's figures, rendered here).
#include "core/profiling/ProfileCodec.h"
#include "tests/support/SuiteMain.h"
#include "ui/profiling/RooflineChart.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>
#include <QtCharts/QChart>
#include <QtCharts/QLogValueAxis>
#include <QtCharts/QScatterSeries>

using namespace wb::profiling;
using wb::ui::RooflineChart;

namespace {

Summary counter(const std::string& metric, double value)
{
    return {"wb/counter/" + metric, metric, "", value, ""};
}

/// saxpy over 16 Mi floats as the H200 counted it (tst_roofline_gpu), with its roofs.
std::vector<Summary> saxpy()
{
    const double n = 1 << 24;
    return {
        {"wb/timing/median", "Median", "duration", 64.8e-6, ""},
        counter("sm__sass_thread_inst_executed_op_ffma_pred_on.sum", n),
        counter("sm__sass_thread_inst_executed_op_fadd_pred_on.sum", 0),
        counter("sm__sass_thread_inst_executed_op_fmul_pred_on.sum", 0),
        counter("dram__bytes.sum", 2.0482e8),
        counter("lts__t_bytes.sum", 3.0343e8),
        counter("dram__bytes.sum.peak_sustained", 1504),
        counter("dram__cycles_elapsed.avg.per_second", 3.19747e9),
        counter("lts__t_bytes.sum.peak_sustained", 9024),
        counter("lts__cycles_elapsed.avg.per_second", 1.70864e9),
        {"wb/device/peak_flops", "Peak FP32", "flops", 66.9082e12, "132 SMs x 128 FP32 lanes"},
        {"wb/device/peak_fp64_flops", "Peak FP64", "flops", 33.4541e12, "FP32 peak / 2"},
        {"wb/device/peak_fp16_flops", "Peak FP16", "flops", 66.9082e12, "FP32 peak x 2 / 2"},
        {"wb/device/peak_bandwidth", "Peak bandwidth", "bandwidth", 4.8143e12, "attributes"},
    };
}

} // namespace

class TestRooflineChart : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void drawsRoofsAndThePoint()
    {
        RooflineChart chart;
        chart.resize(640, 380);
        chart.setProfile(saxpy());
        QVERIFY(chart.chartShown());
        QVERIFY(chart.message().isEmpty());
        QVERIFY(chart.point());
        QCOMPARE(chart.point()->bound, std::string("DRAM bandwidth"));
        const QStringList names = chart.seriesNames();
        QCOMPARE(names, (QStringList{"DRAM 4.809 TB/s", "L2 15.419 TB/s", "FP32 66.908 TFLOP/s",
                                     "FP64 33.454 TFLOP/s", "FP16 66.908 TFLOP/s", "This run (L2)",
                                     "This run (DRAM)"}));
        // Log-log axes with units in their titles.
        const auto axesX = chart.chart()->axes(Qt::Horizontal);
        const auto axesY = chart.chart()->axes(Qt::Vertical);
        QCOMPARE(axesX.size(), 1);
        QCOMPARE(axesY.size(), 1);
        auto* x = qobject_cast<QLogValueAxis*>(axesX.front());
        auto* y = qobject_cast<QLogValueAxis*>(axesY.front());
        QVERIFY(x && y);
        QCOMPARE(x->titleText(), QStringLiteral("Arithmetic intensity (FLOP / byte)"));
        QCOMPARE(y->titleText(), QStringLiteral("Performance (GFLOP/s)"));
        // The point (0.164 FLOP/B, 518 GFLOP/s) and every ridge point lie inside the ranges.
        QVERIFY(x->min() <= 0.1 && x->max() >= 66.9082e12 / 4.8126e12);
        QVERIFY(y->min() <= 517 && y->max() >= 66908);
        auto* dram = qobject_cast<QScatterSeries*>(chart.chart()->series().back());
        QVERIFY(dram);
        QCOMPARE(dram->count(), 1);
        QVERIFY(std::abs(dram->at(0).x() - 2.0 * (1 << 24) / 2.0482e8) < 1e-9);
        QVERIFY(std::abs(dram->at(0).y() - 2.0 * (1 << 24) / 64.8e-6 / 1e9) < 1e-6);
        QVERIFY2(chart.summaryText().contains(
                     QStringLiteral("FP32 · intensity 0.164 FLOP/B (DRAM), 0.111 FLOP/B (L2)")),
                 qPrintable(chart.summaryText()));
        QVERIFY(chart.summaryText().contains(QStringLiteral("bound by DRAM bandwidth")));
        QVERIFY(chart.summaryText().contains(QStringLiteral("% of its roof")));
    }

    void earlierRunsArePoints()
    {
        RooflineChart chart;
        chart.setProfile(saxpy());
        std::vector<Summary> earlier = saxpy();
        earlier[0].value = 2 * 64.8e-6; // twice as slow
        const auto h = RooflineChart::historyPoint(earlier, QStringLiteral("run 3"));
        QVERIFY(h);
        QVERIFY(std::abs(h->achieved - 2.0 * (1 << 24) / (2 * 64.8e-6)) < 1);
        QVERIFY(!RooflineChart::historyPoint({}, QStringLiteral("run 4")));
        chart.setHistory({*h, {QStringLiteral("run 2"), 0.2, 4e11}});
        QCOMPARE(chart.historyPointCount(), 2);
        QVERIFY(chart.seriesNames().contains(QStringLiteral("Earlier runs (DRAM)")));
        auto* earlierSeries = qobject_cast<QScatterSeries*>(
            chart.chart()->series().at(chart.seriesNames().indexOf("Earlier runs (DRAM)")));
        QVERIFY(earlierSeries);
        QCOMPARE(earlierSeries->count(), 2);
    }

    /// A real profile from the H200 (the saxpy example through warpbench-runner, as the CLI's
    /// --json printed it) with an earlier real run of the kernel: the chart's point and bound
    /// roof are the ones the CLI computed from the same report.
    void h200ProfileAsTheCliSawIt()
    {
        QFile file(QStringLiteral(WB_SOURCE_DIR "/tests/ui/profiling/data/roofline-h200.json"));
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QJsonObject fixture = QJsonDocument::fromJson(file.readAll()).object();
        const ProfileReport report =
            ProfileCodec::fromJson(fixture.value(QStringLiteral("profile")).toObject());
        QVERIFY(report.profiled());
        QVERIFY(report.counterStatus && report.counterStatus->ok());
        RooflineChart chart;
        chart.resize(900, 420);
        chart.setProfile(report.summaries);
        QVERIFY(chart.chartShown());
        QVERIFY(chart.point());
        // What warpbench-cli profile --json said on the H200 for this report.
        QVERIFY(std::abs(chart.point()->dramIntensity - 0.6889329805996472) < 1e-12);
        QCOMPARE(chart.point()->bound, std::string("L2 bandwidth"));
        QVERIFY(std::abs(chart.point()->percentOfRoof - 1.7277443890091635) < 1e-9);
        std::vector<RooflineChart::HistoryPoint> earlier;
        for (const QJsonValue& run : fixture.value(QStringLiteral("earlier")).toArray()) {
            std::vector<Summary> metrics;
            for (const QJsonValue& v : run[QStringLiteral("summaries")].toArray())
                metrics.push_back({v[QStringLiteral("tag")].toString().toStdString(), "", "",
                                   v[QStringLiteral("value")].toDouble(), ""});
            const auto h =
                RooflineChart::historyPoint(metrics, run[QStringLiteral("label")].toString());
            QVERIFY(h);
            earlier.push_back(*h);
        }
        QCOMPARE(earlier.size(), std::size_t(1));
        QVERIFY(std::abs(earlier[0].intensity - 2.0 * 16777200 / 2.0482e8) < 1e-3);
        chart.setHistory(earlier);
        QCOMPARE(chart.historyPointCount(), 1);
        const QString shots = qEnvironmentVariable("WARPBENCH_SCREENSHOT_DIR");
        if (!shots.isEmpty()) QVERIFY(chart.grab().save(shots + "/roofline-h200.png"));
    }

    /// Without counters: one line saying why, no chart (never an empty one).
    void noCountersNoEmptyChart()
    {
        RooflineChart chart;
        chart.setProfile(saxpy());
        QVERIFY(chart.chartShown());
        std::vector<Summary> timingOnly = {{"wb/timing/median", "Median", "duration", 1e-5, ""}};
        chart.setProfile(timingOnly, QStringLiteral("hardware counters unavailable "
                                                    "(insufficient privileges, see above)"));
        QVERIFY(!chart.chartShown());
        QVERIFY(!chart.point());
        QVERIFY2(chart.message().contains(QStringLiteral("insufficient privileges")),
                 qPrintable(chart.message()));
        QVERIFY(chart.message().contains(QStringLiteral("Timing")));
        QVERIFY(chart.seriesNames().isEmpty());
        chart.setProfile(timingOnly);
        QVERIFY(chart.message().contains(QStringLiteral("no FLOP and DRAM counters")));
        // History points alone do not bring an empty chart back.
        chart.setHistory({{QStringLiteral("run 1"), 0.2, 4e11}});
        QVERIFY(!chart.chartShown());
    }
};

WB_QTEST_MAIN(TestRooflineChart)
#include "tst_rooflinechart.moc"
