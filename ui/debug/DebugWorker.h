// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/debug/DebugSession.h"
#include "core/session/Session.h"

#include <QObject>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>

#include <atomic>
#include <memory>
#include <vector>

namespace wb::ui {

/// What the Debug dock shows after each stop.
struct DebugSnapshot {
    debug::DebugStop stop;
    std::vector<debug::DebugVariable> locals;
    std::vector<debug::SharedArray> shared;
    QString expression; ///< what the All threads table shows
    /// gdb's refusal of the user's expression at this stop ("nosuchvar: No symbol ..."); the
    /// table then shows threadIdx.x.
    QString expressionError;
    /// The not-yet-initialised locals the expression reads (its values are stale memory).
    QStringList uninitialised;
    std::vector<debug::ThreadRow> rows;
    debug::WarpView warp;
    QString error;        ///< set when the call failed (the session may have ended)
    bool running = false; ///< a session is alive and stopped in the kernel
};

/// Owns the debugging session on its own thread (every call blocks while the kernel runs):
/// the dock posts requests, the worker answers with snapshotReady(). The debugged process is
/// gdb's child, never the window's.
class DebugWorker : public QObject {
    Q_OBJECT
public:
    DebugWorker();
    ~DebugWorker() override;

    /// Thread-safe: stops a running kernel (its call then returns Interrupted).
    void interruptFromAnyThread();

public Q_SLOTS:
    void start(const wb::session::Session& session, const std::vector<wb::debug::Breakpoint>& bps,
               const QString& expression);
    void resume();
    void stepOver();
    void stepInto();
    void setExpression(const QString& expression);
    void finish();

Q_SIGNALS:
    void snapshotReady(const wb::ui::DebugSnapshot& snapshot);
    /// setExpression() with an expression gdb refuses at this stop (gdb's message): answered at
    /// once, the tables stay as they are.
    void expressionRefused(const QString& message);
    void statusChanged(const QString& text);

private:
    template <class Fn> void run(Fn fn);
    DebugSnapshot snapshot(const debug::DebugStop& stop);

    std::unique_ptr<QTemporaryDir> m_work;
    std::unique_ptr<debug::DebugSession> m_session;
    QString m_expression;
    std::atomic<std::int64_t> m_pid{0};
};

} // namespace wb::ui

Q_DECLARE_METATYPE(wb::ui::DebugSnapshot)
