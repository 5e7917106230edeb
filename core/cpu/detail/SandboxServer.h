// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/common/MemoryFinding.h"
#include "core/cpu/detail/Sandbox.h"

#include <sys/types.h>

#include <string>
#include <vector>

namespace wb::cpu::detail {

/// A warpbench-cpu-sandbox kept running between race-checked launches (`--serve`): the
/// instrumented library is loaded and the process sealed once, the buffers travel through a
/// socket instead of files, and the worker threads and their fiber stacks stay. A per-launch
/// process cost about 6 ms (start, library load, seal, files), more than the whole plain run of
/// a small example. The process serves one library; a launch of another starts a new one, and
/// so does the next launch after one that failed (the process ends with its error). The
/// destructor kills it. Not thread-safe: one launch at a time (CpuBackend's launch lock).
class SandboxServer {
public:
    SandboxServer() = default;
    ~SandboxServer();
    SandboxServer(const SandboxServer&) = delete;
    SandboxServer& operator=(const SandboxServer&) = delete;

    /// Runs the race-checked `launch` as runInSandbox does (the same results, races, errors);
    /// returns the kernel's time in ms.
    double run(const SandboxLaunch& launch, std::vector<MemoryFinding>& findings);

private:
    void start(const std::string& library);
    void stop() noexcept;
    /// Sends all of [data, data + size); false when the process is gone.
    bool sendAll(const void* data, std::size_t size);
    /// Reads until `want` bytes of answer are held (or a line when `want` is 0), keeping the
    /// process's stdout/stderr; false when the process ended first. Throws Error(Timeout).
    bool receive(std::size_t want, const SandboxLaunch& launch);
    void drainOutput() noexcept;

    pid_t m_pid = -1;
    int m_socket = -1; ///< requests and answers (the process's descriptor 3)
    int m_output = -1; ///< the process's stdout and stderr: kernel printf, sanitizer messages
    std::string m_library;
    std::string m_in;  ///< answer bytes received and not yet taken
    std::string m_log; ///< what the process printed during the current launch (its tail)
};

} // namespace wb::cpu::detail
