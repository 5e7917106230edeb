// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/runner/RunnerService.h"

#include "core/common/Error.h"
#include "core/common/Sandbox.h"
#include "core/cpu/detail/DeviceCheck.h"
#include "core/cuda/Compiler.h"
#include "core/cuda/HandleRegistry.h"
#include "core/host/HostCompiler.h"
#include "core/profiling/ProfileCodec.h"
#include "core/profiling/SessionProfiler.h"
#include "core/runner/BufferCodec.h"
#include "core/runner/SharedMemory.h"
#include "core/runner/detail/OutputCapture.h"
#include "core/session/ProjectFile.h"
#include "core/session/ReportJson.h"
#include "core/session/SessionRunner.h"

#include <QJsonArray>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <functional>
#include <iostream>
#include <malloc.h>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace wb::runner {

namespace {

using Frame = Protocol::Frame;
using Type = Protocol::Type;

/// A run's report as the Report frame carries it: every section of --json's encoding.
QJsonObject reportJson(const session::RunReport& report)
{
    return session::reportToJson(report, session::ReportSections::All);
}

long vmRssKb()
{
    std::ifstream in("/proc/self/status");
    std::string line;
    while (std::getline(in, line))
        if (line.rfind("VmRSS:", 0) == 0) return std::atol(line.c_str() + 6);
    return -1;
}

/// Bytes handed out by malloc and not yet freed (all arenas, mmapped chunks included): with
/// VmRSS it tells a leak (this grows) from fragmentation or mappings (only VmRSS grows).
long heapInUseKb()
{
    const struct mallinfo2 m = ::mallinfo2();
    return static_cast<long>((m.uordblks + m.hblkhd) / 1024);
}

/// The identity of the channel to the client, so that a descriptor closed (or closed and
/// reused) by a kernel is told from a client that hung up.
struct Channel {
    int fd = -1;
    dev_t dev = 0;
    ino_t ino = 0;

    explicit Channel(int f)
        : fd(f)
    {
        struct stat st {};
        if (::fstat(fd, &st) == 0) {
            dev = st.st_dev;
            ino = st.st_ino;
        }
    }
    bool intact() const noexcept
    {
        struct stat st {};
        return ::fstat(fd, &st) == 0 && st.st_dev == dev && st.st_ino == ino;
    }
    /// The kernel closed the channel: nothing can be answered any more; say so on stderr (the
    /// client keeps its tail, and maps the exit status) and leave.
    [[noreturn]] void closedByKernel() const noexcept
    {
        const std::string msg = "warpbench-runner: the running kernel closed the runner's "
                                "channel to the client (file descriptor " +
                                std::to_string(fd) + "); exiting\n";
        ::signal(SIGPIPE, SIG_IGN); // the kernel may have left stderr a broken pipe too
        [[maybe_unused]] const auto n = ::write(2, msg.data(), msg.size());
        ::_exit(RunnerService::kExitChannelClosed);
    }
};

/// Exits the process when the client hangs up while a request runs (armed). One thread for
/// the runner's life, so that arming and disarming cost nothing per run.
class HangupWatchdog {
public:
    explicit HangupWatchdog(int fd)
        : m_channel(fd)
        , m_thread([this, fd] { watch(fd); })
    {
    }
    ~HangupWatchdog()
    {
        {
            std::lock_guard lock(m_mutex);
            m_stop = true;
        }
        m_cv.notify_all();
        m_thread.join();
    }
    HangupWatchdog(const HangupWatchdog&) = delete;
    HangupWatchdog& operator=(const HangupWatchdog&) = delete;

