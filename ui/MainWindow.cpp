// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/MainWindow.h"

#include "core/common/Error.h"
#include "core/common/IncludeScan.h"
#include "core/common/MemoryFinding.h"
#include "core/common/Paths.h"
#include "core/common/Text.h"
#include "core/common/UserFile.h"
#include "core/cuda/Compiler.h"
#include "core/host/HostCompiler.h"
#include "core/session/CppReference.h"
#include "core/session/ProjectFile.h"
#include "core/session/ProjectTrust.h"
#include "core/session/ReportFormat.h"
#include "core/session/SessionRunner.h"
#include "core/session/SignatureSpecs.h"
#include "ui/StatusBanner.h"
#include "ui/buffers/BufferPanel.h"
#include "ui/buffers/BufferViewer.h"
#include "ui/common/DockScrollArea.h"
#include "ui/common/RunController.h"
#include "ui/common/SessionDocument.h"
#include "ui/common/Worker.h"
#include "ui/debug/DebugDock.h"
#include "ui/editor/FindReplaceBar.h"
#include "ui/editor/KernelEditor.h"
#include "ui/editor/LiveCompiler.h"
#include "ui/launch/LaunchPanel.h"
#include "ui/profiling/ProfilingDocks.h"
#include "ui/project/Autosave.h"
#include "ui/project/NewFromExpression.h"
#include "ui/project/TrustPrompt.h"
#include "ui/results/DiagnosticsModel.h"
#include "ui/results/DiffView.h"
#include "ui/results/InspectPanel.h"
#include "ui/results/ResultsPanel.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDateTime>
#include <QDesktopServices>
#include <QDir>
#include <QDirIterator>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QFileSystemWatcher>
#include <QHBoxLayout>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QScreen>
#include <QSettings>
#include <QShowEvent>
#include <QSpinBox>
#include <QStandardPaths>
#include <QStatusBar>
#include <QStyleHints>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTimer>
#include <QToolBar>
#include <QUrl>
#include <QVBoxLayout>

#include <filesystem>

