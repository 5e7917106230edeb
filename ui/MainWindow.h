// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ui/common/Environment.h"
#include "ui/project/Examples.h"

#include <QElapsedTimer>
#include <QMainWindow>

#include <functional>

class QDockWidget;
class QFileSystemWatcher;
class QTabWidget;

namespace wb::ui {

class Autosave;
class BufferPanel;
class BufferPreview;
class BufferViewer;
class CompileController;
class DiagnosticsModel;
class EditorArea;
class KernelEditor;
class LaunchPanel;
class LiveCompiler;
class ProblemsController;
class ProfilingDocks;
class ProjectFiles;
class Recovery;
class ResultsPanel;
class RunController;
class SessionDocument;
class SignatureBuffers;
class StatusBanner;
class WindowActions;
class WindowLayout;
class WindowStatus;
class Worker;

/// The kernel workbench: editor tabs (kernel.cu, reference.cpp) in the middle, Launch and
/// Buffers docks on the right, Results (with the diff, timing, PTX/SASS, problems and log) at
/// the bottom, and the buffer viewer on demand. The window only assembles its parts: each
/// panel subscribes to the RunController (run started / finished / cancelled) and to the
/// SessionDocument itself; compiles and runs happen on workers, so the window never waits.
class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    /// `autosaveDir` empty: the default folder (see Autosave).
    explicit MainWindow(const QString& autosaveDir = {}, QWidget* parent = nullptr);
    ~MainWindow() override;

    // Files (ProjectFiles)
    void newProject();
    /// Opens a project; on failure shows why (in the banner and log) and returns false. A
    /// shipped example (under dataDir()/examples) is opened as a private copy (openExample).
    bool openProject(const QString& path);
    /// Opens a private temporary copy of the shipped example `path`: runs, history and outputs
    /// never write next to the shipped files, and Save asks where to save a copy (exampleOf()).
    bool openExample(const QString& path);
    bool save();
    /// Refuses (with a message) to write into the shipped examples or an example's private
    /// copy: those are never the user's project.
    bool saveAs(const QString& path);
    QString saveDialogFolder() const;
    QString saveProposal() const;
    /// Edit → Create Buffers from Signature (SignatureBuffers); buffersCreatedFromSignature
    /// reports what changed.
    void createBuffersFromSignature();
    /// The kernel.cu (or reference.cpp) of the project changed on disk (ProjectFiles).
    void sourceFileChanged(const QString& path);
    /// Asks about unsaved changes; false when the user cancelled.
    bool maybeSave();

    // Work
    void compileNow();
    bool run();
    /// Run → Run with Bounds Checking: the session on the CPU emulator with every access
    /// checked; faulting accesses land in Problems with their kernel line.
    bool runBoundsChecked();
    /// Run → Check Races: a race-checked run on the CPU emulator; each race is a problem at
    /// both of its kernel lines.
    bool runRaceChecked();
    /// Run → Run under compute-sanitizer: the session in a one-shot runner under
    /// compute-sanitizer's memcheck (or racecheck); its findings land in Problems at their
    /// kernel line, with block and thread, like the emulator's.
    bool runUnderSanitizer(bool racecheck);
    void cancel();
    /// View → Reset Layout (WindowLayout).
    void resetLayout();
    /// F8 / Shift+F8: next diagnostic while the compile is failing, else the next mismatch.
    void goToNext(bool backwards);
    /// Shows buffer `name` (its latest data) in the viewer; `raise` brings the viewer forward.
    void showBuffer(const QString& name, bool raise = true);

    /// Snapshots left by a process that died; restoreSnapshot() loads one into the window.
    int offerRecovery();
    bool restoreSnapshot(const QByteArray& content);

    // For tests and automation
    SessionDocument* document() const noexcept { return m_doc; }
    KernelEditor* kernelEditor() const;
    KernelEditor* referenceEditor() const;
    LaunchPanel* launchPanel() const noexcept { return m_launch; }
    BufferPanel* bufferPanel() const noexcept { return m_buffers; }
    ResultsPanel* resultsPanel() const noexcept { return m_results; }
    BufferViewer* bufferViewer() const noexcept { return m_viewer; }
    RunController* runController() const noexcept { return m_runner; }
    LiveCompiler* kernelCompiler() const;
    LiveCompiler* referenceCompiler() const;
    Autosave* autosave() const noexcept { return m_autosave; }
    StatusBanner* banner() const;
    const Environment& environment() const { return m_environment->environment(); }
    QString recoveryText() const;
    QTabWidget* editorTabs() const;
    QDockWidget* viewerDock() const noexcept { return m_viewerDock; }
    ProjectFiles* files() const noexcept { return m_files; }

    /// Examples shipped under dataDir()/examples: (title, path).
    static QList<QPair<QString, QString>> examples() { return Examples::all(); }
    using ExampleEntry = wb::ui::ExampleEntry;
    static QList<ExampleEntry> exampleEntries() { return Examples::entries(); }
    /// The documentation folder: installed (share/doc/warpbench) or the source tree's docs/.
    static QString documentationDir() { return Examples::documentationDir(); }
    QFileSystemWatcher* sourceWatcher() const;

Q_SIGNALS:
    void environmentProbed();
    void bufferShown(const QString& name);
    /// After Create Buffers from Signature: what was added, or why nothing could be.
    void buffersCreatedFromSignature(bool ok, const QString& summary);
    /// A separate source file was reloaded from disk into its editor.
    void sourceReloaded(const QString& path);

protected:
    void closeEvent(QCloseEvent* event) override;
    void showEvent(QShowEvent* event) override;
    void changeEvent(QEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    /// The status message m_statusText, cut with "…" before the labels at the right (again
    /// whenever they move), the whole text on hover.
    void fitStatusMessage();
    void buildDocks();
    void updateTitle();
    /// Before a run: true when the session's flags may run, asking the user (TrustPrompt) when
    /// some are outside the allowed set and not yet trusted.
    bool confirmFlags();
    /// Flushes the autosave, settles trust, starts `start` and says `what` in the status bar.
    bool startRun(const std::function<bool()>& start, const QString& what);

    QString m_statusText;        ///< the status message being shown, whole
    int m_statusMs = 0;          ///< its time on screen (0: until replaced)
    QElapsedTimer m_statusShown; ///< since it was shown
    SessionDocument* m_doc = nullptr;
    Worker* m_compileWorker = nullptr;
    Worker* m_runWorker = nullptr;
    EnvironmentProbe* m_environment = nullptr;
    CompileController* m_compiler = nullptr;
    RunController* m_runner = nullptr;
    Autosave* m_autosave = nullptr;
    DiagnosticsModel* m_diagnostics = nullptr;
    EditorArea* m_editors = nullptr;
    ProblemsController* m_problems = nullptr;
    BufferPreview* m_preview = nullptr;
    SignatureBuffers* m_signature = nullptr;
    ProjectFiles* m_files = nullptr;
    Recovery* m_recovery = nullptr;
    WindowStatus* m_status = nullptr;
    WindowLayout* m_layout = nullptr;
    WindowActions* m_actions = nullptr;
    ProfilingDocks* m_profiling = nullptr;

    LaunchPanel* m_launch = nullptr;
    BufferPanel* m_buffers = nullptr;
    ResultsPanel* m_results = nullptr;
    BufferViewer* m_viewer = nullptr;
    QDockWidget* m_launchDock = nullptr;
    QDockWidget* m_buffersDock = nullptr;
    QDockWidget* m_resultsDock = nullptr;
    QDockWidget* m_viewerDock = nullptr;
};

} // namespace wb::ui
