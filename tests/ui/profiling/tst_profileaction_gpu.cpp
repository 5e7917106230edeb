// SPDX-License-Identifier: GPL-3.0-or-later
// Run → Profile on the GPU (label gpu, offscreen): the saxpy example on the CUDA backend is run
// in warpbench-runner with profiling on; the Profile dock shows the profile (timing, counters or
// why not), the diff passes, and the history records the run with the profile's figures.
#include "core/backend/Backend.h"
#include "core/common/Paths.h"
#include "core/profiling/history/RunHistory.h"
#include "tests/support/SuiteMain.h"
#include "ui/LaunchPanel.h"
#include "ui/MainWindow.h"
#include "ui/RunController.h"
#include "ui/SessionDocument.h"
#include "ui/profiling/HistoryPanel.h"
#include "ui/profiling/HistoryTableModel.h"
#include "ui/profiling/MetricTableModel.h"
#include "ui/profiling/ProfilingDocks.h"
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
        QStandardPaths::setTestModeEnabled(true);
        QApplication::setOrganizationName(QStringLiteral("WarpbenchTest"));
        QApplication::setApplicationName(QStringLiteral("tst_profileaction_gpu"));
        qputenv("WARPBENCH_AUTOSAVE_DIR", m_autosave.path().toUtf8());
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
};

WB_QTEST_MAIN(TestProfileActionGpu)
#include "tst_profileaction_gpu.moc"
