// SPDX-License-Identifier: GPL-3.0-or-later
// Tests ui/profiling/*: the Speed-of-Light panel on a constructed profiler result (and on one
// without counters), the history panel over a temporary database (listing, comparing, the
// baseline), a block-size sweep on the CPU emulator (best point, Apply, cancel), and the main
// window's wiring (runs recorded, presentation mode, trace mode). Offscreen; writes
// docs/screenshots/profiling.png when $WARPBENCH_SCREENSHOT_DIR is set.
#include "core/backend/Backend.h"
#include "core/common/Error.h"
#include "core/common/Paths.h"
#include "core/profiling/MetricTable.h"
#include "core/profiling/ProfileReport.h"
#include "core/profiling/Statistics.h"
#include "core/profiling/history/RunHistory.h"
#include "tests/support/SuiteMain.h"
#include "tests/support/WindowTesting.h"
#include "ui/MainWindow.h"
#include "ui/buffers/ImageView.h"
#include "ui/common/RunController.h"
#include "ui/common/SessionDocument.h"
#include "ui/launch/LaunchPanel.h"
#include "ui/profiling/HistoryPanel.h"
#include "ui/profiling/HistoryTableModel.h"
#include "ui/profiling/MetricTableModel.h"
#include "ui/profiling/ProfilingDocks.h"
#include "ui/profiling/RooflineChart.h"
#include "ui/profiling/SpeedOfLightPanel.h"
#include "ui/profiling/SweepPanel.h"
#include "ui/results/DiffTableModel.h"
#include "ui/results/DiffView.h"
#include "ui/results/ResultsPanel.h"
#include "ui/teaching/LaunchGeometryView.h"
#include "ui/teaching/PresentationMode.h"
#include "ui/teaching/TraceOverlayView.h"

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QItemSelectionModel>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

using namespace wb;
using namespace wb::ui;
using namespace wb::profiling;

namespace {

constexpr const char* kSm = "sm__throughput.avg.pct_of_peak_sustained_elapsed";
constexpr const char* kMemory = "gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed";

const char* kSource = R"cu(__global__ void scale(float* out, const float* in, float factor, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i] * factor;
}
)cu";
const char* kReference = "void reference(float* out, const float* in, float factor, int n)\n"
                         "{ for (int i = 0; i < n; ++i) out[i] = in[i] * factor; }\n";

session::Session makeSession()
{
    using namespace wb::session;
    Session s;
    s.name = "sweep";
    s.kernelSource = kSource;
    s.scalars = {ScalarSpec{"n", ElementType::I32, "1000"},
                 ScalarSpec{"factor", ElementType::F32, "1.5"}};
    BufferSpec in;
    in.name = "in";
    in.shape = {"n"};
    in.init.kind = Initialiser::Kind::Iota;
    BufferSpec out;
    out.name = "out";
    out.shape = {"n"};
    out.role = BufferRole::Out;
    s.buffers = {in, out};
    s.launch.kernel = "scale";
    s.launch.grid = {"ceil(n/64)"};
    s.launch.block = {"64"};
    s.iterations = 3;
    s.backend = BackendKind::Cpu;
    s.reference.kind = ReferenceSpec::Kind::Cpp;
    s.reference.source = kReference;
    return s;
}

/// One f32 output `out` of 32 elements written by kernel `k(float* out, int d)`, on the CPU
/// emulator, without a reference (a point that runs passes).
session::Session outSession(const char* source)
{
    using namespace wb::session;
    Session s;
    s.name = "faulting";
    s.kernelSource = source;
    s.scalars = {ScalarSpec{"d", ElementType::I32, "1"}};
    BufferSpec out;
    out.name = "out";
    out.shape = {"32"};
    out.role = BufferRole::Out;
    s.buffers = {out};
    s.launch.kernel = "k";
    s.launch.grid = {"1"};
    s.launch.block = {"32"};
    s.warmup = 0;
    s.iterations = 1;
    s.backend = BackendKind::Cpu;
    return s;
}

const char* kDivide =
    "__global__ void k(float* out, int d) { out[threadIdx.x] = float(100 / d); }\n";
const char* kSpin = "__global__ void k(float* out, int d) { volatile int x = 0; while (true) "
                    "x = x + d; }\n";

/// Correct only at block size 256 (the index uses the constant): block 128 writes past the end
/// of `out` (line 4), block 512 leaves its last 256 elements unwritten. No reference.
const char* kBlock256 = "__global__ void k(const float* in, float* out)\n"
                        "{\n"
                        "    const int i = blockIdx.x * 256 + threadIdx.x;\n"
                        "    out[i] = 2.0f * in[i];\n"
                        "}\n";

session::Session block256Session()
{
    using namespace wb::session;
    Session s = outSession(kBlock256);
    s.scalars = {ScalarSpec{"n", ElementType::I32, "1024"}};
    BufferSpec in;
    in.name = "in";
    in.shape = {"n"};
    in.init.kind = Initialiser::Kind::Iota;
    s.buffers[0].shape = {"n"};
    s.buffers.insert(s.buffers.begin(), in);
    s.launch.grid = {"ceil(n/256)"};
    s.launch.block = {"256"};
    return s;
}

QString cpuUnavailable()
{
    try {
        createBackend(BackendKind::Cpu, 0);
    } catch (const Error& e) {
        return QString::fromStdString(e.what());
    }
    return {};
}

int rowOf(const MetricTableModel& m, const std::string& tag)
{
    for (int r = 0; r < m.rowCount(); ++r)
        if (m.summaries()[static_cast<std::size_t>(r)].tag == tag) return r;
    return -1;
}

ProfileResult makeResult(double sm, double memory)
{
    ProfileResult r;
    r.device.name = "Test GPU";
    r.timing.method = "cuda-event";
    r.timing.samplesMs = {0.0105, 0.0110, 0.0102, 0.0108};
    r.timing.statsMs = computeStatistics(r.timing.samplesMs);
    CounterReport c;
    c.passes = 4;
    c.launches = 4;
    c.ranges = 1;
    for (const auto& [name, value] :
         std::vector<std::pair<std::string, double>>{{"gpu__time_duration.sum", 10400.0},
                                                     {kSm, sm},
                                                     {kMemory, memory},
                                                     {"dram__bytes_read.sum", 4.0e6}})
        c.values.push_back({name, value, findMetric(name)});
    r.counters = c;
    return r;
}

} // namespace

class TestProfilingPanels : public QObject {
    Q_OBJECT
    QTemporaryDir m_autosave;

private Q_SLOTS:
    void initTestCase()
    {
        isolateWindowSuite("tst_profilingpanels", m_autosave);
        // The main window opens an example as a private copy: its history starts empty beside
        // the copy, never shared with another test running at the same time (issue 17).
    }

