// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/debug/DebugWorker.h"

#include "core/common/Error.h"

#include <csignal>

namespace wb::ui {

DebugWorker::DebugWorker() = default;
DebugWorker::~DebugWorker()
{
    finish();
}

void DebugWorker::interruptFromAnyThread()
{
    if (const std::int64_t pid = m_pid.load(); pid > 0) ::kill(static_cast<pid_t>(pid), SIGINT);
}

DebugSnapshot DebugWorker::snapshot(const debug::DebugStop& stop)
{
    DebugSnapshot s;
    s.stop = stop;
    s.expression = m_expression;
    if (!m_session || m_session->finished() || stop.file != m_session->target().sourceName)
        return s;
    s.running = true;
    s.locals = m_session->locals();
    s.shared = m_session->sharedMemory();
    std::string expr =
        m_expression.trimmed().isEmpty() ? std::string("threadIdx.x") : m_expression.toStdString();
    // An expression gdb refuses here (a name of another scope) may be fine at a later stop: it
    // is kept, and this stop's table shows threadIdx.x with gdb's message.
    try {
        m_session->checkExpression(expr);
    } catch (const Error& e) {
        if (e.kind() != Error::Kind::InvalidArgument) throw;
        s.expressionError =
            QStringLiteral("%1: %2").arg(QString::fromStdString(expr), QString::fromUtf8(e.what()));
        expr = "threadIdx.x";
    }
    s.expression = QString::fromStdString(expr);
    for (const std::string& name : debug::DebugSession::uninitialisedIn(expr, s.locals))
        s.uninitialised << QString::fromStdString(name);
    s.rows = m_session->allThreads(expr);
    s.warp = m_session->warp(s.rows);
    return s;
}

template <class Fn> void DebugWorker::run(Fn fn)
{
    try {
        if (!m_session) throw Error(Error::Kind::InvalidArgument, "no debugging session");
        m_pid = m_session->inferiorPid();
        const debug::DebugStop stop = fn(*m_session);
        m_pid = m_session->inferiorPid();
        Q_EMIT snapshotReady(snapshot(stop));
    } catch (const std::exception& e) {
        DebugSnapshot s;
        s.error = QString::fromStdString(e.what());
        s.running = m_session && !m_session->finished();
        Q_EMIT snapshotReady(s);
    }
}

void DebugWorker::start(const session::Session& session, const std::vector<debug::Breakpoint>& bps,
                        const QString& expression)
{
    finish();
    m_expression = expression;
    try {
        Q_EMIT statusChanged(tr("Compiling the kernel for debugging (-O0 -g3)…"));
        m_work = std::make_unique<QTemporaryDir>();
        if (!m_work->isValid()) throw Error(Error::Kind::Io, "cannot create a temporary folder");
        m_session = std::make_unique<debug::DebugSession>(
            debug::DebugTarget::prepare(session, m_work->path().toStdString()));
        for (const debug::Breakpoint& b : bps)
            m_session->addBreakpoint(b);
        Q_EMIT statusChanged(tr("Running to the first breakpoint…"));
    } catch (const std::exception& e) {
        DebugSnapshot s;
        s.error = QString::fromStdString(e.what());
        m_session.reset();
        Q_EMIT snapshotReady(s);
        return;
    }
    run([](debug::DebugSession& d) { return d.start(); });
}

void DebugWorker::resume()
{
    run([](debug::DebugSession& d) { return d.resume(); });
}

void DebugWorker::stepOver()
{
    run([](debug::DebugSession& d) { return d.stepOver(); });
}

void DebugWorker::stepInto()
{
    run([](debug::DebugSession& d) { return d.stepInto(); });
}

void DebugWorker::setExpression(const QString& expression)
{
    m_expression = expression;
    if (!m_session || m_session->finished()) return;
    // A name gdb does not know here is answered before any replay of the launch.
    try {
        m_session->checkExpression(expression.trimmed().isEmpty() ? std::string("threadIdx.x")
                                                                  : expression.toStdString());
    } catch (const Error& e) {
        if (e.kind() == Error::Kind::InvalidArgument) {
            Q_EMIT expressionRefused(
                QStringLiteral("%1: %2").arg(expression, QString::fromUtf8(e.what())));
            return;
        }
    }
    run([](debug::DebugSession& d) { return d.lastStop(); });
}

void DebugWorker::finish()
{
    m_pid = 0;
    if (m_session) m_session->stop();
    m_session.reset();
    m_work.reset();
}

} // namespace wb::ui
