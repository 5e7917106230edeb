// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/cpu/detail/SandboxServer.h"

#include "core/common/ChildProcess.h"
#include "core/common/Error.h"
#include "core/common/ProcessTree.h"
#include "core/cpu/detail/RaceReport.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <sstream>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

namespace wb::cpu::detail {

namespace {

constexpr int kLaunchTimeoutMs = 600'000;
constexpr std::size_t kLogKeep = 64 * 1024;

} // namespace

SandboxServer::~SandboxServer()
{
    stop();
}

void SandboxServer::stop() noexcept
{
    if (m_socket >= 0) ::close(m_socket);
    if (m_output >= 0) ::close(m_output);
    m_socket = m_output = -1;
    if (m_pid > 0) {
        killProcessTree(m_pid);
        int status = 0;
        while (::waitpid(m_pid, &status, 0) < 0 && errno == EINTR) {
        }
    }
    m_pid = -1;
    m_library.clear();
    m_in.clear();
}

void SandboxServer::start(const std::string& library)
{
    stop();
    const std::string helper = sandboxExecutable();
    if (helper.empty())
        throw Error(Error::Kind::Unavailable,
                    "race-checked launches need warpbench-cpu-sandbox, which was not "
                    "found (set $WARPBENCH_CPU_SANDBOX)");
    // Requests and answers on descriptor 3, stdout and stderr into one pipe (the log), stdin
    // from /dev/null.
    ChildLayout layout;
    layout.socketAt = {3};
    layout.outputAt = {1, 2};
    layout.nullStdin = true;
    const SpawnedChild child = spawnChild({helper, "--serve"}, nullptr, layout, helper);
    m_pid = child.pid;
    m_socket = child.socket;
    m_output = child.output;
    m_library = library;
}

void SandboxServer::drainOutput() noexcept
{
    if (m_output < 0) return;
    char buf[4096];
    for (;;) {
        const ssize_t n = ::read(m_output, buf, sizeof buf);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            if (n == 0) {
                ::close(m_output);
                m_output = -1;
            }
            return;
        }
        m_log.append(buf, static_cast<std::size_t>(n));
        if (m_log.size() > 2 * kLogKeep) m_log.erase(0, m_log.size() - kLogKeep);
    }
}

bool SandboxServer::sendAll(const void* data, std::size_t size)
{
    const char* p = static_cast<const char*>(data);
    while (size > 0) {
        const ssize_t n = ::send(m_socket, p, size, MSG_NOSIGNAL);
        if (n < 0) {
            if (errno == EINTR) continue;
            if (errno == EAGAIN || errno == EWOULDBLOCK) {
                pollfd fds[2] = {{m_socket, POLLOUT, 0}, {m_output, POLLIN, 0}};
                ::poll(fds, m_output >= 0 ? 2 : 1, 100);
                drainOutput();
                continue;
            }
            return false;
        }
        p += n;
        size -= static_cast<std::size_t>(n);
    }
    return true;
}

bool SandboxServer::receive(std::size_t want, const SandboxLaunch& launch)
{
    const auto deadline =
        std::chrono::steady_clock::now() + std::chrono::milliseconds(kLaunchTimeoutMs);
    char buf[65536];
    for (;;) {
        if (want ? m_in.size() >= want : m_in.find('\n') != std::string::npos) return true;
        const ssize_t n = ::recv(m_socket, buf, sizeof buf, 0);
        if (n > 0) {
            m_in.append(buf, static_cast<std::size_t>(n));
            continue;
        }
        if (n == 0) return false;
        if (errno == EINTR) continue;
        if (errno != EAGAIN && errno != EWOULDBLOCK) return false;
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                              deadline - std::chrono::steady_clock::now())
                              .count();
        if (left <= 0) {
            stop();
            throw Error(Error::Kind::Timeout, "race-checked launch of '" + launch.kernel.name +
                                                  "' did not finish within " +
                                                  std::to_string(kLaunchTimeoutMs / 1000) + " s");
        }
        pollfd fds[2] = {{m_socket, POLLIN, 0}, {m_output, POLLIN, 0}};
        ::poll(fds, m_output >= 0 ? 2 : 1, static_cast<int>(std::min<long long>(left, 1000)));
        drainOutput();
    }
}