namespace wb::ui {

namespace {

constexpr int kMaxRecent = 10;

QIcon icon(const char* name)
{
    return QIcon(QStringLiteral(":/warpbench/icons/%1.svg").arg(QLatin1String(name)));
}

CompileResult referenceBuildToResult(const session::CppReference::Build& b)
{
    CompileResult r;
    r.ok = b.ok;
    r.sourceName = "reference.cpp";
    r.diagnostics = b.diagnostics;
    r.log = b.log;
    r.compilerVersion = b.compilerVersion;
    r.compileMs = b.compileMs;
    r.target = "host";
    return r;
}

/// What a live compile shows instead of compiling when the project's flags are not trusted.
CompileResult refusedCompile(const std::string& sourceName, const std::vector<FlagRefusal>& refused)
{
    CompileResult r;
    r.sourceName = sourceName;
    r.log = session::ProjectTrust::refusalMessage(
        refused, "Nothing was compiled. Run the session to be asked whether you trust this "
                 "project, or remove the flags.");
    r.diagnostics.push_back(Diagnostic{sourceName, 0, 0, Severity::Error, {}, r.log, {}});
    return r;
}

/// The shipped examples' folder.
QString shippedExamplesDir()
{
    return QDir::cleanPath(QString::fromStdString((wb::dataDir() / "examples").string()));
}

/// Whether `path` lies inside folder `dir` (both made absolute, symlinks resolved).
bool isInside(const QString& path, const QString& dir)
{
    const auto canonical = [](const QString& p) {
        const QFileInfo info(p);
        const QString c = info.exists() ? info.canonicalFilePath()
                                        : QFileInfo(info.absolutePath()).canonicalFilePath() +
                                              u'/' + info.fileName();
        return QDir::cleanPath(c.isEmpty() ? info.absoluteFilePath() : c);
    };
    const QString d = canonical(dir);
    const QString p = canonical(path);
    return !d.isEmpty() && (p == d || p.startsWith(d + u'/'));
}

/// What an edit of `part` changed, for the "from an earlier version" label.
QString whatChanged(SessionDocument::Part part)
{
    switch (part) {
    case SessionDocument::Part::Kernel:
        return QObject::tr("the kernel source changed");
    case SessionDocument::Part::Reference:
        return QObject::tr("the reference changed");
    case SessionDocument::Part::Buffers:
        return QObject::tr("the buffers changed");
    case SessionDocument::Part::Scalars:
        return QObject::tr("the scalars changed");
    case SessionDocument::Part::Launch:
        return QObject::tr("the launch changed");
    case SessionDocument::Part::CompileOptions:
        return QObject::tr("the compile options changed");
    case SessionDocument::Part::Run:
        return QObject::tr("the run settings changed");
    case SessionDocument::Part::All:
        break;
    }
    return QObject::tr("the session changed");
}

} // namespace

MainWindow::MainWindow(const QString& autosaveDir, QWidget* parent)
    : QMainWindow(parent)
{
    setObjectName(QStringLiteral("warpbenchMainWindow"));
    setWindowIcon(icon("app"));
    setDockOptions(AnimatedDocks | AllowTabbedDocks | AllowNestedDocks);
    // Launch and Buffers run the full height on the right; Results sit under the editor.
    setCorner(Qt::TopRightCorner, Qt::RightDockWidgetArea);
    setCorner(Qt::BottomRightCorner, Qt::RightDockWidgetArea);

    m_doc = new SessionDocument(this);
    m_compileWorker = new Worker(QStringLiteral("wb-compile"), this);
    m_runWorker = new Worker(QStringLiteral("wb-run"), this);
    m_liveKernel = new LiveCompiler(m_compileWorker, 350, this);
    m_liveReference = new LiveCompiler(m_compileWorker, 700, this);
    m_runner = new RunController(m_doc, m_runWorker, this);
    m_autosave = new Autosave(autosaveDir, this);
    m_autosave->setSnapshotProvider([this]() { return snapshot(); });
    m_diagnostics = new DiagnosticsModel(this);
    m_sourceWatcher = new QFileSystemWatcher(this);
    connect(m_sourceWatcher, &QFileSystemWatcher::fileChanged, this,
            &MainWindow::sourceFileChanged);

    // Centre: banner, recovery offer, editor tabs, find bar.
    auto* centre = new QWidget(this);
    auto* cl = new QVBoxLayout(centre);
    cl->setContentsMargins(0, 0, 0, 0);
    cl->setSpacing(2);
    m_banner = new StatusBanner(centre);
    m_recoveryBar = new QFrame(centre);
    m_recoveryBar->setObjectName(QStringLiteral("recoveryBar"));
    m_recoveryBar->setStyleSheet(
        QStringLiteral("#recoveryBar { background: #d9ecff; border: 1px solid #0b3558; "
                       "border-radius: 3px; } #recoveryBar QLabel { color: #0b3558; }"));
    auto* rl = new QHBoxLayout(m_recoveryBar);
    rl->setContentsMargins(8, 4, 4, 4);
    m_recoveryLabel = new QLabel(m_recoveryBar);
    m_recoveryLabel->setWordWrap(true);
    auto* restore = new QPushButton(tr("Restore"), m_recoveryBar);
    auto* discard = new QPushButton(tr("Discard"), m_recoveryBar);
    rl->addWidget(m_recoveryLabel, 1);
    rl->addWidget(restore);
    rl->addWidget(discard);
    m_recoveryBar->hide();
    m_editorTabs = new QTabWidget(centre);
    m_editorTabs->setDocumentMode(true);
    m_kernelEditor = new KernelEditor(KernelEditor::Language::Cuda, m_editorTabs);
    m_referenceEditor = new KernelEditor(KernelEditor::Language::Cpp, m_editorTabs);
    m_editorTabs->addTab(m_kernelEditor, tr("kernel.cu"));
    m_editorTabs->addTab(m_referenceEditor, tr("reference.cpp"));
    m_findBar = new FindReplaceBar(centre);
    m_findBar->setEditor(m_kernelEditor);
    cl->addWidget(m_banner);
    cl->addWidget(m_recoveryBar);
    cl->addWidget(m_editorTabs, 1);
    cl->addWidget(m_findBar);
    setCentralWidget(centre);

    buildDocks();
    buildActions();
    buildMenus();

    // Status bar: device · backend · versions, compile state, progress of long work.
    m_deviceLabel = new QLabel(tr("probing devices…"), this);
    m_versionsLabel = new QLabel(this);
    m_compileState = new QLabel(this);
    m_lastRunLabel = new QLabel(this);
    m_progress = new QProgressBar(this);
    m_progress->setRange(0, 0);
    m_progress->setMaximumWidth(140);
    m_progress->setTextVisible(false);
    m_progress->hide();
    // Status texts never widen the window: they are clipped (whole on hover) when it is narrow.
    for (QLabel* l : {m_deviceLabel, m_versionsLabel, m_compileState, m_lastRunLabel})
        l->setMinimumWidth(1);
    statusBar()->addWidget(m_deviceLabel);
    statusBar()->addWidget(m_versionsLabel);
    statusBar()->addPermanentWidget(m_compileState);
    statusBar()->addPermanentWidget(m_lastRunLabel);
    statusBar()->addPermanentWidget(m_progress);
    m_elapsedTimer = new QTimer(this);
    m_elapsedTimer->setInterval(100);
    connect(m_elapsedTimer, &QTimer::timeout, this, [this]() {
        m_results->setRunning(
            true, tr("Running… %1 s (Shift+Esc cancels)")
                      .arg(static_cast<double>(m_runner->elapsedMs()) / 1000.0, 0, 'f', 1));
        m_buffers->updateMemory();
    });

    // Editors ↔ document
    connect(m_kernelEditor, &QsciScintilla::textChanged, this, [this]() {
        // The heat belongs to the profiled text: an edit (or another project) moves lines
        // under it.
        if (m_kernelEditor->hasHotspots()) {
            m_kernelEditor->setHotspots(nullptr);
            m_results->inspectPanel()->setHotspots(nullptr);
        }
        if (m_loadingEditors) return;
        m_doc->setKernelText(m_kernelEditor->text());
        scheduleKernelCompile(false);
    });
    // Source ↔ SASS/PTX: a line of the kernel highlights its instructions, and back.
    connect(m_kernelEditor, &KernelEditor::sourceLineSelected, this, [this](int line) {
        m_results->inspectPanel()->highlightSourceLine(line, m_kernelEditor->sourceName());
    });
    connect(m_results->inspectPanel(), &InspectPanel::sourceLineActivated, this, [this](int line) {
        m_editorTabs->setCurrentWidget(m_kernelEditor);
        m_kernelEditor->goToLine(line);
    });
    connect(m_referenceEditor, &QsciScintilla::textChanged, this, [this]() {
        if (m_loadingEditors) return;
        const bool had = m_doc->session().reference.kind == session::ReferenceSpec::Kind::Cpp;
        m_doc->setReferenceText(m_referenceEditor->text());
        if (!had) updateReferenceTab(); // typed into a project without a reference
        scheduleReferenceCompile(false);
    });
    connect(m_editorTabs, &QTabWidget::currentChanged, this,
            [this](int i) { m_findBar->setEditor(i == 1 ? m_referenceEditor : m_kernelEditor); });
    connect(m_doc, &SessionDocument::sessionReplaced, this, [this]() {
        loadEditorsFromDocument();
        // Results belong to a run of the project that was open: another one starts empty.
        m_runner->forgetLastOutcome();
        m_results->clearResults();
        m_viewer->clear();
        m_signaturePending = false;
        scheduleKernelCompile(true);
        scheduleReferenceCompile(true);
        updateTitle();
        updateWatchedFiles();
    });
    connect(m_doc, &SessionDocument::modifiedChanged, this, &MainWindow::updateTitle);
    connect(m_doc, &SessionDocument::filePathChanged, this, [this]() {
        updateTitle();
        updateWatchedFiles();
        // A saved example copy is the user's project: its old temporary folder can go.
        if (m_doc->exampleOf().isEmpty() && m_exampleCopy &&
            !isInside(m_doc->filePath(), m_exampleCopy->path()))
            m_exampleCopy.reset();
    });
    connect(m_doc, &SessionDocument::edited, this, [this](SessionDocument::Part part) {
        m_autosave->noteModified();
        ++m_editGeneration;
        if (part != SessionDocument::Part::Kernel) updateReferenceStub(); // roles, scalars
        m_runStaleReason = whatChanged(part);
        markResultsStale(m_runStaleReason);
        // A template instance typed into the kernel chooser needs a compile that instantiates it.
        if (part == SessionDocument::Part::Launch) {
            const std::string& k = m_doc->session().launch.kernel;
            const auto last = m_liveKernel->lastResult();
            if (k.find('<') != std::string::npos && (!last || !last->findKernel(k)))
                scheduleKernelCompile(false);
        }
    });
    connect(m_launch, &LaunchPanel::compileOptionsChanged, this,
            [this]() { scheduleKernelCompile(true); });

    // Compiles → editors, problems, launch panel, inspect.
    connect(m_liveKernel, &LiveCompiler::compileStarted, this,
            [this]() { m_compileState->setText(tr("compiling…")); });
    connect(m_liveKernel, &LiveCompiler::compiled, this,
            [this](std::shared_ptr<const CompileResult> r) {
                m_kernelEditor->setDiagnostics(r->diagnostics);
                for (const auto& [file, editor] : m_headerEditors)
                    editor->setDiagnostics(r->diagnostics);
                m_diagnostics->setDiagnostics(QStringLiteral("kernel"), r->diagnostics);
                m_launch->setCompileResult(r);
                m_results->inspectPanel()->setCompileResult(r);
                const int errors = static_cast<int>(std::count_if(
                    r->diagnostics.begin(), r->diagnostics.end(), [](const Diagnostic& d) {
                        return d.severity == Severity::Error || d.severity == Severity::Fatal;
                    }));
                m_compileState->setText(
                    r->ok ? tr("✔ %1 · %2 ms%3")
                                .arg(QString::fromStdString(r->target))
                                .arg(r->compileMs, 0, 'f', 0)
                                .arg(r->cache == CompileResult::Cache::Miss ||
                                             r->cache == CompileResult::Cache::Disabled
                                         ? QString()
                                         : tr(" · cache hit"))
                          : tr("✘ %n error(s)", nullptr, std::max(1, errors)));
                // The log keeps each distinct failure once (typing repeats the same one many
                // times).
                if (!r->ok && !r->log.empty() && r->log != m_lastCompileLog)
                    m_results->appendLog(
                        tr("compile failed:\n%1").arg(QString::fromStdString(r->log)));
                m_lastCompileLog = r->ok ? std::string() : r->log;
                if (!r->ok) markResultsStale(tr("the kernel no longer compiles"));
                if (m_signaturePending) {
                    m_signaturePending = false;
                    applySignature(*r);
                }
                updateReferenceStub();
            });
    connect(m_liveReference, &LiveCompiler::compiled, this,
            [this](std::shared_ptr<const CompileResult> r) {
                m_referenceEditor->setDiagnostics(r->diagnostics);
                m_diagnostics->setDiagnostics(QStringLiteral("reference"), r->diagnostics);
            });
    connect(m_results, &ResultsPanel::diagnosticActivated, this, [this](int row) {
        const Diagnostic& d = m_diagnostics->diagnostic(row);
        const bool reference = m_diagnostics->source(row) == u"reference";
        KernelEditor* editor = reference ? m_referenceEditor : m_kernelEditor;
        // A message in an included header opens that header in a tab of its own.
        if (!reference && !d.file.empty() && d.file != m_kernelEditor->sourceName().toStdString())
            if (KernelEditor* header = headerEditor(d.file)) editor = header;
        m_editorTabs->setCurrentWidget(editor);
        if (d.line > 0) editor->goToLine(d.line, std::max(1, d.column));
    });

    connect(m_results, &ResultsPanel::locationActivated, this,
            [this](const QString& file, int line, int column) {
                KernelEditor* editor =
                    file == m_referenceEditor->sourceName() || file.endsWith(QStringLiteral(".cpp"))
                        ? m_referenceEditor
                        : m_kernelEditor;
                m_editorTabs->setCurrentWidget(editor);
                editor->goToLine(line, std::max(1, column));
            });

    // Runs
    connect(m_runner, &RunController::runStarted, this, [this]() {
        m_runEditGeneration = m_editGeneration;
        m_runAction->setEnabled(false);
        m_boundsCheckAction->setEnabled(false);
        m_raceCheckAction->setEnabled(false);
        m_diagnostics->setDiagnostics(QStringLiteral("memory"), {});
        m_diagnostics->setDiagnostics(QStringLiteral("races"), {});
        m_cancelAction->setEnabled(true);
        m_progress->show();
        m_elapsedTimer->start();
        m_results->setRunning(true, tr("Running…"));
        m_results->appendLog(tr("run started"));
    });
    connect(m_runner, &RunController::runFinished, this, &MainWindow::onRunFinished);
    connect(m_results, &ResultsPanel::boundsCheckRequested, this, [this]() { runBoundsChecked(); });
    connect(m_runner, &RunController::runCancelled, this, [this]() {
        m_runAction->setEnabled(true);
        m_boundsCheckAction->setEnabled(true);
        m_raceCheckAction->setEnabled(true);
        m_cancelAction->setEnabled(false);
        m_progress->hide();
        m_elapsedTimer->stop();
        m_results->setRunning(
            true,
            tr("Cancelled — the window is free; the abandoned run's result will be dropped."));
        m_results->appendLog(tr("run cancelled"));
    });

    // Buffers → viewer
    connect(m_buffers, &BufferPanel::bufferActivated, this,
            [this](const QString& name) { showBuffer(name); });

    // Recovery
    connect(restore, &QPushButton::clicked, this, [this]() {
        if (m_pendingRecovery.isEmpty()) return;
        const QByteArray content = m_pendingRecovery.takeFirst();
        const QString path = m_pendingRecoveryPaths.takeFirst();
        if (restoreSnapshot(content))
            QFile::remove(path),
                QFile::remove(QFileInfo(path).absolutePath() + u'/' +
                              QFileInfo(path).completeBaseName() + QStringLiteral(".lock"));
        m_recoveryBar->setVisible(!m_pendingRecovery.isEmpty());
    });
    connect(discard, &QPushButton::clicked, this, [this]() {
        for (const QString& path : m_pendingRecoveryPaths)
            Autosave::discard({path, {}, {}});
        m_pendingRecovery.clear();
        m_pendingRecoveryPaths.clear();
        m_recoveryBar->hide();
    });

    // Profiling and teaching docks (ui/profiling), before the layout is restored.
    new ProfilingDocks(this);
    new DebugDock(this);

    // The first-start layout (View → Reset Layout returns to it), then the one remembered
    // between sessions. The window starts no larger than the screen.
    m_defaultState = saveState();
    QSettings settings;
    resize(defaultWindowSize());
    restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray());
    // A geometry remembered from a larger screen (or an older version) is cut to this one.
    if (const QScreen* s = screen(); s && !(windowState() & Qt::WindowMaximized)) {
        const QRect room = s->availableGeometry();
        if (width() > room.width() || height() > room.height()) {
            resize(size().boundedTo(room.size()));
            move(room.topLeft());
        }
    }
    m_layoutRestored = restoreState(settings.value(QStringLiteral("window/state")).toByteArray());

