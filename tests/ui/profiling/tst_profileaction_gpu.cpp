// SPDX-License-Identifier: GPL-3.0-or-later
// Run → Profile on the GPU (label gpu, offscreen): the saxpy example on the CUDA backend is run
// in warpbench-runner with profiling on; the Profile dock shows the profile (timing, counters or
// why not), the diff passes, and the history records the run with the profile's figures.
#include "core/backend/Backend.h"
#include "core/common/Paths.h"
#include "core/profiling/history/RunHistory.h"
#include "tests/support/SuiteMain.h"
#include "tests/support/WindowTesting.h"
#include "ui/MainWindow.h"
#include "ui/common/RunController.h"
#include "ui/common/SessionDocument.h"
#include "ui/launch/LaunchPanel.h"
#include "ui/profiling/HistoryPanel.h"
#include "ui/profiling/HistoryTableModel.h"
#include "ui/profiling/MetricTableModel.h"
#include "ui/profiling/ProfilingDocks.h"
#include "ui/profiling/RooflineChart.h"
#include "ui/profiling/SpeedOfLightPanel.h"

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDockWidget>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <cstdio>

using namespace wb;
using namespace wb::ui;

class TestProfileActionGpu : public QObject {
    Q_OBJECT
    QTemporaryDir m_autosave;

private Q_SLOTS:
    void initTestCase()
    {
        if (const auto why = cudaUnavailableReason()) QSKIP(why->c_str());
        isolateWindowSuite("tst_profileaction_gpu", m_autosave);
        std::filesystem::path old = profiling::RunHistory::pathForUnsaved();
        old.replace_filename("saxpy-example.wbhistory");
        std::filesystem::remove(old);
    }

    void profilesSaxpy()
    {
        MainWindow w;
        w.resize(1600, 1000);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        auto* docks = w.findChild<ProfilingDocks*>();
        QVERIFY(docks);
        QTRY_VERIFY_WITH_TIMEOUT(w.environment().probed, 60000);
        QSignalSpy listed(docks->history(), &HistoryPanel::runsListed);
        QVERIFY(w.openProject(
            QString::fromStdString((dataDir() / "examples" / "saxpy" / "saxpy.wbproj").string())));
        QTRY_VERIFY(listed.count() >= 1);
        QComboBox* backend = w.launchPanel()->backendChooser();
        backend->setCurrentIndex(backend->findData(QStringLiteral("cuda")));
        QCOMPARE(w.document()->session().backend, BackendKind::Cuda);
        QAction* profile = docks->profileAction();
        QVERIFY2(profile->isEnabled(), qPrintable(profile->toolTip()));

        const int rows = docks->history()->model()->rowCount();
        QSignalSpy finished(w.runController(), &RunController::runFinished);
        profile->trigger();
        QVERIFY(w.runController()->isRunning());
        QVERIFY(!profile->isEnabled()); // while it runs
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 300000);
        const auto outcome = w.runController()->lastOutcome();
        std::printf("status: %s %s\n", outcome->report.statusName(),
                    outcome->report.message.c_str());
        QCOMPARE(outcome->report.status, session::RunReport::Status::Passed);
        QVERIFY(outcome->profile);
        std::printf("%s", outcome->profile->toText().c_str());
        QVERIFY2(outcome->profile->profiled(), outcome->profile->status.message.c_str());
        QVERIFY(profile->isEnabled());

        SpeedOfLightPanel* sol = docks->speedOfLight();
        std::printf("dock status: %s\n", qPrintable(sol->statusText()));
        const auto& shown = sol->model()->summaries();
        QVERIFY(profiling::findSummary(shown, "wb/timing/median"));
        if (outcome->profile->counterStatus && outcome->profile->counterStatus->ok()) {
            QVERIFY(sol->smPercent().has_value());
            QVERIFY(sol->memoryPercent().has_value());
            QVERIFY(profiling::findSummary(shown, "wb/counter/gpu__time_duration.sum"));
        } else {
            QVERIFY(!sol->statusText().isEmpty()); // says why there are no counters
        }