    void arm(bool on)
    {
        {
            std::lock_guard lock(m_mutex);
            m_armed = on;
        }
        m_cv.notify_all();
    }

private:
    void watch(int fd)
    {
        for (;;) {
            {
                std::unique_lock lock(m_mutex);
                m_cv.wait(lock, [this] { return m_stop || m_armed; });
                if (m_stop) return;
            }
            pollfd p{fd, POLLRDHUP, 0};
            if (::poll(&p, 1, 50) > 0 && (p.revents & (POLLHUP | POLLRDHUP | POLLERR | POLLNVAL))) {
                std::lock_guard lock(m_mutex);
                if (!m_armed) continue;
                // A kernel that closed descriptors 3-1023 closed this one too (POLLNVAL, or
                // another file now under its number): not the client's doing.
                if (!m_channel.intact()) m_channel.closedByKernel();
                static const char msg[] = "warpbench-runner: the client hung up mid-run; exiting\n";
                // stderr is a pipe to the client that is gone: SIGPIPE would end this process
                // before its group (the compilers below) could be stopped.
                ::signal(SIGPIPE, SIG_IGN);
                [[maybe_unused]] const auto n = ::write(2, msg, sizeof msg - 1);
                // Compilers and tools this runner started are in its process group: a g++ left
                // blocked (a cc1plus waiting on its input) must not outlive the client either.
                if (::getpgrp() == ::getpid()) ::kill(0, SIGKILL);
                ::_exit(RunnerService::kExitClientHungUp);
            }
        }
    }
    Channel m_channel;
    std::mutex m_mutex;
    std::condition_variable m_cv;
    bool m_armed = false;
    bool m_stop = false;
    std::thread m_thread;
};

class Service {
public:
    explicit Service(const RunnerService::Options& o)
        : m_opt(o)
        , m_out(o.outFd)
        , m_watchdog(o.inFd)
    {
        if (o.captureStdout) {
            m_output.emplace(RunnerService::kKernelOutputLines, RunnerService::kKernelOutputBytes);
            // What a run prints goes to the client as it arrives (bounded like the Report's
            // "stdout"), so that it survives a crash or a kill at a time limit.
            m_output->setListener([this](const detail::OutputCapture::Text& delta) {
                std::lock_guard lock(m_streamMutex);
                if (!m_streaming) return;
                send(Type::Progress,
                     QJsonObject{
                         {"phase", "output"},
                         {"text", QString::fromUtf8(delta.text.data(),
                                                    static_cast<qsizetype>(delta.text.size()))},
                         {"moreLines", static_cast<double>(delta.moreLines)}});
            });
        }
    }

    int serve()
    {
        Frame hello;
        if (!Protocol::readFrame(m_opt.inFd, hello)) return 0;
        if (hello.version != m_opt.protocolVersion || hello.type != Type::Hello) {
            sendError("runner protocol version mismatch: this warpbench-runner speaks version " +
                      std::to_string(m_opt.protocolVersion) + ", the client version " +
                      std::to_string(hello.version) +
                      "; install warpbench and warpbench-runner from the same build");
            return 3;
        }
        m_inline =
            hello.json().value(QLatin1String("transport")).toString() == QLatin1String("inline");
        send(Type::Hello, QJsonObject{{"version", m_opt.protocolVersion},
                                      {"pid", static_cast<double>(::getpid())},
                                      {"transport", m_inline ? "inline" : "shm"}});
        Frame f;
        while (Protocol::readFrame(m_opt.inFd, f)) {
            switch (f.type) {
            case Type::Run: {
                const QJsonObject req = f.json();
                if (runsOnTheEmulator(req)) {
                    runSealed(req);
                    break;
                }
                // After a sticky GPU error nothing in this process can use the GPU again; leave
                // without running destructors against the lost context.
                if (!run(req)) ::_exit(0);
                break;
            }
            case Type::Stats:
                send(Type::Stats, stats());
                break;
            case Type::Quit:
                return 0;
            default:
                sendError(std::string("runner protocol: unexpected ") + Protocol::typeName(f.type) +
                          " frame");
                return 3;
            }
        }
        return 0;
    }

private:
    void send(Type type, const QJsonObject& json)
    {
        const std::vector<char> frame = Protocol::encode(type, json, m_opt.protocolVersion);
        std::lock_guard lock(m_sendMutex); // the output listener sends from its own thread
        try {
            Protocol::writeAll(m_opt.outFd, frame);
        } catch (const Error&) {
            if (!m_out.intact()) m_out.closedByKernel();
            throw;
        }
    }
    void streamOutput(bool on)
    {
        std::lock_guard lock(m_streamMutex);
        m_streaming = on;
    }
    void sendError(const std::string& message)
    {
        send(Type::Error, QJsonObject{{"message", QString::fromStdString(message)}});
    }

