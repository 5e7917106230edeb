// SPDX-License-Identifier: GPL-3.0-or-later
// Issue 17 (items 3, 5, 6), in the real main window, offscreen: results belong to a run of one
// version of one project (cleared by New/Open, greyed "from an earlier version" by edits and
// compile errors); examples open as private copies that are saved elsewhere, never into the
// shipped folder, and record their history beside the copy; the Examples menu separates the
// buggy ones; Help opens the docs; a new kernel from scratch runs in four actions; the kernel
// chooser follows a renamed kernel; double-click edits a cell; a saved project keeps kernel.cu
// beside it and reloads it when it changes on disk. Screenshots go to $WARPBENCH_SCREENSHOT_DIR.
#include "core/common/Paths.h"
#include "core/host/HostCompiler.h"
#include "core/session/imageio/QtImageCodec.h"
#include "tests/support/SuiteMain.h"
#include "tests/support/WindowTesting.h"
#include "ui/MainWindow.h"
#include "ui/buffers/BufferPanel.h"
#include "ui/buffers/BufferTableModel.h"
#include "ui/buffers/BufferViewer.h"
#include "ui/common/RunController.h"
#include "ui/common/SessionDocument.h"
#include "ui/editor/KernelEditor.h"
#include "ui/editor/LiveCompiler.h"
#include "ui/launch/LaunchPanel.h"
#include "ui/project/Autosave.h"
#include "ui/results/ResultsPanel.h"

#include <QAbstractButton>
#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDesktopServices>
#include <QDir>
#include <QDirIterator>
#include <QDockWidget>
#include <QFile>
#include <QFileInfo>
#include <QFileSystemWatcher>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QPixmap>
#include <QPlainTextEdit>
#include <QScreen>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QUrl>

using namespace wb;
using namespace wb::ui;

namespace {

/// Every file of a folder with its size and modification time: "untouched" means equal.
QStringList listing(const QString& dir)
{
    QStringList out;
    QDirIterator it(dir, QDir::Files | QDir::Hidden, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QFileInfo f(it.next());
        out << QStringLiteral("%1 %2 %3")
                   .arg(f.filePath())
                   .arg(f.size())
                   .arg(f.lastModified().toMSecsSinceEpoch());
    }
    out.sort();
    return out;
}

void screenshot(QWidget& w, const char* name)
{
    const QString dir = qEnvironmentVariable("WARPBENCH_SCREENSHOT_DIR");
    if (dir.isEmpty()) return;
    QTest::qWait(300);
    const QString path = dir + u'/' + QLatin1String(name) + QStringLiteral(".png");
    // Under a window manager (tests/ui/with-window-manager.sh) the whole screen, title bar
    // included.
    const QPixmap shot = qEnvironmentVariableIsEmpty("WB_TEST_WINDOW_MANAGER")
                             ? w.grab()
                             : w.screen()->grabWindow(0);
    QVERIFY(shot.save(path));
    qInfo("screenshot: %s", qPrintable(path));
}

/// Closes the next modal message box (offscreen, nobody else would), keeping its text.
void closeNextMessageBox(QObject* context, QString* text, int tries = 1000)
{
    QTimer::singleShot(10, context, [context, text, tries]() {
        auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
        if (!box) { // not shown yet
            if (tries > 0) closeNextMessageBox(context, text, tries - 1);
            return;
        }
        if (text) *text = box->text();
        box->close();
    });
}

/// Answers the next modal message box with `button`, keeping its text.
/// Gives up after `tries` × 10 ms (so that it never answers a later test's box).
void answerNextMessageBox(QObject* context, QMessageBox::StandardButton button, QString* text,
                          int tries = 1000)
{
    QTimer::singleShot(10, context, [context, button, text, tries]() {
        auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
        if (!box) { // not shown yet
            if (tries > 0) answerNextMessageBox(context, button, text, tries - 1);
            return;
        }
        if (text) *text = box->text();
        box->button(button)->click();
    });
}

/// A student's first saxpy, the way the course writes it: y is read and written.
const char* kStudentSaxpy = R"(__global__ void saxpy(int n, float a, const float* x, float* y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}
)";

const char* kSaxpy = R"(__global__ void saxpy(int n, float a, const float* x, float* y)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = a * x[i];
}
)";

} // namespace