    loadEditorsFromDocument();
    updateTitle();
    rebuildRecentMenu();
    QTimer::singleShot(0, this, &MainWindow::probeEnvironment);
    scheduleKernelCompile(false);
    scheduleReferenceCompile(false);
}

MainWindow::~MainWindow() = default;

void MainWindow::buildDocks()
{
    m_launch = new LaunchPanel(m_doc, this);
    m_buffers = new BufferPanel(m_doc, this);
    m_results = new ResultsPanel(m_diagnostics, this);
    m_viewer = new BufferViewer(this);

    // Every panel scrolls rather than forcing the window's minimum size (DockScrollArea).
    auto dock = [this](const QString& title, const char* name, QWidget* w,
                       Qt::DockWidgetArea area) {
        auto* d = new QDockWidget(title, this);
        d->setObjectName(QLatin1String(name));
        // The launch form keeps its height and scrolls; the other panels shrink first.
        d->setWidget(new DockScrollArea(
            w, d, w == m_launch ? DockScrollArea::Fit::Natural : DockScrollArea::Fit::Squeeze));
        addDockWidget(area, d);
        return d;
    };
    m_launchDock = dock(tr("Launch"), "launchDock", m_launch, Qt::RightDockWidgetArea);
    m_buffersDock = dock(tr("Buffers"), "buffersDock", m_buffers, Qt::RightDockWidgetArea);
    m_resultsDock = dock(tr("Results"), "resultsDock", m_results, Qt::BottomDockWidgetArea);
    m_viewerDock = dock(tr("Buffer viewer"), "viewerDock", m_viewer, Qt::BottomDockWidgetArea);
    splitDockWidget(m_launchDock, m_buffersDock, Qt::Vertical);
    tabifyDockWidget(m_resultsDock, m_viewerDock);
    m_resultsDock->raise();
    resizeDocks({m_launchDock}, {520}, Qt::Horizontal);
    resizeDocks({m_launchDock, m_buffersDock}, {540, 360}, Qt::Vertical);
    resizeDocks({m_resultsDock}, {330}, Qt::Vertical);
}

void MainWindow::buildActions()
{
    m_runAction = new QAction(icon("run"), tr("&Run"), this);
    m_runAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_R));
    m_runAction->setToolTip(
        tr("Compile if needed, launch, time and compare with the reference (Ctrl+R)"));
    connect(m_runAction, &QAction::triggered, this, [this]() { run(); });
    m_compileAction = new QAction(icon("compile"), tr("&Compile"), this);
    m_compileAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_B));
    m_compileAction->setToolTip(tr("Compile the kernel and the reference now (Ctrl+B)"));
    connect(m_compileAction, &QAction::triggered, this, &MainWindow::compileNow);
    m_boundsCheckAction = new QAction(tr("Run with &Bounds Checking (CPU Emulator)"), this);
    m_boundsCheckAction->setObjectName(QStringLiteral("boundsCheckAction"));
    m_boundsCheckAction->setShortcut(QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_R));
    m_boundsCheckAction->setToolTip(
        tr("Run on the CPU emulator with every memory access checked: slower, but an access "
           "outside a buffer is reported with its kernel line, block and thread instead of "
           "crashing the run (Ctrl+Alt+R)"));
    connect(m_boundsCheckAction, &QAction::triggered, this, [this]() { runBoundsChecked(); });
    m_raceCheckAction = new QAction(tr("Check &Races (CPU Emulator)"), this);
    m_raceCheckAction->setObjectName(QStringLiteral("raceCheckAction"));
    m_raceCheckAction->setToolTip(
        tr("Run on the CPU emulator with every shared and global memory access watched: each "
           "pair of threads that touch the same address without a barrier between them (one "
           "of them writing, not both atomic) is a problem at both kernel lines"));
    connect(m_raceCheckAction, &QAction::triggered, this, [this]() { runRaceChecked(); });

    m_cancelAction = new QAction(icon("cancel"), tr("C&ancel"), this);
    m_cancelAction->setShortcut(QKeySequence(Qt::SHIFT | Qt::Key_Escape));
    m_cancelAction->setToolTip(
        tr("Abandon the running job; the window is free at once (Shift+Esc)"));
    m_cancelAction->setEnabled(false);
    connect(m_cancelAction, &QAction::triggered, this, &MainWindow::cancel);

    auto* bar = addToolBar(tr("Main"));
    bar->setObjectName(QStringLiteral("mainToolBar"));
    bar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    bar->addAction(m_runAction);
    bar->addAction(m_compileAction);
    bar->addAction(m_cancelAction);
    bar->addSeparator();
    auto* iterations = new QSpinBox(bar);
    iterations->setRange(1, 100000);
    iterations->setPrefix(tr("Iterations: "));
    iterations->setToolTip(tr("Timed iterations per run"));
    bar->addWidget(iterations);
    auto sync = [this, iterations]() {
        QSignalBlocker block(iterations);
        iterations->setValue(m_doc->session().iterations);
    };
    connect(m_doc, &SessionDocument::sessionReplaced, iterations, sync);
    connect(m_doc, &SessionDocument::edited, iterations, sync);
    connect(iterations, &QSpinBox::valueChanged, this, [this](int v) {
        if (v != m_doc->session().iterations)
            m_doc->edit(SessionDocument::Part::Run, [v](session::Session& s) { s.iterations = v; });
    });
    sync();
}

