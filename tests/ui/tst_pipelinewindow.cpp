// SPDX-License-Identifier: GPL-3.0-or-later
// A pipeline project in the real window (issue 24 part 6): the Launch panel lists its launches
// instead of one kernel's geometry, edits them as the project file's JSON (refusals name the
// field), a one-launch project becomes a pipeline, and a run shows each launch's time.
#include "core/host/HostCompiler.h"
#include "core/session/ProjectFile.h"
#include "tests/session/PipelineProjects.h"
#include "tests/support/SuiteMain.h"
#include "tests/support/WindowTesting.h"
#include "ui/MainWindow.h"
#include "ui/buffers/ScalarTableModel.h"
#include "ui/common/RunController.h"
#include "ui/common/SessionDocument.h"
#include "ui/launch/LaunchPanel.h"
#include "ui/profiling/SweepPanel.h"
#include "ui/results/ResultsPanel.h"

#include <QGroupBox>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

using namespace wb;
using namespace wb::ui;

class TestPipelineWindow : public QObject {
    Q_OBJECT
    QTemporaryDir m_autosave;

private Q_SLOTS:
    void initTestCase() { isolateWindowSuite("tst_pipelinewindow", m_autosave); }

    void pipelineShowsEditsAndRuns()
    {
        if (!HostCompiler::find()) QSKIP("no host C++ compiler: the CPU backend cannot build here");
        MainWindow w;
        w.resize(1600, 1000);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(w.openProject(example("bitonic_sort")));
        LaunchPanel* launch = w.launchPanel();
        QVERIFY(launch->pipelineBox()->isVisible());
        QVERIFY(!launch->makePipelineButton()->isVisible());
        QVERIFY(!launch->kernelChooser()->isVisible());
        const QString summary = launch->pipelineSummary()->text();
        QVERIFY2(summary.contains(QStringLiteral("1. <b>bitonic_sort_block</b> grid n/threads")),
                 qPrintable(summary));
        QVERIFY2(summary.contains(QStringLiteral("2. <b>bitonic_step</b>")) &&
                     summary.contains(QStringLiteral("for k = 2*threads … n ×2")) &&
                     summary.contains(QStringLiteral("for j = k/2 … 1 ÷2")),
                 qPrintable(summary));
        QVERIFY(launch->pipelineEditor()->toPlainText().contains(QStringLiteral("\"repeat\"")));

        // A refused edit names the field and changes nothing.
        const auto before = w.document()->session().launches;
        QString text = launch->pipelineEditor()->toPlainText();
        text.replace(QStringLiteral("\"var\": \"j\""), QStringLiteral("\"var\": \"n\""));
        launch->pipelineEditor()->setPlainText(text);
        launch->pipelineApplyButton()->click();
        QVERIFY2(launch->pipelineError().contains(
                     QStringLiteral("launches[1].repeat[1].var: loop variable \"n\" has the name")),
                 qPrintable(launch->pipelineError()));
        QVERIFY(w.document()->session().launches == before);

        // A valid edit is applied: the block sort's shared memory, then the list follows.
        text.replace(QStringLiteral("\"var\": \"n\""), QStringLiteral("\"var\": \"j\""));
        text.replace(QStringLiteral("\"threads*4\""), QStringLiteral("\"4*threads\""));
        launch->pipelineEditor()->setPlainText(text);
        launch->pipelineApplyButton()->click();
        QVERIFY2(launch->pipelineError().isEmpty(), qPrintable(launch->pipelineError()));
        QCOMPARE(w.document()->session().launches[0].launch.sharedBytes, std::string("4*threads"));
        QVERIFY(launch->pipelineSummary()->text().contains(QStringLiteral("shared 4*threads B")));

        // A run on the CPU emulator shows the pass and each launch.
        selectBackend(w, "cpu");
        launch->iterationsBox()->setValue(1);
        QSignalSpy finished(w.runController(), &RunController::runFinished);
        QVERIFY(w.run());
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 300000);
        const auto outcome = w.runController()->lastOutcome();
        QVERIFY2(outcome->report.status == session::RunReport::Status::Passed,
                 outcome->report.message.c_str());
        QCOMPARE(outcome->report.pipeline.size(), std::size_t(70));
        const QString timing = w.resultsPanel()->timingText();
        QVERIFY2(timing.contains(QStringLiteral("per pass")) &&
                     timing.contains(QStringLiteral("a pass: 70 launches")) &&
                     timing.contains(QStringLiteral("launches[0] <b>bitonic_sort_block</b> ×1")) &&
                     timing.contains(QStringLiteral("launches[1] <b>bitonic_step</b> ×69")),
                 qPrintable(timing));
        // The Launches tab lists every launch of a pass.
        QVERIFY(w.resultsPanel()->launchesTabVisible());
        const QTableWidget* table = w.resultsPanel()->launchesTable();
        QCOMPARE(table->rowCount(), 70);
        QCOMPARE(table->item(0, 1)->text(), QStringLiteral("bitonic_sort_block"));
        QCOMPARE(table->item(0, 5)->text(), QStringLiteral("1024"));
        QCOMPARE(table->item(1, 2)->text(), QStringLiteral("k=512 j=256"));
        QCOMPARE(table->item(1, 3)->text(), QStringLiteral("64×1×1"));
        QCOMPARE(table->item(69, 2)->text(), QStringLiteral("k=16384 j=1"));
        QVERIFY(!table->item(69, 6)->text().isEmpty());
        w.resultsPanel()->showTab(ResultsPanel::Tab::Launches);
        QVERIFY2(
            w.resultsPanel()->verdictText().contains(QStringLiteral("pipeline of 70 launches")),
            qPrintable(w.resultsPanel()->verdictText()));
        // Sweep works on one launch: it says so instead of sweeping.
        SweepPanel sweep(w.document());
        sweep.setParameter(profiling::SweepParameter::Kind::BlockSize, {}, QStringLiteral("64"));
        QVERIFY(!sweep.start());
        QVERIFY2(sweep.statusText().contains(QStringLiteral("this project is a pipeline")),
                 qPrintable(sweep.statusText()));
        w.document()->setModified(false);
    }

    void oneLaunchBecomesAPipeline()
    {
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(w.openProject(example("vector_add")));
        QVERIFY(!w.resultsPanel()->launchesTabVisible());
        LaunchPanel* launch = w.launchPanel();
        QVERIFY(!launch->pipelineBox()->isVisible());
        QVERIFY(launch->makePipelineButton()->isVisible());
        const session::LaunchSpec one = w.document()->session().launch;
        launch->makePipelineButton()->click();
        const session::Session& s = w.document()->session();
        QVERIFY(s.isPipeline());
        QCOMPARE(s.launches.size(), std::size_t(1));
        QVERIFY(s.launches[0].launch == one);
        QVERIFY(s.launch.kernel.empty());
        QVERIFY(launch->pipelineBox()->isVisible());
        QVERIFY(!launch->kernelChooser()->isVisible());
        // The project file written from it is a pipeline project that loads again.
        const session::Session again =
            session::ProjectFile::fromJson(session::ProjectFile::toJson(s), s.baseDir, "again");
        QVERIFY(again.launches == s.launches);
        w.document()->setModified(false);
    }

    /// Renaming a scalar in the Scalars panel renames it in the launches' bindings too.
    void renamedScalarFollowsIntoLaunchBindings()
    {
        SessionDocument doc;
        session::Session s = session::ProjectFile::fromJson(wb::test::kScanProject, "/base");
        doc.setSession(s, {}, QString::fromStdString(s.kernelSource), {});
        QCOMPARE(doc.session().launches[1].launch.bindings.at("count"), std::string("blocks"));
        ScalarTableModel model(&doc);
        QVERIFY(model.setData(model.index(2, ScalarTableModel::NameColumn),
                              QStringLiteral("nblocks"), Qt::EditRole));
        QCOMPARE(doc.session().scalars[2].name, std::string("nblocks"));
        QCOMPARE(doc.session().launches[1].launch.bindings.at("count"), std::string("nblocks"));
    }
};

WB_QTEST_MAIN(TestPipelineWindow)
#include "tst_pipelinewindow.moc"
