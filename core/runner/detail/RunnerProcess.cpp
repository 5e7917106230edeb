// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/runner/detail/RunnerProcess.h"

#include "core/common/ChildProcess.h"
#include "core/common/Error.h"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <optional>
#include <poll.h>
#include <string_view>
#include <sys/socket.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

extern char** environ;

namespace wb::runner::detail {

namespace {

/// The variables a runner may see: what finds programs, libraries, caches and the locale,
/// Warpbench's own settings, CUDA's and the sanitizers'; ssh's agent for remote runners.
/// Anything else the client happens to hold (a token, a password) stays with the client.
bool passedToRunner(std::string_view entry)
{
    const std::string_view name = entry.substr(0, entry.find('='));
    for (const std::string_view exact :
         {"PATH", "HOME", "USER", "LOGNAME", "LANG", "LANGUAGE", "TZ", "TMPDIR", "TERM",
          "LD_LIBRARY_PATH", "CXX", "CC", "DISPLAY"})
        if (name == exact) return true;
    for (const std::string_view prefix : {"LC_", "XDG_", "QT_", "CUDA_", "NV", "WARPBENCH_", "WB_",
                                          "SSH_", "ASAN_", "UBSAN_", "TSAN_"})
        if (name.substr(0, prefix.size()) == prefix) return true;
    return false;
}

} // namespace

std::vector<std::string> RunnerProcess::environment()
{
    std::vector<std::string> env;
    for (char** e = environ; e && *e; ++e)
        if (passedToRunner(*e)) env.emplace_back(*e);
    return env;
}

RunnerProcess::RunnerProcess(const std::vector<std::string>& argv, bool ownProcessGroup)
{
    if (argv.empty()) throw Error(Error::Kind::Unavailable, "no runner command");
    // Requests on stdin, answers on stdout (one socket), stderr on a pipe. A fresh process
    // group: signals for the client's terminal (Ctrl-C) are the client's to handle; it then
    // stops the runner itself.
    ChildLayout layout;
    layout.socketAt = {0, 1};
    layout.outputAt = {2};
    layout.ownProcessGroup = ownProcessGroup;
    layout.searchPath = true;
    const std::vector<std::string> env = environment();
    const SpawnedChild child = spawnChild(argv, &env, layout, "the runner (" + argv[0] + ")");
    m_pid = child.pid;
    m_socket = child.socket;
    m_stderr = child.output;
}

RunnerProcess::~RunnerProcess()
{
    kill();
    if (m_socket >= 0) ::close(m_socket);
    if (m_stderr >= 0) ::close(m_stderr);
}

bool RunnerProcess::send(const std::vector<char>& bytes)
{
    std::size_t done = 0;
    while (done < bytes.size()) {
        const ssize_t n = ::send(m_socket, bytes.data() + done, bytes.size() - done, MSG_NOSIGNAL);
        if (n < 0) {
            if (errno == EINTR) continue;
            if (errno == EAGAIN || errno == EWOULDBLOCK) {
                pollfd p{m_socket, POLLOUT, 0};
                ::poll(&p, 1, 100);
                drainStderr();
                continue;
            }
            return false;
        }
        done += static_cast<std::size_t>(n);
    }
    return true;
}

void RunnerProcess::drainStderr() noexcept
{
    if (m_stderr < 0) return;
    char buf[4096];
    for (;;) {
        const ssize_t n = ::read(m_stderr, buf, sizeof buf);
        if (n <= 0) {
            if (n == 0) {
                ::close(m_stderr);
                m_stderr = -1;
            }
            return;
        }
        m_err.append(buf, static_cast<std::size_t>(n));
        if (m_err.size() > 2 * m_errKeep) m_err.erase(0, m_err.size() - m_errKeep);
    }
}

std::string RunnerProcess::stderrTail() const
{
    return m_err.size() > m_errKeep ? m_err.substr(m_err.size() - m_errKeep) : m_err;
}

bool RunnerProcess::takeFrame(Protocol::Frame& frame) noexcept
{
    try {
        return Protocol::take(m_in, frame);
    } catch (const std::exception& e) {
        m_protocolError = e.what();
        return false;
    }
}

namespace {

/// The parent of `pid` from /proc/<pid>/stat, 0 when unknown.
pid_t parentOf(pid_t pid)
{
    const std::string path = "/proc/" + std::to_string(pid) + "/stat";
    char buf[512];
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return 0;
    const ssize_t n = ::read(fd, buf, sizeof buf - 1);
    ::close(fd);
    if (n <= 0) return 0;
    buf[n] = 0;
    // "pid (comm) state ppid ...": comm may hold spaces and parentheses; the last ')' ends it.
    const char* close = std::strrchr(buf, ')');
    if (!close) return 0;
    char state = 0;
    int ppid = 0;
    if (std::sscanf(close + 1, " %c %d", &state, &ppid) != 2) return 0;
    return ppid;
}

} // namespace

void RunnerProcess::setRunnerPid(pid_t pid)
{
    if (pid > 0 && m_pid > 0) {
        pid_t p = pid;
        for (int depth = 0; p > 1 && depth < 16; ++depth, p = parentOf(p))
            if (p == m_pid) {
                m_runnerPid = pid;
                return;
            }
    }
    throw Error(Error::Kind::Internal, "runner protocol: the runner's hello names pid " +
                                           std::to_string(pid) +
                                           ", which is neither the process started (pid " +
                                           std::to_string(m_pid) + ") nor one of its children");
}

RunnerProcess::Wait RunnerProcess::wait(Protocol::Frame& frame, Clock::time_point deadline,
                                        const std::atomic<bool>* cancel,
                                        std::chrono::milliseconds grace)
{
    std::optional<Clock::time_point> cancelAt;
    char buf[1 << 16];
    for (;;) {
        if (m_resync && !m_in.empty()) {
            static const char magic[] = {'W', 'B', 'R', 'N'};
            auto keep = std::search(m_in.begin(), m_in.end(), magic, magic + 4);
            // No magic yet: keep the longest tail that may be its start.
            if (keep == m_in.end())
                for (keep = m_in.size() > 3 ? m_in.end() - 3 : m_in.begin(); keep != m_in.end();
                     ++keep)
                    if (std::equal(keep, m_in.end(), magic)) break;
            if (keep != m_in.begin()) {
                m_err.append(m_in.begin(), keep);
                m_in.erase(m_in.begin(), keep);
            }
        }
        if (takeFrame(frame)) return Wait::Frame;
        if (!m_protocolError.empty()) return Wait::Invalid;
        const auto now = Clock::now();
        if (cancel && !cancelAt && cancel->load()) cancelAt = now + grace;
        if (cancelAt && now >= *cancelAt) return Wait::Cancelled;
        if (now >= deadline) return Wait::Timeout;
        if (m_socket < 0) return Wait::Died;
        pollfd p[2] = {{m_socket, POLLIN, 0}, {m_stderr, POLLIN, 0}};
        const auto limit = cancelAt ? std::min(deadline, *cancelAt) : deadline;
        const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(limit - now).count();
        ::poll(p, m_stderr >= 0 ? 2 : 1, static_cast<int>(std::clamp<long long>(ms + 1, 1, 50)));
        drainStderr();
        for (;;) {
            const ssize_t n = ::recv(m_socket, buf, sizeof buf, 0);
            if (n > 0) {
                m_in.insert(m_in.end(), buf, buf + n);
                continue;
            }
            if (n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)) {
                if (takeFrame(frame)) return Wait::Frame;
                if (!m_protocolError.empty()) return Wait::Invalid;
                // The runner closed its end: it is exiting. Collect its status and last words.
                waitExit(2000);
                drainStderr();
                return Wait::Died;
            }
            break;
        }
    }
}

bool RunnerProcess::waitExit(int ms) noexcept
{
    if (m_exited || m_pid <= 0) return m_exited;
    const auto until = Clock::now() + std::chrono::milliseconds(ms);
    for (;;) {
        int st = 0;
        const pid_t r = ::waitpid(m_pid, &st, WNOHANG);
        if (r == m_pid) {
            m_exited = true;
            m_status = st;
            return true;
        }
        if (r < 0 && errno != EINTR) return false;
        if (Clock::now() >= until) return false;
        drainStderr();
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
}

void RunnerProcess::kill() noexcept
{
    if (m_pid <= 0 || m_exited) return;
    // The process group made at spawn (its id is our child's pid): a wrapper and the runner
    // it started go together.
    ::kill(-m_pid, SIGKILL);
    ::kill(m_pid, SIGKILL);
    waitExit(10000);
}

const SharedMemory& RunnerProcess::arena(int fd, std::size_t size)
{
    if (!m_arena.valid() || m_arenaFd != fd || m_arena.size() < size) {
        m_arena = SharedMemory::openOf(m_runnerPid > 0 ? m_runnerPid : m_pid, fd, size);
        m_arenaFd = fd;
    }
    return m_arena;
}

} // namespace wb::runner::detail
