// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/debug/GdbMi.h"

#include "core/common/Error.h"
#include "core/common/ProcessTree.h"

#include <QElapsedTimer>
#include <QProcessEnvironment>
#include <QStandardPaths>
#include <QStringList>

#include <csignal>
#include <cstdlib>

namespace wb::debug {

std::string GdbMi::executable()
{
    if (const char* env = std::getenv("WARPBENCH_GDB"); env && *env) return env;
    return QStandardPaths::findExecutable(QStringLiteral("gdb")).toStdString();
}

std::string GdbMi::unavailableReason()
{
    if (!executable().empty()) return {};
    return "the thread debugger needs gdb, which was not found on the PATH (Debian: apt install "
           "gdb; or set $WARPBENCH_GDB)";
}

GdbMi::GdbMi(const std::string& program, const std::vector<std::string>& args)
    : m_process(std::make_unique<QProcess>())
{
    const std::string gdb = executable();
    if (gdb.empty()) throw Error(Error::Kind::Unavailable, unavailableReason());
    // -nx: no ~/.gdbinit; no shell between gdb and the program; nothing fetched from the
    // network; no questions.
    QStringList argv = {QStringLiteral("--interpreter=mi3"),
                        QStringLiteral("-nx"),
                        QStringLiteral("-q"),
                        QStringLiteral("-iex"),
                        QStringLiteral("set debuginfod enabled off"),
                        QStringLiteral("-iex"),
                        QStringLiteral("set startup-with-shell off"),
                        QStringLiteral("-iex"),
                        QStringLiteral("set pagination off"),
                        QStringLiteral("-iex"),
                        QStringLiteral("set confirm off"),
                        QStringLiteral("-iex"),
                        QStringLiteral("set breakpoint pending on"),
                        QStringLiteral("-iex"),
                        QStringLiteral("set print elements 4096"),
                        QStringLiteral("-iex"),
                        QStringLiteral("set print repeats unlimited"),
                        QStringLiteral("-iex"),
                        QStringLiteral("set print pretty off"),
                        QStringLiteral("-iex"),
                        QStringLiteral("set width 0"),
                        QStringLiteral("--args"),
                        QString::fromStdString(program)};
    for (const std::string& a : args)
        argv << QString::fromStdString(a);
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(QStringLiteral("LD_PRELOAD"));
    env.insert(QStringLiteral("DEBUGINFOD_URLS"), QString());
    m_process->setProcessEnvironment(env);
    m_process->setProcessChannelMode(QProcess::MergedChannels);
    m_process->start(QString::fromStdString(gdb), argv);
    if (!m_process->waitForStarted(15'000))
        throw Error(Error::Kind::Unavailable,
                    "cannot start " + gdb + ": " + m_process->errorString().toStdString());
    // The first prompt says gdb is ready.
    MiRecord r;
    QElapsedTimer t;
    t.start();
    while (readRecord(15'000, r))
        if (r.type == MiRecord::Type::Prompt) return;
    kill();
    throw Error(Error::Kind::Unavailable, "gdb did not start: " + m_programOutput);
}

GdbMi::~GdbMi()
{
    kill();
}

bool GdbMi::running() const noexcept
{
    return m_process && m_process->state() != QProcess::NotRunning;
}

void GdbMi::note(const MiRecord& r)
{
    if (r.type == MiRecord::Type::NotifyAsync && r.cls == "thread-group-started")
        m_inferiorPid = std::atoll(r.results.text("pid", "0").c_str());
    if (r.type == MiRecord::Type::NotifyAsync && r.cls == "thread-group-exited") m_inferiorPid = 0;
    if (r.type == MiRecord::Type::TargetStream) m_programOutput += r.text;
    if (r.type == MiRecord::Type::ConsoleStream && m_console.size() < (64u << 20))
        m_console += r.text;
}

std::string GdbMi::takeConsole()
{
    std::string out;
    out.swap(m_console);
    return out;
}

bool GdbMi::readRecord(int timeoutMs, MiRecord& out)
{
    QElapsedTimer timer;
    timer.start();
    for (;;) {
        while (m_process->canReadLine()) {
            const QByteArray raw = m_process->readLine();
            const std::string line = raw.toStdString();
            if (auto rec = parseMiLine(line)) {
                note(*rec);
                out = std::move(*rec);
                return true;
            }
            // Not MI: the debugged program's own output (it shares gdb's terminal).
            if (m_programOutput.size() < (1u << 20)) m_programOutput += line;
        }
        const qint64 left = timeoutMs - timer.elapsed();
        if (left <= 0 || m_process->state() == QProcess::NotRunning) return false;
        m_process->waitForReadyRead(static_cast<int>(std::min<qint64>(left, 100)));
    }
}

MiRecord GdbMi::command(const std::string& cmd, int timeoutMs)
{
    if (!running()) throw Error(Error::Kind::Runtime, "the debugger has ended");
    const std::uint64_t token = m_nextToken++;
    const std::string line = std::to_string(token) + cmd + "\n";
    m_process->write(line.data(), static_cast<qint64>(line.size()));
    QElapsedTimer timer;
    timer.start();
    MiRecord r;
    for (;;) {
        const qint64 left = timeoutMs - timer.elapsed();
        if (left <= 0 || !readRecord(static_cast<int>(left), r)) {
            if (!running())
                throw Error(Error::Kind::Runtime,
                            "gdb ended while running '" + cmd + "': " + m_programOutput);
            throw Error(Error::Kind::Timeout, "gdb did not answer '" + cmd + "' within " +
                                                  std::to_string(timeoutMs / 1000) + " s");
        }
        if (r.type == MiRecord::Type::Result && r.token == token) return r;
        if (r.type == MiRecord::Type::ExecAsync || r.type == MiRecord::Type::NotifyAsync)
            m_async.push_back(r);
    }
}

MiRecord GdbMi::check(const std::string& cmd, int timeoutMs)
{
    MiRecord r = command(cmd, timeoutMs);
    if (r.cls == "error") throw Error(Error::Kind::Runtime, r.results.text("msg", "gdb error"));
    return r;
}

std::optional<MiRecord> GdbMi::waitForStop(int timeoutMs)
{
    QElapsedTimer timer;
    timer.start();
    for (;;) {
        while (!m_async.empty()) {
            MiRecord r = std::move(m_async.front());
            m_async.pop_front();
            if (r.type == MiRecord::Type::ExecAsync && r.cls == "stopped") return r;
        }
        const qint64 left = timeoutMs - timer.elapsed();
        MiRecord r;
        if (left <= 0 || !readRecord(static_cast<int>(left), r)) {
            if (!running()) throw Error(Error::Kind::Runtime, "gdb ended: " + m_programOutput);
            return std::nullopt;
        }
        if (r.type == MiRecord::Type::ExecAsync && r.cls == "stopped") return r;
    }
}

std::optional<bool> GdbMi::waitForCommands(int timeoutMs, std::string& error)
{
    QElapsedTimer timer;
    timer.start();
    error.clear();
    // A *running read while answering a command is queued.
    for (auto it = m_async.begin(); it != m_async.end(); ++it)
        if (it->type == MiRecord::Type::ExecAsync && it->cls == "running") {
            m_async.erase(m_async.begin(), it + 1);
            return true;
        }
    for (;;) {
        const qint64 left = timeoutMs - timer.elapsed();
        MiRecord r;
        if (left <= 0 || !readRecord(static_cast<int>(left), r)) {
            if (!running()) throw Error(Error::Kind::Runtime, "gdb ended: " + m_programOutput);
            return std::nullopt;
        }
        if (r.type == MiRecord::Type::LogStream) error += r.text;
        if (r.type == MiRecord::Type::Prompt) {
            while (!error.empty() && (error.back() == '\n' || error.back() == ' '))
                error.pop_back();
            return false;
        }
        if (r.type == MiRecord::Type::ExecAsync && r.cls == "running") return true;
        if (r.type == MiRecord::Type::ExecAsync || r.type == MiRecord::Type::NotifyAsync)
            m_async.push_back(r);
    }
}

void GdbMi::interrupt()
{
    // gdb runs the program in the foreground of no terminal: SIGINT to the program itself
    // is what stops it (gdb sees the signal and reports *stopped).
    if (m_inferiorPid > 0) ::kill(static_cast<pid_t>(m_inferiorPid), SIGINT);
}

void GdbMi::kill() noexcept
{
    if (!m_process) return;
    if (m_process->state() != QProcess::NotRunning) {
        // Ask gdb to kill the program and quit. If gdb hangs, kill the program first (gdb has
        // not reaped it, so the pid is still its own), then gdb.
        m_process->write("-gdb-exit\n");
        if (!m_process->waitForFinished(2'000)) {
            if (m_inferiorPid > 0) ::kill(static_cast<pid_t>(m_inferiorPid), SIGKILL);
            killProcessTree(static_cast<pid_t>(m_process->processId())); // whatever gdb started
            m_process->waitForFinished(2'000);
        }
    }
    m_inferiorPid = 0;
}

} // namespace wb::debug
