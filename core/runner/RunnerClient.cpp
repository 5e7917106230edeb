// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/runner/RunnerClient.h"

#include "core/common/Error.h"
#include "core/profiling/ProfileCodec.h"
#include "core/runner/BufferCodec.h"
#include "core/runner/RunnerService.h"
#include "core/runner/SanitizerReport.h"
#include "core/runner/detail/RunnerProcess.h"
#include "core/session/ProjectFile.h"
#include "core/session/ReportJson.h"

#include <QByteArray>
#include <QJsonArray>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>
#include <sys/wait.h>
#include <unistd.h>

namespace wb::runner {

using detail::RunnerProcess;
using Clock = std::chrono::steady_clock;
using session::RunReport;

namespace {

std::string signalName(int sig)
{
    switch (sig) {
    case SIGSEGV:
        return "SIGSEGV (segmentation fault: an invalid memory access — out of bounds, a null "
               "pointer, or a stack overflow)";
    case SIGBUS:
        return "SIGBUS (bus error: a misaligned or unmapped memory access)";
    case SIGFPE:
        return "SIGFPE (arithmetic exception: integer division by zero or overflow)";
    case SIGABRT:
        return "SIGABRT (abort(): a failed assert, __trap(), or std::terminate)";
    case SIGILL:
        return "SIGILL (illegal instruction)";
    case SIGKILL:
        return "SIGKILL (killed from outside the runner, perhaps by the out-of-memory killer)";
    case SIGTERM:
        return "SIGTERM (terminated from outside the runner)";
    case SIGTRAP:
        return "SIGTRAP (trap)";
    default: {
        const char* d = ::strsignal(sig);
        return "signal " + std::to_string(sig) + (d ? std::string(" (") + d + ")" : std::string());
    }
    }
}

std::string lastLines(const std::string& text, int n)
{
    std::size_t pos = text.size();
    if (pos && text[pos - 1] == '\n') --pos;
    for (int i = 0; i < n && pos != std::string::npos && pos > 0; ++i)
        pos = text.rfind('\n', pos - 1);
    return text.substr(pos == std::string::npos ? 0 : pos + (pos > 0 ? 1 : 0));
}

std::string seconds(double ms)
{
    char b[32];
    std::snprintf(b, sizeof b, "%.2f s", ms / 1000.0);
    return b;
}

bool looksLikeRunner(const std::string& program)
{
    return std::filesystem::path(program).filename().string().find("warpbench-runner") !=
           std::string::npos;
}

std::string absoluteDir(const std::filesystem::path& dir)
{
    std::error_code ec;
    const auto abs = dir.empty() ? dir : std::filesystem::absolute(dir, ec);
    return ec ? dir.string() : abs.string();
}

/// A count, size, offset or pid from the runner: a non-negative integer no larger than `max`
/// (and than 2^53, what a JSON number holds exactly). Throws wb::Error(Internal) naming `what`.
std::uint64_t wireInteger(const QJsonValue& v, const char* what,
                          std::uint64_t max = std::uint64_t{1} << 53)
{
    const double d = v.toDouble(-1);
    if (!v.isDouble() || !(d >= 0) || d != std::floor(d) || d > 9007199254740992.0 ||
        static_cast<std::uint64_t>(d) > max)
        throw Error(Error::Kind::Internal,
                    std::string("runner protocol: ") + what + " is not an integer from 0 to " +
                        std::to_string(max) + " (got " +
                        (v.isDouble() ? QString::number(d, 'g', 17).toStdString()
                                      : std::string("a value of another type")) +
                        ")");
    return static_cast<std::uint64_t>(d);
}

/// What the kernel printed, as the runner kept it (the first lines), with a last line saying how
/// many more there were.
std::string kernelOutputText(std::string text, std::uint64_t moreLines)
{
    // The runner bounds it; a runner that does not is cut here.
    constexpr std::size_t kMax = 1 << 20;
    if (text.size() > kMax) text.resize(kMax);
    if (!text.empty() && text.back() != '\n') text += '\n';
    if (moreLines)
        text +=
            "… " + std::to_string(moreLines) + " more line" + (moreLines == 1 ? "" : "s") + "\n";
    return text;
}

/// "[x,y,z]" at `at` (advanced past it) as "(x,y,z)"; empty when it is not there.
std::string bracketedDim(std::string_view line, std::size_t& at)
{
    if (at >= line.size() || line[at] != '[') return {};
    const std::size_t close = line.find(']', at);
    if (close == std::string_view::npos || close - at > 40) return {};
    std::string inner(line.substr(at + 1, close - at - 1));
    for (const char c : inner)
        if (!(c >= '0' && c <= '9') && c != ',') return {};
    at = close + 1;
    return "(" + inner + ")";
}

/// The report of a run that ended in a fault: status RuntimeError, message = what + next.
void setFault(RunOutcome& o, Fault fault, const std::string& what, const std::string& next)
{
    o.fault = fault;
    o.what = what;
    o.next = next;
    o.report.status = RunReport::Status::RuntimeError;
    o.report.message = what + (next.empty() ? "" : "; " + next);
}

} // namespace

std::string deviceAssertion(std::string_view printed)
{
    constexpr std::string_view kBlock = ": block: ";
    constexpr std::string_view kThread = ", thread: ";
    constexpr std::string_view kAssertion = " Assertion `";
    std::size_t lineBegin = 0;
    while (lineBegin < printed.size()) {
        std::size_t lineEnd = printed.find('\n', lineBegin);
        if (lineEnd == std::string_view::npos) lineEnd = printed.size();
        const std::string_view line = printed.substr(lineBegin, lineEnd - lineBegin);
        lineBegin = lineEnd + 1;
        const std::size_t block = line.find(kBlock);
        if (block == std::string_view::npos) continue;
        std::size_t at = block + kBlock.size();
        const std::string blockDim = bracketedDim(line, at);
        if (blockDim.empty() || line.substr(at, kThread.size()) != kThread) continue;
        at += kThread.size();
        const std::string threadDim = bracketedDim(line, at);
        if (threadDim.empty() || line.substr(at, kAssertion.size()) != kAssertion) continue;
        at += kAssertion.size();
        const std::size_t condEnd = line.rfind("` failed.");
        if (condEnd == std::string_view::npos || condEnd < at) continue;
        const std::string_view condition = line.substr(at, condEnd - at);
        // "file:line: function" before ": block: " (the function may hold ':' itself).
        const std::string_view head = line.substr(0, block);
        std::size_t colon = std::string_view::npos;
        for (std::size_t c = head.find(':'); c != std::string_view::npos;
             c = head.find(':', c + 1)) {
            std::size_t d = c + 1;
            while (d < head.size() && head[d] >= '0' && head[d] <= '9')
                ++d;
            if (d > c + 1 && head.substr(d, 2) == ": ") {
                colon = c;
                break;
            }
        }
        if (colon == std::string_view::npos) continue;
        const std::size_t lineNumberEnd = head.find(": ", colon + 1);
        const std::string_view location = head.substr(0, lineNumberEnd);
        const std::string_view function = head.substr(lineNumberEnd + 2);
        return "assertion `" + std::string(condition) + "` failed at " + std::string(location) +
               " in " + std::string(function) + ", block " + blockDim + ", thread " + threadDim;
    }
    return {};
}

const char* faultName(Fault fault) noexcept
{
    switch (fault) {
    case Fault::None:
        return "none";
    case Fault::Crashed:
        return "crashed";
    case Fault::ContextLost:
        return "context lost";
    case Fault::Timeout:
        return "timeout";
    case Fault::Cancelled:
        return "cancelled";
    case Fault::OutOfMemory:
        return "out of memory";
    case Fault::RunnerUnavailable:
        return "runner unavailable";
    case Fault::ProtocolError:
        return "protocol error";
    }
    return "fault";
}

RunnerClient::RunnerClient()
    : RunnerClient(Config{})
{
}
RunnerClient::RunnerClient(Config config)
    : m_config(std::move(config))
{
}
RunnerClient::~RunnerClient()
{
    shutdown();
}

std::string RunnerClient::runnerExecutable()
{
    namespace fs = std::filesystem;
    std::error_code ec;
    if (const char* env = std::getenv("WARPBENCH_RUNNER"); env && *env) return env;
    const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    const std::vector<fs::path> candidates = {
        exe.parent_path() / "warpbench-runner",
        fs::path(WB_RUNNER_BUILD_PATH),
        exe.parent_path().parent_path() / "libexec" / "warpbench" / "warpbench-runner",
        fs::path(WB_RUNNER_INSTALL_PATH),
    };
    for (const fs::path& c : candidates)
        if (fs::exists(c, ec)) return c.string();
    return {};
}

std::string defaultSanitizer()
{
    if (const char* env = std::getenv("WARPBENCH_COMPUTE_SANITIZER"); env && *env) return env;
    return "/usr/local/cuda/bin/compute-sanitizer";
}

bool RunnerClient::sanitizerAvailable(const std::string& path)
{
    return ::access(path.c_str(), X_OK) == 0;
}

void RunnerClient::cancel() noexcept
{
    m_cancel = true;
}

void RunnerClient::shutdown()
{
    std::lock_guard lock(m_mutex);
    for (auto& [key, p] : m_runners) {
        if (p && p->send(Protocol::encode(Protocol::Type::Quit, QJsonObject{})) &&
            p->waitExit(2000))
            continue;
    }
    m_runners.clear(); // kills what did not quit
}

pid_t RunnerClient::runnerPid(BackendKind backend, int device) const
{
    std::lock_guard lock(m_mutex);
    const auto it = m_runners.find({static_cast<int>(backend), device});
    if (it == m_runners.end() || !it->second) return 0;
    return it->second->runnerPid() ? it->second->runnerPid() : it->second->pid();
}

std::unique_ptr<RunnerProcess> RunnerClient::start(RunOutcome& o, bool oneShot,
                                                   const std::string& sanitizerLog)
{
    std::vector<std::string> argv = m_config.command;
    if (argv.empty()) {
        const std::string exe = runnerExecutable();
        if (exe.empty()) {
            setFault(o, Fault::RunnerUnavailable, "the runner (warpbench-runner) was not found",
                     "build or install it next to this program, set WARPBENCH_RUNNER, or run "
                     "in-process (--in-process)");
            return nullptr;
        }
        argv = {exe};
    }
    const bool remote = m_config.inlineBuffers.value_or(!m_config.command.empty() &&
                                                        !looksLikeRunner(m_config.command[0]));
    if (oneShot) {
        // compute-sanitizer goes right before the runner program: on the remote side when the
        // command starts it through ssh, writing its report to the runner's stderr there.
        const std::size_t at = sanitizerPosition().value_or(0);
        const bool race = m_config.memoryCheck == MemoryCheck::Racecheck;
        // Only the runner itself is checked: kernels run in it. With the sanitizer's default
        // (--target-processes all) it also injects itself into the runner's children, the host
        // compiler of a C++ reference and the reference's sealed fork, and on the H200
        // (driver 580, CUDA 13.0) the runner then died of SIGSEGV at address 0 on every
        // project with a C++ reference; with application-only those projects pass.
        std::vector<std::string> tool = {m_config.sanitizer,
                                         "--tool",
                                         race ? "racecheck" : "memcheck",
                                         "--target-processes",
                                         "application-only",
                                         "--log-file",
                                         at == 0 ? sanitizerLog : "/dev/stderr",
                                         "--print-limit",
                                         "100"};
        if (race) tool.insert(tool.begin() + 7, {"--racecheck-report", "all"});
        argv.insert(argv.begin() + static_cast<std::ptrdiff_t>(at), tool.begin(), tool.end());
        // Exact device allocations, so that memcheck sees each buffer's real end (a pooled
        // buffer's size class is larger).
        argv.insert(argv.begin() + static_cast<std::ptrdiff_t>(at + tool.size() + 1),
                    "--no-device-pool");
    }
    std::unique_ptr<RunnerProcess> p;
    try {
        p = std::make_unique<RunnerProcess>(argv, m_config.ownProcessGroup);
    } catch (const Error& e) {
        setFault(o, Fault::RunnerUnavailable, e.what(),
                 "check the runner command, or run in-process (--in-process)");
        return nullptr;
    }
    o.runnerStarted = true;
    p->setResync(oneShot);
    if (oneShot && sanitizerPosition().value_or(0) > 0) p->setStderrKeep(std::size_t{8} << 20);
    p->send(Protocol::encode(
        Protocol::Type::Hello,
        QJsonObject{{"version", Protocol::kVersion}, {"transport", remote ? "inline" : "shm"}}));
    Protocol::Frame f;
    const auto w =
        p->wait(f, Clock::now() + std::chrono::milliseconds(m_config.startTimeoutMs), nullptr, {});
    std::string why;
    Fault fault = Fault::RunnerUnavailable;
    std::string next =
        "check that warpbench-runner matches this build, or run in-process (--in-process)";
    try {
        if (w == RunnerProcess::Wait::Invalid) {
            fault = Fault::ProtocolError;
            why = p->protocolError();
            const bool text = why.find("not a Warpbench runner") != std::string::npos;
            next = std::string(remote && text
                                   ? "a start-up file of the remote shell (.bashrc, "
                                     ".profile) that prints must do so only for interactive "
                                     "shells; "
                                   : "") +
                   "the runner's stdout must carry only the protocol; a fresh runner starts on "
                   "the next run";
        } else if (w == RunnerProcess::Wait::Frame && f.type == Protocol::Type::Error)
            why = f.json().value(QLatin1String("message")).toString().toStdString();
        else if (w == RunnerProcess::Wait::Frame && f.version != Protocol::kVersion)
            why = "runner protocol version mismatch: the runner speaks version " +
                  std::to_string(f.version) + ", this client version " +
                  std::to_string(Protocol::kVersion);
        else if (w == RunnerProcess::Wait::Frame && f.type == Protocol::Type::Hello) {
            fault = Fault::ProtocolError;
            next = "a fresh runner starts on the next run";
            const QJsonObject hello = f.json();
            if (!remote)
                p->setRunnerPid(static_cast<pid_t>(wireInteger(hello.value(QLatin1String("pid")),
                                                               "the hello's pid",
                                                               std::numeric_limits<pid_t>::max())));
            return p;
        } else if (w == RunnerProcess::Wait::Frame) {
            fault = Fault::ProtocolError;
            next = "a fresh runner starts on the next run";
            why = std::string("runner protocol: the runner answered the hello with a ") +
                  Protocol::typeName(f.type) + " frame";
        } else if (w == RunnerProcess::Wait::Timeout)
            why = "the runner did not answer within " + seconds(m_config.startTimeoutMs);
        else
            why = "the runner exited during start-up";
    } catch (const Error& e) {
        why = e.what();
    }
    const std::string log = lastLines(p->stderrTail(), 5);
    setFault(o, fault, why + (log.empty() ? std::string() : " (runner said: " + log + ")"), next);
    o.runnerLog = p->stderrTail();
    return nullptr;
}

std::optional<std::size_t> RunnerClient::sanitizerPosition() const
{
    const std::vector<std::string>& c = m_config.command;
    if (c.size() <= 1 || looksLikeRunner(c[0])) return 0;
    for (std::size_t i = c.size(); i-- > 1;)
        if (looksLikeRunner(c[i])) return i;
    return std::nullopt;
}

RunnerStats RunnerClient::stats(BackendKind backend, int device)
{
    std::lock_guard lock(m_mutex);
    RunnerStats s;
    auto& slot = m_runners[{static_cast<int>(backend), device}];
    RunOutcome ignored;
    if (!slot) slot = start(ignored, false, {});
    if (!slot) throw Error(Error::Kind::Unavailable, ignored.report.message);
    Protocol::Frame f;
    if (!slot->send(Protocol::encode(Protocol::Type::Stats, QJsonObject{})) ||
        slot->wait(f, Clock::now() + std::chrono::seconds(10), nullptr, {}) !=
            RunnerProcess::Wait::Frame ||
        f.type != Protocol::Type::Stats) {
        slot.reset();
        throw Error(Error::Kind::Runtime, "the runner did not answer a stats request");
    }
    const QJsonObject j = f.json();
    s.pid = static_cast<pid_t>(j["pid"].toDouble());
    s.vmRssKb = static_cast<long>(j["vmRssKb"].toDouble());
    s.heapInUseKb = static_cast<long>(j["heapInUseKb"].toDouble(-1));
    s.handles = static_cast<long long>(j["handles"].toDouble());
    s.deviceFreeBytes = static_cast<long long>(j["deviceFreeBytes"].toDouble(-1));
    s.deviceTotalBytes = static_cast<long long>(j["deviceTotalBytes"].toDouble(-1));
    return s;
}

RunOutcome RunnerClient::run(const Request& req)
{
    std::lock_guard lock(m_mutex);
    m_cancel = false;
    RunOutcome o;
    const auto t0 = Clock::now();
    o.report.project = req.session.name;
    const BackendKind kind = req.options.backend.value_or(req.session.backend);
    const int device = req.options.device.value_or(req.session.device);
    o.report.backend = kind;
    o.report.check = req.options.check;
    // After clearing m_cancel: a caller sets its flag before calling cancel(), so either the
    // flag is seen here or cancel() lands after the clear.
    if (req.cancel && req.cancel->load()) {
        setFault(o, Fault::Cancelled, "cancelled before it started", "");
        return o;
    }
    std::string kernel = req.session.launch.kernel;
    const bool oneShot = m_config.memoryCheck != MemoryCheck::None;
    auto elapsed = [&] {
        return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
    };

    std::string logPath;
    // A remote memory check: compute-sanitizer runs there and reports on the runner's stderr.
    const bool remoteCheck = oneShot && sanitizerPosition().value_or(0) > 0;
    if (oneShot && !sanitizerPosition()) {
        setFault(o, Fault::RunnerUnavailable,
                 "a memory check with a runner command needs to know where compute-sanitizer "
                 "goes: no program named warpbench-runner in the runner command",
                 "start the runner as warpbench-runner (e.g. \"ssh gpu-box warpbench-runner\")");
        return o;
    }
    if (oneShot && !remoteCheck) {
        if (!sanitizerAvailable(m_config.sanitizer)) {
            setFault(o, Fault::RunnerUnavailable,
                     "compute-sanitizer was not found at " + m_config.sanitizer,
                     "install the CUDA toolkit's compute-sanitizer, or run without a memory check");
            return o;
        }
        char tmpl[] = "/tmp/warpbench-sanitizer-XXXXXX";
        const int fd = ::mkstemp(tmpl);
        if (fd >= 0) ::close(fd);
        logPath = tmpl;
    }

    session::Session s = req.session;
    if (oneShot) {
        s.compileOptions.lineInfo = true; // file:line in the sanitizer's report
        // Times under the sanitizer measure the sanitizer (racecheck: seconds per launch): the
        // checked launch is the result launch, followed by one timed launch unless the user
        // asked for more.
        s.warmup = 0;
        if (!req.options.iterations) s.iterations = 1;
    }
    QJsonObject run{{"session", QString::fromStdString(session::ProjectFile::toJson(s))},
                    {"baseDir", QString::fromStdString(absoluteDir(s.baseDir))},
                    // Not part of a project file: where an inline kernel text's file lives.
                    {"sourceDir", QString::fromStdString(s.compileOptions.sourceDir)},
                    {"name", QString::fromStdString(s.name)},
                    {"flagsTrusted", s.flagsTrusted},
                    {"check", checkModeName(req.options.check)},
                    {"schedule", QString::number(req.options.schedule)}};
    if (req.options.backend) run["backend"] = backendName(*req.options.backend);
    if (req.options.device) run["device"] = *req.options.device;
    if (req.options.iterations) run["iterations"] = *req.options.iterations;
    if (req.options.grade.enabled)
        run["grade"] = QJsonObject{{"freshInputs", req.options.grade.freshInputs},
                                   {"seed", QString::number(req.options.grade.seed)}};
    if (req.options.peakBandwidthGBs > 0) run["peakBandwidthGBs"] = req.options.peakBandwidthGBs;
    if (req.options.peakGflops > 0) run["peakGflops"] = req.options.peakGflops;
    if (req.profile) run["profile"] = profiling::ProfileCodec::optionsToJson(*req.profile);
    const std::vector<char> runFrame = Protocol::encode(Protocol::Type::Run, run);

    std::unique_ptr<RunnerProcess> oneShotProcess;
    auto& slot = oneShot ? oneShotProcess : m_runners[{static_cast<int>(kind), device}];
    // A warm runner may have died while idle (killed from outside): start a fresh one, once.
    for (int attempt = 0;; ++attempt) {
        if (!slot) {
            slot = start(o, oneShot, logPath);
            if (!slot) {
                o.elapsedMs = elapsed();
                return o;
            }
        }
        if (slot->send(runFrame)) break;
        o.runnerLog = slot->stderrTail();
        slot.reset();
        if (attempt == 1) {
            setFault(o, Fault::RunnerUnavailable,
                     "the runner closed its connection before the run could be sent",
                     "check the runner's log, or run in-process (--in-process)");
            o.elapsedMs = elapsed();
            return o;
        }
    }
    m_activePid = slot->runnerPid() ? slot->runnerPid() : slot->pid();
    struct ClearPid {
        std::atomic<pid_t>& pid;
        ~ClearPid() { pid = 0; }
    } clearPid{m_activePid};
    auto deadline = t0 + std::chrono::milliseconds(req.prepareTimeoutMs);
    std::optional<Clock::time_point> launchedAt, profilingAt;
    std::vector<std::vector<char>> blobs; // compressed until the Report says what they hold
    std::string streamed;                 // what the run printed, as it arrived
    std::uint64_t streamedMore = 0;
    Protocol::Frame f;
    // A frame that breaks the protocol: the runner is replaced.
    auto protocolFault = [&](const std::string& what) {
        o.elapsedMs = elapsed();
        o.runnerLog = slot->stderrTail();
        setFault(o, Fault::ProtocolError, what,
                 "the runner was stopped; a fresh runner starts on the next run");
        slot.reset();
        if (oneShot) std::remove(logPath.c_str());
        return o;
    };
    for (;;) {
        const auto w =
            slot->wait(f, deadline, &m_cancel, std::chrono::milliseconds(m_config.cancelGraceMs));
        if (w == RunnerProcess::Wait::Invalid) return protocolFault(slot->protocolError());
        if (w == RunnerProcess::Wait::Frame && f.version != Protocol::kVersion)
            return protocolFault("runner protocol: a frame of version " +
                                 std::to_string(f.version) + " in the middle of a run");
        if (w == RunnerProcess::Wait::Frame && f.type == Protocol::Type::Progress) {
            QJsonObject progress;
            try {
                progress = f.json();
            } catch (const Error& e) {
                return protocolFault(e.what());
            }
            const QString phase = progress.value(QLatin1String("phase")).toString();
            if (phase == QLatin1String("output")) {
                // What the run printed so far: kept for a crash or a timeout (a Report brings
                // all of it again). Bounded on the runner's side; checked here all the same.
                const std::string text =
                    progress.value(QLatin1String("text")).toString().toStdString();
                if (streamed.size() + text.size() <= RunnerService::kKernelOutputBytes * 2)
                    streamed += text;
                try {
                    streamedMore =
                        wireInteger(progress.value(QLatin1String("moreLines")), "moreLines");
                } catch (const Error& e) {
                    return protocolFault(e.what());
                }
                continue;
            }
            kernel = progress.value(QLatin1String("kernel")).toString().toStdString();
            if (phase == QLatin1String("profile")) {
                // Profiling has its own limit, from its start to the report.
                profilingAt = Clock::now();
                deadline = *profilingAt + std::chrono::milliseconds(req.profileTimeoutMs);
            } else if (!launchedAt) {
                launchedAt = Clock::now();
                deadline = *launchedAt + std::chrono::milliseconds(req.timeoutMs);
            }
            continue;
        }
        if (w == RunnerProcess::Wait::Frame && f.type == Protocol::Type::Blob) {
            blobs.push_back(std::move(f.payload));
            continue;
        }
        if (w == RunnerProcess::Wait::Frame && f.type != Protocol::Type::Report &&
            f.type != Protocol::Type::Error)
            return protocolFault(std::string("runner protocol: the runner sent a ") +
                                 Protocol::typeName(f.type) + " frame in the middle of a run");
        o.elapsedMs = elapsed();
        if (w == RunnerProcess::Wait::Frame) break;
        o.runnerLog = slot->stderrTail();
        // The run died (crash, time limit, cancel): what it printed until then still counts.
        o.report.kernelOutput = kernelOutputText(streamed, streamedMore);
        if (w == RunnerProcess::Wait::Timeout && profilingAt) {
            slot->kill();
            setFault(o, Fault::Timeout,
                     "timeout: profiling kernel '" + kernel + "' did not finish within " +
                         seconds(req.profileTimeoutMs) + "; the runner was killed",
                     "a fresh runner starts on the next run; raise the profiling timeout");
        } else if (w == RunnerProcess::Wait::Timeout && launchedAt) {
            slot->kill();
            const double running =
                std::chrono::duration<double, std::milli>(Clock::now() - *launchedAt).count();
            setFault(o, Fault::Timeout,
                     "timeout: the kernels did not finish within " + seconds(req.timeoutMs) +
                         " (elapsed " + seconds(running) + " since kernel '" + kernel +
                         "' was launched); it may loop forever — the runner was killed",
                     "a fresh runner starts on the next run; fix the loop or raise the timeout");
        } else if (w == RunnerProcess::Wait::Timeout) {
            slot->kill();
            setFault(o, Fault::Timeout,
                     "timeout: the run did not reach its first launch within " +
                         seconds(req.prepareTimeoutMs) +
                         " (compile and data preparation); the runner was killed",
                     "a fresh runner starts on the next run");
        } else if (w == RunnerProcess::Wait::Cancelled) {
            slot->kill();
            setFault(o, Fault::Cancelled,
                     "cancelled after " + seconds(o.elapsedMs) + "; kernel '" + kernel +
                         "' did not stop within the grace period, so the runner was killed",
                     "a fresh runner starts on the next run");
        } else {
            slot->waitExit(2000);
            const int st = slot->status();
            const std::string said = lastLines(slot->stderrTail(), 3);
            if (slot->exited() && WIFEXITED(st) &&
                WEXITSTATUS(st) == RunnerService::kExitChannelClosed) {
                // Not a hang-up of this client: the kernel closed descriptors it does not own.
                setFault(o, Fault::Crashed,
                         "kernel '" + kernel +
                             "' closed the runner's channel to the client (it closed file "
                             "descriptors it did not open, the runner's connection among them)",
                         "the runner was restarted; a kernel must close only the files it opened");
            } else if (slot->exited() && WIFSIGNALED(st)) {
                o.signal = WTERMSIG(st);
                const bool memoryFault = o.signal == SIGSEGV || o.signal == SIGBUS ||
                                         o.signal == SIGFPE || o.signal == SIGABRT ||
                                         o.signal == SIGILL;
                const bool cpu = kind == BackendKind::Cpu && memoryFault;
                setFault(o, Fault::Crashed,
                         "the runner crashed with " + signalName(o.signal) +
                             " while running kernel '" + kernel + "'",
                         std::string("the runner was restarted") +
                             (cpu && req.options.check != CheckMode::Bounds
                                  ? "; re-run with bounds checking (--bounds-check) to find the "
                                    "faulting access"
                                  : ""));
            } else {
                const std::size_t partial = slot->pendingBytes();
                setFault(o, Fault::Crashed,
                         (partial ? "the runner exited in the middle of a frame (" +
                                        std::to_string(partial) + " bytes of it arrived)"
                                  : std::string("the runner exited unexpectedly")) +
                             (slot->exited() && WIFEXITED(st)
                                  ? " with status " + std::to_string(WEXITSTATUS(st))
                                  : std::string()) +
                             " while running kernel '" + kernel + "'" +
                             (said.empty() ? std::string() : " (it said: " + said + ")"),
                         "the runner was restarted");
            }
        }
        slot.reset();
        if (oneShot) std::remove(logPath.c_str());
        return o;
    }

    // A Report (or an Error) arrived.
    try {
        const QJsonObject j = f.json();
        if (f.type == Protocol::Type::Error) {
            setFault(o, Fault::ProtocolError, j["message"].toString().toStdString(),
                     "the runner was restarted");
            slot.reset();
            return o;
        }
        if (f.type != Protocol::Type::Report)
            throw Error(Error::Kind::Internal, std::string("runner protocol: unexpected ") +
                                                   Protocol::typeName(f.type) + " frame");
        // The report, findings and races included, in --json's encoding (session/ReportJson).
        o.report = session::reportFromJson(j["report"].toObject());
        if (o.report.check == CheckMode::None) o.report.check = req.options.check;
        // What the kernels printed arrives raw (the runner's capture of its own or its child's
        // stdout); the report's kernelOutput is made of it here.
        if (j.contains(QLatin1String("stdout")))
            o.report.kernelOutput =
                kernelOutputText(j["stdout"].toString().toStdString(),
                                 j.contains(QLatin1String("stdoutMoreLines"))
                                     ? wireInteger(j["stdoutMoreLines"], "stdoutMoreLines")
                                     : 0);
        if (j.contains(QLatin1String("profile")))
            o.profile = profiling::ProfileCodec::fromJson(j["profile"].toObject());
        else if (req.profile)
            o.profile = profiling::ProfileReport::notProfiled(
                {profiling::ProfilerStatus::State::Failed,
                 "the runner sent no profile (is warpbench-runner from the same "
                 "build?)"});
        const QJsonArray buffers = j["buffers"].toArray();
        o.transferWriteMs = j["writeMs"].toDouble();
        const SharedMemory* arena = nullptr;
        if (j.contains(QLatin1String("shm"))) {
            // Only a local runner whose hello named itself (checked) shares memory.
            if (!slot->runnerPid())
                throw Error(Error::Kind::Internal,
                            "runner protocol: shared memory offered on a connection that asked "
                            "for buffers in the stream");
            const QJsonObject shm = j["shm"].toObject();
            arena = &slot->arena(
                static_cast<int>(wireInteger(shm["fd"], "the shared memory's fd",
                                             std::numeric_limits<int>::max())),
                static_cast<std::size_t>(wireInteger(shm["size"], "the shared memory's size")));
        }
        if (!arena && buffers.size() > static_cast<qsizetype>(blobs.size()))
            throw Error(Error::Kind::Internal,
                        "runner protocol: the report describes " + std::to_string(buffers.size()) +
                            " buffers, the runner sent data for " + std::to_string(blobs.size()));
        // Every size is checked against what actually arrived (the arena's file, the blob's
        // header) before anything is allocated; then copy: transferReadMs is the copy alone,
        // like the runner's figure.
        std::vector<std::pair<QJsonObject, session::HostArray>> arrays;
        std::vector<std::size_t> offsets;
        for (qsizetype i = 0; i < buffers.size(); ++i) {
            const QJsonObject d = buffers[i].toObject();
            const std::uint64_t bytes = wireInteger(d["bytes"], "a buffer's size");
            std::uint64_t available = 0, offset = 0;
            if (arena) {
                offset = wireInteger(d["offset"], "a buffer's offset");
                // Both sides of `offset + bytes <= size`, without wrapping around.
                if (offset > arena->size() || bytes > arena->size() - offset)
                    throw Error(Error::Kind::Internal,
                                "runner protocol: buffer '" + d["name"].toString().toStdString() +
                                    "' (" + std::to_string(bytes) + " bytes at offset " +
                                    std::to_string(offset) + ") lies outside the " +
                                    std::to_string(arena->size()) + "-byte shared memory");
                available = arena->size() - offset;
            } else {
                const std::vector<char>& z = blobs[static_cast<std::size_t>(i)];
                if (z.size() < 4)
                    throw Error(Error::Kind::Internal, "runner protocol: a truncated blob");
                // qCompress puts the uncompressed length first, big-endian.
                for (int k = 0; k < 4; ++k)
                    available =
                        available << 8 | static_cast<unsigned char>(z[static_cast<std::size_t>(k)]);
                // zlib expands at most about 1032:1: a blob cannot hold more than that.
                available = std::min<std::uint64_t>(available, (z.size() - 4) * 1032);
            }
            if (bytes > available)
                throw Error(Error::Kind::Internal,
                            "runner protocol: buffer '" + d["name"].toString().toStdString() +
                                "' claims " + std::to_string(bytes) + " bytes, the runner sent " +
                                std::to_string(available));
            session::HostArray a = BufferCodec::arrayFromHeader(d, bytes);
            if (bytes != a.bytes())
                throw Error(Error::Kind::Internal, "runner protocol: buffer size mismatch");
            arrays.emplace_back(d, std::move(a));
            offsets.push_back(static_cast<std::size_t>(offset));
        }
        const auto readStart = Clock::now();
        for (std::size_t i = 0; i < arrays.size(); ++i) {
            session::HostArray& a = arrays[i].second;
            const std::size_t bytes = a.bytes();
            if (arena) {
                if (bytes) std::memcpy(a.data(), arena->data() + offsets[i], bytes);
            } else {
                const QByteArray raw = qUncompress(reinterpret_cast<const uchar*>(blobs[i].data()),
                                                   static_cast<qsizetype>(blobs[i].size()));
                if (static_cast<std::size_t>(raw.size()) != bytes)
                    throw Error(Error::Kind::Internal, "runner protocol: missing buffer data");
                if (bytes) std::memcpy(a.data(), raw.constData(), bytes);
            }
            o.transferBytes += bytes;
        }
        o.transferReadMs =
            std::chrono::duration<double, std::milli>(Clock::now() - readStart).count();
        std::map<std::string, session::HostArray> traceArrays;
        for (auto& [d, a] : arrays) {
            const QString setName = d["set"].toString();
            auto& set = setName == QLatin1String("expected") ? o.report.expected
                        : setName == QLatin1String("traces") ? traceArrays
                                                             : o.report.results;
            set.emplace(d["name"].toString().toStdString(), std::move(a));
        }
        for (const QJsonValue& v : j["traces"].toArray()) {
            WriteTrace t = BufferCodec::traceFromParts(v.toObject(), traceArrays);
            std::string name = t.buffer;
            o.report.traces.emplace(std::move(name), std::move(t));
        }
        if (j["exiting"].toBool()) {
            slot->waitExit(5000);
            o.runnerLog = slot->stderrTail();
            slot.reset();
            o.fault = Fault::ContextLost;
            // A device-side assert: the driver printed where (stdout or stderr); say it first.
            if (o.report.message.find("CUDA_ERROR_ASSERT") != std::string::npos ||
                o.report.message.find("device-side assert") != std::string::npos) {
                std::string where = deviceAssertion(o.report.kernelOutput);
                if (where.empty()) where = deviceAssertion(o.runnerLog);
                if (!where.empty()) o.report.message = where + " (" + o.report.message + ")";
            }
            o.what = o.report.message;
            o.next = "context lost; the runner was restarted (a fresh one serves the next run)";
            o.report.message += "; " + o.next;
        } else if (o.report.message.rfind(errorKindName(Error::Kind::OutOfMemory), 0) == 0) {
            o.fault = Fault::OutOfMemory;
            o.what = o.report.message;
            o.next = "use smaller buffers; the runner stays warm";
        }
    } catch (const Error& e) {
        setFault(o, Fault::ProtocolError, e.what(),
                 "the runner was stopped; a fresh runner starts on the next run");
        slot.reset();
    } catch (const std::bad_alloc&) {
        setFault(o, Fault::ProtocolError,
                 "runner protocol: the runner's report needs more memory than this process has",
                 "the runner was stopped; a fresh runner starts on the next run");
        slot.reset();
    }

    if (oneShot) {
        if (slot) {
            slot->send(Protocol::encode(Protocol::Type::Quit, QJsonObject{}));
            if (!slot->waitExit(30000)) slot->kill();
            o.runnerLog = slot->stderrTail();
            slot.reset();
        }
        if (remoteCheck) {
            o.report.sanitizerLog = o.runnerLog;
        } else {
            std::ifstream in(logPath);
            std::stringstream ss;
            ss << in.rdbuf();
            o.report.sanitizerLog = ss.str();
            std::remove(logPath.c_str());
        }
        for (MemoryFinding& f2 : SanitizerReport::parse(o.report.sanitizerLog).findings)
            o.report.memoryFindings.push_back(std::move(f2));
        // A memcheck error or a racecheck hazard fails the run (exit 3), as the emulator's
        // races and bounds findings do; the first one, with its place, is the message.
        // memcheck stops a kernel at its first invalid access, which the driver then reports
        // as a launch failure (context lost): the finding is the cause, so it is the message.
        const bool stoppedByTheCheck = o.fault == Fault::ContextLost;
        if (!o.report.memoryFindings.empty() &&
            (stoppedByTheCheck ||
             (o.fault == Fault::None && (o.report.status == RunReport::Status::Passed ||
                                         o.report.status == RunReport::Status::Mismatch ||
                                         o.report.status == RunReport::Status::Unchecked)))) {
            // The first that names its place (racecheck's race summaries name lines only; its
            // hazard records name the block and thread too).
            const auto placed =
                std::find_if(o.report.memoryFindings.begin(), o.report.memoryFindings.end(),
                             [](const MemoryFinding& m) { return m.located && m.line > 0; });
            const MemoryFinding& f =
                placed != o.report.memoryFindings.end() ? *placed : o.report.memoryFindings.front();
            std::string where;
            if (!f.file.empty()) where += " at " + f.file + ":" + std::to_string(f.line);
            if (f.located)
                where += " by block (" + std::to_string(f.block.x) + "," +
                         std::to_string(f.block.y) + "," + std::to_string(f.block.z) +
                         "), thread (" + std::to_string(f.thread.x) + "," +
                         std::to_string(f.thread.y) + "," + std::to_string(f.thread.z) + ")";
            o.report.status = RunReport::Status::RuntimeError;
            o.report.message =
                "compute-sanitizer found " + std::to_string(o.report.memoryFindings.size()) +
                (o.report.memoryFindings.size() == 1 ? " problem" : " problems") +
                (placed != o.report.memoryFindings.end() &&
                         placed != o.report.memoryFindings.begin()
                     ? "; one: "
                     : "; the first: ") +
                memoryFindingKindName(f.kind) + where +
                (f.kernel.empty() ? "" : " in kernel '" + f.kernel + "'") +
                (f.message.empty() ? "" : ": " + f.message) +
                (stoppedByTheCheck ? "; the kernel was stopped there (" + o.what + "); " + o.next
                                   : "");
        }
    }

    if (!req.options.outputDir.empty() && (o.report.status == RunReport::Status::Passed ||
                                           o.report.status == RunReport::Status::Mismatch ||
                                           o.report.status == RunReport::Status::Unchecked)) {
        try {
            session::SessionRunner::writeOutputs(o.report, req.session, req.options.outputDir);
        } catch (const Error& e) {
            o.report.status = RunReport::Status::RuntimeError;
            o.report.message = std::string(errorKindName(e.kind())) + ": " + e.what();
        } catch (const std::exception& e) {
            o.report.status = RunReport::Status::RuntimeError;
            o.report.message = e.what();
        }
    }
    o.elapsedMs = elapsed();
    return o;
}

} // namespace wb::runner