    void speedOfLightShowsResult()
    {
        SpeedOfLightPanel panel;
        panel.setResult(makeResult(42.5, 87.25));
        QVERIFY(panel.smPercent().has_value());
        QCOMPARE(*panel.smPercent(), 42.5);
        QCOMPARE(*panel.memoryPercent(), 87.25);
        QVERIFY2(panel.statusText().isEmpty(), qPrintable(panel.statusText()));
        const MetricTableModel& m = *panel.model();
        const int sm = rowOf(m, std::string("wb/counter/") + kSm);
        QVERIFY(sm >= 0);
        const MetricInfo* info = findMetric(kSm);
        QCOMPARE(m.data(m.index(sm, MetricTableModel::Name), Qt::DisplayRole).toString(),
                 QString::fromUtf8(info->displayName));
        QVERIFY(m.data(m.index(sm, MetricTableModel::Value), Qt::DisplayRole)
                    .toString()
                    .contains(QStringLiteral("42.5")));
        QCOMPARE(m.data(m.index(sm, MetricTableModel::Unit), Qt::DisplayRole).toString(),
                 QString::fromUtf8(info->unit));
        QVERIFY(m.data(m.index(sm, MetricTableModel::Name), Qt::ToolTipRole)
                    .toString()
                    .contains(QString::fromUtf8(info->description)));
        const int dram = rowOf(m, "wb/counter/dram__bytes_read.sum");
        QVERIFY(dram >= 0);
        QVERIFY(rowOf(m, "wb/timing/median") >= 0);
        QVERIFY(m.data(m.index(sm, MetricTableModel::Delta), Qt::DisplayRole).toString().isEmpty());

        // Baseline: SM 50 % → 42.5 % is −15 %.
        panel.setBaseline(makeResult(50.0, 87.25).summaries(), QStringLiteral("run 1"));
        QVERIFY(m.hasBaseline());
        QVERIFY(m.deltaPercent(sm).has_value());
        QCOMPARE(qRound(*m.deltaPercent(sm) * 10), -150);
        QCOMPARE(m.data(m.index(sm, MetricTableModel::Delta), Qt::DisplayRole).toString(),
                 QStringLiteral("-15.0 %"));
        QCOMPARE(qRound(*m.deltaPercent(rowOf(m, std::string("wb/counter/") + kMemory)) * 10), 0);
        panel.setBaseline({}, {});
        QVERIFY(!m.hasBaseline());
    }

    void speedOfLightSaysWhyNoCounters()
    {
        SpeedOfLightPanel panel;
        ProfileResult r = makeResult(0, 0);
        r.counters->values.clear();
        r.counters->status = {ProfilerStatus::State::InsufficientPrivileges,
                              "CUPTI_ERROR_INSUFFICIENT_PRIVILEGES: counters need admin rights"};
        panel.setResult(r);
        QVERIFY(!panel.smPercent());
        QVERIFY(!panel.memoryPercent());
        QVERIFY(panel.statusText().contains(QStringLiteral("CUPTI_ERROR_INSUFFICIENT_PRIVILEGES")));
        QVERIFY(panel.statusText().contains(QString::fromUtf8(counterPermissionHelp())));
        QVERIFY(rowOf(*panel.model(), "wb/timing/median") >= 0); // timing still shown
    }

    /// The permission help is said once, also when the classified CUPTI status carries it.
    void counterHelpSaidOnce()
    {
        SpeedOfLightPanel panel;
        ProfileReport r;
        r.device = "GPU";
        r.timingMethod = "cuda-event";
        r.summaries = {{"wb/timing/median", "Median", "duration", 1e-5, ""}};
        r.counterStatus = ProfilerStatus{
            ProfilerStatus::State::InsufficientPrivileges,
            std::string("cuptiProfilerInitialize: CUPTI_ERROR_INSUFFICIENT_PRIVILEGES. ") +
                counterPermissionHelp()};
        panel.setProfile(r);
        QCOMPARE(panel.statusText().count(QStringLiteral("NVreg_RestrictProfilingToAdminUsers=0")),
                 1);
        QVERIFY(rowOf(*panel.model(), "wb/timing/median") >= 0);
    }

    /// What the Profile action shows: a profile from the runner (as decoded from its JSON).
    void speedOfLightShowsProfile()
    {
        SpeedOfLightPanel panel;
        ProfileResult result = makeResult(42.0, 77.0);
        result.warnings = {"CUPTI timing unavailable, CUDA events used: test"};
        panel.setProfile(ProfileReport::fromResult(result, true));
        QCOMPARE(*panel.smPercent(), 42.0);
        QCOMPARE(*panel.memoryPercent(), 77.0);
        QVERIFY(rowOf(*panel.model(), "wb/timing/median") >= 0);
        QVERIFY(rowOf(*panel.model(), "wb/counter/dram__bytes_read.sum") >= 0);
        QVERIFY(panel.statusText().contains(QStringLiteral("CUPTI timing unavailable")));
        QVERIFY(!panel.statusText().contains(QStringLiteral("Hardware counters unavailable")));

        // Counters not permitted: the status with the help, the matching warning not twice.
        ProfileResult denied = makeResult(0, 0);
        denied.counters->values.clear();
        denied.counters->status = {ProfilerStatus::State::InsufficientPrivileges,
                                   "CUPTI_ERROR_INSUFFICIENT_PRIVILEGES"};
        denied.warnings = {"hardware counters unavailable (insufficient privileges): "
                           "CUPTI_ERROR_INSUFFICIENT_PRIVILEGES"};
        panel.setProfile(ProfileReport::fromResult(denied, true));
        QVERIFY(!panel.smPercent());
        QVERIFY(rowOf(*panel.model(), "wb/timing/median") >= 0);
        QVERIFY(panel.statusText().contains(QString::fromUtf8(counterPermissionHelp())));
        QCOMPARE(panel.statusText().count(QStringLiteral("CUPTI_ERROR_INSUFFICIENT_PRIVILEGES")),
                 1);

        // No profile (the CPU emulator): the reason, no bars.
        panel.setProfile(ProfileReport::notProfiled(
            {ProfilerStatus::State::UnsupportedDevice, "needs the CUDA backend"}));
        QVERIFY(!panel.smPercent());
        QVERIFY(panel.statusText().contains(QStringLiteral("needs the CUDA backend")));
        QCOMPARE(panel.model()->rowCount(), 0);
    }