    Backend* backendFor(BackendKind kind, int device)
    {
        const auto key = std::make_pair(static_cast<int>(kind), device);
        auto it = m_backends.find(key);
        if (it != m_backends.end()) return it->second.get();
        try {
            auto b = createBackend(kind, device);
            return m_backends.emplace(key, std::move(b)).first->second.get();
        } catch (const Error&) {
            return nullptr; // SessionRunner creates it again and reports why
        }
    }

    /// Whether the run's kernels are native code in this process (the CPU emulator).
    static bool runsOnTheEmulator(const QJsonObject& req)
    {
        try {
            auto kind = parseBackendKind(req["backend"].toString().toStdString());
            if (!kind)
                kind = session::ProjectFile::fromJson(req["session"].toString().toStdString(),
                                                      req["baseDir"].toString().toStdString(),
                                                      req["name"].toString().toStdString())
                           .backend;
            if (*kind == BackendKind::Auto) kind = describeBackend(BackendKind::Auto, 0).kind;
            return *kind == BackendKind::Cpu;
        } catch (const Error&) {
            return true; // sealed either way; the child's run() reports the error
        }
    }

    /// An emulator run happens in a child of this process that seals itself (Sandbox.h)
    /// before any code of the kernel library runs, and ends with the run: kernels are native
    /// code, and a sealed process cannot compile the next run. This process stays warm and
    /// clean; it relays the child's frames, adds what the kernels printed, and answers for a
    /// child that attempted a forbidden call ("kernel attempted …") or exited on its own. A
    /// child that crashed takes this process down with the same signal, as an in-process
    /// crash did, so that the client reports it the same way.
    void runSealed(const QJsonObject& req)
    {
        if (m_output) {
            const detail::OutputCapture::Text before = m_output->take();
            if (!before.text.empty()) {
                [[maybe_unused]] const auto n = ::write(2, before.text.data(), before.text.size());
            }
        }
        // Created here so that the client reaches it through this process's descriptors.
        if (!m_inline && !m_arena.valid()) m_arena = SharedMemory::create(64 * 1024);
        (void)HostCompiler::find(); // remembered in this process for every child
        // NVRTC loaded once here, not by every child (the emulator's device-code check).
        (void)cuda::Compiler::instance();
        int fds[2];
        if (::pipe2(fds, O_CLOEXEC) != 0) {
            sendRunError("the runner cannot create a pipe for its sandboxed child");
            return;
        }
        const sandbox::ViolationRecord record;
        std::fflush(stdout);
        std::fflush(stderr);
        const pid_t parent = ::getpid();
        const pid_t pid = ::fork();
        if (pid < 0) {
            ::close(fds[0]);
            ::close(fds[1]);
            sendRunError("the runner cannot fork its sandboxed child");
            return;
        }
        if (pid == 0) {
            ::prctl(PR_SET_PDEATHSIG, SIGKILL);
            if (::getppid() != parent) ::_exit(0);
            ::close(fds[0]);
            // The child speaks only to this process: the client's descriptors are closed.
            ::close(m_opt.inFd);
            ::close(m_opt.outFd);
            m_opt.outFd = fds[1];
            m_child = true;
            record.arm();
            sandbox::setPolicy(sandbox::Policy::Confine);
            sandbox::setDisposable(true);
            run(req);
            std::fflush(stdout);
            std::cout.flush();
            ::_exit(0);
        }
        ::close(fds[1]);
        m_watchdog.arm(true);
        struct Disarm {
            HangupWatchdog& w;
            ~Disarm() { w.arm(false); }
        } disarm{m_watchdog};
        // What the child prints reaches this process's capture: it goes to the client as it
        // arrives, so that it survives the child's crash or a kill at a time limit.
        streamOutput(true);
        struct StopStreaming {
            Service& s;
            ~StopStreaming() { s.streamOutput(false); }
        } stopStreaming{*this};
        std::optional<QJsonObject> answer;
        std::string kernel;
        bool garbled = false;
        Frame f;
        for (;;) {
            try {
                if (!Protocol::readFrame(fds[0], f)) break;
            } catch (const Error&) {
                garbled = true;
                break;
            }
            if (f.type == Type::Report) {
                try {
                    answer = f.json();
                } catch (const Error&) {
                    garbled = true;
                }
                continue;
            }
            if (f.type == Type::Progress) {
                try {
                    kernel = f.json()["kernel"].toString().toStdString();
                } catch (const Error&) {
                }
            }
            if (f.type != Type::Progress && f.type != Type::Blob) {
                garbled = true;
                break;
            }
            const std::vector<char> frame =
                Protocol::encode(f.type, f.payload.data(), f.payload.size(), m_opt.protocolVersion);
            std::lock_guard lock(m_sendMutex); // the output listener sends from its own thread
            Protocol::writeAll(m_opt.outFd, frame);
        }
        if (garbled) ::kill(pid, SIGKILL);
        ::close(fds[0]);
        int status = 0;
        while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
        }
        const detail::OutputCapture::Text printed =
            m_output ? m_output->take() : detail::OutputCapture::Text{};
        if (record.happened() || !answer || garbled || !WIFEXITED(status) ||
            WEXITSTATUS(status) != 0) {
            if (WIFSIGNALED(status) && !garbled && !record.happened()) {
                // Crashed: this process goes the same way (the client says which signal).
                if (!printed.text.empty()) {
                    [[maybe_unused]] const auto n =
                        ::write(2, printed.text.data(), printed.text.size());
                }
                const int sig = WTERMSIG(status);
                ::signal(sig, SIG_DFL);
                ::kill(::getpid(), sig);
                ::_exit(128 + sig);
            }
            session::RunReport rep;
            rep.status = session::RunReport::Status::RuntimeError;
            const std::string where = kernel.empty() ? std::string() : "kernel '" + kernel + "'";
            if (record.happened())
                rep.message =
                    sandbox::violationMessage(record.who(), record.call(), record.detail());
            else if (garbled)
                rep.message = "the run's process sent a garbled report" +
                              (where.empty() ? std::string() : " while running " + where) +
                              "; a kernel may have written to the runner's descriptors";
            else
                rep.message = "the run's process ended without a report (exit status " +
                              std::to_string(WIFEXITED(status) ? WEXITSTATUS(status) : -1) + ")" +
                              (where.empty() ? std::string() : " while running " + where) +
                              ": a kernel may not end the process (exit)";
            answer = QJsonObject{
                {"report", reportJson(rep)}, {"exiting", false}, {"buffers", QJsonArray{}}};
        }
        if (m_output) {
            (*answer)["stdout"] =
                QString::fromUtf8(printed.text.data(), static_cast<qsizetype>(printed.text.size()));
            (*answer)["stdoutMoreLines"] = static_cast<double>(printed.moreLines);
        }
        (*answer)["exiting"] = false;
        send(Type::Report, *answer);
    }

