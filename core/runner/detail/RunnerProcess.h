// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/runner/Protocol.h"
#include "core/runner/SharedMemory.h"

#include <atomic>
#include <chrono>
#include <string>
#include <sys/types.h>
#include <vector>

namespace wb::runner::detail {

/// One runner process seen from the client: posix_spawn'ed with its stdin and stdout on one end
/// of a socketpair (send with MSG_NOSIGNAL: a dead runner is an error value, never SIGPIPE) and
/// its stderr on a pipe whose last 16 KB are kept. The destructor kills (SIGKILL) and reaps it.
class RunnerProcess {
public:
    using Clock = std::chrono::steady_clock;
    /// Invalid: what arrived is not a frame this client accepts (protocolError() says why).
    enum class Wait { Frame, Died, Timeout, Cancelled, Invalid };

    /// Throws wb::Error(Unavailable) with the reason when the program cannot be started.
    /// `ownProcessGroup`: the runner leads a new process group (else it joins this one).
    explicit RunnerProcess(const std::vector<std::string>& argv, bool ownProcessGroup = true);
    ~RunnerProcess();
    RunnerProcess(const RunnerProcess&) = delete;
    RunnerProcess& operator=(const RunnerProcess&) = delete;

    /// The environment a runner starts with: this process's, less everything but what finds
    /// programs, libraries, caches and the locale, and Warpbench's, CUDA's, the sanitizers'
    /// and ssh's own variables — secrets of the client never reach kernels.
    static std::vector<std::string> environment();

    /// False when the runner is gone (the socket is closed).
    bool send(const std::vector<char>& bytes);
    /// Waits for the next frame until `deadline`; when `cancel` becomes true, keeps waiting
    /// `grace` longer, then answers Cancelled.
    Wait wait(Protocol::Frame& frame, Clock::time_point deadline, const std::atomic<bool>* cancel,
              std::chrono::milliseconds grace);
    /// SIGKILL to the process group this object started (the runner and any wrapper's
    /// children, e.g. compute-sanitizer's) and reap. Never a pid the runner sent.
    void kill() noexcept;
    /// Waits up to `ms` for the process to exit; true when it did (status() then valid).
    bool waitExit(int ms) noexcept;

    pid_t pid() const noexcept { return m_pid; }
    /// The runner's own pid from its Hello (differs from pid() under compute-sanitizer), 0
    /// until accepted. Only used to open the runner's shared memory through /proc.
    pid_t runnerPid() const noexcept { return m_runnerPid; }
    /// Accepts the pid a local runner's Hello names: it must be pid() or a descendant of it
    /// (a wrapper's child). Throws wb::Error(Internal) otherwise.
    void setRunnerPid(pid_t pid);
    /// Why the last wait() answered Invalid.
    const std::string& protocolError() const noexcept { return m_protocolError; }
    /// Bytes received that do not yet make a frame (the runner stopped mid-frame when it died).
    std::size_t pendingBytes() const noexcept { return m_in.size(); }
    bool exited() const noexcept { return m_exited; }
    int status() const noexcept { return m_status; } ///< as waitpid reports it
    /// The last stderrKeep() bytes the runner wrote to stderr.
    std::string stderrTail() const;
    /// 16 KB unless set (a remote memory check's report comes on stderr).
    void setStderrKeep(std::size_t bytes) noexcept { m_errKeep = bytes; }
    /// Skip bytes before a frame's magic (a wrapper such as compute-sanitizer may print on the
    /// stdout the runner shares with it); the skipped text goes to stderrTail().
    void setResync(bool on) noexcept { m_resync = on; }
    /// The client's mapping of the runner's buffer arena, cached while fd and size stay.
    const SharedMemory& arena(int fd, std::size_t size);

private:
    void drainStderr() noexcept;
    bool takeFrame(Protocol::Frame& frame) noexcept;
    pid_t m_pid = -1;
    pid_t m_runnerPid = 0;
    int m_socket = -1;
    int m_stderr = -1;
    bool m_exited = false;
    bool m_resync = false;
    int m_status = 0;
    std::vector<char> m_in;
    std::string m_err;
    std::size_t m_errKeep = 16384;
    std::string m_protocolError;
    SharedMemory m_arena;
    int m_arenaFd = -1;
};

} // namespace wb::runner::detail