void MainWindow::buildMenus()
{
    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->addAction(icon("new"), tr("&New"), QKeySequence::New, this, [this]() {
        if (maybeSave()) newProject();
    });
    file->addAction(tr("New from &Expression…"), this, [this]() {
        if (maybeSave() && NewFromExpressionDialog::createProject(this, *m_doc))
            m_exampleCopy.reset();
    });
    file->addAction(icon("open"), tr("&Open…"), QKeySequence::Open, this, [this]() {
        if (!maybeSave()) return;
        const QString path =
            QFileDialog::getOpenFileName(this, tr("Open project"), QString(),
                                         tr("Warpbench projects (*.wbproj);;All files (*)"));
        if (!path.isEmpty()) openProject(path);
    });
    m_recentMenu = file->addMenu(tr("Open &Recent"));
    file->addAction(icon("save"), tr("&Save"), QKeySequence::Save, this, [this]() { save(); });
    file->addAction(tr("Save &As…"), QKeySequence::SaveAs, this, [this]() {
        const QString path = QFileDialog::getSaveFileName(
            this, tr("Save project as"), saveProposal(), tr("Warpbench projects (*.wbproj)"));
        if (!path.isEmpty())
            saveAs(path.endsWith(QStringLiteral(".wbproj")) ? path
                                                            : path + QStringLiteral(".wbproj"));
    });
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);

    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    auto current = [this]() {
        return m_editorTabs->currentIndex() == 1 ? m_referenceEditor : m_kernelEditor;
    };
    edit->addAction(tr("&Undo"), QKeySequence::Undo, this, [current]() { current()->undo(); });
    edit->addAction(tr("&Redo"), QKeySequence::Redo, this, [current]() { current()->redo(); });
    edit->addSeparator();
    edit->addAction(tr("&Find…"), QKeySequence::Find, this, [this]() { m_findBar->showFind(); });
    edit->addAction(tr("Find and &Replace…"), QKeySequence::Replace, this,
                    [this]() { m_findBar->showReplace(); });
    edit->addAction(tr("Find &Next"), QKeySequence::FindNext, this,
                    [this]() { m_findBar->findNext(); });
    edit->addAction(tr("&Go to Line…"), QKeySequence(Qt::CTRL | Qt::Key_L), this,
                    [this]() { m_findBar->showGoToLine(); });
    edit->addSeparator();
    edit->addAction(tr("Complete"), QKeySequence(Qt::CTRL | Qt::Key_Space), this,
                    [current]() { current()->showCompletions(true); });
    edit->addSeparator();
    QAction* fromSignature = edit->addAction(tr("Create &Buffers from Signature"), this,
                                             &MainWindow::createBuffersFromSignature);
    fromSignature->setObjectName(QStringLiteral("createFromSignatureAction"));
    fromSignature->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_B));
    fromSignature->setToolTip(
        tr("Add the buffers and scalars the kernel's parameters need: pointer → buffer (const "
           "→ in, else out), value → scalar, sizes from the first integer parameter "
           "(Ctrl+Shift+B)"));
    connect(m_buffers, &BufferPanel::createFromSignatureRequested, this,
            &MainWindow::createBuffersFromSignature);

    QMenu* runMenu = menuBar()->addMenu(tr("&Run"));
    runMenu->addAction(m_runAction);
    runMenu->addAction(m_boundsCheckAction);
    runMenu->addAction(m_raceCheckAction);
    runMenu->addAction(tr("Run under compute-sanitizer: &memcheck (GPU)"), QKeySequence(), this,
                       [this]() { runUnderSanitizer(false); });
    runMenu->addAction(tr("Run under compute-sanitizer: racechec&k (GPU)"), QKeySequence(), this,
                       [this]() { runUnderSanitizer(true); });
    runMenu->addAction(m_compileAction);
    runMenu->addAction(m_cancelAction);
    runMenu->addSeparator();
    runMenu->addAction(tr("Next Mismatch / Problem"), QKeySequence(Qt::Key_F8), this,
                       [this]() { goToNext(false); });
    runMenu->addAction(tr("Previous Mismatch / Problem"), QKeySequence(Qt::SHIFT | Qt::Key_F8),
                       this, [this]() { goToNext(true); });

    QMenu* view = menuBar()->addMenu(tr("&View"));
    for (QDockWidget* d : {m_launchDock, m_buffersDock, m_resultsDock, m_viewerDock})
        view->addAction(d->toggleViewAction());
    view->addSeparator();
    view->addAction(tr("Reset Layout"), this, &MainWindow::resetLayout)
        ->setObjectName(QStringLiteral("resetLayoutAction"));

    QMenu* examplesMenu = menuBar()->addMenu(tr("E&xamples"));
    examplesMenu->setObjectName(QStringLiteral("examplesMenu"));
    examplesMenu->setToolTipsVisible(true);
    const QList<ExampleEntry> list = exampleEntries();
    if (list.isEmpty()) {
        examplesMenu
            ->addAction(tr("(no examples found in %1)")
                            .arg(QString::fromStdString((wb::dataDir() / "examples").string())))
            ->setEnabled(false);
    }
    // Correct examples first, then the ones that are wrong on purpose; each with its one line.
    for (const bool buggy : {false, true}) {
        if (std::none_of(list.begin(), list.end(),
                         [buggy](const ExampleEntry& e) { return e.buggy == buggy; }))
            continue;
        examplesMenu->addSection(buggy ? tr("Deliberately buggy — find the mistake")
                                       : tr("Examples"));
        for (const ExampleEntry& e : list) {
            if (e.buggy != buggy) continue;
            QString description = e.description;
            if (description.size() > 90) description = description.left(88) + QStringLiteral("…");
            const QString title = QFileInfo(e.path).completeBaseName();
            QAction* a = examplesMenu->addAction(
                description.isEmpty() ? title : QStringLiteral("%1 — %2").arg(title, description),
                this, [this, path = e.path]() {
                    if (maybeSave()) openProject(path);
                });
            a->setToolTip(e.description);
            a->setData(e.path);
        }
    }

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    QAction* docs =
        help->addAction(tr("&Documentation"), QKeySequence::HelpContents, this, [this]() {
            const QString dir = documentationDir();
            const QString index = QDir(dir).filePath(QStringLiteral("gui.md"));
            if (dir.isEmpty() || !QFileInfo::exists(index)) {
                QMessageBox::information(this, tr("Documentation"),
                                         tr("The documentation was not found (looked in %1). It is "
                                            "in the docs/ folder of "
                                            "the source tree.")
                                             .arg(dir.isEmpty() ? tr("share/doc/warpbench") : dir));
                return;
            }
            if (!QDesktopServices::openUrl(QUrl::fromLocalFile(index)))
                m_results->appendLog(tr("no program opens %1").arg(index));
        });
    docs->setObjectName(QStringLiteral("documentationAction"));
    help->addAction(tr("Documentation &Folder"), this, [this]() {
        const QString dir = documentationDir();
        if (!dir.isEmpty()) QDesktopServices::openUrl(QUrl::fromLocalFile(dir));
    });
    help->addAction(tr("&About Warpbench"), this, [this]() {
        QMessageBox::about(this, tr("About Warpbench"),
                           tr("<b>Warpbench %1</b><br>A desktop workbench for CUDA kernels.<br>"
                              "GPL-3.0-or-later. Uses Qt, QScintilla and Qt Charts.")
                               .arg(QStringLiteral(WB_VERSION)));
    });
}

QList<MainWindow::ExampleEntry> MainWindow::exampleEntries()
{
    QList<ExampleEntry> entries;
    const QDir root(shippedExamplesDir());
    for (const auto& [title, path] : examples()) {
        // The installed tree's flat examples/<name>.wbproj copies (for the CLI) are not listed.
        if (QFileInfo(path).absoluteDir() == root) continue;
        ExampleEntry e;
        e.path = path;
        const QString rel = root.relativeFilePath(QFileInfo(path).absolutePath());
        e.title = rel;
        e.buggy = rel.startsWith(QStringLiteral("bugs/"));
        // The README's first line ("saxpy — a scalar parameter, …"), else the project's own.
        const QString readme = QFileInfo(path).absoluteDir().filePath(QStringLiteral("README.md"));
        try {
            if (QFileInfo::exists(readme)) {
                QString line = SessionDocument::readSource(readme, "the example's README")
                                   .section(u'\n', 0, 0)
                                   .trimmed();
                // "name — what": the menu already shows the name.
                if (const qsizetype dash = line.indexOf(QStringLiteral(" — ")); dash >= 0)
                    line = line.mid(dash + 3);
                if (!line.isEmpty()) line[0] = line[0].toUpper();
                e.description = line;
            }
            if (e.description.isEmpty()) {
                const QJsonObject o =
                    QJsonDocument::fromJson(
                        SessionDocument::readSource(path, "the example project").toUtf8())
                        .object();
                e.description = o.value(QStringLiteral("description")).toString();
            }
        } catch (const std::exception&) {
            // An unreadable README leaves the entry without its line.
        }
        entries.append(e);
    }
    return entries;
}

QString MainWindow::documentationDir()
{
    // Installed: <prefix>/share/doc/warpbench next to <prefix>/share/warpbench; in the build
    // tree the source tree's docs/ (WB_SOURCE_DOCS_DIR).
    const QDir data(QString::fromStdString(wb::dataDir().string()));
    const QString installed = QDir::cleanPath(data.filePath(QStringLiteral("../doc/warpbench")));
    if (QFileInfo::exists(installed + QStringLiteral("/gui.md"))) return installed;
#ifdef WB_SOURCE_DOCS_DIR
    const QString source = QStringLiteral(WB_SOURCE_DOCS_DIR);
    if (QFileInfo::exists(source + QStringLiteral("/gui.md"))) return source;
#endif
    return {};
}

QList<QPair<QString, QString>> MainWindow::examples()
{
    QList<QPair<QString, QString>> list;
    const QString dir = QString::fromStdString((wb::dataDir() / "examples").string());
    QDirIterator it(dir, {QStringLiteral("*.wbproj")}, QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString path = it.next();
        list.append({QFileInfo(path).completeBaseName(), path});
    }
    std::sort(list.begin(), list.end());
    return list;
}

void MainWindow::probeEnvironment()
{
    m_compileWorker->post<Environment>(
        this,
        [](const CancelToken&) {
            Environment env;
            env.probed = true;
            env.cudaProblem = cudaUnavailableReason();
            cuda::Compiler& compiler = cuda::Compiler::instance();
            env.nvrtc = compiler.available();
            env.nvrtcProblem = compiler.unavailableReason();
            if (env.nvrtc) env.nvrtcVersion = compiler.version();
            if (auto host = HostCompiler::find()) {
                env.hostCompiler = true;
                env.hostCompilerVersion = host->version();
            } else {
                env.hostCompilerProblem = HostCompiler::unavailableReason();
            }
            try {
                // Described, not created: only warpbench-runner creates backends (a CUDA
                // context in this process would outlive nothing useful and a crash in it
                // would take the window down).
                const BackendDescription backend = describeBackend(BackendKind::Auto, 0);
                env.backend = backend.kind;
                env.device = backend.device;
            } catch (const std::exception& e) {
                env.backendProblem = e.what();
            }
            return env;
        },
        [this](Environment env) {
            m_env = std::move(env);
            applyEnvironment();
            Q_EMIT environmentProbed();
        });
}

void MainWindow::applyEnvironment()
{
    const DeviceDescription& d = m_env.device;
    QString device =
        m_env.backendProblem.empty()
            ? QStringLiteral("%1 · %2").arg(QString::fromStdString(d.name),
                                            QString::fromUtf8(backendName(m_env.backend)))
            : tr("no backend: %1").arg(QString::fromStdString(m_env.backendProblem));
    m_deviceLabel->setText(device);
    QStringList versions;
    if (!d.driverVersion.empty())
        versions << tr("driver %1").arg(QString::fromStdString(d.driverVersion));
    if (m_env.nvrtc) versions << QString::fromStdString(m_env.nvrtcVersion);
    if (m_env.hostCompiler) versions << QString::fromStdString(m_env.hostCompilerVersion);
    m_versionsLabel->setText(versions.join(QStringLiteral(" · ")));
    m_launch->setCudaUnavailableReason(
        m_env.cudaProblem ? QString::fromStdString(*m_env.cudaProblem) : QString());
    if (m_env.backend == BackendKind::Cuda)
        m_launch->setDeviceArch(QString::fromStdString(d.arch), d.multiprocessors);
    updateBanner();
    scheduleKernelCompile(true); // now with the device's architecture
}

