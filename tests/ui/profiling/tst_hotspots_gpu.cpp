// SPDX-License-Identifier: GPL-3.0-or-later
// Run → Profile with hotspots on the GPU (label gpu, offscreen): matmul_tiled and reduction run
// in warpbench-runner with PC sampling; the kernel editor shows the heat margin on the profiled
// lines, the Inspect panel's SASS (nvdisasm, where the toolkit has it) carries the samples, and
// a click on the hottest line highlights its instructions. With WARPBENCH_SCREENSHOT_DIR set,
// the window is saved as hotspots-<example>.png.
#include "core/common/Paths.h"
#include "tests/support/SuiteMain.h"
#include "tests/support/WindowTesting.h"
#include "ui/MainWindow.h"
#include "ui/common/RunController.h"
#include "ui/common/SessionDocument.h"
#include "ui/editor/KernelEditor.h"
#include "ui/launch/LaunchPanel.h"
#include "ui/profiling/ProfilingDocks.h"
#include "ui/results/InspectPanel.h"
#include "ui/results/ResultsPanel.h"

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QPlainTextEdit>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

#include <cstdio>

using namespace wb;
using namespace wb::ui;

class TestHotspotsGpu : public QObject {
    Q_OBJECT
    QTemporaryDir m_autosave;

private Q_SLOTS:
    void initTestCase()
    {
        if (const auto why = cudaUnavailableReason()) QSKIP(why->c_str());
        isolateWindowSuite("tst_hotspots_gpu", m_autosave);
    }

    void heatMarginAfterProfile_data()
    {
        QTest::addColumn<QString>("example");
        QTest::newRow("matmul_tiled") << QStringLiteral("matmul_tiled");
        QTest::newRow("reduction") << QStringLiteral("reduction");
    }

    void heatMarginAfterProfile()
    {
        QFETCH(QString, example);
        MainWindow w;
        w.resize(1600, 1000);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        auto* docks = w.findChild<ProfilingDocks*>();
        QVERIFY(docks);
        QTRY_VERIFY_WITH_TIMEOUT(w.environment().probed, 60000);
        const auto project =
            dataDir() / "examples" / example.toStdString() / (example.toStdString() + ".wbproj");
        QVERIFY(w.openProject(QString::fromStdString(project.string())));
        QComboBox* backend = w.launchPanel()->backendChooser();
        backend->setCurrentIndex(backend->findData(QStringLiteral("cuda")));
        docks->hotspotsAction()->setChecked(true);
        QVERIFY(docks->profileOptions().hotspots);

        QSignalSpy finished(w.runController(), &RunController::runFinished);
        QElapsedTimer t;
        t.start();
        docks->profileAction()->trigger();
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 300000);
        const auto outcome = w.runController()->lastOutcome();
        std::printf("%s: profile with hotspots in the window: %lld ms\n", qPrintable(example),
                    static_cast<long long>(t.elapsed()));
        // The profile runs before the reference (reduction's is C++, built with the host
        // compiler): the status is printed, the profile is what is checked.
        std::printf("status: %s %s\n", outcome->report.statusName(),
                    outcome->report.message.c_str());
        QVERIFY(outcome->profile);
        QVERIFY2(outcome->profile->profiled(), outcome->profile->status.message.c_str());
        QVERIFY(outcome->profile->hotspotStatus);
        if (outcome->profile->hotspotStatus->state ==
            profiling::ProfilerStatus::State::InsufficientPrivileges)
            QSKIP(outcome->profile->hotspotStatus->message.c_str());
        QVERIFY2(outcome->profile->hotspots, outcome->profile->hotspotStatus->message.c_str());
        const profiling::HotspotReport& h = *outcome->profile->hotspots;
        std::printf("%s", h.toText(10, w.kernelEditor()->text().toStdString()).c_str());

        KernelEditor* editor = w.kernelEditor();
        QVERIFY(editor->hasHotspots());
        const int top = h.lines.front().line;
        QVERIFY(top > 0);
        QVERIFY(!editor->heatText(top).isEmpty());
        std::printf("heat margin at line %d: %s\n%s\n", top, qPrintable(editor->heatText(top)),
                    qPrintable(editor->heatToolTip(top)));

        // The Inspect panel: SASS with samples, and the hot line's instructions highlighted.
        InspectPanel* inspect = w.resultsPanel()->inspectPanel();
        auto* tabs = w.resultsPanel()->findChild<QTabWidget*>();
        tabs->setCurrentWidget(inspect);
        w.resultsPanel()->parentWidget()->show();
        QSignalSpy sass(inspect, &InspectPanel::sassReady);
        inspect->showSass();
        if (!InspectPanel::findDisassembler().isEmpty()) {
            QVERIFY(sass.count() > 0 || sass.wait(60000));
            QVERIFY(!inspect->listing().functions().empty());
        }
        editor->setFocus();
        editor->goToLine(top);
        QTRY_VERIFY(inspect->highlightedPtxLines() > 0);
        if (!inspect->listing().functions().empty()) {
            QVERIFY(inspect->highlightedSassRows() > 0);
            QVERIFY(inspect->sassView()->toPlainText().contains(u'%'));
        }
        const QString shots = qEnvironmentVariable("WARPBENCH_SCREENSHOT_DIR");
        if (!shots.isEmpty()) {
            QTest::qWait(300);
            const QString path = shots + QStringLiteral("/hotspots-") + example + ".png";
            QVERIFY(w.grab().save(path));
            std::printf("screenshot: %s\n", qPrintable(path));
        }
        w.document()->setModified(false);
    }
};

WB_QTEST_MAIN(TestHotspotsGpu)
#include "tst_hotspots_gpu.moc"
