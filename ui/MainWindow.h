// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/backend/Backend.h"
#include "ui/common/RunOutcome.h"

#include <QMainWindow>

#include <map>
#include <memory>

class QAction;
class QDockWidget;
class QFileSystemWatcher;
class QTemporaryDir;
class QLabel;
class QMenu;
class QProgressBar;
class QTabWidget;

namespace wb::session {
struct RunDiagnostics;
}

namespace wb::ui {

class Autosave;
class BufferPanel;
class BufferViewer;
class DiagnosticsModel;
class FindReplaceBar;
class KernelEditor;
class LaunchPanel;
class LiveCompiler;
class ResultsPanel;
class RunController;
class SessionDocument;
class StatusBanner;
class Worker;

/// What the machine offers, probed off the GUI thread at start-up.
struct Environment {
    bool probed = false;
    std::optional<std::string> cudaProblem; ///< nullopt: a GPU is usable
    bool nvrtc = false;
    std::string nvrtcProblem, nvrtcVersion;
    bool hostCompiler = false;
    std::string hostCompilerProblem, hostCompilerVersion;
    DeviceDescription device; ///< of the backend "auto" picks
    BackendKind backend = BackendKind::Cpu;
    std::string backendProblem; ///< no backend at all
};

/// The kernel workbench: editor tabs (kernel.cu, reference.cpp) in the middle, Launch and
/// Buffers docks on the right, Results (with the diff, timing, PTX/SASS, problems and log) at
/// the bottom, and the buffer viewer on demand. Compiles and runs happen on workers; results
/// come back as signals, so the window never waits.
class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    /// `autosaveDir` empty: the default folder (see Autosave).
    explicit MainWindow(const QString& autosaveDir = {}, QWidget* parent = nullptr);
    ~MainWindow() override;

    // Files
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
    /// The folder the Save dialog starts in: the project's own for a saved project, else the
    /// user's documents folder (QStandardPaths::DocumentsLocation).
    QString saveDialogFolder() const;
    /// What the Save dialog proposes: the project itself, the documents folder for a new one,
    /// `<documents>/<example>/<example>.wbproj` for an example's copy.
    QString saveProposal() const;
    /// Edit → Create Buffers from Signature: compiles the kernel now, then adds the buffers and
    /// scalars its signature needs (SessionDocument::createFromSignature);
    /// buffersCreatedFromSignature reports what changed.
    void createBuffersFromSignature();
    /// The kernel.cu (or reference.cpp) of the project changed on disk: reloads it into the
    /// editor, asking first when the editor has edits of that file not saved.
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
    /// View → Reset Layout: the docks exactly as on the first start (places, tabs, sizes) and
    /// the first start's window size, unless maximised.
    void resetLayout();
    /// F8 / Shift+F8: next diagnostic while the compile is failing, else the next mismatch.
    void goToNext(bool backwards);
    /// Shows buffer `name` (its latest data) in the viewer; `raise` brings the viewer forward.
    void showBuffer(const QString& name, bool raise = true);

    /// Snapshots left by a process that died; restore() loads one into the window.
    int offerRecovery();
    bool restoreSnapshot(const QByteArray& content);

    // For tests and automation
    SessionDocument* document() const noexcept { return m_doc; }
    KernelEditor* kernelEditor() const noexcept { return m_kernelEditor; }
    KernelEditor* referenceEditor() const noexcept { return m_referenceEditor; }
    LaunchPanel* launchPanel() const noexcept { return m_launch; }
    BufferPanel* bufferPanel() const noexcept { return m_buffers; }
    ResultsPanel* resultsPanel() const noexcept { return m_results; }
    BufferViewer* bufferViewer() const noexcept { return m_viewer; }
    RunController* runController() const noexcept { return m_runner; }
    LiveCompiler* kernelCompiler() const noexcept { return m_liveKernel; }
    LiveCompiler* referenceCompiler() const noexcept { return m_liveReference; }
    Autosave* autosave() const noexcept { return m_autosave; }
    StatusBanner* banner() const noexcept { return m_banner; }
    const Environment& environment() const noexcept { return m_env; }
    QString recoveryText() const;
    QTabWidget* editorTabs() const noexcept { return m_editorTabs; }
    QDockWidget* viewerDock() const noexcept { return m_viewerDock; }