void MainWindow::updateBanner()
{
    QList<QPair<StatusBanner::Level, QString>> messages;
    if (!m_env.probed) return;
    if (m_env.cudaProblem)
        messages.append(
            {StatusBanner::Level::Warning,
             tr("<b>No usable GPU — running on the CPU emulator.</b> Kernels run for real but "
                "slowly and timings are not GPU timings. (%1) To use a GPU install the NVIDIA "
                "driver (libcuda.so.1, 580 or newer).")
                 .arg(QString::fromStdString(*m_env.cudaProblem).toHtmlEscaped())});
    if (!m_env.nvrtc)
        messages.append(
            {StatusBanner::Level::Error,
             tr("<b>NVRTC not found</b> — no live diagnostics or PTX. %1 Install the CUDA toolkit "
                "(package cuda-nvrtc-13-0) or set LD_LIBRARY_PATH to its lib64.")
                 .arg(QString::fromStdString(m_env.nvrtcProblem).toHtmlEscaped())});
    if (!m_env.hostCompiler)
        messages.append(
            {StatusBanner::Level::Error,
             tr("<b>No host C++ compiler</b> — C++ references and the CPU emulator cannot build. "
                "%1 "
                "Install g++ (apt install g++) or clang++, or set WARPBENCH_CXX.")
                 .arg(QString::fromStdString(m_env.hostCompilerProblem).toHtmlEscaped())});
    if (!m_env.backendProblem.empty())
        messages.append({StatusBanner::Level::Error,
                         tr("<b>Nothing can run kernels here:</b> %1")
                             .arg(QString::fromStdString(m_env.backendProblem).toHtmlEscaped())});
    m_banner->setMessages(messages);
}

void MainWindow::loadEditorsFromDocument()
{
    m_loadingEditors = true;
    m_kernelEditor->setText(m_doc->kernelText());
    m_referenceEditor->setText(m_doc->referenceText());
    m_kernelEditor->clearDiagnostics();
    m_referenceEditor->clearDiagnostics();
    // Header tabs belong to the previous project's kernel.
    for (const auto& [file, editor] : m_headerEditors)
        editor->deleteLater();
    m_headerEditors.clear();
    const session::Session runnable = m_doc->runnableSession();
    m_kernelEditor->setSourceName(QString::fromStdString(runnable.kernelSourceName()));
    const session::Session& s = m_doc->session();
    m_editorTabs->setTabText(0, s.kernelFile.empty()
                                    ? tr("kernel.cu")
                                    : QFileInfo(QString::fromStdString(s.kernelFile)).fileName());
    updateReferenceTab();
    m_loadingEditors = false;
}

void MainWindow::updateReferenceTab()
{
    const session::Session& s = m_doc->session();
    const bool cpp = s.reference.kind == session::ReferenceSpec::Kind::Cpp;
    const bool none = s.reference.kind == session::ReferenceSpec::Kind::None;
    m_editorTabs->setTabText(
        1,
        cpp ? (s.reference.file.empty()
                   ? tr("reference.cpp")
                   : QFileInfo(QString::fromStdString(s.reference.file)).fileName())
            : (none ? tr("reference.cpp (none yet)")
                    : tr("reference (%1)")
                          .arg(QString::fromUtf8(session::referenceKindName(s.reference.kind)))));
    // No reference yet: typing one makes it a C++ reference (SessionDocument::setReferenceText).
    m_referenceEditor->setReadOnly(!cpp && !none);
    updateReferenceStub();
}

void MainWindow::updateReferenceStub()
{
    // An empty reference.cpp shows the signature a reference needs (a hint, not text: running
    // still compares nothing until a reference is written).
    const session::Session& s = m_doc->session();
    const auto last = m_liveKernel->lastResult();
    const KernelInfo* kernel = last ? last->findKernel(s.launch.kernel) : nullptr;
    const bool cppOrNone = s.reference.kind == session::ReferenceSpec::Kind::Cpp ||
                           s.reference.kind == session::ReferenceSpec::Kind::None;
    m_referenceEditor->setEmptyHint(
        kernel && cppOrNone ? QString::fromStdString(session::CppReference::stub(s, *kernel))
                            : QString());
}

void MainWindow::scheduleKernelCompile(bool now)
{
    const session::Session s = m_doc->runnableSession();
    const std::string source = s.kernelSource;
    const std::string name = s.kernelSourceName();
    // Includes and template kernels as a run compiles them (sourceDir: set by runnableSession()).
    CompileOptions options = session::SessionRunner::compileOptions(s);
    // Line tables for the Inspect panel's source ↔ PTX/SASS links (-lineinfo changes no code).
    options.lineInfo = true;
    const std::string arch = m_env.backend == BackendKind::Cuda && !m_env.cudaProblem
                                 ? m_env.device.arch
                                 : std::string();
    LiveCompiler::Job job = [source, name, options, arch](const CancelToken&) {
        return cuda::Compiler::instance().compile(source, name, options, arch);
    };
    if (const auto refused = session::ProjectTrust::reviewKernel(s);
        !s.flagsTrusted && !refused.empty())
        job = [name, refused](const CancelToken&) { return refusedCompile(name, refused); };
    if (now)
        m_liveKernel->runNow(std::move(job));
    else
        m_liveKernel->schedule(std::move(job));
}

KernelEditor* MainWindow::headerEditor(const std::string& file)
{
    if (const auto it = m_headerEditors.find(file); it != m_headerEditors.end()) return it->second;
    std::filesystem::path path(file);
    if (path.is_relative()) path = m_doc->session().baseDir / path;
    std::string text;
    try {
        text = UserFile::read(path, UserFile::kMaxTextBytes, "the header");
    } catch (const Error& e) {
        m_results->appendLog(QString::fromStdString(e.what()));
        return nullptr;
    }
    auto* editor = new KernelEditor(KernelEditor::Language::Cuda, m_editorTabs);
    editor->setSourceName(QString::fromStdString(file));
    editor->setText(QString::fromStdString(text));
    editor->setReadOnly(true); // edited where it lives; the next compile reads it again
    m_editorTabs->addTab(editor, QString::fromStdString(std::string(fileNameOf(file))));
    m_editorTabs->setTabToolTip(m_editorTabs->indexOf(editor), QString::fromStdString(file));
    m_headerEditors.emplace(file, editor);
    if (const auto last = m_liveKernel->lastResult()) editor->setDiagnostics(last->diagnostics);
    return editor;
}

void MainWindow::scheduleReferenceCompile(bool now)
{
    const session::Session s = m_doc->runnableSession();
    if (s.reference.kind != session::ReferenceSpec::Kind::Cpp) {
        m_referenceEditor->clearDiagnostics();
        m_diagnostics->setDiagnostics(QStringLiteral("reference"), {});
        return;
    }
    const std::string source = s.reference.source;
    const std::string function = s.reference.function;
    const std::vector<std::string> flags = s.reference.flags;
    if (const auto refused = session::ProjectTrust::reviewReference(s);
        !s.flagsTrusted && !refused.empty()) {
        LiveCompiler::Job job = [refused](const CancelToken&) {
            return refusedCompile("reference.cpp", refused);
        };
        if (now)
            m_liveReference->runNow(std::move(job));
        else
            m_liveReference->schedule(std::move(job));
        return;
    }
    IncludePaths includes;
    includes.projectDir = s.baseDir;
    const session::Session& saved = m_doc->session(); // the runnable copy holds the text only
    if (!saved.reference.file.empty())
        includes.sourceDir = saved.resolve(saved.reference.file).parent_path();
    LiveCompiler::Job job = [source, function, flags, includes](const CancelToken&) {
        try {
            session::CppReference reference;
            return referenceBuildToResult(
                reference.compile(source, "reference.cpp", function, flags, includes));
        } catch (const std::exception& e) {
            CompileResult r;
            r.sourceName = "reference.cpp";
            r.log = e.what();
            r.diagnostics.push_back(
                Diagnostic{"reference.cpp", 0, 0, Severity::Error, {}, e.what(), {}});
            return r;
        }
    };
    if (now)
        m_liveReference->runNow(std::move(job));
    else
        m_liveReference->schedule(std::move(job));
}

void MainWindow::compileNow()
{
    scheduleKernelCompile(true);
    scheduleReferenceCompile(true);
}

bool MainWindow::confirmFlags()
{
    const session::Session s = m_doc->runnableSession();
    if (s.flagsTrusted) return true;
    const std::vector<FlagRefusal> refused = session::ProjectTrust::review(s);
    if (refused.empty()) return true;
    if (!TrustPrompt::ask(this, m_doc->displayName(), refused)) {
        m_results->appendLog(tr("run cancelled: the project's compiler flags are not trusted"));
        return false;
    }
    m_doc->setFlagsTrusted(true);
    // Remembered for the file as it is on disk; unsaved edits are trusted for this window only.
    if (!m_doc->filePath().isEmpty() && !m_doc->isModified())
        session::ProjectTrust::remember(
            session::ProjectTrust::fileHash(m_doc->filePath().toStdString()));
    compileNow();
    return true;
}

bool MainWindow::run()
{
    m_autosave->flush();
    if (!confirmFlags()) return false;
    if (!m_runner->run()) return false;
    m_lastRunLabel->setText(tr("running…"));
    return true;
}

bool MainWindow::runBoundsChecked()
{
    m_autosave->flush();
    if (!confirmFlags()) return false;
    if (!m_runner->run(true)) return false;
    m_lastRunLabel->setText(tr("running with bounds checking…"));
    return true;
}

bool MainWindow::runRaceChecked()
{
    m_autosave->flush();
    if (!confirmFlags()) return false;
    if (!m_runner->run(false, true)) return false;
    m_lastRunLabel->setText(tr("checking for races…"));
    return true;
}