    void sendRunError(const std::string& message)
    {
        session::RunReport rep;
        rep.status = session::RunReport::Status::RuntimeError;
        rep.message = message;
        send(Type::Report, QJsonObject{{"report", reportJson(rep)},
                                       {"exiting", false},
                                       {"buffers", QJsonArray{}}});
    }

    /// Returns false when the runner must exit after this answer (context lost).
    bool run(const QJsonObject& req)
    {
        session::RunReport rep;
        if (m_output && !m_child) {
            // Printed between runs (a driver's warning, say): the runner's log, as before.
            const detail::OutputCapture::Text before = m_output->take();
            if (!before.text.empty()) {
                [[maybe_unused]] const auto n = ::write(2, before.text.data(), before.text.size());
            }
        }
        std::optional<profiling::SessionProfiler> profiler;
        if (req.contains(QLatin1String("profile"))) {
            try {
                profiler.emplace(
                    profiling::ProfileCodec::optionsFromJson(req["profile"].toObject()));
            } catch (const Error& e) {
                profiler.emplace();
                rep.status = session::RunReport::Status::Invalid;
                rep.message = e.what();
            }
        }
        {
            // A sealed child has no watchdog thread: its parent watches.
            if (!m_child) m_watchdog.arm(true);
            struct Disarm {
                HangupWatchdog& w;
                bool armed;
                ~Disarm()
                {
                    if (armed) w.arm(false);
                }
            } disarm{m_watchdog, !m_child};
            session::Session s;
            CheckMode check = CheckMode::None;
            try {
                // The check mode by name (checkModeName), "none" when absent.
                const std::string mode =
                    req["check"].toString(QStringLiteral("none")).toStdString();
                if (const auto m = session::checkModeOfName(mode))
                    check = *m;
                else
                    throw Error(Error::Kind::InvalidArgument,
                                "runner protocol: unknown check mode '" + mode + "'");
                s = session::ProjectFile::fromJson(req["session"].toString().toStdString(),
                                                   req["baseDir"].toString().toStdString(),
                                                   req["name"].toString().toStdString());
                // Not part of the project file: the client's user decided (ProjectTrust).
                s.flagsTrusted = req["flagsTrusted"].toBool();
                // Nor is the folder of a kernel sent as text (the window's): #include looks there.
                s.compileOptions.sourceDir = req["sourceDir"].toString().toStdString();
                // Hotspots map samples to source lines: the CUBIN needs line information.
                if (profiler && profiler->options().hotspots) s.compileOptions.lineInfo = true;
            } catch (const Error& e) {
                rep.status = session::RunReport::Status::Invalid;
                rep.message = e.what();
            }
            if (rep.message.empty()) {
                session::SessionRunner::Options opt;
                const auto kind = parseBackendKind(req["backend"].toString().toStdString());
                if (kind) opt.backend = *kind;
                if (req["device"].toInt(-1) >= 0) opt.device = req["device"].toInt();
                if (req["iterations"].toInt(0) > 0) opt.iterations = req["iterations"].toInt();
                opt.check = check;
                opt.schedule = req["schedule"].toString().toULongLong();
                if (req.contains(QLatin1String("grade"))) {
                    const QJsonObject g = req["grade"].toObject();
                    opt.grade.enabled = true;
                    opt.grade.freshInputs = g["freshInputs"].toBool();
                    opt.grade.seed = g["seed"].toString().toULongLong();
                }
                opt.peakBandwidthGBs = req["peakBandwidthGBs"].toDouble(0);
                opt.peakGflops = req["peakGflops"].toDouble(0);
                // The warm backend (CUDA context and compile cache survive between runs); the
                // client hears when a kernel starts launching, so that
                // its wall-clock limit covers kernel execution and not compiles (which may be
                // long on a cold cache).
                opt.reuseBackend =
                    backendFor(opt.backend.value_or(s.backend), opt.device.value_or(s.device));
                opt.onLaunch = [this](const std::string& k) {
                    send(Type::Progress,
                         QJsonObject{{"phase", "launch"}, {"kernel", QString::fromStdString(k)}});
                };
                if (profiler) {
                    // Profiling has its own time limit on the client, from this frame on.
                    opt.profile = [this, &profiler](const session::ProfileContext& c) {
                        send(Type::Progress,
                             QJsonObject{{"phase", "profile"},
                                         {"kernel", QString::fromStdString(c.kernel)}});
                        profiler->profile(c);
                    };
                    opt.beforeLoad = [&profiler](Backend& b) { return profiler->prepare(b); };
                }
                streamOutput(true);
                rep = session::SessionRunner::run(s, opt);
                streamOutput(false);
            }
        }
        // A sealed run's child says what confined the kernels (Landlock, namespaces: best
        // effort, see docs/runner.md "Sandbox").
        if (m_child && sandbox::sealed()) {
            const std::string checked = cpu::detail::lastDeviceCheck();
            rep.sandbox = (checked.empty() ? std::string() : checked + "; ") + sandbox::layers();
        }
        if (rep.message == "std::bad_alloc")
            rep.message = "out of memory: the runner could not allocate host memory for the "
                          "session's buffers";
        const bool exiting = rep.message.rfind(errorKindName(Error::Kind::ContextLost), 0) == 0;

        // The report (findings, races and every other result in it) in the one encoding of
        // --json; its buffers and traces follow as bulk data.
        QJsonObject answer{{"report", reportJson(rep)}, {"exiting", exiting}};
        if (m_output && !m_child) {
            const detail::OutputCapture::Text printed = m_output->take();
            answer["stdout"] =
                QString::fromUtf8(printed.text.data(), static_cast<qsizetype>(printed.text.size()));
            answer["stdoutMoreLines"] = static_cast<double>(printed.moreLines);
        }
        if (profiler) answer["profile"] = profiling::ProfileCodec::toJson(profiler->report());
        // Trace mode: each WriteTrace's header here, its per-element arrays with the buffers.
        std::map<std::string, session::HostArray> traceArrays;
        if (!rep.traces.empty()) {
            QJsonArray traces;
            for (const auto& [name, t] : rep.traces) {
                traces.append(BufferCodec::traceHeader(t));
                traceArrays.merge(BufferCodec::traceArrays(t));
            }
            answer["traces"] = traces;
        }
        const auto t0 = std::chrono::steady_clock::now();
        // A runner about to exit sends its buffers in the stream: the client could not open
        // the shared arena through /proc/<pid>/fd once this process has gone.
        answer["buffers"] = putBuffers(rep, traceArrays, answer, m_inline || exiting);
        answer["writeMs"] =
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0)
                .count();
        send(Type::Report, answer);
        return !exiting;
    }

    QJsonArray putBuffers(const session::RunReport& rep,
                          const std::map<std::string, session::HostArray>& traceArrays,
                          QJsonObject& answer, bool inlineBlobs)
    {
        QJsonArray list;
        std::size_t total = 0;
        for (const auto* set : {&rep.results, &rep.expected, &traceArrays})
            for (const auto& [name, a] : *set)
                total += (a.bytes() + 63) / 64 * 64;
        if (!inlineBlobs && total > 0) {
            if (!m_arena.valid()) m_arena = SharedMemory::create(total);
            m_arena.reserve(total);
            answer["shm"] =
                QJsonObject{{"fd", m_arena.fd()}, {"size", static_cast<double>(m_arena.size())}};
        }
        std::size_t offset = 0;
        auto put = [&](const char* setName, const std::map<std::string, session::HostArray>& set) {
            for (const auto& [name, a] : set) {
                QJsonObject d = BufferCodec::arrayHeader(a);
                d["set"] = setName;
                d["name"] = QString::fromStdString(name);
                d["bytes"] = static_cast<double>(a.bytes());
                if (inlineBlobs) {
                    const QByteArray z = qCompress(reinterpret_cast<const uchar*>(a.data()),
                                                   static_cast<qsizetype>(a.bytes()), 1);
                    Protocol::writeAll(m_opt.outFd,
                                       Protocol::encode(Type::Blob, z.constData(),
                                                        static_cast<std::size_t>(z.size()),
                                                        m_opt.protocolVersion));
                } else {
                    if (a.bytes()) std::memcpy(m_arena.data() + offset, a.data(), a.bytes());
                    d["offset"] = static_cast<double>(offset);
                    offset += (a.bytes() + 63) / 64 * 64;
                }
                list.append(d);
            }
        };
        put("results", rep.results);
        put("expected", rep.expected);
        put("traces", traceArrays);
        return list;
    }

    QJsonObject stats()
    {
        QJsonObject o{
            {"pid", static_cast<double>(::getpid())},
            {"vmRssKb", static_cast<double>(vmRssKb())},
            {"heapInUseKb", static_cast<double>(heapInUseKb())},
            {"handles", static_cast<double>(cuda::HandleRegistry::instance().totalCount())},
            {"arenaBytes", static_cast<double>(m_arena.size())}};
        for (const auto& [key, b] : m_backends) {
            try {
                if (const std::optional<DeviceMemoryUse> mem = b->memoryUse()) {
                    o["deviceFreeBytes"] = static_cast<double>(mem->freeBytes);
                    o["deviceTotalBytes"] = static_cast<double>(mem->totalBytes);
                    break;
                }
            } catch (const Error& e) {
                o["deviceError"] = e.what();
                break;
            }
        }
        return o;
    }

    RunnerService::Options m_opt;
    Channel m_out;
    std::mutex m_sendMutex;
    std::mutex m_streamMutex;
    bool m_streaming = false;
    HangupWatchdog m_watchdog;
    bool m_inline = false;
    SharedMemory m_arena;
    std::map<std::pair<int, int>, std::unique_ptr<Backend>> m_backends;
    std::optional<detail::OutputCapture> m_output;
    bool m_child = false; ///< this is a sealed run's child (runSealed)
};

} // namespace

int RunnerService::serve(const Options& options)
{
    try {
        return Service(options).serve();
    } catch (const std::exception& e) {
        const std::string msg = std::string("warpbench-runner: ") + e.what() + "\n";
        [[maybe_unused]] const auto n = ::write(2, msg.data(), msg.size());
        return 3;
    }
}

} // namespace wb::runner
