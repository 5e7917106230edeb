// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/MainWindow.h"

#include "core/session/ProjectTrust.h"
#include "ui/StatusBanner.h"
#include "ui/WindowActions.h"
#include "ui/WindowLayout.h"
#include "ui/WindowStatus.h"
#include "ui/buffers/BufferPanel.h"
#include "ui/buffers/BufferPreview.h"
#include "ui/buffers/BufferViewer.h"
#include "ui/buffers/SignatureBuffers.h"
#include "ui/common/DockScrollArea.h"
#include "ui/common/ResultStaleness.h"
#include "ui/common/RunController.h"
#include "ui/common/SessionDocument.h"
#include "ui/common/Worker.h"
#include "ui/debug/DebugDock.h"
#include "ui/editor/CompileController.h"
#include "ui/editor/EditorArea.h"
#include "ui/editor/FindReplaceBar.h"
#include "ui/editor/KernelEditor.h"
#include "ui/editor/LiveCompiler.h"
#include "ui/launch/LaunchPanel.h"
#include "ui/profiling/ProfilingDocks.h"
#include "ui/project/Autosave.h"
#include "ui/project/ProjectFiles.h"
#include "ui/project/Recovery.h"
#include "ui/project/TrustPrompt.h"
#include "ui/results/DiagnosticsModel.h"
#include "ui/results/DiffView.h"
#include "ui/results/InspectPanel.h"
#include "ui/results/ProblemsController.h"
#include "ui/results/ResultsPanel.h"

#include <QAction>
#include <QCloseEvent>
#include <QDockWidget>
#include <QStatusBar>

#include <QTabWidget>
#include <QTimer>
#include <QVBoxLayout>
#include <algorithm>

