// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/WindowActions.h"

#include "ui/MainWindow.h"
#include "ui/common/RunController.h"
#include "ui/common/SessionDocument.h"
#include "ui/editor/EditorArea.h"
#include "ui/editor/FindReplaceBar.h"
#include "ui/editor/KernelEditor.h"
#include "ui/project/Examples.h"
#include "ui/project/ProjectFiles.h"

#include <QAction>
#include <QDesktopServices>
#include <QDir>
#include <QFileInfo>
#include <QMenuBar>
#include <QMessageBox>
#include <QSpinBox>
#include <QToolBar>
#include <QUrl>

namespace wb::ui {

namespace {

QIcon icon(const char* name)
{
    return QIcon(QStringLiteral(":/warpbench/icons/%1.svg").arg(QLatin1String(name)));
}

} // namespace

WindowActions::WindowActions(MainWindow* window, Parts parts)
    : QObject(window)
    , m_window(window)
    , m_doc(parts.document)
    , m_runner(parts.runner)
    , m_editors(parts.editors)
    , m_files(parts.files)
    , m_dockToggles(std::move(parts.dockToggles))
    , m_log(std::move(parts.log))
{
    buildActions();
    buildMenus();
}

void WindowActions::buildActions()
{
    m_runAction = new QAction(icon("run"), tr("&Run"), m_window);
    m_runAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_R));
    m_runAction->setToolTip(
        tr("Compile if needed, launch, time and compare with the reference (Ctrl+R)"));
    connect(m_runAction, &QAction::triggered, m_window, [this]() { m_window->run(); });
    m_compileAction = new QAction(icon("compile"), tr("&Compile"), m_window);
    m_compileAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_B));
    m_compileAction->setToolTip(tr("Compile the kernel and the reference now (Ctrl+B)"));
    connect(m_compileAction, &QAction::triggered, m_window, &MainWindow::compileNow);
    m_boundsCheckAction = new QAction(tr("Run with &Bounds Checking (CPU Emulator)"), m_window);
    m_boundsCheckAction->setObjectName(QStringLiteral("boundsCheckAction"));
    m_boundsCheckAction->setShortcut(QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_R));
    m_boundsCheckAction->setToolTip(
        tr("Run on the CPU emulator with every memory access checked: slower, but an access "
           "outside a buffer is reported with its kernel line, block and thread instead of "
           "crashing the run (Ctrl+Alt+R)"));
    connect(m_boundsCheckAction, &QAction::triggered, this,
            [this]() { m_window->runBoundsChecked(); });
    m_raceCheckAction = new QAction(tr("Check &Races (CPU Emulator)"), m_window);
    m_raceCheckAction->setObjectName(QStringLiteral("raceCheckAction"));
    m_raceCheckAction->setToolTip(
        tr("Run on the CPU emulator with every shared and global memory access watched: each "
           "pair of threads that touch the same address without a barrier between them (one "
           "of them writing, not both atomic) is a problem at both kernel lines"));
    connect(m_raceCheckAction, &QAction::triggered, this, [this]() { m_window->runRaceChecked(); });
    m_cancelAction = new QAction(icon("cancel"), tr("C&ancel"), m_window);
    m_cancelAction->setShortcut(QKeySequence(Qt::SHIFT | Qt::Key_Escape));
    m_cancelAction->setToolTip(
        tr("Abandon the running job; the window is free at once (Shift+Esc)"));
    m_cancelAction->setEnabled(false);
    connect(m_cancelAction, &QAction::triggered, m_window, &MainWindow::cancel);
    // A run disables the ways to start another and enables Cancel, until it ends.
    const auto running = [this](bool on) {
        for (QAction* a : {m_runAction, m_boundsCheckAction, m_raceCheckAction})
            a->setEnabled(!on);
        m_cancelAction->setEnabled(on);
    };
    connect(m_runner, &RunController::runStarted, this, [running]() { running(true); });
    connect(m_runner, &RunController::runFinished, this, [running]() { running(false); });
    connect(m_runner, &RunController::runCancelled, this, [running]() { running(false); });

    auto* bar = m_window->addToolBar(tr("Main"));
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

