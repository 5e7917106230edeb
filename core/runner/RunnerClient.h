// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/common/MemoryFinding.h"
#include "core/common/RaceFinding.h"
#include "core/profiling/ProfileReport.h"
#include "core/profiling/SessionProfiler.h"
#include "core/session/RunReport.h"
#include "core/session/Session.h"
#include "core/session/SessionRunner.h"

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <sys/types.h>
#include <vector>

namespace wb::runner {

namespace detail {
class RunnerProcess;
}

/// How a run through the runner ended when it did not end normally. Every fault is also a
/// RunReport (status RuntimeError, exit code 3) whose message says what happened and what to
/// do next.
enum class Fault {
    None,
    Crashed,           ///< the runner died on a signal (SIGSEGV, SIGFPE, abort, ...) or exited
    ContextLost,       ///< sticky GPU error (illegal address, trap, launch failure)
    Timeout,           ///< wall-clock limit hit: runner killed
    Cancelled,         ///< cancel() and the kernel did not finish within the grace period
    OutOfMemory,       ///< host or device allocation failed
    RunnerUnavailable, ///< the runner binary is missing, cannot start, or speaks another version
    ProtocolError,     ///< the runner answered something unreadable
};
const char* faultName(Fault fault) noexcept;

/// The first failed device assertion in what the CUDA driver printed (`file:line: function:
/// block: [x,y,z], thread: [x,y,z] Assertion `cond` failed.`, on the runner's stdout or stderr),
/// as "assertion `cond` failed at file:line in function, block (x,y,z), thread (x,y,z)"; empty
/// when there is none.
std::string deviceAssertion(std::string_view printed);

/// What RunnerClient::run returns.
struct RunOutcome {
    session::RunReport report;
    Fault fault = Fault::None;
    std::string what;                    ///< what happened (empty when Fault::None)
    std::string next;                    ///< what to do next
    int signal = 0;                      ///< for Crashed: the signal number, 0 for an exit
    double elapsedMs = 0;                ///< wall clock of the request, start-up included
    bool runnerStarted = false;          ///< a fresh runner was started for this run
    std::vector<MemoryFinding> findings; ///< bounds-checked CPU runs and compute-sanitizer runs
    std::vector<RaceFinding> races;      ///< race-checked CPU runs (the run's last launch)
    /// Race-checked CPU runs: words with more accessors than the detector compares.
    std::vector<RaceCrowding> raceCrowding;
    std::string sanitizerLog; ///< the raw compute-sanitizer report, for memory-check runs
    std::string runnerLog;    ///< the last lines the runner wrote to stderr
    /// What the kernel printed (printf, on the CPU emulator and on the GPU): the first
    /// RunnerService::kKernelOutputLines lines, then "… N more lines". Empty when it printed
    /// nothing. After a crash, a timeout or a cancel: what it printed until then (the runner
    /// sends output as it arrives), with the count of further lines as last heard.
    std::string kernelOutput;
    /// Buffer transport figures: bytes of results+expected, the runner's copy into its arena
    /// (or compression), the client's copy out of it (or decompression).
    std::uint64_t transferBytes = 0;
    double transferWriteMs = 0, transferReadMs = 0;
    /// The kernel's profile, when Request::profile asked for one: cold-L2 timing and counters,
    /// or (status) why there is none. Absent when not asked for, and after a fault.
    std::optional<profiling::ProfileReport> profile;
};

/// Figures of a warm runner, for leak checks (bench_runner --soak).
struct RunnerStats {
    pid_t pid = 0;
    long vmRssKb = -1;
    long heapInUseKb = -1;          ///< malloc'ed and not freed (mallinfo2), all arenas
    long long handles = -1;         ///< wb::cuda::HandleRegistry total
    long long deviceFreeBytes = -1; ///< cuMemGetInfo in the runner; -1 without a CUDA backend
    long long deviceTotalBytes = -1;
};

/// Runs sessions in a separate warpbench-runner process so that no kernel can crash, freeze or
/// corrupt the caller. Keeps one warm runner per backend/device; after any fault the runner is
/// gone and the next run starts a fresh one. run() may be called from any one thread at a time
/// (it serialises); cancel() from any thread. No Qt event loop is needed (posix_spawn + poll).
/// Where compute-sanitizer is: $WARPBENCH_COMPUTE_SANITIZER, else
/// /usr/local/cuda/bin/compute-sanitizer.
std::string defaultSanitizer();

class RunnerClient {
public:
    enum class MemoryCheck { None, Memcheck, Racecheck };