        // Recorded with the profile's figures and a note.
        QTRY_VERIFY(docks->history()->model()->rowCount() > rows);
        const profiling::RunRecord& newest = *docks->history()->model()->run(0);
        QCOMPARE(newest.backend, std::string("cuda"));
        QCOMPARE(newest.verdict, std::string("pass"));
        const QString shots = qEnvironmentVariable("WARPBENCH_SCREENSHOT_DIR");
        if (!shots.isEmpty()) {
            docks->profileDock()->raise();
            QTest::qWait(200);
            QVERIFY(w.grab().save(shots + QStringLiteral("/profile-gpu.png")));
        }
        w.document()->setModified(false);
    }

    /// Two profiles of saxpy: the Profile dock's roofline shows the second run's point under the
    /// DRAM roof and the first run as an earlier point; screenshot roofline-h200.png.
    void rooflineInTheWindow()
    {
        MainWindow w;
        w.resize(1600, 1000);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        auto* docks = w.findChild<ProfilingDocks*>();
        QTRY_VERIFY_WITH_TIMEOUT(w.environment().probed, 60000);
        QVERIFY(w.openProject(
            QString::fromStdString((dataDir() / "examples" / "saxpy" / "saxpy.wbproj").string())));
        QComboBox* backend = w.launchPanel()->backendChooser();
        backend->setCurrentIndex(backend->findData(QStringLiteral("cuda")));
        QSignalSpy finished(w.runController(), &RunController::runFinished);
        QSignalSpy recorded(docks->history(), &HistoryPanel::runRecorded);
        for (int i = 1; i <= 2; ++i) {
            docks->profileAction()->trigger();
            QTRY_COMPARE_WITH_TIMEOUT(finished.count(), i, 300000);
            QTRY_COMPARE_WITH_TIMEOUT(recorded.count(), i, 30000);
        }
        const auto outcome = w.runController()->lastOutcome();
        QVERIFY(outcome && outcome->profile && outcome->profile->profiled());
        if (!outcome->profile->counterStatus || !outcome->profile->counterStatus->ok())
            QSKIP(
                ("counters unavailable here: " + outcome->profile->counterStatus->message).c_str());
        RooflineChart* roofline = docks->roofline();
        QVERIFY(roofline->chartShown());
        QVERIFY(roofline->point());
        const profiling::RooflinePoint& p = *roofline->point();
        std::printf("roofline: %s\n", qPrintable(roofline->summaryText()));
        QCOMPARE(p.precision, profiling::Precision::Fp32);
        QVERIFY(p.achieved > 0 && p.achieved <= p.attainable);
        QVERIFY(roofline->historyPointCount() >= 1); // the first profile
        const QStringList names = roofline->seriesNames();
        std::printf("series: %s\n", qPrintable(names.join(QStringLiteral(" | "))));
        QVERIFY(names.filter(QStringLiteral("DRAM")).size() >= 1);
        QVERIFY(names.filter(QStringLiteral("FP32")).size() == 1);
        QVERIFY(names.contains(QStringLiteral("Earlier runs (DRAM)")));
        const QString shots = qEnvironmentVariable("WARPBENCH_SCREENSHOT_DIR");
        if (!shots.isEmpty()) {
            docks->profileDock()->raise();
            QTest::qWait(300);
            QVERIFY(roofline->grab().save(shots + QStringLiteral("/roofline-h200.png")));
            QVERIFY(w.grab().save(shots + QStringLiteral("/roofline-window-h200.png")));
        }
        w.document()->setModified(false);
    }

    /// Counters refused (the privilege error injected at the CUPTI boundary in the runner): the
    /// profile still has its timing, the dock says why once with how to enable counters, and
    /// the roofline shows a line instead of an empty chart.
    void deniedCountersDegrade()
    {
        qputenv("WARPBENCH_CUPTI_FAULT", "CUPTI_ERROR_INSUFFICIENT_PRIVILEGES");
        MainWindow w; // its runner starts with the variable set
        w.resize(1600, 1000);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        auto* docks = w.findChild<ProfilingDocks*>();
        QTRY_VERIFY_WITH_TIMEOUT(w.environment().probed, 60000);
        QVERIFY(w.openProject(
            QString::fromStdString((dataDir() / "examples" / "saxpy" / "saxpy.wbproj").string())));
        QComboBox* backend = w.launchPanel()->backendChooser();
        backend->setCurrentIndex(backend->findData(QStringLiteral("cuda")));
        QSignalSpy finished(w.runController(), &RunController::runFinished);
        docks->profileAction()->trigger();
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 300000);
        qunsetenv("WARPBENCH_CUPTI_FAULT");
        const auto outcome = w.runController()->lastOutcome();
        QVERIFY(outcome && outcome->profile);
        QVERIFY(outcome->profile->profiled());
        QVERIFY(outcome->profile->counterStatus);
        QCOMPARE(outcome->profile->counterStatus->state,
                 profiling::ProfilerStatus::State::InsufficientPrivileges);
        const QString status = docks->speedOfLight()->statusText();
        std::printf("dock status: %s\n", qPrintable(status));
        QCOMPARE(status.count(QStringLiteral("NVreg_RestrictProfilingToAdminUsers=0")), 1);
        QVERIFY(profiling::findSummary(docks->speedOfLight()->model()->summaries(),
                                       "wb/timing/median"));
        RooflineChart* roofline = docks->roofline();
        QVERIFY(!roofline->chartShown());
        QVERIFY(roofline->message().contains(QStringLiteral("insufficient privileges")));
        const QString shots = qEnvironmentVariable("WARPBENCH_SCREENSHOT_DIR");
        if (!shots.isEmpty()) {
            docks->profileDock()->raise();
            QTest::qWait(300);
            QVERIFY(docks->profileDock()->grab().save(shots +
                                                      QStringLiteral("/roofline-denied-h200.png")));
        }
        w.document()->setModified(false);
    }
};

WB_QTEST_MAIN(TestProfileActionGpu)
#include "tst_profileaction_gpu.moc"