/// Receives what QDesktopServices::openUrl would open (setUrlHandler).
class UrlCatcher : public QObject {
    Q_OBJECT
public:
    QList<QUrl> urls;
public Q_SLOTS:
    void open(const QUrl& url) { urls << url; }
};

class TestWindowFlows : public QObject {
    Q_OBJECT
    QTemporaryDir m_autosave;
    bool m_hasHostCompiler = false;

    /// Runs the window's session and waits for the outcome.
    static void runAndWait(MainWindow& w)
    {
        QSignalSpy finished(w.runController(), &RunController::runFinished);
        QVERIFY(w.run());
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 300000);
    }

    /// Waits until no kernel compile is pending or running.
    static void settleCompiles(MainWindow& w)
    {
        QTest::qWait(500); // the live compile's debounce
        QTRY_VERIFY_WITH_TIMEOUT(!w.kernelCompiler()->isCompiling(), 60000);
        QTest::qWait(100);
    }

private Q_SLOTS:
    void initTestCase()
    {
        isolateWindowSuite("tst_windowflows", m_autosave);
        session::installQtImageCodec();
        m_hasHostCompiler = HostCompiler::find().has_value();
    }

    // Item 3: results belong to a run of a given source.
    void staleResultsAreGreyedThenClearedByNew()
    {
        if (!m_hasHostCompiler) QSKIP("no host C++ compiler: the CPU backend cannot build here");
        MainWindow w;
        w.resize(1600, 1000);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(w.openProject(example("hello_gpu")));
        ResultsPanel* results = w.resultsPanel();
        runAndWait(w);
        QCOMPARE(w.runController()->lastOutcome()->report.status,
                 session::RunReport::Status::Passed);
        QVERIFY(results->verdictText().contains(QStringLiteral("PASS")));
        w.showBuffer(QStringLiteral("dest"));
        QTRY_COMPARE(w.bufferViewer()->bufferName(), QStringLiteral("dest"));
        // Compiles after the run edit nothing: the results stay current.
        settleCompiles(w);
        QVERIFY(!results->isStale());
        QVERIFY(results->staleText().isEmpty());

        // Editing the source greys them, labelled, until the next run.
        w.kernelEditor()->append(QStringLiteral("\n// a comment\n"));
        QVERIFY(results->isStale());
        QVERIFY2(results->staleText().contains(QStringLiteral("From an earlier version")),
                 qPrintable(results->staleText()));
        QVERIFY(results->staleText().contains(QStringLiteral("kernel source changed")));
        QVERIFY(results->verdictText().contains(QStringLiteral("color:gray")));
        QVERIFY(results->verdictText().contains(QStringLiteral("PASS"))); // still readable
        QVERIFY(w.bufferViewer()->isStale());
        results->showTab(ResultsPanel::Tab::Summary);
        QVERIFY(results->isVeiled());
        results->showTab(ResultsPanel::Tab::Log); // the log is not a result: no veil
        QVERIFY(!results->isVeiled());
        results->showTab(ResultsPanel::Tab::Summary);
        QVERIFY(w.bufferViewer()->headerText().contains(QStringLiteral("from an earlier version")));
        w.findChild<QDockWidget*>(QStringLiteral("resultsDock"))->raise();
        screenshot(w, "examples-edited-results-from-an-earlier-version");
        runAndWait(w);
        QVERIFY(!results->isStale());
        QVERIFY(!results->isVeiled());
        QVERIFY(!results->verdictText().contains(QStringLiteral("color:gray")));

        // Editing the launch (block size) greys them too.
        QLineEdit* block = w.launchPanel()->blockField(0);
        block->selectAll();
        QTest::keyClicks(block, QStringLiteral("200"));
        QVERIFY(results->isStale());
        QVERIFY(results->staleText().contains(QStringLiteral("launch changed")));
        block->selectAll();
        QTest::keyClicks(block, QStringLiteral("400"));
        runAndWait(w);
        QVERIFY(!results->isStale());

        // Edited while it ran: its results arrive greyed.
        {
            QSignalSpy finished(w.runController(), &RunController::runFinished);
            QVERIFY(w.run());
            w.kernelEditor()->append(QStringLiteral("// typed during the run\n"));
            QVERIFY(results->verdictText().contains(QStringLiteral("Running")));
            QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 300000);
            QVERIFY(results->isStale());
            QVERIFY(results->staleText().contains(QStringLiteral("kernel source changed")));
        }

        // A compile error does the same, saying so.
        QString broken = w.kernelEditor()->text();
        broken.replace(QStringLiteral("a[i]"), QStringLiteral("a[i] +* ;"));
        w.kernelEditor()->setText(broken);
        QTRY_VERIFY_WITH_TIMEOUT(
            results->staleText().contains(QStringLiteral("no longer compiles")), 60000);
        QVERIFY(results->isStale());

        // File → New: no verdict, no histogram data, no buffer of the old project.
        w.document()->setModified(false);
        w.newProject();
        QVERIFY(!results->hasResults());
        QVERIFY(!results->isStale());
        QVERIFY(!results->verdictText().contains(QStringLiteral("PASS")));
        QVERIFY(results->verdictText().contains(QStringLiteral("Press <b>Run</b>")));
        QVERIFY(!w.runController()->lastOutcome());
        QVERIFY(w.bufferViewer()->bufferName().isEmpty());
        QVERIFY(!w.bufferViewer()->isStale());
    }

    void openingAnotherProjectClearsResults()
    {
        if (!m_hasHostCompiler) QSKIP("no host C++ compiler: the CPU backend cannot build here");
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(w.openProject(example("hello_gpu")));
        runAndWait(w);
        QVERIFY(w.resultsPanel()->verdictText().contains(QStringLiteral("PASS")));
        QVERIFY(w.openProject(example("vector_add")));
        QVERIFY(!w.resultsPanel()->hasResults());
        QVERIFY(!w.resultsPanel()->verdictText().contains(QStringLiteral("PASS")));
        QVERIFY(!w.runController()->lastOutcome());
    }

    // Item 5: examples are private copies; their history is private too.
    void examplesOpenAsCopiesAndSaveElsewhere()
    {
        const QString shipped = example("hello_gpu");
        const QString shippedDir = QFileInfo(shipped).absolutePath();
        const QStringList before = listing(shippedDir);
        QTemporaryDir out;
        QVERIFY(out.isValid());
        {
            MainWindow w;
            w.resize(1600, 1000);
            w.show();
            QVERIFY(QTest::qWaitForWindowExposed(&w));
            QVERIFY(w.openProject(shipped));
            SessionDocument* doc = w.document();
            QCOMPARE(doc->exampleOf(), QFileInfo(shipped).absoluteFilePath());
            QVERIFY(!doc->filePath().startsWith(shippedDir));
            QVERIFY(QFileInfo::exists(doc->filePath()));
            QVERIFY(doc->needsSaveAs());
            QVERIFY(w.windowTitle().contains(QStringLiteral("(example)")));
            // The guide opens with the example.
            auto* guide = w.findChild<QDockWidget*>(QStringLiteral("guideDock"));
            QVERIFY(guide && guide->isVisible());
            // The Save dialog starts in the documents folder, proposing <name>/<name>.wbproj.
            const QString docs =
                QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
            QCOMPARE(w.saveDialogFolder(), docs);
            QCOMPARE(w.saveProposal(),
                     QDir(docs).filePath(QStringLiteral("hello_gpu/hello_gpu.wbproj")));
            screenshot(w, "examples-opened-as-copy-with-guide");

            if (m_hasHostCompiler) {
                // History goes beside the private copy, never beside the shipped example.
                runAndWait(w);
                QTRY_VERIFY(QFileInfo::exists(
                    QFileInfo(doc->filePath()).absoluteDir().filePath("hello_gpu.wbhistory")));
            }
            // Saving into the shipped folder is refused with a message.
            QString said;
            closeNextMessageBox(this, &said);
            QVERIFY(!w.saveAs(QDir(shippedDir).filePath(QStringLiteral("hello_gpu.wbproj"))));
            QVERIFY2(said.contains(QStringLiteral("never overwritten")), qPrintable(said));
            // Into the temporary copy too (it is deleted with the window).
            closeNextMessageBox(this, &said);
            QVERIFY(!w.saveAs(doc->filePath()));
            QVERIFY(said.contains(QStringLiteral("temporary copy")));

            w.kernelEditor()->append(QStringLiteral("\n// mine now\n"));
            const QString mine = out.filePath(QStringLiteral("mine/hello_gpu.wbproj"));
            QVERIFY(w.saveAs(mine));
            QCOMPARE(doc->filePath(), QFileInfo(mine).absoluteFilePath());
            QVERIFY(doc->exampleOf().isEmpty());
            QVERIFY(!doc->needsSaveAs());
            QVERIFY(!w.windowTitle().contains(QStringLiteral("(example)")));
            // A whole project: sources, guide.
            for (const char* f : {"hello_gpu.cu", "reference.cpp", "GUIDE.md"})
                QVERIFY2(QFileInfo::exists(out.filePath(QStringLiteral("mine/") + f)), f);
        }
        QCOMPARE(listing(shippedDir), before);
    }

    void recoveredExampleWorkIsStillAnExample()
    {
        QByteArray snapshot;
        const QString shipped = QFileInfo(example("image_blur")).absoluteFilePath();
        {
            MainWindow w;
            QVERIFY(w.openProject(shipped));
            w.kernelEditor()->append(QStringLiteral("\n// typed before a crash\n"));
            w.autosave()->flush();
            w.autosave()->waitForWrites();
            QFile f(w.autosave()->snapshotPath());
            QVERIFY(f.open(QIODevice::ReadOnly));
            snapshot = f.readAll();
            w.document()->setModified(false);
        } // the temporary copy is gone now
        MainWindow again;
        QVERIFY(again.restoreSnapshot(snapshot));
        QCOMPARE(again.document()->exampleOf(), shipped);
        QVERIFY(again.document()->needsSaveAs());
        QVERIFY(again.kernelEditor()->text().contains(QStringLiteral("typed before a crash")));
        // Its data files resolve in the shipped folder, and a saved copy takes them along.
        QTemporaryDir out;
        QVERIFY(again.saveAs(out.filePath(QStringLiteral("blur/image_blur.wbproj"))));
        QVERIFY(QFileInfo::exists(out.filePath(QStringLiteral("blur/input.png"))));
    }

    void flatInstalledExampleOpensItsFolder()
    {
        const QString flat =
            QString::fromStdString((wb::dataDir() / "examples" / "hello_gpu.wbproj").string());
        if (!QFileInfo::exists(flat))
            QSKIP("not an installed tree (set WARPBENCH_DATA_DIR=<prefix>/share/warpbench)");
        MainWindow w;
        QVERIFY(w.openProject(flat));
        QCOMPARE(w.document()->exampleOf(), QFileInfo(example("hello_gpu")).absoluteFilePath());
        // Only the example's own folder was copied.
        const QDir copy = QFileInfo(w.document()->filePath()).absoluteDir();
        QVERIFY(!copy.exists(QStringLiteral("saxpy")));
        QVERIFY(copy.exists(QStringLiteral("GUIDE.md")));
    }

    void savedExampleCopiesItsDataFiles()
    {
        QTemporaryDir out;
        MainWindow w;
        QVERIFY(w.openProject(example("image_blur")));
        const QString mine = out.filePath(QStringLiteral("blur/image_blur.wbproj"));
        QVERIFY(w.saveAs(mine));
        QVERIFY(QFileInfo::exists(out.filePath(QStringLiteral("blur/input.png"))));
        QFile f(mine);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray json = f.readAll();
        // Relative, into the saved folder: not into the temporary copy that goes away.
        QVERIFY(json.contains("\"input.png\""));
        QVERIFY(!json.contains("warpbench-example-"));
    }

    void examplesMenuSeparatesBuggyOnesWithDescriptions()
    {
        MainWindow w;
        auto* menu = w.findChild<QMenu*>(QStringLiteral("examplesMenu"));
        QVERIFY(menu);
        int buggySection = -1, firstBuggy = -1, lastCorrect = -1;
        const QList<QAction*> actions = menu->actions();
        for (int i = 0; i < actions.size(); ++i) {
            QAction* a = actions[i];
            if (a->isSeparator() && a->text().contains(QStringLiteral("buggy"))) buggySection = i;
            const QString path = a->data().toString();
            if (path.isEmpty()) continue;
            if (path.contains(QStringLiteral("/bugs/"))) {
                if (firstBuggy < 0) firstBuggy = i;
            } else {
                lastCorrect = i;
            }
        }
        if (const QString dir = qEnvironmentVariable("WARPBENCH_SCREENSHOT_DIR"); !dir.isEmpty()) {
            menu->adjustSize();
            QVERIFY(menu->grab().save(dir + QStringLiteral("/examples-menu.png")));
        }
        QVERIFY(buggySection > 0);
        QVERIFY(lastCorrect >= 0 && lastCorrect < buggySection);
        QVERIFY(firstBuggy > buggySection);
        // One line each: the README's for saxpy, the project's description for the bugs.
        const auto entries = MainWindow::exampleEntries();
        for (const auto& e : entries)
            QVERIFY2(!e.description.isEmpty(), qPrintable(e.path));
        const auto saxpy = std::find_if(entries.begin(), entries.end(), [](const auto& e) {
            return e.title == QStringLiteral("saxpy");
        });
        QVERIFY(saxpy != entries.end());
        QVERIFY(saxpy->description.startsWith(QStringLiteral("A scalar parameter")));
        QVERIFY(std::count_if(entries.begin(), entries.end(),
                              [](const auto& e) { return e.buggy; }) >= 4);
        // An installed tree's flat examples/<name>.wbproj copies (for the CLI) are not listed
        // twice (run with WARPBENCH_DATA_DIR=<prefix>/share/warpbench to check an install).
        const QDir root(QString::fromStdString((wb::dataDir() / "examples").string()));
        for (const auto& e : entries)
            QVERIFY2(QFileInfo(e.path).absoluteDir() != root, qPrintable(e.path));
    }

    void helpOpensTheDocumentation()
    {
        MainWindow w;
        const QString dir = MainWindow::documentationDir();
        QVERIFY2(QFileInfo::exists(dir + QStringLiteral("/gui.md")), qPrintable(dir));
        UrlCatcher catcher;
        QDesktopServices::setUrlHandler(QStringLiteral("file"), &catcher, "open");
        auto* action = w.findChild<QAction*>(QStringLiteral("documentationAction"));
        QVERIFY(action);
        action->trigger();
        QDesktopServices::unsetUrlHandler(QStringLiteral("file"));
        QCOMPARE(catcher.urls.size(), 1);
        QCOMPARE(catcher.urls.first().toLocalFile(), QDir(dir).filePath(QStringLiteral("gui.md")));
    }

    /// Issue 29 item 1 at 1280×720: File → New, the student's saxpy, Create Buffers from
    /// Signature (y is read and written: inout with random data; the Log says why), the empty
    /// reference.cpp shows the signature a reference needs, and Run says "Ran — not checked
    /// (no reference)" in a neutral colour, never green; with y an `out` it reads (poison in,
    /// poison out) it says how many elements were never written, in amber. Typing the reference
    /// makes it a compared PASS.
    void studentSaxpyIsNotAPass()
    {
        if (!m_hasHostCompiler) QSKIP("no host C++ compiler: the CPU backend cannot build here");
        MainWindow w;
        w.resize(1280, 720);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.newProject();
        w.kernelEditor()->setText(QString::fromUtf8(kStudentSaxpy));
        QSignalSpy created(&w, &MainWindow::buffersCreatedFromSignature);
        auto* action = w.findChild<QAction*>(QStringLiteral("createFromSignatureAction"));
        QVERIFY(action);
        action->trigger();
        QTRY_COMPARE_WITH_TIMEOUT(created.count(), 1, 60000);
        QVERIFY2(created.first().at(0).toBool(), qPrintable(created.first().at(1).toString()));
        const session::Session& s = w.document()->session();
        QCOMPARE(s.findBuffer("x")->role, session::BufferRole::In);
        QCOMPARE(s.findBuffer("y")->role, session::BufferRole::InOut);
        QCOMPARE(s.findBuffer("y")->init.kind, session::Initialiser::Kind::Uniform);
        const QString log = w.resultsPanel()->logView()->toPlainText();
        QVERIFY2(log.contains(QStringLiteral(
                     "y: read and written by the kernel (line 4) → inout, random data")),
                 qPrintable(log));
        // The empty reference tab: the exact signature the reference must have.
        QVERIFY(w.referenceEditor()->text().isEmpty());
        QTRY_VERIFY_WITH_TIMEOUT(w.referenceEditor()->emptyHintShown(), 60000);
        const QString stub = w.referenceEditor()->emptyHint();
        QVERIFY2(stub.contains(QStringLiteral(
                     "void reference(int n, float a, const float* x, float* y)\n{\n"
                     "    for (int i = 0; i < n; ++i) {\n        // y[i] = ...;\n    }\n}")),
                 qPrintable(stub));
        QCOMPARE(w.referenceEditor()->annotationText(1), stub);
        w.editorTabs()->setCurrentWidget(w.referenceEditor());
        screenshot(w, "student-saxpy-reference-stub");
        w.editorTabs()->setCurrentWidget(w.kernelEditor());

        runAndWait(w);
        const auto& report = w.runController()->lastOutcome()->report;
        QVERIFY2(report.status == session::RunReport::Status::Unchecked, report.message.c_str());
        QCOMPARE(report.exitCode(), 0);
        QString verdict = w.resultsPanel()->verdictText();
        QVERIFY2(verdict.contains(QStringLiteral("Ran — not checked (no reference)")),
                 qPrintable(verdict));
        QVERIFY2(!verdict.contains(QStringLiteral("PASS")), qPrintable(verdict));
        QVERIFY2(!verdict.contains(QStringLiteral("#2e9e44")), qPrintable(verdict)); // not green
        QVERIFY2(verdict.contains(QStringLiteral("0 NaN · 0 Inf")), qPrintable(verdict));
        screenshot(w, "student-saxpy-unchecked");

        // y as an `out` it reads: every element comes out as the poison, "never written".
        w.document()->edit(SessionDocument::Part::Buffers, [](session::Session& e) {
            for (session::BufferSpec& b : e.buffers)
                if (b.name == "y") b.role = session::BufferRole::Out;
        });
        runAndWait(w);
        QCOMPARE(w.runController()->lastOutcome()->report.exitCode(), 1);
        verdict = w.resultsPanel()->verdictText();
        QVERIFY2(verdict.contains(QStringLiteral("y: <b>1,024 of 1,024 never written</b>")),
                 qPrintable(verdict));
        QVERIFY2(!verdict.contains(QStringLiteral("#2e9e44")) &&
                     verdict.contains(QStringLiteral("#b26b00")),
                 qPrintable(verdict));
        w.document()->edit(SessionDocument::Part::Buffers, [](session::Session& e) {
            for (session::BufferSpec& b : e.buffers)
                if (b.name == "y") b.role = session::BufferRole::InOut;
        });

        // A reference typed into the tab: the runs are compared, and this one passes.
        w.referenceEditor()->setText(QStringLiteral(
            "void reference(int n, float a, const float* x, float* y)\n{\n"
            "    for (int i = 0; i < n; ++i)\n        y[i] = a * x[i] + y[i];\n}\n"));
        QVERIFY(!w.referenceEditor()->emptyHintShown());
        runAndWait(w);
        const auto& compared = w.runController()->lastOutcome()->report;
        QVERIFY2(compared.status == session::RunReport::Status::Passed, compared.message.c_str());
        QVERIFY(w.resultsPanel()->verdictText().contains(QStringLiteral("PASS")));
        screenshot(w, "student-saxpy-with-reference");
        w.document()->setModified(false);
    }

    // Item 6: a new kernel from scratch in four actions.
    void newKernelFromScratchInFourActions()
    {
        if (!m_hasHostCompiler) QSKIP("no host C++ compiler: the CPU backend cannot build here");
        MainWindow w;
        w.resize(1600, 1000);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        // 1. File → New.   2. Type the kernel.
        w.newProject();
        w.kernelEditor()->setText(QString::fromUtf8(kSaxpy));
        // 3. Create Buffers from Signature.
        QSignalSpy created(&w, &MainWindow::buffersCreatedFromSignature);
        auto* action = w.findChild<QAction*>(QStringLiteral("createFromSignatureAction"));
        QVERIFY(action);
        action->trigger();
        QTRY_COMPARE_WITH_TIMEOUT(created.count(), 1, 60000);
        QVERIFY2(created.first().at(0).toBool(), qPrintable(created.first().at(1).toString()));
        const session::Session& s = w.document()->session();
        QCOMPARE(s.launch.kernel, std::string("saxpy"));
        QCOMPARE(w.launchPanel()->kernelChooser()->currentText(), QStringLiteral("saxpy"));
        const session::BufferSpec* x = s.findBuffer("x");
        const session::BufferSpec* y = s.findBuffer("y");
        QVERIFY(x && y);
        QCOMPARE(x->role, session::BufferRole::In);
        QCOMPARE(y->role, session::BufferRole::Out);
        QCOMPARE(x->shape, std::vector<std::string>{"n"});
        QVERIFY(s.findScalar("n") && s.findScalar("a"));
        QCOMPARE(s.findScalar("a")->type, session::ElementType::F32);
        // The template's unused parts are gone; its reference (for scale) too.
        QVERIFY(!s.findBuffer("in") && !s.findBuffer("out") && !s.findScalar("factor"));
        QCOMPARE(s.reference.kind, session::ReferenceSpec::Kind::None);
        // The tables show it.
        QCOMPARE(w.bufferPanel()->bufferModel()->rowCount(), 2);
        screenshot(w, "new-kernel-from-signature");
        // 4. Run.
        runAndWait(w);
        const auto& report = w.runController()->lastOutcome()->report;
        // No reference: it ran, nothing was compared — never a PASS (issue 29).
        QVERIFY2(report.status == session::RunReport::Status::Unchecked, report.message.c_str());
        QVERIFY(!w.resultsPanel()->verdictText().contains(QStringLiteral("PASS")));
        QVERIFY(w.resultsPanel()->verdictText().contains(
            QStringLiteral("Ran — not checked (no reference)")));
        screenshot(w, "new-kernel-run-unchecked");

        // Typing a reference makes the runs compared again.
        QVERIFY(!w.referenceEditor()->isReadOnly());
        QVERIFY(w.editorTabs()->tabText(1).contains(QStringLiteral("none yet")));
        w.referenceEditor()->setText(
            QStringLiteral("void reference(int n, float a, const float* x, float* y)\n{\n"
                           "    for (int i = 0; i < n; ++i)\n        y[i] = a * x[i];\n}\n"));
        QCOMPARE(w.document()->session().reference.kind, session::ReferenceSpec::Kind::Cpp);
        QCOMPARE(w.editorTabs()->tabText(1), QStringLiteral("reference.cpp"));
        runAndWait(w);
        const auto& compared = w.runController()->lastOutcome()->report;
        QVERIFY2(compared.status == session::RunReport::Status::Passed, compared.message.c_str());
        QCOMPARE(compared.referenceKind, session::ReferenceSpec::Kind::Cpp);
        QVERIFY(compared.expected.count("y") == 1);

        // Renaming the kernel in the editor: the chooser follows.
        QString renamed = w.kernelEditor()->text();
        renamed.replace(QStringLiteral("void saxpy("), QStringLiteral("void saxpy_v2("));
        w.kernelEditor()->setText(renamed);
        QTRY_COMPARE_WITH_TIMEOUT(w.launchPanel()->kernelChooser()->currentText(),
                                  QStringLiteral("saxpy_v2"), 60000);
        QCOMPARE(w.document()->session().launch.kernel, std::string("saxpy_v2"));
        // Nothing to add a second time.
        action->trigger();
        QTRY_COMPARE_WITH_TIMEOUT(created.count(), 2, 60000);
        QVERIFY(created.last().at(1).toString().contains(QStringLiteral("already has")));
        w.document()->setModified(false);
    }

    void chooserFollowsOneRenamedKernelAmongSeveral()
    {
        CompileResult before, after;
        before.ok = after.ok = true;
        for (const char* k : {"first", "second"}) {
            KernelInfo i;
            i.name = k;
            before.kernels.push_back(i);
        }
        after.kernels = before.kernels;
        after.kernels[1].name = "second_v2";
        QCOMPARE(LaunchPanel::followRename(&before, after, QStringLiteral("second")),
                 QStringLiteral("second_v2"));
        // The launched kernel is still there: nothing to follow.
        QVERIFY(LaunchPanel::followRename(&before, after, QStringLiteral("first")).isEmpty());
        // Two kernels renamed at once: no guess.
        after.kernels[0].name = "first_v2";
        QVERIFY(LaunchPanel::followRename(&before, after, QStringLiteral("second")).isEmpty());
        // A template instance the user named is never replaced.
        QVERIFY(
            LaunchPanel::followRename(&before, after, QStringLiteral("scale<float>")).isEmpty());
    }

    void doubleClickEditsACellAndViewOpensTheViewer()
    {
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QTableView* table = w.bufferPanel()->bufferTable();
        QSignalSpy shown(&w, &MainWindow::bufferShown);
        const QModelIndex cell = table->model()->index(0, BufferTableModel::NameColumn);
        const QPoint at = table->visualRect(cell).center();
        QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, at);
        QTest::mouseDClick(table->viewport(), Qt::LeftButton, {}, at);
        // The cell's editor is open (a line edit over the cell).
        QTRY_VERIFY(table->findChild<QLineEdit*>() && table->findChild<QLineEdit*>()->isVisible());
        QTest::keyClick(table->findChild<QLineEdit*>(), Qt::Key_Escape);
        QTest::qWait(200);
        QCOMPARE(shown.count(), 0);
        // The View button opens the viewer instead.
        table->selectRow(0);
        auto* view =
            w.bufferPanel()->findChild<QAbstractButton*>(QStringLiteral("viewBufferButton"));
        QVERIFY(view);
        view->click();
        QTRY_COMPARE_WITH_TIMEOUT(shown.count(), 1, 60000);
    }

    void savedProjectKeepsKernelBesideAndReloadsIt()
    {
        QTemporaryDir dir;
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        // A new project's Save dialog starts in the documents folder.
        QCOMPARE(w.saveDialogFolder(),
                 QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation));
        const QString path = dir.filePath(QStringLiteral("scale/scale.wbproj"));
        QVERIFY(w.saveAs(path));
        const QString kernelFile = dir.filePath(QStringLiteral("scale/kernel.cu"));
        QVERIFY(QFileInfo::exists(kernelFile));
        QVERIFY(QFileInfo::exists(dir.filePath(QStringLiteral("scale/reference.cpp"))));
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QJsonObject project = QJsonDocument::fromJson(f.readAll()).object();
        QCOMPARE(project["kernel"].toObject()["file"].toString(), QStringLiteral("kernel.cu"));
        QVERIFY(!project["kernel"].toObject().contains(QStringLiteral("source")));
        QVERIFY(w.sourceWatcher()->files().contains(QFileInfo(kernelFile).absoluteFilePath()));

        // Changed in another editor: the window reloads it, still unmodified.
        QSignalSpy reloaded(&w, &MainWindow::sourceReloaded);
        const QString edited = w.kernelEditor()->text() + QStringLiteral("// edited outside\n");
        {
            QFile k(kernelFile);
            QVERIFY(k.open(QIODevice::WriteOnly | QIODevice::Truncate));
            k.write(edited.toUtf8());
        }
        QTRY_COMPARE_WITH_TIMEOUT(reloaded.count(), 1, 10000);
        QCOMPARE(w.kernelEditor()->text(), edited);
        QCOMPARE(w.document()->kernelText(), edited);
        QVERIFY(!w.document()->isModified());

        // With unsaved edits in the window it asks; "No" keeps the window's text.
        w.kernelEditor()->append(QStringLiteral("// typed in the window\n"));
        const QString mine = w.kernelEditor()->text();
        QString asked;
        answerNextMessageBox(this, QMessageBox::No, &asked);
        {
            QFile k(kernelFile);
            QVERIFY(k.open(QIODevice::WriteOnly | QIODevice::Truncate));
            k.write((edited + QStringLiteral("// again outside\n")).toUtf8());
        }
        QTRY_VERIFY_WITH_TIMEOUT(asked.contains(QStringLiteral("not saved")), 10000);
        QCOMPARE(w.kernelEditor()->text(), mine);
        QCOMPARE(reloaded.count(), 1);
        w.document()->setModified(false);
    }

    void oldInlineProjectsStillLoad()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("inline.wbproj"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(R"({"schemaVersion": 1, "name": "inline",
            "kernel": {"source": "__global__ void k(float* o) { o[threadIdx.x] = 1; }"},
            "buffers": [{"name": "o", "type": "f32", "shape": [32], "role": "out"}],
            "launch": {"kernel": "k", "grid": [1], "block": [32]}})");
        f.close();
        MainWindow w;
        QVERIFY(w.openProject(path));
        QVERIFY(w.kernelEditor()->text().contains(QStringLiteral("o[threadIdx.x] = 1")));
        QVERIFY(w.document()->kernelFilePath().isEmpty());
        // Saved again, its kernel moves into kernel.cu beside it.
        QVERIFY(w.save());
        QVERIFY(QFileInfo::exists(dir.filePath(QStringLiteral("kernel.cu"))));
        MainWindow again;
        QVERIFY(again.openProject(path));
        QCOMPARE(again.kernelEditor()->text(), w.kernelEditor()->text());
    }
};

WB_QTEST_MAIN(TestWindowFlows)
#include "tst_windowflows.moc"