    /// Examples shipped under dataDir()/examples: (title, path).
    static QList<QPair<QString, QString>> examples();
    /// One example of the Examples menu.
    struct ExampleEntry {
        QString title;       ///< "saxpy", "bugs/missing_bounds_check"
        QString path;        ///< its .wbproj
        QString description; ///< one line, from its README.md or the project's description
        bool buggy = false;  ///< under examples/bugs: wrong on purpose
    };
    static QList<ExampleEntry> exampleEntries();
    /// The documentation folder: installed (share/doc/warpbench) or the source tree's docs/.
    static QString documentationDir();
    QFileSystemWatcher* sourceWatcher() const noexcept { return m_sourceWatcher; }

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

private:
    void buildActions();
    void buildMenus();
    void buildDocks();
    /// 1400 × 900, or the screen's available size when that is smaller.
    QSize defaultWindowSize() const;
    /// The first start's dock sizes for the window's current size.
    void applyDefaultDockSizes();
    void probeEnvironment();
    void applyEnvironment();
    void updateTitle();
    void updateBanner();
    /// Before a run: true when the session's flags may run, asking the user (TrustPrompt) when
    /// some are outside the allowed set and not yet trusted.
    bool confirmFlags();
    void scheduleKernelCompile(bool now);
    /// The read-only tab of a user header the kernel includes (`file` as diagnostics name it:
    /// relative to the project folder, or absolute), opened on first use; nullptr when it
    /// cannot be read (said in the log).
    KernelEditor* headerEditor(const std::string& file);
    void scheduleReferenceCompile(bool now);
    void loadEditorsFromDocument();
    /// The reference tab's title and whether it can be typed into.
    void updateReferenceTab();
    /// reference.cpp's empty-editor hint: the stub for the launched kernel (CppReference::stub).
    void updateReferenceStub();
    void addRecentFile(const QString& path);
    void rebuildRecentMenu();
    void onRunFinished(std::shared_ptr<const RunOutcome> outcome);
    void applySignature(const CompileResult& compiled);
    /// Watches the project's separate kernel and reference files.
    void updateWatchedFiles();
    /// The session was edited since the shown results (`part` says what): grey them.
    void markResultsStale(const QString& why);
    /// The races of a race-checked run (`races` of them; `run`: their problems at kernel lines
    /// and the crowded-words note, session::toDiagnostics): in Problems and on the kernel
    /// editor's lines.
    void showRaces(std::size_t races, const session::RunDiagnostics& run);
    QByteArray snapshot() const;

    SessionDocument* m_doc = nullptr;
    Worker* m_compileWorker = nullptr;
    Worker* m_runWorker = nullptr;
    LiveCompiler* m_liveKernel = nullptr;
    LiveCompiler* m_liveReference = nullptr;
    RunController* m_runner = nullptr;
    Autosave* m_autosave = nullptr;
    DiagnosticsModel* m_diagnostics = nullptr;
    Environment m_env;
    bool m_loadingEditors = false;
    std::string m_lastCompileLog;
    bool m_layoutRestored =
        false; ///< a saved dock layout was restored (else size docks on first show)
    bool m_shownOnce = false;
    QByteArray m_defaultState; ///< the docks before any saved layout: Reset Layout's target
    bool m_signaturePending = false;
    quint64 m_editGeneration = 0; ///< counts edits; a run remembers the one it started from
    quint64 m_runEditGeneration = 0;
    QString m_runStaleReason; ///< what was edited while the run ran
    QFileSystemWatcher* m_sourceWatcher = nullptr;
    std::unique_ptr<QTemporaryDir> m_exampleCopy; ///< the open example's private copy

    StatusBanner* m_banner = nullptr;
    QWidget* m_recoveryBar = nullptr;
    QLabel* m_recoveryLabel = nullptr;
    QTabWidget* m_editorTabs = nullptr;
    KernelEditor* m_kernelEditor = nullptr;
    KernelEditor* m_referenceEditor = nullptr;
    std::map<std::string, KernelEditor*> m_headerEditors; ///< tabs of included headers
    FindReplaceBar* m_findBar = nullptr;
    LaunchPanel* m_launch = nullptr;
    BufferPanel* m_buffers = nullptr;
    ResultsPanel* m_results = nullptr;
    BufferViewer* m_viewer = nullptr;
    QDockWidget* m_launchDock = nullptr;
    QDockWidget* m_buffersDock = nullptr;
    QDockWidget* m_resultsDock = nullptr;
    QDockWidget* m_viewerDock = nullptr;

    QAction* m_runAction = nullptr;
    QAction* m_compileAction = nullptr;
    QAction* m_cancelAction = nullptr;
    QAction* m_boundsCheckAction = nullptr;
    QAction* m_raceCheckAction = nullptr;
    QMenu* m_recentMenu = nullptr;
    QLabel* m_deviceLabel = nullptr;
    QLabel* m_versionsLabel = nullptr;
    QLabel* m_lastRunLabel = nullptr;
    QLabel* m_compileState = nullptr;
    QProgressBar* m_progress = nullptr;
    QTimer* m_elapsedTimer = nullptr;
    QList<QByteArray> m_pendingRecovery;
    QStringList m_pendingRecoveryPaths;
};

} // namespace wb::ui