bool MainWindow::runUnderSanitizer(bool racecheck)
{
    m_autosave->flush();
    if (!confirmFlags()) return false;
    if (!m_runner->runUnderSanitizer(racecheck ? runner::RunnerClient::MemoryCheck::Racecheck
                                               : runner::RunnerClient::MemoryCheck::Memcheck))
        return false;
    m_lastRunLabel->setText(racecheck ? tr("running under compute-sanitizer racecheck…")
                                      : tr("running under compute-sanitizer memcheck…"));
    return true;
}

void MainWindow::cancel()
{
    m_runner->cancel();
}

void MainWindow::onRunFinished(std::shared_ptr<const RunOutcome> outcome)
{
    m_runAction->setEnabled(true);
    m_boundsCheckAction->setEnabled(true);
    m_raceCheckAction->setEnabled(true);
    m_cancelAction->setEnabled(false);
    m_progress->hide();
    m_elapsedTimer->stop();
    const session::RunReport& r = outcome->report;
    // What confined the kernels (an emulator run: device-code check, filter, Landlock, …).
    if (!r.sandbox.empty())
        m_results->appendLog(tr("sandbox: %1").arg(QString::fromStdString(r.sandbox)));
    // A compile error from the run lands in the editor like a live one.
    if (r.status == session::RunReport::Status::CompileError) {
        m_kernelEditor->setDiagnostics(r.diagnostics);
        m_diagnostics->setDiagnostics(QStringLiteral("kernel"), r.diagnostics);
        if (!r.referenceDiagnostics.empty()) {
            m_referenceEditor->setDiagnostics(r.referenceDiagnostics);
            m_diagnostics->setDiagnostics(QStringLiteral("reference"), r.referenceDiagnostics);
        }
    }
    m_results->setOutcome(outcome, m_doc->runnableSession());
    // A profile with hotspots: heat in the editor's margin, samples beside the SASS.
    if (outcome->profile) {
        const auto& hot = outcome->profile->hotspots;
        m_kernelEditor->setHotspots(hot ? &*hot : nullptr);
        m_results->inspectPanel()->setHotspots(hot ? &*hot : nullptr);
    }
    m_resultsDock->raise();
    // Bounds-checked runs and compute-sanitizer runs: each faulting access (each hazard) is a
    // problem at its kernel line (session::toDiagnostics).
    const session::RunDiagnostics found =
        session::toDiagnostics(r, m_doc->session().kernelSourceName());
    if (!found.memory.empty()) {
        m_diagnostics->setDiagnostics(QStringLiteral("memory"), found.memory);
        // The editor marks each line with a finding, as for races (a later compile replaces
        // them).
        std::vector<Diagnostic> marks;
        if (const auto last = m_liveKernel->lastResult()) marks = last->diagnostics;
        for (const Diagnostic& d : found.memory)
            if (d.line > 0 && d.file == m_kernelEditor->sourceName().toStdString())
                marks.push_back(d);
        m_kernelEditor->setDiagnostics(marks);
        m_results->showTab(ResultsPanel::Tab::Problems);
    }
    if (outcome->raceChecked) showRaces(r.races.size(), found);
    m_lastRunLabel->setText(tr("last run %1 · %2")
                                .arg(QTime::currentTime().toString(QStringLiteral("HH:mm:ss")),
                                     QString::fromUtf8(r.statusName())));
    m_buffers->updateMemory();
    // An open viewer follows the new data.
    if (!m_viewer->bufferName().isEmpty()) showBuffer(m_viewer->bufferName(), false);
    // Edited while it ran: the results are already of an earlier version.
    if (m_editGeneration != m_runEditGeneration) markResultsStale(m_runStaleReason);
}

void MainWindow::markResultsStale(const QString& why)
{
    // While a run runs its "Running…" line stays; its results are greyed when they arrive.
    if (m_runner->isRunning()) return;
    m_results->setStale(why);
    m_viewer->setStale(m_runner->lastOutcome() != nullptr);
}

void MainWindow::showRaces(std::size_t races, const session::RunDiagnostics& run)
{
    const std::vector<Diagnostic>& found = run.races;
    // Crowded words are a note on the run, in Problems only (no line to mark).
    std::vector<Diagnostic> problems = found;
    problems.insert(problems.end(), run.notes.begin(), run.notes.end());
    m_diagnostics->setDiagnostics(QStringLiteral("races"), problems);
    // The editor shows the compile's diagnostics and the races (a later compile replaces them).
    std::vector<Diagnostic> marks;
    if (const auto last = m_liveKernel->lastResult()) marks = last->diagnostics;
    marks.insert(marks.end(), found.begin(), found.end());
    m_kernelEditor->setDiagnostics(marks);
    m_kernelEditor->markRaces(found); // their own marker, not the error's red dot
    m_results->appendLog(
        races == 0 ? tr("race check: no races found")
                   : tr("race check: %n race(s) found", nullptr, static_cast<int>(races)));
    for (const Diagnostic& note : run.notes)
        m_results->appendLog(QString::fromStdString(note.message));
    if (races != 0) {
        m_editorTabs->setCurrentWidget(m_kernelEditor);
        m_results->showTab(ResultsPanel::Tab::Problems);
    }
}

void MainWindow::goToNext(bool backwards)
{
    const auto last = m_liveKernel->lastResult();
    if ((last && !last->ok) || m_diagnostics->errorCount() > 0) {
        KernelEditor* editor =
            m_kernelEditor->diagnostics().empty() ? m_referenceEditor : m_kernelEditor;
        m_editorTabs->setCurrentWidget(editor);
        editor->goToNextDiagnostic(backwards);
        return;
    }
    m_resultsDock->raise();
    m_results->showTab(ResultsPanel::Tab::Diff);
    m_results->diffView()->goToMismatch(backwards);
}

void MainWindow::showBuffer(const QString& name, bool raise)
{
    const std::string n = name.toStdString();
    const auto outcome = m_runner->lastOutcome();
    auto show = [this, name, raise](ArrayView view) {
        m_viewer->setBuffer(name, std::move(view));
        if (raise) {
            m_viewerDock->show();
            m_viewerDock->raise();
        }
        Q_EMIT bufferShown(name);
    };
    if (outcome) {
        if (auto it = outcome->report.results.find(n); it != outcome->report.results.end())
            return show(viewOf(outcome, it->second));
        if (auto it = outcome->inputs.find(n); it != outcome->inputs.end())
            return show(viewOf(outcome, it->second));
    }
    // Not run yet: fill it like a run would, on the worker.
    const session::Session s = m_doc->runnableSession();
    statusBar()->showMessage(tr("Preparing %1…").arg(name));
    m_runWorker->post<std::shared_ptr<RunOutcome>>(
        this,
        [s, n](const CancelToken&) {
            auto holder = std::make_shared<RunOutcome>();
            try {
                session::Session one = s;
                auto inputs = session::SessionRunner::makeInputs(one);
                if (auto it = inputs.find(n); it != inputs.end())
                    holder->inputs.emplace(n, std::move(it->second));
            } catch (const std::exception& e) {
                holder->transferNote = QString::fromUtf8(e.what());
            }
            return holder;
        },
        [this, name, n, show](std::shared_ptr<RunOutcome> holder) {
            statusBar()->clearMessage();
            auto it = holder->inputs.find(n);
            if (it == holder->inputs.end()) {
                m_results->appendLog(tr("cannot show %1: %2").arg(name, holder->transferNote));
                statusBar()->showMessage(tr("Cannot show %1: %2").arg(name, holder->transferNote),
                                         8000);
                return;
            }
            show(viewOf(holder, it->second));
        });
}

// ---- files -------------------------------------------------------------------------------

void MainWindow::newProject()
{
    m_doc->newSession();
    m_exampleCopy.reset();
    m_autosave->clear();
}

bool MainWindow::openExample(const QString& path)
{
    QFileInfo shipped(path);
    // An installed tree also has examples/<name>.wbproj beside the folders (for the CLI): the
    // window opens the folder's own project, whose folder is the example's alone.
    if (QDir(shippedExamplesDir()) == shipped.absoluteDir()) {
        const QString inFolder =
            QDir(shippedExamplesDir())
                .filePath(shipped.completeBaseName() + u'/' + shipped.fileName());
        if (QFileInfo::exists(inFolder)) shipped = QFileInfo(inFolder);
    }
    auto copy = std::make_unique<QTemporaryDir>(QDir::tempPath() +
                                                QStringLiteral("/warpbench-example-XXXXXX"));
    QString why;
    if (!copy->isValid()) why = copy->errorString();
    // The example's folder (sources, data, guide); examples are small.
    const QDir from = shipped.absoluteDir();
    QDirIterator it(from.absolutePath(), QDir::Files | QDir::NoDotAndDotDot,
                    QDirIterator::Subdirectories);
    while (why.isEmpty() && it.hasNext()) {
        const QString file = it.next();
        const QString target = copy->filePath(from.relativeFilePath(file));
        QDir().mkpath(QFileInfo(target).absolutePath());
        if (!QFile::copy(file, target))
            why = tr("cannot copy %1 to %2").arg(file, target);
        else // installed files are read-only; the copy is the user's
            QFile::setPermissions(target, QFile::permissions(target) | QFileDevice::WriteOwner);
    }
    if (!why.isEmpty()) {
        m_results->appendLog(tr("cannot open example %1: %2").arg(path, why));
        m_banner->setMessages(
            {{StatusBanner::Level::Error, tr("<b>Cannot open example %1</b>: %2")
                                              .arg(path.toHtmlEscaped(), why.toHtmlEscaped())}});
        return false;
    }
    const QString copied = copy->filePath(shipped.fileName());
    const std::string hash = session::ProjectTrust::fileHash(copied.toStdString());
    try {
        m_doc->load(copied, session::ProjectTrust::isRemembered(hash), shipped.absoluteFilePath());
    } catch (const std::exception& e) {
        const QString error = QString::fromUtf8(e.what());
        m_results->appendLog(tr("cannot open %1: %2").arg(path, error));
        m_banner->setMessages(
            {{StatusBanner::Level::Error,
              tr("<b>Cannot open %1</b>: %2").arg(path.toHtmlEscaped(), error.toHtmlEscaped())}});
        return false;
    }
    m_exampleCopy = std::move(copy);
    addRecentFile(shipped.absoluteFilePath());
    m_autosave->clear();
    m_results->appendLog(tr("opened example %1 (a private copy: Save asks where to keep it)")
                             .arg(shipped.absoluteFilePath()));
    updateBanner();
    // The example's guide is what a learner reads first.
    if (auto* guide = findChild<QDockWidget*>(QStringLiteral("guideDock"));
        guide &&
        QFileInfo::exists(QFileInfo(copied).absoluteDir().filePath(QStringLiteral("GUIDE.md")))) {
        guide->show();
        guide->raise();
    }
    return true;
}

