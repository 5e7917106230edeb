// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/debug/DebugSession.h"
#include "ui/debug/DebugWorker.h"

#include <QObject>
#include <QThread>

#include <map>
#include <string>
#include <vector>

class QAction;
class QDockWidget;
class QLabel;
class QLineEdit;
class QMainWindow;
class QMenu;
class QTableWidget;
class QTabWidget;

namespace wb::ui {

class KernelEditor;
class SessionDocument;

/// The thread debugger in the window (docs/debugger.md, docs/gui.md): breakpoints in the kernel
/// editor's margin (click; right-click for a condition such as `blockIdx.x == 2 &&
/// threadIdx.x == 17`), Run → Debug on CPU, Continue (F5) / Step Over (F10) / Step Into (F11)
/// / Stop (Shift+F5), the current-line marker, and a Debug dock with the chosen thread's
/// locals, the block's shared memory, one expression in every thread of the block with the
/// barrier phases, and the chosen thread's warp. The session runs in gdb on the emulator's
/// sandbox, on a worker thread: the window never blocks and a crashing kernel ends the session
/// only. The window constructs it with the parts it needs (Parts).
class DebugDock : public QObject {
    Q_OBJECT
public:
    struct Parts {
        KernelEditor* editor;      ///< the kernel's: breakpoints and the current line
        SessionDocument* document; ///< the session debugged (unsaved edits included)
        QDockWidget* results;      ///< the Debug dock is tabbed with it
        QMenu* run;                ///< Debug on CPU and the stepping actions go there
    };
    DebugDock(QMainWindow* window, Parts parts);
    ~DebugDock() override;

    /// Breakpoints by 1-based line: condition ("" = always).
    const std::map<int, QString>& breakpoints() const noexcept { return m_breakpoints; }
    void toggleBreakpoint(int line);
    void setBreakpointCondition(int line, const QString& condition);

    QAction* debugAction() const noexcept { return m_debug; }
    QAction* continueAction() const noexcept { return m_continue; }
    QAction* stepOverAction() const noexcept { return m_stepOver; }
    QAction* stepIntoAction() const noexcept { return m_stepInto; }
    QAction* stopAction() const noexcept { return m_stop; }
    QDockWidget* dock() const noexcept { return m_dock; }
    QTableWidget* localsTable() const noexcept { return m_locals; }
    QTableWidget* sharedTable() const noexcept { return m_shared; }
    QTableWidget* threadsTable() const noexcept { return m_threads; }
    QTableWidget* warpTable() const noexcept { return m_warp; }
    QLineEdit* expressionEdit() const noexcept { return m_expression; }
    /// Under the expression: gdb's refusal of it (red), or which not-yet-initialised locals its
    /// values read (grey); hidden when there is nothing to say.
    QLabel* expressionNote() const noexcept { return m_expressionNote; }
    QLabel* statusLabel() const noexcept { return m_status; }
    /// The line the current-line marker is on (1-based), 0 when none.
    int currentLine() const noexcept { return m_currentLine; }
    bool busy() const noexcept { return m_busy; }
    bool sessionActive() const noexcept { return m_active; }

Q_SIGNALS:
    /// After each answer of the debugger (a stop, an error, the end).
    void snapshotShown();

private:
    void startDebugging();
    void post(void (DebugWorker::*slot)());
    void show(const DebugSnapshot& s);
    /// After Stop: the tables of the last stop are emptied (they no longer describe a thread).
    void clearStopState();
    void setBusy(bool busy);
    void setCurrentLine(int line);
    void refreshMarkers();
    void editCondition(int line);
    void showExpressionNote(const QString& text, bool error);

    QMainWindow* m_window;
    SessionDocument* m_doc;
    KernelEditor* m_editor;
    QThread m_thread;
    DebugWorker* m_worker = nullptr;
    std::map<int, QString> m_breakpoints;
    QDockWidget* m_dock = nullptr;
    QLabel* m_status = nullptr;
    QTabWidget* m_tabs = nullptr;
    QTableWidget* m_locals = nullptr;
    QTableWidget* m_shared = nullptr;
    QTableWidget* m_threads = nullptr;
    QTableWidget* m_warp = nullptr;
    QLabel* m_warpLabel = nullptr;
    QLineEdit* m_expression = nullptr;
    QLabel* m_expressionNote = nullptr;
    QAction* m_debug = nullptr;
    QAction* m_continue = nullptr;
    QAction* m_stepOver = nullptr;
    QAction* m_stepInto = nullptr;
    QAction* m_stop = nullptr;
    /// The shared arrays at the previous stop, to mark what changed since.
    std::map<std::string, std::vector<std::string>> m_previousShared;
    int m_currentLine = 0;
    bool m_busy = false;
    bool m_active = false;
};

} // namespace wb::ui
