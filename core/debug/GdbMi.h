// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/debug/MiParser.h"

#include <QProcess>

#include <deque>
#include <memory>
#include <string>
#include <vector>

namespace wb::debug {

/// gdb driven through its machine interface (`gdb --interpreter=mi3`), synchronously, from the
/// thread that created it. One debugged program: started with run(), it is killed (never left
/// stopped) when this object is destroyed or kill() is called, and it cannot outlive gdb
/// (the emulator's debug sandbox asks the kernel to kill it when its parent dies).
class GdbMi {
public:
    /// Where gdb is: $WARPBENCH_GDB, else `gdb` on the PATH; empty when missing.
    static std::string executable();
    /// Why no debugger can run here (gdb missing), or empty.
    static std::string unavailableReason();

    /// Starts gdb on `program` with `args` (no shell: arguments are passed as they are).
    /// Throws Error(Unavailable) when gdb cannot start.
    GdbMi(const std::string& program, const std::vector<std::string>& args);
    ~GdbMi();
    GdbMi(const GdbMi&) = delete;
    GdbMi& operator=(const GdbMi&) = delete;

    /// Sends one MI command and returns its result record (^done, ^running, ^error ...); async
    /// records that arrive meanwhile are queued for waitForStop(). Throws Error(Timeout) when
    /// gdb does not answer within `timeoutMs`, Error(Runtime) when gdb exited.
    MiRecord command(const std::string& cmd, int timeoutMs = 15'000);
    /// command(), throwing Error(Runtime) with gdb's message on ^error.
    MiRecord check(const std::string& cmd, int timeoutMs = 15'000);
    /// Waits for the next *stopped record. Returns std::nullopt when `timeoutMs` passed.
    std::optional<MiRecord> waitForStop(int timeoutMs);
    /// After the *stopped of a silent breakpoint (no reason: gdb runs its commands): true when
    /// the commands resumed the program (*running), false when one of them failed (gdb then
    /// prints the error and its prompt and leaves the program stopped; the error in `error`),
    /// std::nullopt when `timeoutMs` passed.
    std::optional<bool> waitForCommands(int timeoutMs, std::string& error);
    /// Interrupts the running program (it then reports *stopped).
    void interrupt();
    /// The debugged process, once started (0 before).
    qint64 inferiorPid() const noexcept { return m_inferiorPid; }
    /// The program's own output (target stream records and lines that are not MI).
    const std::string& programOutput() const noexcept { return m_programOutput; }
    /// gdb's console output (console stream records, such as breakpoint commands' printf)
    /// since the last call.
    std::string takeConsole();
    /// Ends gdb and the debugged program, never leaving either behind (SIGKILL when needed).
    void kill() noexcept;
    bool running() const noexcept;

private:
    bool readRecord(int timeoutMs, MiRecord& out);
    void note(const MiRecord& r);

    std::unique_ptr<QProcess> m_process;
    std::deque<MiRecord> m_async;
    std::uint64_t m_nextToken = 1;
    qint64 m_inferiorPid = 0;
    std::string m_programOutput;
    std::string m_console;
};

} // namespace wb::debug