    struct Config {
        /// argv that starts a runner, e.g. {"ssh", "gpu-box", "warpbench-runner"}; empty = the
        /// local warpbench-runner (runnerExecutable()).
        std::vector<std::string> command;
        /// Buffers travel compressed in the stream instead of shared memory (remote runners).
        /// Defaults to true when `command` is set and its program is not a warpbench-runner.
        std::optional<bool> inlineBuffers;
        /// A memory check runs the runner under compute-sanitizer (`sanitizer`): locally, or
        /// with a remote command on the remote side, where `sanitizer` is a path there.
        MemoryCheck memoryCheck = MemoryCheck::None;
        std::string sanitizer = defaultSanitizer();
        int cancelGraceMs = 1000;
        int startTimeoutMs = 30000;
        /// Runners start in a process group of their own (the terminal's Ctrl-C is the
        /// client's to handle). False: in the client's group, so that whoever started the
        /// client (`warpbench-cli grade`) stops the runner with it by killing that group.
        bool ownProcessGroup = true;
    };

    struct Request {
        session::Session session;
        /// reuseBackend and profile are ignored (profiling: Request::profile).
        session::SessionRunner::Options options;
        /// Wall-clock limit for kernel execution: from the run's first launch to its report.
        int timeoutMs = 10000;
        /// Limit for what comes before the first launch: runner start-up, compiles (a cold
        /// cache may build precompiled headers), data.
        int prepareTimeoutMs = 300000;
        bool boundsCheck = false; ///< CPU: the bounds-checked (ASan) mode
        bool raceCheck = false;   ///< CPU: the race-check mode (races in RunOutcome::races)
        /// CPU: schedule variation seed (CpuBackend::setSchedule); 0 = the fixed order.
        std::uint64_t schedule = 0;
        /// When set, the runner also profiles the kernel after the timed launches
        /// (profiling::SessionProfiler: cold-L2 timing, hardware counters) and the outcome
        /// carries the profile. Needs the CUDA backend; elsewhere the profile says why not.
        std::optional<profiling::SessionProfileOptions> profile;
        /// Limit for the profiling itself, from its start (the runner says when) to the
        /// report: the timing stops at 0.5 % noise or after 15 s, counters take 8+ passes.
        int profileTimeoutMs = 120000;
        /// When set and true as run() starts, the run does not start (a Cancelled fault,
        /// "cancelled before it started"). For a series of runs (a sweep) that its caller
        /// cancels by setting this flag and then calling cancel(): a cancel that lands between
        /// two runs is not lost, one that lands during a run stops that run.
        std::shared_ptr<const std::atomic<bool>> cancel;
    };

    RunnerClient();
    explicit RunnerClient(Config config);
    ~RunnerClient();
    RunnerClient(const RunnerClient&) = delete;
    RunnerClient& operator=(const RunnerClient&) = delete;

    RunOutcome run(const Request& request);
    /// Asks the run in progress to stop: the runner is killed when the kernel has not finished
    /// within Config::cancelGraceMs. No effect when nothing runs.
    void cancel() noexcept;

    /// Figures of the warm runner for `backend`/`device` (starts one if none is warm).
    RunnerStats stats(BackendKind backend, int device = 0);
    /// Pid of the warm runner for `backend`/`device`, 0 when none is warm.
    pid_t runnerPid(BackendKind backend, int device = 0) const;
    /// Pid of the runner serving the run in progress (0 when none); lock-free, for watchdogs
    /// and tests.
    pid_t activeRunnerPid() const noexcept { return m_activePid.load(); }
    /// Stops every warm runner.
    void shutdown();

    /// $WARPBENCH_RUNNER, next to the running program, the build tree, or the install's
    /// libexec folder; empty when none exists.
    static std::string runnerExecutable();
    /// Whether compute-sanitizer exists at `path`.
    static bool sanitizerAvailable(const std::string& path = defaultSanitizer());

private:
    std::unique_ptr<detail::RunnerProcess> start(RunOutcome& outcome, bool oneShot,
                                                 const std::string& sanitizerLog);
    /// Where compute-sanitizer goes in the runner command: 0 (before it all) for a local
    /// runner; before the warpbench-runner program of a remote command (ssh host
    /// warpbench-runner); none when a remote command names no warpbench-runner.
    std::optional<std::size_t> sanitizerPosition() const;
    Config m_config;
    mutable std::mutex m_mutex;
    std::atomic<bool> m_cancel{false};
    std::atomic<pid_t> m_activePid{0};
    std::map<std::pair<int, int>, std::unique_ptr<detail::RunnerProcess>> m_runners;
};

} // namespace wb::runner