namespace wb::ui {

void MainWindow::fitStatusMessage()
{
    QStatusBar* bar = statusBar();
    if (m_statusText.isEmpty()) return;
    // Cut with "…" before the labels at the right instead of running into them; the whole
    // text on hover while it is shown.
    int room = bar->width() - 12;
    for (QWidget* c : bar->findChildren<QWidget*>(QString(), Qt::FindDirectChildrenOnly))
        if (c->isVisible() && c->x() > bar->width() / 2) room = std::min(room, c->x() - 12);
    const QString shown =
        bar->fontMetrics().elidedText(m_statusText, Qt::ElideRight, std::max(room, 0));
    bar->setToolTip(shown == m_statusText ? QString() : m_statusText);
    if (shown == bar->currentMessage()) return;
    int left = 0; // (0: until replaced)
    if (m_statusMs > 0) {
        left = m_statusMs - static_cast<int>(m_statusShown.elapsed());
        if (left <= 0) return bar->clearMessage();
    }
    const QString text = m_statusText; // (showMessage's messageChanged keeps it)
    bar->showMessage(shown, left);
    m_statusText = text;
}

bool MainWindow::eventFilter(QObject* watched, QEvent* event)
{
    if ((event->type() == QEvent::Move || event->type() == QEvent::Resize) &&
        watched->parent() == statusBar() && !m_statusText.isEmpty())
        QTimer::singleShot(0, this, &MainWindow::fitStatusMessage);
    return QMainWindow::eventFilter(watched, event);
}

namespace {

QIcon icon(const char* name)
{
    return QIcon(QStringLiteral(":/warpbench/icons/%1.svg").arg(QLatin1String(name)));
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

    // The document, the workers and the controllers every panel subscribes to.
    m_doc = new SessionDocument(this);
    m_compileWorker = new Worker(QStringLiteral("wb-compile"), this);
    m_runWorker = new Worker(QStringLiteral("wb-run"), this);
    m_environment = new EnvironmentProbe(this);
    m_compiler = new CompileController(m_doc, m_compileWorker, this);
    m_runner = new RunController(m_doc, m_runWorker, this);
    m_autosave = new Autosave(autosaveDir, this);
    m_diagnostics = new DiagnosticsModel(this);

    // Centre: banner, recovery offer, editor tabs, find bar.
    auto* centre = new QWidget(this);
    auto* cl = new QVBoxLayout(centre);
    cl->setContentsMargins(0, 0, 0, 0);
    cl->setSpacing(2);
    m_status = new WindowStatus(this, centre);
    m_recovery = new Recovery(m_doc, m_autosave, centre);
    m_editors = new EditorArea(m_doc, m_compiler, centre);
    cl->addWidget(m_status->banner());
    cl->addWidget(m_recovery->bar());
    cl->addWidget(m_editors->tabs(), 1);
    cl->addWidget(m_editors->findBar());
    setCentralWidget(centre);

    buildDocks();
    m_files = new ProjectFiles(this, m_doc, m_autosave, m_editors, m_compiler);
    m_signature = new SignatureBuffers(m_doc, m_compiler, this);
    m_preview = new BufferPreview(m_viewer, m_doc, m_runner, m_runWorker, this);
    m_problems = new ProblemsController(m_diagnostics, m_editors, m_results, this);
    m_actions = new WindowActions(
        this, {m_doc,
               m_runner,
               m_editors,
               m_files,
               {m_launchDock->toggleViewAction(), m_buffersDock->toggleViewAction(),
                m_resultsDock->toggleViewAction(), m_viewerDock->toggleViewAction()},
               [this](const QString& line) { m_results->appendLog(line); }});

    // Panels subscribe to the run controller and the document; the order is the order in which
    // they hear a run finish (results shown before they are greyed).
    m_status->subscribe(m_environment, m_compiler->kernel(), m_runner);
    m_results->subscribe(m_runner, m_doc);
    m_editors->subscribe(m_runner);
    connect(m_runner, &RunController::runFinished, m_resultsDock, &QDockWidget::raise);
    m_problems->subscribe(m_compiler, m_runner, m_doc);
    m_buffers->subscribe(m_runner);
    auto* staleness = new ResultStaleness(m_doc, m_runner, this);
    connect(staleness, &ResultStaleness::stale, m_results, &ResultsPanel::setStale);
    m_preview->follow(staleness);
    connect(m_compiler->kernel(), &LiveCompiler::compiled, staleness,
            [staleness](std::shared_ptr<const CompileResult> r) {
                if (!r->ok) staleness->markStale(tr("the kernel no longer compiles"));
            });
    connect(m_compiler->kernel(), &LiveCompiler::compiled, m_launch,
            &LaunchPanel::setCompileResult);
    connect(m_compiler->kernel(), &LiveCompiler::compiled, m_results->inspectPanel(),
            &InspectPanel::setCompileResult);
    // Source ↔ SASS/PTX: a line of the kernel highlights its instructions, and back.
    InspectPanel* inspect = m_results->inspectPanel();
    KernelEditor* kernel = m_editors->kernelEditor();
    connect(m_editors, &EditorArea::hotspotsDropped, inspect,
            [inspect]() { inspect->setHotspots(nullptr); });
    connect(kernel, &KernelEditor::sourceLineSelected, inspect, [inspect, kernel](int line) {
        inspect->highlightSourceLine(line, kernel->sourceName());
    });
    connect(inspect, &InspectPanel::sourceLineActivated, kernel, [this, kernel](int line) {
        m_editors->showEditor(kernel);
        kernel->goToLine(line);
    });
    connect(m_results, &ResultsPanel::boundsCheckRequested, this, [this]() { runBoundsChecked(); });
    connect(m_launch, &LaunchPanel::compileOptionsChanged, m_compiler,
            [this]() { m_compiler->compileKernel(true); });
    connect(m_buffers, &BufferPanel::bufferActivated, m_preview,
            [this](const QString& name) { m_preview->show(name); });
    connect(m_buffers, &BufferPanel::createFromSignatureRequested, m_signature,
            &SignatureBuffers::request);
    connect(m_doc, &SessionDocument::edited, m_autosave, &Autosave::noteModified);
    connect(m_doc, &SessionDocument::sessionReplaced, this, &MainWindow::updateTitle);
    connect(m_doc, &SessionDocument::modifiedChanged, this, &MainWindow::updateTitle);
    connect(m_doc, &SessionDocument::filePathChanged, this, &MainWindow::updateTitle);

    // What the parts say: the run log, the status bar, the banner, the window's own signals.
    const auto log = [this](const QString& line) { m_results->appendLog(line); };
    const auto message = [this](const QString& text, int ms) {
        m_statusText = text;
        m_statusMs = ms;
        m_statusShown.start();
        if (text.isEmpty()) return statusBar()->clearMessage();
        fitStatusMessage();
    };
    connect(statusBar(), &QStatusBar::messageChanged, this, [this](const QString& text) {
        if (!text.isEmpty()) return;
        m_statusText.clear();
        statusBar()->setToolTip(QString());
    });
    // The labels at the right change their width (compile state, last run): the message is
    // cut again where they now begin.
    for (QWidget* c : statusBar()->findChildren<QWidget*>(QString(), Qt::FindDirectChildrenOnly))
        c->installEventFilter(this);
    connect(m_editors, &EditorArea::logged, m_results, log);
    connect(m_files, &ProjectFiles::logged, m_results, log);
    connect(m_recovery, &Recovery::logged, m_results, log);
    connect(m_preview, &BufferPreview::logged, m_results, log);
    connect(m_signature, &SignatureBuffers::logged, m_results, log);
    connect(m_files, &ProjectFiles::statusMessage, this, message);
    connect(m_preview, &BufferPreview::statusMessage, this, message);
    connect(m_signature, &SignatureBuffers::statusMessage, this, message);
    connect(m_files, &ProjectFiles::failed, m_status, &WindowStatus::showError);
    connect(m_files, &ProjectFiles::opened, m_status, &WindowStatus::showEnvironment);
    connect(m_files, &ProjectFiles::sourceReloaded, this, &MainWindow::sourceReloaded);
    connect(m_preview, &BufferPreview::shown, this, &MainWindow::bufferShown);
    connect(m_preview, &BufferPreview::raiseRequested, m_viewerDock, [this]() {
        m_viewerDock->show();
        m_viewerDock->raise();
    });
    connect(m_signature, &SignatureBuffers::referenceChanged, m_editors,
            &EditorArea::loadFromDocument);
    connect(m_signature, &SignatureBuffers::created, this, [this](bool ok, const QString& what) {
        if (ok) {
            m_buffersDock->show();
            m_buffersDock->raise();
        }
        Q_EMIT buffersCreatedFromSignature(ok, what);
    });
    connect(m_environment, &EnvironmentProbe::probed, this, [this]() {
        const Environment& env = m_environment->environment();
        m_launch->setCudaUnavailableReason(
            env.cudaProblem ? QString::fromStdString(*env.cudaProblem) : QString());
        if (env.backend == BackendKind::Cuda)
            m_launch->setDeviceArch(QString::fromStdString(env.device.arch),
                                    env.device.multiprocessors);
        m_compiler->setArch(m_environment->compileArch());
        m_compiler->compileKernel(true); // now with the device's architecture
        Q_EMIT environmentProbed();
    });

    // Profiling, teaching and debugging docks (ui/profiling, ui/debug), before the layout is
    // restored.
    m_profiling = new ProfilingDocks(this, {m_doc, m_runner, m_environment, m_launch, m_buffersDock,
                                            m_resultsDock, m_viewerDock, m_actions->viewMenu(),
                                            m_actions->runMenu()});
    connect(m_files, &ProjectFiles::exampleOpened, m_profiling, &ProfilingDocks::showGuideOf);
    new DebugDock(this, {m_editors->kernelEditor(), m_doc, m_resultsDock, m_actions->runMenu()});

    m_layout = new WindowLayout(this, m_launchDock, m_buffersDock, m_resultsDock);
    m_layout->restore();
    m_editors->loadFromDocument();
    updateTitle();
    QTimer::singleShot(0, this, [this]() { m_environment->start(m_compileWorker); });
    m_compiler->compileKernel(false);
    m_compiler->compileReference(false);
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

// ---- work --------------------------------------------------------------------------------

void MainWindow::compileNow()
{
    m_compiler->compileNow();
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

bool MainWindow::startRun(const std::function<bool()>& start, const QString& what)
{
    m_autosave->flush();
    if (!confirmFlags() || !start()) return false;
    m_status->setRunText(what);
    return true;
}

bool MainWindow::run()
{
    return startRun([this]() { return m_runner->run(); }, tr("running…"));
}

bool MainWindow::runBoundsChecked()
{
    return startRun([this]() { return m_runner->run(true); }, tr("running with bounds checking…"));
}

bool MainWindow::runRaceChecked()
{
    return startRun([this]() { return m_runner->run(false, true); }, tr("checking for races…"));
}

bool MainWindow::runUnderSanitizer(bool racecheck)
{
    using Tool = runner::RunnerClient::MemoryCheck;
    return startRun(
        [this, racecheck]() {
            return m_runner->runUnderSanitizer(racecheck ? Tool::Racecheck : Tool::Memcheck);
        },
        racecheck ? tr("running under compute-sanitizer racecheck…")
                  : tr("running under compute-sanitizer memcheck…"));
}

void MainWindow::cancel()
{
    m_runner->cancel();
}

void MainWindow::goToNext(bool backwards)
{
    if (m_problems->goToNext(backwards)) return;
    m_resultsDock->raise();
    m_results->showTab(ResultsPanel::Tab::Diff);
    m_results->diffView()->goToMismatch(backwards);
}

void MainWindow::showBuffer(const QString& name, bool raise)
{
    m_preview->show(name, raise);
}

void MainWindow::createBuffersFromSignature()
{
    m_signature->request();
}

// ---- files and recovery (ui/project) ------------------------------------------------------

void MainWindow::newProject()
{
    m_files->newProject();
}

bool MainWindow::openProject(const QString& path)
{
    return m_files->open(path);
}

bool MainWindow::openExample(const QString& path)
{
    return m_files->openExample(path);
}

bool MainWindow::save()
{
    return m_files->save();
}

bool MainWindow::saveAs(const QString& path)
{
    return m_files->saveAs(path);
}

QString MainWindow::saveDialogFolder() const
{
    return m_files->saveDialogFolder();
}

QString MainWindow::saveProposal() const
{
    return m_files->saveProposal();
}

bool MainWindow::maybeSave()
{
    return m_files->maybeSave();
}

void MainWindow::sourceFileChanged(const QString& path)
{
    m_files->sourceFileChanged(path);
}

QFileSystemWatcher* MainWindow::sourceWatcher() const
{
    return m_files->sourceWatcher();
}

int MainWindow::offerRecovery()
{
    return m_recovery->offer();
}

bool MainWindow::restoreSnapshot(const QByteArray& content)
{
    return m_recovery->restore(content);
}

QString MainWindow::recoveryText() const
{
    return m_recovery->text();
}

// ---- parts, for tests and automation -------------------------------------------------------

KernelEditor* MainWindow::kernelEditor() const
{
    return m_editors->kernelEditor();
}

KernelEditor* MainWindow::referenceEditor() const
{
    return m_editors->referenceEditor();
}

QTabWidget* MainWindow::editorTabs() const
{
    return m_editors->tabs();
}

LiveCompiler* MainWindow::kernelCompiler() const
{
    return m_compiler->kernel();
}

LiveCompiler* MainWindow::referenceCompiler() const
{
    return m_compiler->reference();
}

StatusBanner* MainWindow::banner() const
{
    return m_status->banner();
}

// ---- window --------------------------------------------------------------------------------

void MainWindow::updateTitle()
{
    setWindowTitle(QStringLiteral("%1[*] — Warpbench").arg(m_doc->displayName()));
    setWindowModified(m_doc->isModified());
}

void MainWindow::resetLayout()
{
    m_layout->reset(m_profiling->presentationAction());
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    if (!maybeSave()) {
        event->ignore();
        return;
    }
    m_runner->cancel();
    m_autosave->clear();
    m_layout->save();
    event->accept();
}

void MainWindow::showEvent(QShowEvent* event)
{
    QMainWindow::showEvent(event);
    m_layout->shown();
}

void MainWindow::changeEvent(QEvent* event)
{
    QMainWindow::changeEvent(event);
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::ApplicationPaletteChange)
        m_editors->applyPalette();
}

} // namespace wb::ui