bool MainWindow::openProject(const QString& path)
{
    if (isInside(path, shippedExamplesDir())) return openExample(path);
    // Trust is settled before anything compiles: a project's flags outside the allowed set run
    // only once the user trusted this exact file content (remembered by its SHA-256).
    const std::string hash = session::ProjectTrust::fileHash(path.toStdString());
    try {
        m_doc->load(path, session::ProjectTrust::isRemembered(hash));
    } catch (const std::exception& e) {
        const QString why = QString::fromUtf8(e.what());
        m_results->appendLog(tr("cannot open %1: %2").arg(path, why));
        m_banner->setMessages(
            {{StatusBanner::Level::Error,
              tr("<b>Cannot open %1</b>: %2").arg(path.toHtmlEscaped(), why.toHtmlEscaped())}});
        return false;
    }
    addRecentFile(m_doc->filePath());
    m_exampleCopy.reset();
    m_autosave->clear();
    m_results->appendLog(tr("opened %1").arg(m_doc->filePath()));
    updateBanner();
    if (const std::vector<FlagRefusal> refused = session::ProjectTrust::review(m_doc->session());
        !refused.empty() && !m_doc->session().flagsTrusted) {
        if (TrustPrompt::ask(this, m_doc->displayName(), refused)) {
            m_doc->setFlagsTrusted(true);
            session::ProjectTrust::remember(hash);
            compileNow();
            m_results->appendLog(tr("trusted the compiler flags of %1").arg(m_doc->filePath()));
        } else {
            m_results->appendLog(
                tr("not trusted: %1 is not compiled with its flags outside the allowed set")
                    .arg(m_doc->filePath()));
        }
    }
    return true;
}

QString MainWindow::saveProposal() const
{
    if (!m_doc->needsSaveAs()) return m_doc->filePath();
    // A new project or an example's copy starts in the documents folder; an example is
    // proposed under its own name, in a folder of that name (its files go beside it).
    const QDir docs(saveDialogFolder());
    if (m_doc->exampleOf().isEmpty()) return docs.absolutePath();
    const QFileInfo ex(m_doc->exampleOf());
    return docs.filePath(ex.completeBaseName() + u'/' + ex.fileName());
}

QString MainWindow::saveDialogFolder() const
{
    if (!m_doc->needsSaveAs()) return QFileInfo(m_doc->filePath()).absolutePath();
    QString docs = QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
    if (docs.isEmpty()) docs = QDir::homePath();
    return docs;
}

bool MainWindow::save()
{
    if (m_doc->needsSaveAs()) {
        const QString path = QFileDialog::getSaveFileName(
            this,
            m_doc->exampleOf().isEmpty() ? tr("Save project") : tr("Save a copy of the example"),
            saveProposal(), tr("Warpbench projects (*.wbproj)"));
        if (path.isEmpty()) return false;
        return saveAs(path.endsWith(QStringLiteral(".wbproj")) ? path
                                                               : path + QStringLiteral(".wbproj"));
    }
    return saveAs(m_doc->filePath());
}

bool MainWindow::saveAs(const QString& path)
{
    const bool intoExamples = isInside(path, shippedExamplesDir());
    const bool intoCopy = m_exampleCopy && isInside(path, m_exampleCopy->path());
    if (intoExamples || intoCopy) {
        const QString why =
            intoExamples
                ? tr("%1 is inside the shipped examples, which are never overwritten. Save the "
                     "copy in a folder of your own.")
                      .arg(path)
                : tr("%1 is inside the example's temporary copy, which is deleted when the "
                     "window closes. Save the copy in a folder of your own.")
                      .arg(path);
        m_results->appendLog(tr("not saved: %1").arg(why));
        QMessageBox::warning(this, tr("Save a copy elsewhere"), why);
        return false;
    }
    try {
        m_doc->save(path);
    } catch (const std::exception& e) {
        QMessageBox::warning(this, tr("Save failed"),
                             tr("Cannot save %1:\n%2").arg(path, QString::fromUtf8(e.what())));
        return false;
    }
    addRecentFile(m_doc->filePath());
    m_autosave->clear();
    updateWatchedFiles();
    statusBar()->showMessage(tr("Saved %1").arg(m_doc->filePath()), 4000);
    return true;
}

void MainWindow::updateWatchedFiles()
{
    if (const QStringList old = m_sourceWatcher->files(); !old.isEmpty())
        m_sourceWatcher->removePaths(old);
    QStringList files;
    for (const QString& f : {m_doc->kernelFilePath(), m_doc->referenceFilePath()})
        if (!f.isEmpty() && QFileInfo::exists(f)) files << f;
    if (!files.isEmpty()) m_sourceWatcher->addPaths(files);
}

void MainWindow::sourceFileChanged(const QString& path)
{
    // Editors that save by replacing the file end the watch: watch the new file.
    if (QFileInfo::exists(path) && !m_sourceWatcher->files().contains(path))
        m_sourceWatcher->addPath(path);
    const bool kernel = QFileInfo(path) == QFileInfo(m_doc->kernelFilePath());
    const bool reference = !kernel && QFileInfo(path) == QFileInfo(m_doc->referenceFilePath());
    if ((!kernel && !reference) || !QFileInfo::exists(path)) return;
    QString disk;
    try {
        disk = SessionDocument::readSource(path, kernel ? "the kernel source"
                                                        : "the C++ reference source");
    } catch (const std::exception& e) {
        m_results->appendLog(
            tr("%1 changed on disk but cannot be read: %2").arg(path, QString::fromUtf8(e.what())));
        return;
    }
    KernelEditor* editor = kernel ? m_kernelEditor : m_referenceEditor;
    const QString onDisk = kernel ? m_doc->kernelOnDisk() : m_doc->referenceOnDisk();
    if (disk == editor->text()) { // our own save, or nothing new
        kernel ? m_doc->setKernelOnDisk(disk) : m_doc->setReferenceOnDisk(disk);
        return;
    }
    const QString name = QFileInfo(path).fileName();
    if (editor->text() != onDisk) {
        const auto answer = QMessageBox::question(
            this, tr("%1 changed on disk").arg(name),
            tr("%1 was changed by another program, and the window has edits of it that are not "
               "saved.\n\nReload it from disk (your edits in the window are lost) or keep the "
               "window's text (saving overwrites the file)?")
                .arg(name),
            QMessageBox::Yes | QMessageBox::No, QMessageBox::No);
        if (answer != QMessageBox::Yes) {
            m_results->appendLog(tr("%1 changed on disk; kept the window's text").arg(name));
            kernel ? m_doc->setKernelOnDisk(disk) : m_doc->setReferenceOnDisk(disk);
            return;
        }
    }
    const bool wasModified = m_doc->isModified();
    const int line = editor->firstVisibleLine();
    editor->setText(disk); // through the document: compiles and greys results like typing
    editor->setFirstVisibleLine(line);
    kernel ? m_doc->setKernelOnDisk(disk) : m_doc->setReferenceOnDisk(disk);
    if (!wasModified) m_doc->setModified(false);
    m_results->appendLog(tr("reloaded %1: it changed on disk").arg(name));
    statusBar()->showMessage(tr("Reloaded %1 (changed on disk)").arg(name), 4000);
    Q_EMIT sourceReloaded(path);
}

void MainWindow::createBuffersFromSignature()
{
    // The signature of the text in the editor: compile it now, apply when it comes back.
    m_signaturePending = true;
    scheduleKernelCompile(true);
}

