// SPDX-License-Identifier: GPL-3.0-or-later
// Issue 29 item 2, in the real main window, offscreen: the results of the previous project do
// not stay on screen. After a traced run and a race-checked run of a racy example, opening
// another example (and File → New) clears every panel that shows a run's result: the race and
// memory entries of Problems and the editor's marks, the verdict, the diff and its error
// histogram (title and axes), the Profile dock (Speed of Light and roofline) and Who wrote
// what. One rule: each panel clears itself on the document's sessionReplaced.
#include "core/common/Paths.h"
#include "core/host/HostCompiler.h"
#include "tests/support/SuiteMain.h"
#include "tests/support/WindowTesting.h"
#include "ui/MainWindow.h"
#include "ui/common/RunController.h"
#include "ui/editor/KernelEditor.h"
#include "ui/profiling/MetricTableModel.h"
#include "ui/profiling/ProfilingDocks.h"
#include "ui/profiling/RooflineChart.h"
#include "ui/profiling/SpeedOfLightPanel.h"
#include "ui/results/DiffTableModel.h"
#include "ui/results/DiffView.h"
#include "ui/results/ResultsPanel.h"
#include "ui/teaching/TraceOverlayView.h"

#include <QAction>
#include <QChart>
#include <QChartView>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

using namespace wb;
using namespace wb::ui;

namespace {

QString missingSyncthreads()
{
    return QString::fromStdString(
        (wb::dataDir() / "examples" / "bugs" / "missing_syncthreads" / "missing_syncthreads.wbproj")
            .string());
}

/// Rows of Problems whose text contains `what`.
int problemsWith(MainWindow& w, const QString& what)
{
    const QAbstractItemModel* problems = w.resultsPanel()->problemsView()->model();
    int rows = 0;
    for (int row = 0; row < problems->rowCount(); ++row) {
        bool has = false;
        for (int c = 0; c < problems->columnCount(); ++c)
            has = has || problems->index(row, c).data().toString().contains(what);
        rows += has ? 1 : 0;
    }
    return rows;
}

bool editorMarksRaces(MainWindow& w)
{
    for (const Diagnostic& d : w.kernelEditor()->diagnostics())
        if (d.message.find("data race") != std::string::npos) return true;
    return false;
}

} // namespace

class TestProjectSwitch : public QObject {
    Q_OBJECT
    QTemporaryDir m_autosave;
    bool m_hasHostCompiler = false;

    static void waitForRun(MainWindow& w, const std::function<bool()>& start)
    {
        QSignalSpy finished(w.runController(), &RunController::runFinished);
        QVERIFY(start());
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 300000);
    }

    /// A traced run (Who wrote what, the Profile dock's figures), then a race-checked one
    /// (Problems, the editor's marks, the verdict, the diff and its histogram) of the racy
    /// example: every panel that shows a run's result shows one.
    void fillEveryResultPanel(MainWindow& w, ProfilingDocks* docks)
    {
        QVERIFY(w.openProject(missingSyncthreads()));
        docks->traceAction()->setChecked(true);
        waitForRun(w, [&w]() { return w.run(); });
        docks->traceAction()->setChecked(false);
        QVERIFY(docks->traceView()->trace().count() > 0);
        waitForRun(w, [&w]() { return w.runRaceChecked(); });
        const auto outcome = w.runController()->lastOutcome();
        QVERIFY2(!outcome->report.races.empty(), outcome->report.message.c_str());
        QVERIFY(problemsWith(w, QStringLiteral("data race")) > 0);
        QVERIFY(editorMarksRaces(w));
        QVERIFY(w.resultsPanel()->hasResults());
        QVERIFY(w.resultsPanel()->diffView()->tableModel()->rowCount() > 0);
        QChart* histogram = w.resultsPanel()->diffView()->errorHistogram()->chart();
        QVERIFY2(histogram->title().contains(QStringLiteral("Error histogram of")),
                 qPrintable(histogram->title()));
        QVERIFY(!histogram->axes().isEmpty());
        QVERIFY(docks->speedOfLight()->model()->rowCount() > 0);
        QVERIFY(!docks->speedOfLight()->titleText().startsWith(QStringLiteral("No profile")));
        QVERIFY(docks->roofline()->message().contains(QStringLiteral("CPU emulator")));
    }

    /// What the previous project's runs showed is gone from every panel.
    static void verifyNothingOfTheEarlierRun(MainWindow& w, ProfilingDocks* docks)
    {
        QCOMPARE(problemsWith(w, QStringLiteral("data race")), 0);
        QVERIFY(!editorMarksRaces(w));
        ResultsPanel* results = w.resultsPanel();
        QVERIFY(!results->hasResults());
        QVERIFY(!results->isStale());
        QVERIFY2(results->verdictText().contains(QStringLiteral("Press <b>Run</b>")),
                 qPrintable(results->verdictText()));
        QCOMPARE(results->diffView()->tableModel()->rowCount(), 0);
        QChart* histogram = results->diffView()->errorHistogram()->chart();
        QVERIFY2(histogram->title().isEmpty(), qPrintable(histogram->title()));
        QVERIFY(histogram->axes().isEmpty());
        QVERIFY(histogram->series().isEmpty());
        QCOMPARE(docks->speedOfLight()->model()->rowCount(), 0);
        QVERIFY2(docks->speedOfLight()->titleText().startsWith(QStringLiteral("No profile")),
                 qPrintable(docks->speedOfLight()->titleText()));
        QVERIFY(!docks->speedOfLight()->smPercent());
        QVERIFY(!docks->roofline()->point());
        QVERIFY2(docks->roofline()->message().startsWith(QStringLiteral("No roofline yet")),
                 qPrintable(docks->roofline()->message()));
        QCOMPARE(docks->traceView()->trace().count(), std::size_t{0});
        QVERIFY(w.runController()->lastOutcome() == nullptr);
    }

private Q_SLOTS:
    void initTestCase()
    {
        isolateWindowSuite("tst_projectswitch", m_autosave);
        m_hasHostCompiler = HostCompiler::find().has_value();
    }

    void anotherExampleClearsEveryResultPanel()
    {
        if (!m_hasHostCompiler) QSKIP("no host C++ compiler: the CPU backend cannot build here");
        MainWindow w;
        w.resize(1280, 720);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        auto* docks = w.findChild<ProfilingDocks*>();
        QVERIFY(docks);
        fillEveryResultPanel(w, docks);
        if (QTest::currentTestFailed()) return;
        QVERIFY(w.openProject(example("saxpy")));
        verifyNothingOfTheEarlierRun(w, docks);
    }

    void fileNewClearsEveryResultPanel()
    {
        if (!m_hasHostCompiler) QSKIP("no host C++ compiler: the CPU backend cannot build here");
        MainWindow w;
        w.resize(1280, 720);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        auto* docks = w.findChild<ProfilingDocks*>();
        QVERIFY(docks);
        fillEveryResultPanel(w, docks);
        if (QTest::currentTestFailed()) return;
        w.newProject();
        verifyNothingOfTheEarlierRun(w, docks);
    }
};

WB_QTEST_MAIN(TestProjectSwitch)
#include "tst_projectswitch.moc"