    void historyListsAndCompares()
    {
        QTemporaryDir dir;
        const std::filesystem::path file =
            dir.filePath(QStringLiteral("p.wbhistory")).toStdString();
        std::int64_t a = 0, b = 0;
        {
            RunHistory h(file);
            RunRecord r;
            r.kernel = "k";
            r.backend = "cpu";
            r.source = "int a;\nint b;\n";
            r.metrics = {{"wb/timing/median", "Median", "duration", 2e-6, {}}};
            r.verdict = "pass";
            a = h.record(r);
            r.source = "int a;\nint c;\n";
            r.metrics = {{"wb/timing/median", "Median", "duration", 1e-6, {}}};
            b = h.record(r);
        }
        HistoryPanel panel;
        QSignalSpy baselines(&panel, &HistoryPanel::baselineChanged);
        panel.setDatabase(file);
        QTRY_COMPARE(panel.model()->rowCount(), 2);
        QCOMPARE(panel.model()->run(0)->id, b); // newest first
        QCOMPARE(panel.model()
                     ->data(panel.model()->index(0, HistoryTableModel::Verdict), Qt::DisplayRole)
                     .toString(),
                 QStringLiteral("pass"));

        // Compare the two selected rows (older first).
        panel.table()->selectAll();
        panel.compareSelected();
        QTRY_VERIFY(panel.comparison().has_value());
        const RunComparison& c = *panel.comparison();
        QCOMPARE(c.before.id, a);
        QCOMPARE(c.after.id, b);
        QVERIFY(!c.sameSource);
        QVERIFY(c.sourceDiff.find("-int b;") != std::string::npos);
        QVERIFY(c.sourceDiff.find("+int c;") != std::string::npos);
        const auto median = std::find_if(c.metrics.begin(), c.metrics.end(),
                                         [](const auto& d) { return d.tag == "wb/timing/median"; });
        QVERIFY(median != c.metrics.end() && median->deltaPercent);
        QCOMPARE(qRound(*median->deltaPercent), -50);

        // Baseline: marked in the table and announced with its metrics.
        panel.markBaseline(a);
        QTRY_VERIFY(panel.model()->run(1)->baseline);
        QVERIFY(!panel.model()->run(0)->baseline);
        const auto last = baselines.takeLast();
        QCOMPARE(last.at(0).toString(), QStringLiteral("k"));
        const auto metrics = last.at(1).value<std::vector<Summary>>();
        QCOMPARE(metrics.size(), std::size_t{1});
        QCOMPARE(metrics[0].value, 2e-6);

        // The newer run against the baseline.
        QSignalSpy vsBaseline(&panel, &HistoryPanel::comparisonShown);
        panel.compareWithBaseline(b);
        QTRY_COMPARE(vsBaseline.count(), 1);
        QCOMPARE(panel.comparison()->before.id, a);
        QCOMPARE(panel.comparison()->after.id, b);

        // A run recorded through the panel lands in the database.
        QSignalSpy recorded(&panel, &HistoryPanel::runRecorded);
        RunRecord r;
        r.kernel = "k";
        r.backend = "cuda";
        r.source = "int a;\n";
        panel.record(r);
        QTRY_COMPARE(recorded.count(), 1);
        QTRY_COMPARE(panel.model()->rowCount(), 3);
        QVERIFY(recorded.at(0).at(0).toLongLong() > b);
    }

    void sweepBlockSizeAppliesBest()
    {
        if (const QString why = cpuUnavailable(); !why.isEmpty())
            QSKIP(qPrintable("CPU backend unavailable: " + why));
        SessionDocument doc;
        doc.setSession(makeSession(), {}, QString::fromUtf8(kSource),
                       QString::fromUtf8(kReference));
        SweepPanel panel(&doc);
        QSignalSpy points(&panel, &SweepPanel::pointFinished);
        QSignalSpy finished(&panel, &SweepPanel::sweepFinished);
        panel.setParameter(SweepParameter::Kind::BlockSize, {}, QStringLiteral("32, 128, 256"));
        QVERIFY(panel.start());
        QVERIFY(panel.isRunning());
        QVERIFY(!panel.start()); // one at a time
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 300000);
        QCOMPARE(points.count(), 3);
        const SweepResult& r = *panel.result();
        QVERIFY(!r.cancelled);
        QCOMPARE(r.points.size(), std::size_t{3});
        for (const auto& p : r.points)
            QVERIFY2(p.outcome.valid, p.outcome.verdict.c_str());
        QVERIFY(r.best.has_value());
        const std::string best = r.points[*r.best].value;
        QVERIFY(panel.statusText().contains(QString::fromStdString(best)));
        QCOMPARE(doc.session().launch.block[0], std::string("64"));
        QVERIFY(panel.applyBest());
        QCOMPARE(doc.session().launch.block[0], best);
        QVERIFY(doc.isModified());

        // Cancel: stops before the remaining points.
        QSignalSpy again(&panel, &SweepPanel::sweepFinished);
        panel.setParameter(SweepParameter::Kind::BlockSize, {},
                           QStringLiteral("32, 64, 96, 128, 160, 192, 224, 256"));
        QVERIFY(panel.start());
        panel.cancel();
        QTRY_COMPARE_WITH_TIMEOUT(again.count(), 1, 300000);
        QVERIFY(panel.result()->cancelled);
        QVERIFY(panel.result()->points.size() < 8);