void MainWindow::applySignature(const CompileResult& compiled)
{
    const auto fail = [this](const QString& why) {
        m_results->appendLog(tr("Create Buffers from Signature: %1").arg(why));
        statusBar()->showMessage(why, 8000);
        Q_EMIT buffersCreatedFromSignature(false, why);
    };
    if (!compiled.ok) return fail(tr("the kernel does not compile; fix it first (see Problems)"));
    const KernelInfo* kernel = compiled.findKernel(m_doc->session().launch.kernel);
    if (!kernel && compiled.kernels.size() == 1) kernel = &compiled.kernels.front();
    if (!kernel)
        return fail(compiled.kernels.empty() ? tr("the source has no __global__ kernel")
                                             : tr("choose the kernel to launch in Launch first"));
    QStringList removed;
    const bool referenceBefore =
        m_doc->session().reference.kind == session::ReferenceSpec::Kind::Cpp;
    const session::SignatureSpecs added = m_doc->createFromSignature(*kernel, &removed);
    if (referenceBefore != (m_doc->session().reference.kind == session::ReferenceSpec::Kind::Cpp))
        loadEditorsFromDocument();
    const auto join = [](const std::vector<std::string>& v) {
        QStringList l;
        for (const std::string& s : v)
            l << QString::fromStdString(s);
        return l.join(QStringLiteral(", "));
    };
    QStringList parts;
    if (!added.addedBuffers.empty()) parts << tr("buffers %1").arg(join(added.addedBuffers));
    if (!added.addedScalars.empty()) parts << tr("scalars %1").arg(join(added.addedScalars));
    QString summary = parts.isEmpty() ? tr("%1: every parameter already has its buffer or scalar")
                                            .arg(QString::fromStdString(kernel->name))
                                      : tr("%1: added %2")
                                            .arg(QString::fromStdString(kernel->name),
                                                 parts.join(QStringLiteral("; ")));
    if (!removed.isEmpty())
        summary += tr("; removed the new-project template's unused %1").arg(removed.join(", "));
    if (!added.skipped.empty()) summary += tr("; skipped %1").arg(join(added.skipped));
    if (removed.contains(QStringLiteral("reference.cpp")))
        summary += tr(". Runs are not compared until you write a reference in reference.cpp");
    m_results->appendLog(tr("Create Buffers from Signature — %1").arg(summary));
    for (const std::string& note : added.notes) // how each role was chosen, or why it is a guess
        m_results->appendLog(tr("    %1").arg(QString::fromStdString(note)));
    statusBar()->showMessage(summary, 8000);
    m_buffersDock->show();
    m_buffersDock->raise();
    Q_EMIT buffersCreatedFromSignature(true, summary);
}

bool MainWindow::maybeSave()
{
    if (!m_doc->isModified()) return true;
    const auto answer = QMessageBox::question(
        this, tr("Unsaved changes"),
        tr("%1 has unsaved changes. Save them?").arg(m_doc->displayName()),
        QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
    if (answer == QMessageBox::Cancel) return false;
    if (answer == QMessageBox::Save) return save();
    return true;
}

void MainWindow::addRecentFile(const QString& path)
{
    QSettings settings;
    QStringList recent = settings.value(QStringLiteral("recentFiles")).toStringList();
    recent.removeAll(path);
    recent.prepend(path);
    while (recent.size() > kMaxRecent)
        recent.removeLast();
    settings.setValue(QStringLiteral("recentFiles"), recent);
    rebuildRecentMenu();
}

void MainWindow::rebuildRecentMenu()
{
    m_recentMenu->clear();
    const QStringList recent = QSettings().value(QStringLiteral("recentFiles")).toStringList();
    for (const QString& path : recent)
        m_recentMenu
            ->addAction(QFileInfo(path).fileName(), this,
                        [this, path]() {
                            if (maybeSave()) openProject(path);
                        })
            ->setToolTip(path);
    m_recentMenu->setEnabled(!recent.isEmpty());
}

void MainWindow::updateTitle()
{
    setWindowTitle(QStringLiteral("%1[*] — Warpbench").arg(m_doc->displayName()));
    setWindowModified(m_doc->isModified());
}

// ---- autosave and recovery -----------------------------------------------------------------

QByteArray MainWindow::snapshot() const
{
    QJsonObject o;
    o.insert(QStringLiteral("format"), QStringLiteral("warpbench-autosave"));
    o.insert(QStringLiteral("version"), 1);
    o.insert(QStringLiteral("savedAt"),
             QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs));
    // An example's copy is temporary: recovery goes back to the shipped example's folder.
    const QString example = m_doc->exampleOf();
    o.insert(QStringLiteral("projectPath"), example.isEmpty() ? m_doc->filePath() : QString());
    o.insert(QStringLiteral("baseDir"),
             example.isEmpty() ? QString::fromStdString(m_doc->session().baseDir.string())
                               : QFileInfo(example).absolutePath());
    if (!example.isEmpty()) o.insert(QStringLiteral("exampleOf"), example);
    o.insert(QStringLiteral("project"), QString::fromStdString(m_doc->snapshotJson()));
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

int MainWindow::offerRecovery()
{
    const QList<Autosave::Recovered> found = m_autosave->findRecoverable();
    m_pendingRecovery.clear();
    m_pendingRecoveryPaths.clear();
    for (const Autosave::Recovered& r : found) {
        m_pendingRecovery.append(r.content);
        m_pendingRecoveryPaths.append(r.snapshotPath);
    }
    if (found.isEmpty()) return 0;
    const QJsonObject o = QJsonDocument::fromJson(found.first().content).object();
    const QString project = o.value(QStringLiteral("projectPath")).toString();
    m_recoveryLabel->setText(
        tr("<b>Recovered work</b> from a session that ended unexpectedly (%1, saved %2). "
           "Restore it?")
            .arg(project.isEmpty() ? tr("untitled project") : QFileInfo(project).fileName(),
                 found.first().savedAt.toString(QStringLiteral("yyyy-MM-dd HH:mm:ss"))));
    m_recoveryBar->show();
    return static_cast<int>(found.size());
}

QString MainWindow::recoveryText() const
{
    return m_recoveryBar->isVisible() ? m_recoveryLabel->text() : QString();
}

bool MainWindow::restoreSnapshot(const QByteArray& content)
{
    const QJsonObject o = QJsonDocument::fromJson(content).object();
    if (o.value(QStringLiteral("format")).toString() != u"warpbench-autosave") return false;
    const QString path = o.value(QStringLiteral("projectPath")).toString();
    const std::filesystem::path base = o.value(QStringLiteral("baseDir")).toString().toStdString();
    try {
        session::Session s = session::ProjectFile::fromJson(
            o.value(QStringLiteral("project")).toString().toStdString(),
            base.empty() ? std::filesystem::current_path() : base, "autosave");
        const QString kernel = QString::fromStdString(s.kernelSource);
        const QString reference = QString::fromStdString(s.reference.source);
        // Recovered work on an example stays an example's copy: Save asks where to keep it.
        m_doc->setSession(std::move(s), path, kernel, reference,
                          o.value(QStringLiteral("exampleOf")).toString());
        m_doc->setModified(true);
        m_autosave->noteModified();
        m_results->appendLog(tr("restored autosaved work%1")
                                 .arg(path.isEmpty() ? QString() : tr(" of %1").arg(path)));
        return true;
    } catch (const std::exception& e) {
        m_results->appendLog(tr("cannot restore autosave: %1").arg(QString::fromUtf8(e.what())));
        return false;
    }
}

// ---- window --------------------------------------------------------------------------------

void MainWindow::closeEvent(QCloseEvent* event)
{
    if (!maybeSave()) {
        event->ignore();
        return;
    }
    m_runner->cancel();
    m_autosave->clear();
    QSettings settings;
    settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("window/state"), saveState());
    event->accept();
}

void MainWindow::showEvent(QShowEvent* event)
{
    QMainWindow::showEvent(event);
    if (m_shownOnce) return;
    m_shownOnce = true;
    if (m_layoutRestored) return;
    // Once the window is laid out (resizeDocks needs the final geometry).
    QTimer::singleShot(0, this, &MainWindow::applyDefaultDockSizes);
}

QSize MainWindow::defaultWindowSize() const
{
    const QScreen* s = screen();
    const QSize room = s ? s->availableGeometry().size() : QSize(1400, 900);
    return QSize(1400, 900).boundedTo(room);
}

void MainWindow::applyDefaultDockSizes()
{
    // First start: the editor gets most of the width, results a good third of the height.
    resizeDocks({m_launchDock}, {std::max(440, width() * 36 / 100)}, Qt::Horizontal);
    // On a 720-line projector a little more: the diff table keeps 8 rows in view.
    resizeDocks({m_resultsDock}, {std::max(340, height() * (height() < 800 ? 50 : 44) / 100)},
                Qt::Vertical);
    resizeDocks({m_launchDock, m_buffersDock}, {height() * 64 / 100, height() * 36 / 100},
                Qt::Vertical);
}

void MainWindow::resetLayout()
{
    // Presentation Mode would restore its own saved layout when turned off: leave it first.
    if (auto* presenting = findChild<QAction*>(QStringLiteral("presentationModeAction"));
        presenting && presenting->isChecked())
        presenting->setChecked(false);
    restoreState(m_defaultState);
    if (!(windowState() & (Qt::WindowMaximized | Qt::WindowFullScreen))) {
        const QSize size = defaultWindowSize();
        if (this->size() != size) {
            resize(size);
            // resizeDocks needs the new size laid out.
            QTimer::singleShot(0, this, &MainWindow::applyDefaultDockSizes);
            return;
        }
    }
    applyDefaultDockSizes();
}

void MainWindow::changeEvent(QEvent* event)
{
    QMainWindow::changeEvent(event);
    if (event->type() == QEvent::PaletteChange ||
        event->type() == QEvent::ApplicationPaletteChange) {
        m_kernelEditor->applyPalette();
        m_referenceEditor->applyPalette();
    }
}

} // namespace wb::ui