void WindowActions::buildMenus()
{
    QMenu* file = m_window->menuBar()->addMenu(tr("&File"));
    m_files->fillFileMenu(file);
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, m_window, &QWidget::close);

    QMenu* edit = m_window->menuBar()->addMenu(tr("&Edit"));
    FindReplaceBar* find = m_editors->findBar();
    edit->addAction(tr("&Undo"), QKeySequence::Undo, this,
                    [this]() { m_editors->current()->undo(); });
    edit->addAction(tr("&Redo"), QKeySequence::Redo, this,
                    [this]() { m_editors->current()->redo(); });
    edit->addSeparator();
    edit->addAction(tr("&Find…"), QKeySequence::Find, find, &FindReplaceBar::showFind);
    edit->addAction(tr("Find and &Replace…"), QKeySequence::Replace, find,
                    &FindReplaceBar::showReplace);
    edit->addAction(tr("Find &Next"), QKeySequence::FindNext, find, &FindReplaceBar::findNext);
    edit->addAction(tr("&Go to Line…"), QKeySequence(Qt::CTRL | Qt::Key_L), find,
                    &FindReplaceBar::showGoToLine);
    edit->addSeparator();
    edit->addAction(tr("Complete"), QKeySequence(Qt::CTRL | Qt::Key_Space), this,
                    [this]() { m_editors->current()->showCompletions(true); });
    edit->addSeparator();
    QAction* fromSignature = edit->addAction(tr("Create &Buffers from Signature"), m_window,
                                             &MainWindow::createBuffersFromSignature);
    fromSignature->setObjectName(QStringLiteral("createFromSignatureAction"));
    fromSignature->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_B));
    fromSignature->setToolTip(
        tr("Add the buffers and scalars the kernel's parameters need: pointer → buffer (const "
           "→ in, else out), value → scalar, sizes from the first integer parameter "
           "(Ctrl+Shift+B)"));

    QMenu* runMenu = m_window->menuBar()->addMenu(tr("&Run"));
    m_runMenu = runMenu;
    runMenu->addAction(m_runAction);
    runMenu->addAction(m_boundsCheckAction);
    runMenu->addAction(m_raceCheckAction);
    runMenu->addAction(tr("Run under compute-sanitizer: &memcheck (GPU)"), QKeySequence(), this,
                       [this]() { m_window->runUnderSanitizer(false); });
    runMenu->addAction(tr("Run under compute-sanitizer: racechec&k (GPU)"), QKeySequence(), this,
                       [this]() { m_window->runUnderSanitizer(true); });
    runMenu->addAction(m_compileAction);
    runMenu->addAction(m_cancelAction);
    runMenu->addSeparator();
    runMenu->addAction(tr("Next Mismatch / Problem"), QKeySequence(Qt::Key_F8), this,
                       [this]() { m_window->goToNext(false); });
    runMenu->addAction(tr("Previous Mismatch / Problem"), QKeySequence(Qt::SHIFT | Qt::Key_F8),
                       this, [this]() { m_window->goToNext(true); });

    QMenu* view = m_window->menuBar()->addMenu(tr("&View"));
    m_viewMenu = view;
    view->addActions(m_dockToggles);
    view->addSeparator();
    view->addAction(tr("Reset Layout"), m_window, &MainWindow::resetLayout)
        ->setObjectName(QStringLiteral("resetLayoutAction"));

    QMenu* examplesMenu = m_window->menuBar()->addMenu(tr("E&xamples"));
    examplesMenu->setObjectName(QStringLiteral("examplesMenu"));
    m_files->fillExamplesMenu(examplesMenu);

    QMenu* help = m_window->menuBar()->addMenu(tr("&Help"));
    QAction* docs =
        help->addAction(tr("&Documentation"), QKeySequence::HelpContents, this, [this]() {
            const QString dir = Examples::documentationDir();
            const QString index = QDir(dir).filePath(QStringLiteral("gui.md"));
            if (dir.isEmpty() || !QFileInfo::exists(index)) {
                QMessageBox::information(m_window, tr("Documentation"),
                                         tr("The documentation was not found (looked in %1). It is "
                                            "in the docs/ folder of "
                                            "the source tree.")
                                             .arg(dir.isEmpty() ? tr("share/doc/warpbench") : dir));
                return;
            }
            if (!QDesktopServices::openUrl(QUrl::fromLocalFile(index)))
                m_log(tr("no program opens %1").arg(index));
        });
    docs->setObjectName(QStringLiteral("documentationAction"));
    help->addAction(tr("Documentation &Folder"), this, [this]() {
        const QString dir = Examples::documentationDir();
        if (!dir.isEmpty()) QDesktopServices::openUrl(QUrl::fromLocalFile(dir));
    });
    help->addAction(tr("&About Warpbench"), this, [this]() {
        QMessageBox::about(m_window, tr("About Warpbench"),
                           tr("<b>Warpbench %1</b><br>A desktop workbench for CUDA kernels.<br>"
                              "GPL-3.0-or-later. Uses Qt, QScintilla and Qt Charts.")
                               .arg(QStringLiteral(WB_VERSION)));
    });
}

} // namespace wb::ui