        // Invalid values are refused with the reason.
        panel.setParameter(SweepParameter::Kind::BlockSize, {}, QStringLiteral("32..16 +8"));
        QVERIFY(!panel.start());
        QVERIFY(panel.statusText().startsWith(QStringLiteral("Cannot sweep")));
    }

    /// Every sweep point runs in warpbench-runner: a point whose kernel crashes is that point's
    /// verdict and the next point gets a fresh runner (in-process, SIGFPE killed the window).
    void sweepPointThatCrashesIsReported()
    {
        if (const QString why = cpuUnavailable(); !why.isEmpty())
            QSKIP(qPrintable("CPU backend unavailable: " + why));
        SessionDocument doc;
        doc.setSession(outSession(kDivide), {}, QString::fromUtf8(kDivide), {});
        SweepPanel panel(&doc);
        QSignalSpy finished(&panel, &SweepPanel::sweepFinished);
        panel.setParameter(SweepParameter::Kind::Scalar, QStringLiteral("d"),
                           QStringLiteral("1, 0, 2"));
        QVERIFY(panel.start());
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 300000);
        const SweepResult& r = *panel.result();
        QCOMPARE(r.points.size(), std::size_t{3});
        for (const auto& p : r.points)
            qInfo("d = %s: %s", p.value.c_str(), p.outcome.verdict.c_str());
        QVERIFY2(r.points[0].outcome.valid, r.points[0].outcome.verdict.c_str());
        QVERIFY(!r.points[1].outcome.ok);
        QVERIFY(r.points[1].outcome.verdict.find("SIGFPE") != std::string::npos);
        QVERIFY2(r.points[2].outcome.valid, r.points[2].outcome.verdict.c_str());
    }

    /// Issue 17 item 8: a point that writes out of bounds (found by the bounds check on the
    /// CPU emulator) or leaves elements unwritten is invalid, says why in the table, and is
    /// never "best"; with no valid point the panel says so and applies nothing.
    void sweepNeverRecommendsAnInvalidPoint()
    {
        if (const QString why = cpuUnavailable(); !why.isEmpty())
            QSKIP(qPrintable("CPU backend unavailable: " + why));
        SessionDocument doc;
        doc.setSession(block256Session(), {}, QString::fromUtf8(kBlock256), {});
        SweepPanel panel(&doc);
        QSignalSpy finished(&panel, &SweepPanel::sweepFinished);
        panel.setParameter(SweepParameter::Kind::BlockSize, {}, QStringLiteral("128, 256, 512"));
        panel.setBoundsCheck(true);
        QVERIFY(panel.start());
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 300000);
        const SweepResult& r = *panel.result();
        QCOMPARE(r.points.size(), std::size_t{3});
        for (const auto& p : r.points)
            qInfo("block %s: %s", p.value.c_str(), p.outcome.verdict.c_str());
        if (r.points[0].outcome.verdict.find("unavailable") != std::string::npos)
            QSKIP("bounds-checked mode is unavailable here (needs AddressSanitizer)");
        // 128: out of bounds, named with its line, block and thread; not timed.
        const auto& oob = r.points[0].outcome;
        QVERIFY(!oob.valid && !oob.ok && oob.boundsChecked);
        QVERIFY2(oob.verdict.rfind("invalid: out of bounds at ", 0) == 0, oob.verdict.c_str());
        QVERIFY2(oob.verdict.find(".cu:4 (block (") != std::string::npos, oob.verdict.c_str());
        // 512: ran, but 256 elements were never written (no reference: only the poison tells).
        const auto& gap = r.points[2].outcome;
        QVERIFY(gap.ok && !gap.valid);
        QCOMPARE(gap.unwritten, std::size_t{256});
        QCOMPARE(gap.verdict, std::string("invalid: 256 never-written elements in 'out'"));
        QVERIFY2(r.points[1].outcome.valid, r.points[1].outcome.verdict.c_str());
        QVERIFY(r.best.has_value());
        QCOMPARE(r.points[*r.best].value, std::string("256"));
        // The table: invalid verdicts in red with the problems in the tooltip, best in bold.
        const QTableWidget* t = panel.table();
        QCOMPARE(t->rowCount(), 3);
        for (int row : {0, 2}) {
            QCOMPARE(t->item(row, 2)->foreground().color(), QColor(0xc0, 0x1c, 0x28));
            QVERIFY(t->item(row, 2)->toolTip().startsWith(QStringLiteral("Invalid point")));
            QVERIFY(!t->item(row, 0)->font().bold());
        }
        QVERIFY(t->item(0, 2)->toolTip().contains(QStringLiteral("out of bounds at ")));
        QVERIFY(t->item(1, 0)->font().bold());
        QVERIFY2(panel.statusText().contains(QStringLiteral("= 256")),
                 qPrintable(panel.statusText()));
        QVERIFY2(
            panel.statusText().contains(QStringLiteral("2 invalid point(s) never recommended")),
            qPrintable(panel.statusText()));
        if (const QString shots = qEnvironmentVariable("WARPBENCH_SCREENSHOT_DIR");
            !shots.isEmpty()) {
            panel.resize(1100, 420);
            panel.show();
            QVERIFY(QTest::qWaitForWindowExposed(&panel));
            QTest::qWait(200);
            QVERIFY(panel.grab().save(shots + QStringLiteral("/sweep-invalid-points.png")));
            panel.hide();
        }

        // Without 256 no point is valid: said so, nothing to apply.
        QSignalSpy again(&panel, &SweepPanel::sweepFinished);
        panel.setParameter(SweepParameter::Kind::BlockSize, {}, QStringLiteral("128, 512"));
        QVERIFY(panel.start());
        QTRY_COMPARE_WITH_TIMEOUT(again.count(), 1, 300000);
        QVERIFY(!panel.result()->best);
        QVERIFY2(panel.statusText().startsWith(QStringLiteral("No valid point: all 2 point(s) are "
                                                              "invalid")),
                 qPrintable(panel.statusText()));
        QVERIFY(!panel.applyBest());
        QCOMPARE(doc.session().launch.block[0], std::string("256"));
    }

    /// A point whose kernel never ends (CPU emulator) does not hold up cancel or closing: the
    /// point's runner is killed after the grace period (in-process, nothing could stop it and
    /// closing the window waited for it forever).
    void hungSweepPointCancelsAndClosesPromptly()
    {
        if (const QString why = cpuUnavailable(); !why.isEmpty())
            QSKIP(qPrintable("CPU backend unavailable: " + why));
        SessionDocument doc;
        doc.setSession(outSession(kSpin), {}, QString::fromUtf8(kSpin), {});
        {
            SweepPanel panel(&doc);
            QSignalSpy finished(&panel, &SweepPanel::sweepFinished);
            panel.setParameter(SweepParameter::Kind::BlockSize, {}, QStringLiteral("32, 64"));
            QVERIFY(panel.start());
            QTest::qWait(3000); // the runner starts, compiles and spins
            QElapsedTimer t;
            t.start();
            panel.cancel();
            QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 15000);
            qInfo("cancel during a hung point: the sweep ended after %lld ms", t.elapsed());
            QVERIFY(t.elapsed() < 5000);
            QVERIFY(panel.result()->cancelled);
            QCOMPARE(panel.result()->points.size(), std::size_t{1});
            QVERIFY2(panel.result()->points[0].outcome.verdict.find("cancelled") !=
                         std::string::npos,
                     panel.result()->points[0].outcome.verdict.c_str());
        }
        auto* panel = new SweepPanel(&doc);
        panel->setParameter(SweepParameter::Kind::BlockSize, {}, QStringLiteral("32, 64"));
        QVERIFY(panel->start());
        QTest::qWait(3000);
        QElapsedTimer t;
        t.start();
        delete panel; // what closing the window does
        qInfo("closing during a hung point took %lld ms", t.elapsed());
        QVERIFY(t.elapsed() < 5000);
    }

    void parseValues()
    {
        QCOMPARE(SweepPanel::parseValues(QStringLiteral("32, 64 128")),
                 (std::vector<std::string>{"32", "64", "128"}));
        QCOMPARE(SweepPanel::parseValues(QStringLiteral("32..256 x2")),
                 (std::vector<std::string>{"32", "64", "128", "256"}));
        QCOMPARE(SweepPanel::parseValues(QStringLiteral("1..7 +3")),
                 (std::vector<std::string>{"1", "4", "7"}));
        QVERIFY_THROWS_EXCEPTION(Error, SweepPanel::parseValues(QStringLiteral("1..x")));
    }

    void unwrittenElementsHaveTheirOwnColour()
    {
        if (const QString why = cpuUnavailable(); !why.isEmpty())
            QSKIP(qPrintable("CPU backend unavailable: " + why));
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        const QString project =
            QString::fromStdString((dataDir() / "examples" / "bugs" / "missing_bounds_check" /
                                    "missing_bounds_check.wbproj")
                                       .string());
        QVERIFY(w.openProject(project));
        QComboBox* backend = w.launchPanel()->backendChooser();
        backend->setCurrentIndex(backend->findData(QStringLiteral("cpu")));
        QSignalSpy finished(w.runController(), &RunController::runFinished);
        QVERIFY(w.run());
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 300000);
        const auto& report = w.runController()->lastOutcome()->report;
        QVERIFY2(!report.outputs.empty(), report.message.c_str());
        const std::string buffer = report.outputs.front().buffer;
        const auto mask = report.unwrittenMask(buffer);
        QVERIFY(std::count(mask.begin(), mask.end(), std::uint8_t{1}) > 0);
        DiffView* diff = w.resultsPanel()->diffView();
        QVERIFY(diff->selectOutput(QString::fromStdString(buffer)));
        DiffTableModel* model = diff->tableModel();
        const auto firstUnwritten = static_cast<std::int64_t>(
            std::find(mask.begin(), mask.end(), std::uint8_t{1}) - mask.begin());
        QVERIFY(model->isUnwritten(static_cast<std::size_t>(firstUnwritten)));
        QVERIFY(!model->isUnwritten(0));
        const QVariant unwrittenBrush =
            model->cell(firstUnwritten, DiffTableModel::ResultColumn, Qt::BackgroundRole);
        QVERIFY(unwrittenBrush.isValid());
        QVERIFY(unwrittenBrush != model->cell(0, DiffTableModel::ResultColumn, Qt::BackgroundRole));
        QVERIFY(model->cell(firstUnwritten, DiffTableModel::ResultColumn, Qt::ToolTipRole)
                    .toString()
                    .contains(QStringLiteral("never written")));
        QVERIFY2(diff->statsText().contains(QStringLiteral("never written")),
                 qPrintable(diff->statsText()));
        w.document()->setModified(false);
    }

    void heatmapPaintsMaskedElementsInTheirColour()
    {
        auto data = std::make_shared<std::vector<float>>(16, 0.5f);
        ArrayView view(data, reinterpret_cast<const std::byte*>(data->data()), data->size(),
                       ElementKind::F32, {4, 4});
        ImageView image;
        image.setColormap(Colormap::Inferno);
        image.setTrueColour(false);
        image.setArray(view);
        image.setRange(0, 1);
        std::vector<std::uint8_t> mask(16, 0);
        mask[5] = 1; // row 1, column 1
        const QColor violet(120, 90, 220);
        image.setMask(mask, violet);
        QCOMPARE(image.image().pixel(1, 1), violet.rgba());
        QVERIFY(image.image().pixel(0, 0) != violet.rgba());
        image.setMask({}, violet);
        QCOMPARE(image.image().pixel(1, 1), image.image().pixel(0, 0));
    }

    /// Run → Profile exists with its shortcut; on a CPU session it is disabled and says why,
    /// and asking for a profile anyway puts the reason in the Profile dock — no run, no crash.
    void profileOptionsAreKept()
    {
        QSettings().remove(QStringLiteral("profile"));
        {
            MainWindow w;
            auto* docks = w.findChild<ProfilingDocks*>();
            QVERIFY(docks);
            // Defaults: CUDA events, cold L2, Speed-of-Light counters.
            profiling::SessionProfileOptions o = docks->profileOptions();
            QCOMPARE(o.timing, profiling::TimingMethod::CudaEvents);
            QVERIFY(o.flushL2);
            QVERIFY(o.counters);
            // The options sit in Run → Profile Options, next to Profile.
            auto* menu = w.findChild<QMenu*>(QStringLiteral("profileOptionsMenu"));
            QVERIFY(menu);
            QVERIFY(menu->actions().contains(docks->cuptiTimingAction()));
            docks->cuptiTimingAction()->trigger();
            docks->flushL2Action()->trigger();
            o = docks->profileOptions();
            QCOMPARE(o.timing, profiling::TimingMethod::CuptiActivity);
            QVERIFY(!o.flushL2);
            QVERIFY(o.counters);
        }
        MainWindow again; // a new window (a new session of the app) keeps them
        auto* docks = again.findChild<ProfilingDocks*>();
        const profiling::SessionProfileOptions o = docks->profileOptions();
        QCOMPARE(o.timing, profiling::TimingMethod::CuptiActivity);
        QVERIFY(!o.flushL2);
        QVERIFY(docks->cuptiTimingAction()->isChecked());
        QSettings().remove(QStringLiteral("profile"));
    }

    void profileActionOnACpuSession()
    {
        if (const QString why = cpuUnavailable(); !why.isEmpty())
            QSKIP(qPrintable("CPU backend unavailable: " + why));
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        auto* docks = w.findChild<ProfilingDocks*>();
        QVERIFY(docks);
        QAction* profile = docks->profileAction();
        QVERIFY(profile);
        // Until the window's probe (off the GUI thread) has answered, Profile waits for it.
        if (!w.environment().probed) {
            QVERIFY(!profile->isEnabled());
            QVERIFY(profile->toolTip().contains(QStringLiteral("checking for a usable GPU")));
        }
        QTRY_VERIFY_WITH_TIMEOUT(w.environment().probed, 60000);
        QCOMPARE(profile->shortcut(), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_R));
        // In the Run menu, next to Run, and no other action of the window has its shortcut.
        QMenu* runMenu = nullptr;
        for (QAction* top : w.menuBar()->actions())
            if (top->menu() && top->menu()->actions().contains(profile)) runMenu = top->menu();
        QVERIFY(runMenu);
        int sameShortcut = 0;
        for (QAction* a : w.findChildren<QAction*>())
            if (!a->shortcut().isEmpty() && a->shortcut() == profile->shortcut()) ++sameShortcut;
        QCOMPARE(sameShortcut, 1);

        // The history loads off the GUI thread: count its rows once it has listed them.
        QSignalSpy listed(docks->history(), &HistoryPanel::runsListed);
        QVERIFY(w.openProject(example("hello_gpu")));
        QTRY_VERIFY(listed.count() >= 1);
        QComboBox* backend = w.launchPanel()->backendChooser();
        backend->setCurrentIndex(backend->findData(QStringLiteral("cpu")));
        QCOMPARE(w.document()->session().backend, BackendKind::Cpu);
        QVERIFY(!profile->isEnabled());
        QVERIFY2(profile->toolTip().contains(QStringLiteral("needs the CUDA backend")),
                 qPrintable(profile->toolTip()));
        QVERIFY(profile->toolTip().contains(QStringLiteral("CPU emulator")));

        const int historyRows = docks->history()->model()->rowCount();
        QSignalSpy started(w.runController(), &RunController::runStarted);
        profile->trigger(); // disabled: nothing happens
        QVERIFY(!docks->profile());
        QCOMPARE(started.count(), 0);
        QVERIFY(!w.runController()->isRunning());
        QVERIFY2(docks->speedOfLight()->statusText().contains(
                     QStringLiteral("profile needs the CUDA backend")),
                 qPrintable(docks->speedOfLight()->statusText()));
        QVERIFY(docks->profileDock()->isVisible());
        QTest::qWait(50);
        QCOMPARE(docks->history()->model()->rowCount(), historyRows);

        // Auto or CUDA without a usable GPU: disabled with the driver's reason.
        if (const auto why = cudaUnavailableReason()) {
            backend->setCurrentIndex(backend->findData(QStringLiteral("cuda")));
            QVERIFY(!profile->isEnabled());
            QVERIFY2(profile->toolTip().contains(QString::fromStdString(*why)),
                     qPrintable(profile->toolTip()));
            QVERIFY(!docks->profile());
            QVERIFY(docks->speedOfLight()->statusText().contains(QString::fromStdString(*why)));
            backend->setCurrentIndex(backend->findData(QStringLiteral("cpu")));
        }
        // A normal run still works after it.
        QSignalSpy finished(w.runController(), &RunController::runFinished);
        QVERIFY(w.run());
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 300000);
        QCOMPARE(w.runController()->lastOutcome()->report.status,
                 session::RunReport::Status::Passed);
        QVERIFY(!w.runController()->lastOutcome()->profile);
        const QString shots = qEnvironmentVariable("WARPBENCH_SCREENSHOT_DIR");
        // Asking again after the run: the run's figures stay, the status line says why.
        QVERIFY(!docks->profile());
        QVERIFY(rowOf(*docks->speedOfLight()->model(), "wb/timing/median") >= 0);
        QVERIFY(docks->speedOfLight()->statusText().contains(
            QStringLiteral("profile needs the CUDA backend")));
        if (!shots.isEmpty()) {
            QTest::qWait(200);
            QVERIFY(w.grab().save(shots + QStringLiteral("/profile-cpu.png")));
        }
        w.document()->setModified(false);
    }

    /// Issue 29 item 6: reduction's launch geometry measures its 65,536-element input, not the
    /// 256 partial sums: no "65,280 of 65,536 threads outside the data".
    void geometryMeasuresTheLargestBuffer()
    {
        MainWindow w;
        auto* docks = w.findChild<ProfilingDocks*>();
        QVERIFY(docks);
        QVERIFY(w.openProject(example("reduction")));
        const QString summary = docks->geometry()->summary();
        QVERIFY2(summary.contains(QStringLiteral("over 65,536 elements ('in'): 65,536 of 65,536 "
                                                 "elements covered")),
                 qPrintable(summary));
        QVERIFY2(!summary.contains(QStringLiteral("outside the data")), qPrintable(summary));
        w.document()->setModified(false);
    }

    /// Issue 17 item 9: matmul_tiled with a non-square block (x = 8 columns, y = 16 rows) on
    /// the CPU emulator, in the real window. The launch-geometry view, the error heatmap and
    /// who-wrote-what agree on every element — reached or not, by which block and thread —
    /// draw it at the same row and column, and name rows and columns the same way.
    void teachingViewsAgreeOnANonSquareBlock()
    {
        if (const QString why = cpuUnavailable(); !why.isEmpty())
            QSKIP(qPrintable("CPU backend unavailable: " + why));
        MainWindow w;
        w.resize(1600, 1000);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        auto* docks = w.findChild<ProfilingDocks*>();
        QVERIFY(docks);
        QVERIFY(w.openProject(example("matmul_tiled")));
        QComboBox* backend = w.launchPanel()->backendChooser();
        backend->setCurrentIndex(backend->findData(QStringLiteral("cpu")));
        // Block 8×16 typed into the launch form, grid kept at ceil(n/16) × ceil(n/16) = 13×13:
        // 13 × 8 = 104 columns and 13 × 16 = 208 rows of threads over C (200 × 200).
        const auto type = [](QLineEdit* field, const QString& text) {
            field->selectAll();
            QTest::keyClicks(field, text);
        };
        type(w.launchPanel()->blockField(0), QStringLiteral("8"));
        type(w.launchPanel()->blockField(1), QStringLiteral("16"));
        QCOMPARE(w.document()->session().launch.block[0], std::string("8"));
        QCOMPARE(w.document()->session().launch.block[1], std::string("16"));
        LaunchGeometryView* geometry = docks->geometry();
        QCOMPARE(geometry->launch().block, (Dim3{8, 16, 1}));
        QVERIFY2(geometry->summary().contains(
                     QStringLiteral("block 8×16 (x × y) over 200 rows × 200 columns ('C')")),
                 qPrintable(geometry->summary()));
        docks->traceAction()->setChecked(true);
        {
            QSignalSpy finished(w.runController(), &RunController::runFinished);
            QVERIFY(w.run());
            QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 300000);
        }
        const auto outcome = w.runController()->lastOutcome();
        QVERIFY(outcome);
        QVERIFY2(outcome->report.traces.count("C"), outcome->report.message.c_str());
        const wb::WriteTrace& trace = docks->traceView()->trace();
        QCOMPARE(trace.shape, (std::vector<std::size_t>{200, 200}));
        DiffView* diff = w.resultsPanel()->diffView();
        ImageView* heatmap = diff->errorHeatmap();
        QTRY_VERIFY(!heatmap->image().isNull());
        const std::vector<std::uint8_t>& mask = diff->tableModel()->unwrittenMask();
        QCOMPARE(mask.size(), std::size_t{200 * 200});

        // Every element: reached by the geometry ⇔ written in the trace ⇔ not violet in the
        // heatmap, and the writer the trace recorded is the block/thread the geometry names.
        const LaunchGeometry& g = geometry->geometry();
        std::size_t unreached = 0;
        for (std::uint64_t r = 0; r < 200; ++r)
            for (std::uint64_t c = 0; c < 200; ++c) {
                const std::size_t i = r * 200 + c;
                const auto t = LaunchGeometry::threadOf(geometry->launch(), g, r, c);
                QVERIFY2(t.has_value() == trace.written(i),
                         qPrintable(QString("(%1, %2)").arg(r).arg(c)));
                QCOMPARE(mask[i] != 0, !trace.written(i));
                if (!t) {
                    ++unreached;
                    continue;
                }
                QCOMPARE(trace.lastBlock(i), t->block);
                QCOMPARE(trace.lastThread(i), t->thread);
            }
        QCOMPARE(unreached, std::size_t{200 * 96}); // columns 104–199
        QVERIFY2(diff->statsText().contains(QStringLiteral("first at row 0, column 104")),
                 qPrintable(diff->statsText()));
        QCOMPARE(g.uncovered, std::uint64_t{200 * 96});

        // Show the three views side by side (heatmap and trace split at the bottom, geometry
        // raised on the right) and look at one written and one unwritten element in each.
        auto* results = w.findChild<QDockWidget*>(QStringLiteral("resultsDock"));
        auto* traceDock = w.findChild<QDockWidget*>(QStringLiteral("traceDock"));
        auto* geometryDock = w.findChild<QDockWidget*>(QStringLiteral("geometryDock"));
        for (const char* name : {"viewerDock", "profileDock", "historyDock", "sweepDock"})
            w.findChild<QDockWidget*>(QLatin1String(name))->hide();
        // A tabbed dock cannot be split: take both out of the results' tab group.
        w.removeDockWidget(results);
        w.removeDockWidget(traceDock);
        w.addDockWidget(Qt::BottomDockWidgetArea, results);
        w.splitDockWidget(results, traceDock, Qt::Horizontal);
        traceDock->show();
        results->show();
        results->raise();
        geometryDock->show();
        geometryDock->raise();
        w.resizeDocks({results}, {560}, Qt::Vertical);
        for (QWidget* p = heatmap->parentWidget(); p; p = p->parentWidget())
            if (auto* tabs = qobject_cast<QTabWidget*>(p)) {
                tabs->setCurrentWidget(heatmap);
                break;
            }
        QTest::qWait(300);
        const QImage geometryShot = geometry->grab().toImage();
        const QImage traceShot = docks->traceView()->grab().toImage();
        const QImage heatShot = heatmap->grab().toImage();
        const auto pixel = [](const QImage& img, const QRectF& cell) {
            return QColor(img.pixel(cell.center().toPoint()));
        };
        // The never-written colour of the diff table and the heatmap (a light violet).
        const QColor violet = DiffTableModel::unwrittenColour(), red(220, 40, 40);
        struct Probe {
            std::uint64_t row, col;
            bool written;
        };
        for (const Probe& e : {Probe{53, 14, true}, Probe{53, 150, false}, Probe{197, 101, true}}) {
            const std::size_t i = e.row * 200 + e.col;
            const QString at = QStringLiteral("row %1, column %2").arg(e.row).arg(e.col);
            QCOMPARE(trace.written(i), e.written);
            // Where it is drawn: each view's cell maps back to the same element.
            const QRectF gc = geometry->cellRect(e.row, e.col);
            std::uint64_t gr = 0, gcol = 0;
            QVERIFY(geometry->cellAt(gc.center(), gr, gcol));
            QCOMPARE(gr, e.row);
            QCOMPARE(gcol, e.col);
            const QRectF tc = docks->traceView()->cellRect(i);
            QCOMPARE(docks->traceView()->elementAt(tc.center()), std::optional<std::size_t>(i));
            const QRectF hc = heatmap->elementRect(static_cast<qint64>(i));
            QVERIFY(!hc.isEmpty());
            QCOMPARE(heatmap->elementAt(hc.center()), static_cast<qint64>(i));
            // x = column, y = row in all three: a larger column is further right, a larger row
            // further down.
            QVERIFY(geometry->cellRect(e.row, e.col + 1).left() > gc.left());
            QVERIFY(docks->traceView()->cellRect(i + 1).left() > tc.left());
            QVERIFY(heatmap->elementRect(static_cast<qint64>(i + 1)).left() > hc.left());
            if (e.row + 1 < 200) {
                QVERIFY(geometry->cellRect(e.row + 1, e.col).top() > gc.top());
                QVERIFY(docks->traceView()->cellRect(i + 200).top() > tc.top());
                QVERIFY(heatmap->elementRect(static_cast<qint64>(i + 200)).top() > hc.top());
            }
            // What is drawn there, and what the texts say.
            const QString geometryText = geometry->describeCell(e.row, e.col);
            const QString traceText = docks->traceView()->describe(i);
            const QString heatText = heatmap->describeElement(static_cast<qint64>(i));
            QVERIFY2(geometryText.startsWith(at), qPrintable(geometryText));
            QVERIFY2(traceText.startsWith(QStringLiteral("C ") + at), qPrintable(traceText));
            QVERIFY2(heatText.startsWith(at), qPrintable(heatText));
            if (e.written) {
                const auto t = LaunchGeometry::threadOf(geometry->launch(), g, e.row, e.col);
                const QString block = QStringLiteral("(%1, %2").arg(t->block.x).arg(t->block.y);
                const QString thread = QStringLiteral("(%1, %2").arg(t->thread.x).arg(t->thread.y);
                QVERIFY2(geometryText.contains(QStringLiteral("blockIdx ") + block) &&
                             geometryText.contains(QStringLiteral("threadIdx ") + thread),
                         qPrintable(geometryText));
                QVERIFY2(traceText.contains(QStringLiteral("blockIdx ") + block) &&
                             traceText.contains(QStringLiteral("threadIdx ") + thread),
                         qPrintable(traceText));
                unsigned bx = 99, by = 99;
                QVERIFY(geometry->blockAt(gc.center(), bx, by));
                QCOMPARE(Dim3(bx, by, 0), t->block);
                QCOMPARE(pixel(traceShot, tc).rgb(), docks->traceView()->colourOf(i).rgb());
                QVERIFY(pixel(geometryShot, gc) != red);
                QVERIFY(pixel(heatShot, hc) != violet);
            } else {
                QVERIFY2(geometryText.endsWith(QStringLiteral("no thread of the grid reaches it")),
                         qPrintable(geometryText));
                QVERIFY2(traceText.contains(QStringLiteral("never written")),
                         qPrintable(traceText));
                QVERIFY2(heatText.endsWith(QStringLiteral("never written")), qPrintable(heatText));
                QCOMPARE(pixel(geometryShot, gc), red);
                QCOMPARE(pixel(traceShot, tc).rgb(), TraceOverlayView::unwrittenColour().rgb());
                QCOMPARE(pixel(heatShot, hc), violet);
            }
        }
        // The elements the kernel wrote are right: a non-square block is no trap for it.
        for (std::size_t i = 0; i < mask.size(); ++i)
            if (!mask[i]) {
                QVERIFY(std::fabs(outcome->report.results.at("C").at(i) -
                                  outcome->report.expected.at("C").at(i)) < 1e-3);
            }
        const QString shots = qEnvironmentVariable("WARPBENCH_SCREENSHOT_DIR");
        if (!shots.isEmpty())
            QVERIFY(w.grab().save(shots + QStringLiteral("/teaching-views-8x16.png")));

        // With the grid following the block, every element is reached, written and right.
        type(w.launchPanel()->gridField(0), QStringLiteral("ceil(n/8)"));
        QCOMPARE(geometry->geometry().uncovered, std::uint64_t{0});
        {
            QSignalSpy finished(w.runController(), &RunController::runFinished);
            QVERIFY(w.run());
            QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 300000);
        }
        QCOMPARE(w.runController()->lastOutcome()->report.status,
                 session::RunReport::Status::Passed);
        QCOMPARE(docks->traceView()->trace().unwritten(), std::size_t{0});
        docks->traceAction()->setChecked(false);
        w.document()->setModified(false);
    }

    /// Sweep → Apply best in the window: the launch form shows the applied block size (it kept
    /// the old one, and the next edit of the grid wrote the old block back).
    void sweepApplyBestFillsTheLaunchForm()
    {
        if (const QString why = cpuUnavailable(); !why.isEmpty())
            QSKIP(qPrintable("CPU backend unavailable: " + why));
        MainWindow w;
        w.resize(1600, 1000);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        auto* docks = w.findChild<ProfilingDocks*>();
        QVERIFY(w.openProject(example("vector_add")));
        QComboBox* backend = w.launchPanel()->backendChooser();
        backend->setCurrentIndex(backend->findData(QStringLiteral("cpu")));
        QCOMPARE(w.launchPanel()->blockField(0)->text(), QStringLiteral("256"));
        SweepPanel* sweep = docks->sweep();
        QSignalSpy finished(sweep, &SweepPanel::sweepFinished);
        sweep->setParameter(SweepParameter::Kind::BlockSize, {}, QStringLiteral("128"));
        QVERIFY(sweep->start());
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 300000);
        QVERIFY2(sweep->applyBest(), qPrintable(sweep->statusText()));
        QCOMPARE(w.document()->session().launch.block[0], std::string("128"));
        QCOMPARE(w.launchPanel()->blockField(0)->text(), QStringLiteral("128"));
        QCOMPARE(w.launchPanel()->gridField(0)->text(),
                 QString::fromStdString(w.document()->session().launch.grid[0]));
        // Typing in another field keeps the applied block.
        w.launchPanel()->blockField(1)->selectAll();
        QTest::keyClicks(w.launchPanel()->blockField(1), QStringLiteral("1"));
        QCOMPARE(w.document()->session().launch.block[0], std::string("128"));
        w.document()->setModified(false);
    }

    void mainWindowRecordsRunsAndPresents()
    {
        if (const QString why = cpuUnavailable(); !why.isEmpty())
            QSKIP(qPrintable("CPU backend unavailable: " + why));
        MainWindow w;
        w.resize(1600, 1000);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        auto* docks = w.findChild<ProfilingDocks*>();
        QVERIFY(docks);
        QSignalSpy listed(docks->history(), &HistoryPanel::runsListed);
        QVERIFY(w.openProject(example("hello_gpu")));
        QTRY_VERIFY(listed.count() >= 1);
        QComboBox* backend = w.launchPanel()->backendChooser();
        backend->setCurrentIndex(backend->findData(QStringLiteral("cpu")));
        QCOMPARE(w.document()->session().backend, BackendKind::Cpu);
        const std::int64_t before =
            docks->history()->model()->rowCount() > 0 ? docks->history()->model()->run(0)->id : 0;

        // Two runs, both recorded; the geometry view follows the launch.
        for (int i = 0; i < 2; ++i) {
            QSignalSpy finished(w.runController(), &RunController::runFinished);
            QVERIFY(w.run());
            QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 300000);
            QTRY_VERIFY(docks->history()->model()->rowCount() > 0 &&
                        docks->history()->model()->run(0)->id > before + i);
        }
        const RunRecord& newest = *docks->history()->model()->run(0);
        QCOMPARE(newest.kernel, w.document()->session().launch.kernel);
        QCOMPARE(newest.backend, std::string("cpu"));
        QVERIFY(rowOf(*docks->speedOfLight()->model(), "wb/timing/median") >= 0);
        QVERIFY(docks->speedOfLight()->statusText().contains(QStringLiteral("CPU emulator")));
        // No counters on the CPU emulator: timing and the theoretical occupancy are shown, and
        // the roofline says why it has no point instead of drawing an empty chart.
        QVERIFY(rowOf(*docks->speedOfLight()->model(), "wb/launch/occupancy_theoretical") >= 0);
        QVERIFY(!docks->roofline()->chartShown());
        QVERIFY2(docks->roofline()->message().contains(QStringLiteral("CPU emulator")),
                 qPrintable(docks->roofline()->message()));
        QVERIFY(docks->geometry()->launch().block.x >= 1);

        // Baseline from the history shows in the Speed-of-Light table.
        docks->history()->markBaseline(docks->history()->model()->run(1)->id);
        QTRY_VERIFY(docks->speedOfLight()->model()->hasBaseline());

        // Screenshot with the Profile and History docks side by side.
        // (A tabbed dock cannot be split: take both out of the results' tab group.)
        w.removeDockWidget(docks->profileDock());
        w.removeDockWidget(docks->historyDock());
        w.addDockWidget(Qt::BottomDockWidgetArea, docks->historyDock());
        w.splitDockWidget(docks->historyDock(), docks->profileDock(), Qt::Horizontal);
        for (const char* name : {"resultsDock", "viewerDock", "sweepDock", "traceDock"})
            w.findChild<QDockWidget*>(QLatin1String(name))->hide();
        docks->profileDock()->show();
        docks->historyDock()->show();
        docks->historyDock()->raise();
        w.resizeDocks({docks->historyDock()}, {480}, Qt::Vertical);
        w.resizeDocks({docks->historyDock(), docks->profileDock()}, {600, 420}, Qt::Horizontal);
        {
            QTableView* table = docks->history()->table();
            QSignalSpy compared(docks->history(), &HistoryPanel::comparisonShown);
            table->selectionModel()->select(table->model()->index(0, 0),
                                            QItemSelectionModel::Select |
                                                QItemSelectionModel::Rows);
            table->selectionModel()->select(table->model()->index(1, 0),
                                            QItemSelectionModel::Select |
                                                QItemSelectionModel::Rows);
            docks->history()->compareSelected();
            QTRY_COMPARE(compared.count(), 1);
            QCOMPARE(docks->history()->comparison()->after.id,
                     docks->history()->model()->run(0)->id);
        }
        const QString shots = qEnvironmentVariable("WARPBENCH_SCREENSHOT_DIR");
        if (!shots.isEmpty()) {
            QTest::qWait(200);
            QVERIFY(w.grab().save(shots + QStringLiteral("/profiling.png")));
        }

        // Trace mode: the next run records who wrote what.
        docks->traceAction()->setChecked(true);
        QVERIFY(w.runController()->trace());
        {
            QSignalSpy finished(w.runController(), &RunController::runFinished);
            QVERIFY(w.run());
            QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 300000);
            const auto outcome = w.runController()->lastOutcome();
            QVERIFY2(!outcome->report.traces.empty(), outcome->report.message.c_str());
            QVERIFY(docks->traceView()->trace().count() > 0);
        }
        const QString shotDir = qEnvironmentVariable("WARPBENCH_SCREENSHOT_DIR");
        if (!shotDir.isEmpty()) {
            w.findChild<QDockWidget*>(QStringLiteral("geometryDock"))->raise();
            QTest::qWait(200);
            QVERIFY(w.grab().save(shotDir + QStringLiteral("/teaching-wiring.png")));
        }
        docks->traceAction()->setChecked(false);
        QVERIFY(!w.runController()->trace());

        // Presentation mode: one checkable action under View.
        QAction* present = docks->presentationAction();
        QVERIFY(present->isCheckable());
        const int pointSize = w.font().pointSize();
        present->trigger();
        QVERIFY(PresentationMode::isActive(&w));
        QVERIFY(w.font().pointSize() >= PresentationMode::kPointSize);
        present->trigger();
        QVERIFY(!PresentationMode::isActive(&w));
        QCOMPARE(w.font().pointSize(), pointSize);
        w.document()->setModified(false);
    }
};

WB_QTEST_MAIN(TestProfilingPanels)
#include "tst_profilingpanels.moc"