double SandboxServer::run(const SandboxLaunch& launch, std::vector<MemoryFinding>& findings)
{
    if (m_pid <= 0 || m_library != launch.compiled.libraryPath) start(launch.compiled.libraryPath);
    m_log.clear();
    m_in.clear();

    // The request: writeSandboxRequest's lines, the buffers inline.
    std::ostringstream req;
    const std::vector<int> used = writeSandboxLaunchLines(req, launch);
    for (std::size_t b = 0; b < launch.buffers.size(); ++b)
        if (used[b]) req << "buffer " << b << " " << launch.buffers[b].size << " -\n";
    for (std::size_t c = 0; c < launch.constants.size(); ++c) {
        const auto& [name, bytes] = launch.constants[c];
        req << "const " << name << " " << sandboxHex(bytes.data(), bytes.size()) << "\n";
        req << "constout " << c << " -\n";
    }
    if (launch.schedule) req << "schedule " << launch.schedule << "\n";
    if (launch.config.cooperative) req << "cooperative 1\n";
    req << "races 1\n";
    req << "workers " << std::max(1, launch.workers) << "\n";
    for (const SharedVariable& v : sharedVariables(launch.compiled.libraryPath))
        req << "sharedvar " << v.offset << " " << v.size << "\n";
    req << "kernel " << launch.kernel.name << "\n";
    req << "run\n";

    std::string text; ///< the answer's lines so far (race lines, then the ok or error line)
    const auto died = [&]() -> double {
        // The process ended mid-launch: its last words say why, as a one-shot sandbox's would.
        if (m_socket >= 0) ::close(m_socket);
        m_socket = -1;
        for (int i = 0; i < 50 && m_output >= 0; ++i) {
            pollfd p{m_output, POLLIN, 0};
            ::poll(&p, 1, 100);
            drainOutput();
        }
        int status = 0, exitCode = -1;
        if (m_pid > 0 && ::waitpid(m_pid, &status, 0) == m_pid) {
            m_pid = -1;
            if (WIFEXITED(status)) exitCode = WEXITSTATUS(status);
        }
        // The race lines it sent before are part of its last words.
        const std::string output = m_log + text + m_in;
        stop();
        throwSandboxFailure(launch, output, exitCode, findings);
    };
    const std::string header = req.str();
    bool sent = sendAll(header.data(), header.size());
    for (std::size_t b = 0; b < launch.buffers.size() && sent; ++b)
        if (used[b]) sent = sendAll(launch.buffers[b].data, launch.buffers[b].size);
    if (!sent) return died();

    // The answer: race lines, then "WB-SANDBOX ok <ms>" and the bytes, or an error line.
    for (;;) {
        if (!receive(0, launch)) return died();
        const std::size_t nl = m_in.find('\n');
        const std::string line = m_in.substr(0, nl + 1);
        m_in.erase(0, nl + 1);
        text += line;
        if (line.rfind("WB-SANDBOX ok ", 0) == 0) break;
        if (line.rfind("WB-SANDBOX error ", 0) == 0) {
            // The process ends after an error: wait for it, then report as it said.
            return died();
        }
    }
    std::size_t bytes = 0;
    for (std::size_t b = 0; b < launch.buffers.size(); ++b)
        if (used[b]) bytes += launch.buffers[b].size;
    for (const auto& c : launch.constants)
        bytes += c.second.size();
    if (!receive(bytes, launch)) return died();
    std::size_t at = 0;
    for (std::size_t b = 0; b < launch.buffers.size(); ++b) {
        if (!used[b]) continue;
        std::memcpy(launch.buffers[b].data, m_in.data() + at, launch.buffers[b].size);
        at += launch.buffers[b].size;
    }
    if (launch.constantsAfter) {
        *launch.constantsAfter = launch.constants;
        for (auto& c : *launch.constantsAfter) {
            std::memcpy(c.second.data(), m_in.data() + at, c.second.size());
            at += c.second.size();
        }
    }
    m_in.erase(0, bytes);
    return acceptSandboxAnswer(launch, text);
}

} // namespace wb::cpu::detail
