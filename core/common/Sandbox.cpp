// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/common/Sandbox.h"

#include "core/common/Error.h"
#include "core/common/detail/SandboxLayers.h"

#include <seccomp.h>

#include <fcntl.h>
#include <linux/sched.h>
#include <linux/seccomp.h>
#include <poll.h>
#include <pthread.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/ucontext.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#ifndef PR_SET_VMA
#define PR_SET_VMA 0x53564d41
#endif

namespace wb::sandbox {

namespace {

std::atomic<Policy> g_policy{Policy::Off};
std::atomic<bool> g_disposable{false};
std::atomic<bool> g_sealed{false};
std::string g_layers; ///< what confines this process once sealed (layers())

constexpr std::size_t kWhoBytes = 64;
constexpr std::size_t kDetailBytes = 192;
constexpr std::size_t kCallBytes = 48;
constexpr int kMaxSyscall = 512;
/// Ends a sealed child's output: without it the child stopped early (exit() in user code).
constexpr std::string_view kEndMark{"\0WB-SANDBOX-END", 16};

// Read by the SIGSYS handler: plain arrays, filled before the filter goes in.
char g_who[kWhoBytes] = "kernel";
char g_detail[kDetailBytes] = "";
char g_names[kMaxSyscall][kCallBytes];

void copyText(char* to, std::size_t size, std::string_view from) noexcept
{
    const std::size_t n = std::min(size - 1, from.size());
    std::memcpy(to, from.data(), n);
    to[n] = '\0';
}

} // namespace

struct ViolationRecord::Page {
    volatile int happened;
    char call[kCallBytes];
    char who[kWhoBytes];
    char detail[kDetailBytes];
};

namespace {

ViolationRecord::Page* g_record = nullptr;

void writeAll(int fd, const char* text, std::size_t n) noexcept
{
    while (n > 0) {
        const ssize_t w = ::write(fd, text, n);
        if (w <= 0) return;
        text += w;
        n -= static_cast<std::size_t>(w);
    }
}

void writeAll(int fd, const char* text) noexcept
{
    writeAll(fd, text, std::strlen(text));
}

/// Records the forbidden call `nr` and ends the process.
[[noreturn]] void forbidden(int nr) noexcept
{
    const char* name =
        nr >= 0 && nr < kMaxSyscall && g_names[nr][0] ? g_names[nr] : "a system call";
    if (g_record) {
        copyText(g_record->call, kCallBytes, name);
        copyText(g_record->who, kWhoBytes, g_who);
        copyText(g_record->detail, kDetailBytes, g_detail);
        g_record->happened = 1;
    } else {
        // For a parent that reads this process's output (warpbench-cpu-sandbox's).
        writeAll(2, "\nWB-SANDBOX attempted ");
        writeAll(2, name);
        writeAll(2, "\n");
    }
    ::_exit(kViolationExitCode);
}

/// Files the C library itself probes now and then (malloc's heap trimming, the number of
/// processors): refused quietly — the library copes with their absence and remembers it —
/// instead of ending the run for a call no kernel made.
bool isLibraryProbe(const char* path) noexcept
{
    if (!path) return false;
    for (const char* p : {"/proc/sys/vm/overcommit_memory", "/sys/devices/system/cpu/online",
                          "/sys/devices/system/cpu/possible", "/proc/stat"})
        if (std::strcmp(path, p) == 0) return true;
    return false;
}

/// SIGSYS: open/openat trap here (the rest goes to the supervisor, or traps too where the
/// kernel has no user notification). A library probe fails with ENOENT; anything else ends it.
void onForbiddenCall(int, siginfo_t* info, void* context) noexcept
{
    const int nr = info ? info->si_syscall : -1;
    auto* uc = static_cast<ucontext_t*>(context);
    if (uc && (nr == SCMP_SYS(open) || nr == SCMP_SYS(openat))) {
        greg_t* regs = uc->uc_mcontext.gregs;
        const auto* path =
            reinterpret_cast<const char*>(nr == SCMP_SYS(open) ? regs[REG_RDI] : regs[REG_RSI]);
        if (isLibraryProbe(path)) {
            regs[REG_RAX] = -ENOENT;
            return;
        }
    }
    forbidden(nr);
}

/// The supervisor of a filter whose default is SCMP_ACT_NOTIFY: a forbidden call blocks its
/// thread and arrives here, whatever that thread's signal mask (system() blocks every signal
/// around its clone, which turns a SIGSYS trap into a kill without a name).
struct Supervisor {
    int fd = -1;
    seccomp_notif* req = nullptr; ///< allocated before the filter (sizing it is a system call)
    seccomp_notif_resp* resp = nullptr;
};
Supervisor g_supervisor;

void* supervise(void* arg)
{
    // The listener's number arrives once the filter is in; this thread exists before it, so
    // that a forbidden call right after sealing finds someone to report it.
    const int ready = static_cast<int>(reinterpret_cast<std::intptr_t>(arg));
    int fd = -1;
    while (::read(ready, &fd, sizeof fd) < 0 && errno == EINTR) {
    }
    if (fd < 0) return nullptr; // the trap filter went in instead
    g_supervisor.fd = fd;
    for (;;) {
        if (seccomp_notify_receive(g_supervisor.fd, g_supervisor.req) == 0)
            forbidden(static_cast<int>(g_supervisor.req->data.nr));
        if (errno != EINTR && errno != ENOENT) forbidden(-1);
    }
}

void allow(scmp_filter_ctx ctx, int nr)
{
    if (nr < 0) return; // not a call of this architecture
    if (const int rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, nr, 0); rc != 0 && rc != -EEXIST)
        throw Error(Error::Kind::Internal,
                    "sandbox: cannot add a rule for system call " + std::to_string(nr));
}

template <class... Cmp> void allowIf(scmp_filter_ctx ctx, int nr, Cmp... cmp)
{
    if (nr < 0) return;
    if (const int rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, nr, sizeof...(Cmp), cmp...);
        rc != 0 && rc != -EEXIST)
        throw Error(Error::Kind::Internal, "sandbox: cannot add a conditional rule for system "
                                           "call " +
                                               std::to_string(nr));
}

/// The calls a sealed process may make: computing, memory, threads, time, and reading and
/// writing the descriptors it already holds. Everything else traps.
void addRules(scmp_filter_ctx ctx, bool readFiles)
{
    if (readFiles) {
        // Read-only opens (bounds-checked launches: AddressSanitizer reads the library's debug
        // information to name the faulting line).
        constexpr scmp_datum_t writing = O_ACCMODE | O_CREAT | O_TRUNC | O_APPEND;
        allowIf(ctx, SCMP_SYS(open), SCMP_A1(SCMP_CMP_MASKED_EQ, writing, 0));
        allowIf(ctx, SCMP_SYS(openat), SCMP_A2(SCMP_CMP_MASKED_EQ, writing, 0));
        for (const int nr :
             {SCMP_SYS(readlink), SCMP_SYS(readlinkat), SCMP_SYS(getdents64), SCMP_SYS(stat),
              SCMP_SYS(lstat), SCMP_SYS(newfstatat), SCMP_SYS(access), SCMP_SYS(faccessat)})
            allow(ctx, nr);
        // Its external symbolizer would need a pipe and a process: refused quietly, so that it
        // symbolizes in-process.
        for (const int nr : {SCMP_SYS(pipe), SCMP_SYS(pipe2)})
            if (seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), nr, 0) != 0)
                throw Error(Error::Kind::Internal, "sandbox: cannot add the rule for pipe");
        return addRules(ctx, false);
    }
    for (const int nr :
         {SCMP_SYS(read), SCMP_SYS(write), SCMP_SYS(readv), SCMP_SYS(writev), SCMP_SYS(pread64),
          SCMP_SYS(pwrite64), SCMP_SYS(preadv), SCMP_SYS(pwritev), SCMP_SYS(close),
          SCMP_SYS(close_range), SCMP_SYS(lseek), SCMP_SYS(fstat), SCMP_SYS(ftruncate),
          SCMP_SYS(fallocate), SCMP_SYS(fsync), SCMP_SYS(fdatasync), SCMP_SYS(memfd_create),
          SCMP_SYS(sendto), SCMP_SYS(recvfrom), SCMP_SYS(sendmsg), SCMP_SYS(recvmsg),
          SCMP_SYS(poll), SCMP_SYS(ppoll),
          // memory
          SCMP_SYS(mmap), SCMP_SYS(munmap), SCMP_SYS(mprotect), SCMP_SYS(mremap), SCMP_SYS(madvise),
          SCMP_SYS(brk), SCMP_SYS(mincore), SCMP_SYS(msync), SCMP_SYS(membarrier),
          // threads and signals of this process
          SCMP_SYS(futex), SCMP_SYS(set_robust_list), SCMP_SYS(get_robust_list),
          SCMP_SYS(set_tid_address), SCMP_SYS(rseq), SCMP_SYS(exit), SCMP_SYS(exit_group),
          SCMP_SYS(restart_syscall), SCMP_SYS(rt_sigprocmask), SCMP_SYS(rt_sigreturn),
          SCMP_SYS(sigaltstack), SCMP_SYS(sched_yield), SCMP_SYS(sched_getaffinity),
          SCMP_SYS(arch_prctl),
          // identity, time, randomness
          SCMP_SYS(getpid), SCMP_SYS(gettid), SCMP_SYS(getppid), SCMP_SYS(getuid),
          SCMP_SYS(geteuid), SCMP_SYS(getgid), SCMP_SYS(getegid), SCMP_SYS(getcwd), SCMP_SYS(uname),
          SCMP_SYS(sysinfo), SCMP_SYS(getrusage), SCMP_SYS(times), SCMP_SYS(clock_gettime),
          SCMP_SYS(clock_getres), SCMP_SYS(clock_nanosleep), SCMP_SYS(nanosleep),
          SCMP_SYS(gettimeofday), SCMP_SYS(time), SCMP_SYS(getcpu), SCMP_SYS(getrandom),
          SCMP_SYS(getrlimit)})
        allow(ctx, nr);
    const auto self = static_cast<scmp_datum_t>(::getpid());
    // Threads, never processes: glibc's pthread_create tries clone3 first and falls back to
    // clone, whose flags (unlike clone3's, which sit in memory) the filter can read.
    allowIf(ctx, SCMP_SYS(clone), SCMP_A0(SCMP_CMP_MASKED_EQ, CLONE_THREAD, CLONE_THREAD));
    if (seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(clone3), 0) != 0)
        throw Error(Error::Kind::Internal, "sandbox: cannot add the rule for clone3");
    // Signals only to itself (abort() raises SIGABRT), and SIGSYS stays this file's.
    allowIf(ctx, SCMP_SYS(tgkill), SCMP_A0(SCMP_CMP_EQ, self));
    allowIf(ctx, SCMP_SYS(kill), SCMP_A0(SCMP_CMP_EQ, self));
    allowIf(ctx, SCMP_SYS(rt_sigaction), SCMP_A0(SCMP_CMP_NE, SIGSYS));
    allowIf(ctx, SCMP_SYS(prlimit64), SCMP_A0(SCMP_CMP_EQ, 0));
    // fstat() is newfstatat(fd, "", AT_EMPTY_PATH); isatty() is ioctl(TCGETS).
    allowIf(ctx, SCMP_SYS(newfstatat), SCMP_A3(SCMP_CMP_MASKED_EQ, AT_EMPTY_PATH, AT_EMPTY_PATH));
    allowIf(ctx, SCMP_SYS(statx), SCMP_A2(SCMP_CMP_MASKED_EQ, AT_EMPTY_PATH, AT_EMPTY_PATH));
    allowIf(ctx, SCMP_SYS(ioctl), SCMP_A1(SCMP_CMP_EQ, TCGETS));
    allowIf(ctx, SCMP_SYS(ioctl), SCMP_A1(SCMP_CMP_EQ, TIOCGWINSZ));
    // The runner's fatal-signal handler asks how much kernel output is still in its pipe
    // (runner/detail/OutputCapture.cpp) before the crash is reported.
    allowIf(ctx, SCMP_SYS(ioctl), SCMP_A1(SCMP_CMP_EQ, FIONREAD));
    for (const int cmd : {F_GETFD, F_SETFD, F_GETFL, F_SETFL, F_DUPFD_CLOEXEC})
        allowIf(ctx, SCMP_SYS(fcntl), SCMP_A1(SCMP_CMP_EQ, static_cast<scmp_datum_t>(cmd)));
    for (const int option : {PR_SET_NAME, PR_GET_NAME, PR_SET_VMA, PR_GET_DUMPABLE})
        allowIf(ctx, SCMP_SYS(prctl), SCMP_A0(SCMP_CMP_EQ, static_cast<scmp_datum_t>(option)));
}

} // namespace

void setPolicy(Policy policy) noexcept
{
    g_policy = policy;
}
Policy policy() noexcept
{
    return g_policy;
}
void setDisposable(bool disposable) noexcept
{
    g_disposable = disposable;
}
bool disposable() noexcept
{
    return g_disposable;
}
bool sealed() noexcept
{
    return g_sealed;
}
bool mustIsolate() noexcept
{
    return g_policy == Policy::Confine && !g_sealed && !g_disposable;
}

void setActivity(std::string_view who, std::string_view detail) noexcept
{
    copyText(g_who, kWhoBytes, who);
    copyText(g_detail, kDetailBytes, detail);
}

std::string violationMessage(std::string_view who, std::string_view call, std::string_view detail)
{
    std::string m = std::string(who) + " attempted " + std::string(call);
    if (!detail.empty()) m += " (" + std::string(detail) + ")";
    m += ": the sandbox stopped it; a " + std::string(who) +
         " runs confined and may not start programs or processes, open files, use the "
         "network, or signal, trace or inspect other processes";
    return m;
}

void seal(bool allowReadingFiles)
{
    if (g_sealed) return;
    for (int nr = 0; nr < kMaxSyscall; ++nr) {
        g_names[nr][0] = '\0';
        if (char* name = seccomp_syscall_resolve_num_arch(SCMP_ARCH_NATIVE, nr)) {
            copyText(g_names[nr], kCallBytes, name);
            std::free(name);
        }
    }
    struct sigaction sa {};
    sa.sa_sigaction = &onForbiddenCall;
    sa.sa_flags = SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    ::sigaction(SIGSYS, &sa, nullptr);
    sigset_t unblock;
    sigemptyset(&unblock);
    sigaddset(&unblock, SIGSYS);
    ::pthread_sigmask(SIG_UNBLOCK, &unblock, nullptr);
    // Whatever the process inherited stays out of reach of getenv().
    ::clearenv();
    // Landlock and namespaces under the filter, where the kernel allows them; before the
    // supervisor thread exists (a user namespace needs a single-threaded process).
    const std::string deeper = detail::addDefenceInDepth(allowReadingFiles);

    // A forbidden call goes to a supervisor thread (user notification, Linux 5.7 with
    // TSYNC); where that is refused, it traps (SIGSYS).
    bool notify = seccomp_notify_alloc(&g_supervisor.req, &g_supervisor.resp) == 0;
    int ready[2] = {-1, -1};
    if (notify && ::pipe2(ready, O_CLOEXEC) == 0) {
        pthread_t thread;
        notify = ::pthread_create(&thread, nullptr, &supervise,
                                  reinterpret_cast<void*>(std::intptr_t{ready[0]})) == 0;
        if (notify) ::pthread_detach(thread); // for the life of this (disposable) process
    } else {
        notify = false;
    }
    const auto tell = [&](int fd) {
        if (ready[1] < 0) return;
        [[maybe_unused]] const auto n = ::write(ready[1], &fd, sizeof fd);
        ::close(ready[1]);
        ready[1] = -1;
    };
    for (const std::uint32_t action : {SCMP_ACT_NOTIFY, SCMP_ACT_TRAP}) {
        if (action == SCMP_ACT_NOTIFY && !notify) continue;
        scmp_filter_ctx ctx = seccomp_init(action);
        if (!ctx) throw Error(Error::Kind::Unavailable, "sandbox: seccomp_init failed");
        struct Release {
            scmp_filter_ctx c;
            ~Release() { seccomp_release(c); }
        } release{ctx};
        addRules(ctx, allowReadingFiles);
        if (action == SCMP_ACT_NOTIFY)
            allowIf(ctx, SCMP_SYS(ioctl), SCMP_A1(SCMP_CMP_EQ, SECCOMP_IOCTL_NOTIF_RECV));
        // Opening a file traps in the calling thread, which can look at the path.
        if (!allowReadingFiles)
            for (const int nr : {SCMP_SYS(open), SCMP_SYS(openat)})
                if (seccomp_rule_add(ctx, SCMP_ACT_TRAP, nr, 0) != 0)
                    throw Error(Error::Kind::Internal, "sandbox: cannot add the rule for open");
        // Every thread at once (the emulator's pool exists already), or nothing.
        seccomp_attr_set(ctx, SCMP_FLTATR_CTL_TSYNC, 1);
        const int rc = seccomp_load(ctx);
        if (rc != 0 && action == SCMP_ACT_NOTIFY) continue;
        if (action == SCMP_ACT_NOTIFY) {
            const int fd = seccomp_notify_fd(ctx);
            tell(fd);
            if (fd < 0) ::_exit(kViolationExitCode);
        } else {
            tell(-1);
        }
        if (rc != 0)
            throw Error(Error::Kind::Unavailable,
                        std::string("sandbox: the kernel refused the system-call filter: ") +
                            std::strerror(-rc) + "; untrusted code is not run without it");
        g_layers = std::string("seccomp-bpf filter (") +
                   (action == SCMP_ACT_NOTIFY ? "user notification" : "SIGSYS trap") + "); " +
                   deeper;
        g_sealed = true;
        return;
    }
}

std::string layers()
{
    return g_sealed ? g_layers : std::string();
}

void confine(std::string_view who, std::string_view detail)
{
    setActivity(who, detail);
    if (g_policy == Policy::Off || g_sealed) return;
    if (!g_disposable)
        throw Error(Error::Kind::Internal,
                    std::string(who) + " would run in a process that must stay unconfined");
    seal();
}

ViolationRecord::ViolationRecord()
{
    void* p =
        ::mmap(nullptr, sizeof(Page), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) throw Error(Error::Kind::OutOfMemory, "sandbox: cannot map a page");
    m_page = static_cast<Page*>(p);
    clear();
}
ViolationRecord::~ViolationRecord()
{
    if (g_record == m_page) g_record = nullptr;
    ::munmap(m_page, sizeof(Page));
}
void ViolationRecord::arm() const noexcept
{
    g_record = m_page;
}
bool ViolationRecord::happened() const noexcept
{
    return m_page->happened != 0;
}
std::string ViolationRecord::call() const
{
    return std::string(m_page->call, strnlen(m_page->call, kCallBytes));
}
std::string ViolationRecord::who() const
{
    return std::string(m_page->who, strnlen(m_page->who, kWhoBytes));
}
std::string ViolationRecord::detail() const
{
    return std::string(m_page->detail, strnlen(m_page->detail, kDetailBytes));
}
void ViolationRecord::clear() noexcept
{
    std::memset(static_cast<void*>(m_page), 0, sizeof(Page));
}

std::string signalDescription(int signal)
{
    switch (signal) {
    case SIGSEGV:
        return "SIGSEGV (segmentation fault)";
    case SIGBUS:
        return "SIGBUS (bus error)";
    case SIGFPE:
        return "SIGFPE (arithmetic error, e.g. integer division by zero)";
    case SIGABRT:
        return "SIGABRT (abort, e.g. a failed assert)";
    case SIGILL:
        return "SIGILL (illegal instruction)";
    case SIGKILL:
        return "SIGKILL (killed)";
    case SIGSYS:
        return "SIGSYS (a forbidden system call)";
    default: {
        const char* d = ::strsignal(signal);
        return "signal " + std::to_string(signal) + (d ? std::string(" (") + d + ")" : "");
    }
    }
}

std::string runIsolated(std::string_view who, std::string_view detail,
                        const std::function<void(std::string& out)>& body, int timeoutMs)
{
    if (g_sealed) {
        setActivity(who, detail);
        std::string out;
        body(out);
        return out;
    }
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0)
        throw Error(Error::Kind::Io,
                    "sandbox: cannot create a pipe: " + std::string(std::strerror(errno)));
    const ViolationRecord record;
    const pid_t pid = ::fork();
    if (pid < 0) {
        ::close(fds[0]);
        ::close(fds[1]);
        throw Error(Error::Kind::Unavailable,
                    "sandbox: cannot fork: " + std::string(std::strerror(errno)));
    }
    if (pid == 0) {
        ::close(fds[0]);
        ::prctl(PR_SET_PDEATHSIG, SIGKILL);
        record.arm();
        std::string out;
        int code = 0;
        try {
            setActivity(who, detail);
            seal();
            body(out);
            out += kEndMark;
        } catch (const std::exception& e) {
            out = std::string("\x01") + e.what();
            code = 1;
        }
        writeAll(fds[1], out.data(), out.size());
        ::_exit(code);
    }
    ::close(fds[1]);
    std::string out;
    char buffer[65536];
    bool timedOut = false;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeoutMs);
    for (;;) {
        if (timeoutMs > 0) {
            const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                                  deadline - std::chrono::steady_clock::now())
                                  .count();
            pollfd p{fds[0], POLLIN, 0};
            if (left <= 0 || ::poll(&p, 1, static_cast<int>(left)) == 0) {
                timedOut = true;
                ::kill(pid, SIGKILL);
                break;
            }
        }
        const ssize_t n = ::read(fds[0], buffer, sizeof buffer);
        if (n > 0) {
            out.append(buffer, static_cast<std::size_t>(n));
            continue;
        }
        if (n < 0 && errno == EINTR) continue;
        break;
    }
    ::close(fds[0]);
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (record.happened())
        throw Error(Error::Kind::Runtime,
                    violationMessage(record.who(), record.call(), record.detail()));
    if (timedOut)
        throw Error(Error::Kind::Timeout,
                    "timeout: the " + std::string(who) + " did not finish within " +
                        std::to_string(timeoutMs / 1000) + " s and was stopped" +
                        (detail.empty() ? "" : " (" + std::string(detail) + ")"));
    if (WIFSIGNALED(status))
        throw Error(Error::Kind::Runtime,
                    "the " + std::string(who) + " crashed with " +
                        signalDescription(WTERMSIG(status)) +
                        (detail.empty() ? "" : " (" + std::string(detail) + ")"));
    if (WIFEXITED(status) && WEXITSTATUS(status) == 1 && !out.empty() && out[0] == '\x01')
        throw Error(Error::Kind::Runtime, out.substr(1));
    const bool complete = out.size() >= kEndMark.size() &&
                          out.compare(out.size() - kEndMark.size(), kEndMark.size(), kEndMark) == 0;
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || !complete)
        throw Error(Error::Kind::Runtime,
                    "the " + std::string(who) + " ended its process (exit status " +
                        std::to_string(WIFEXITED(status) ? WEXITSTATUS(status) : -1) + ")" +
                        (detail.empty() ? "" : " (" + std::string(detail) + ")"));
    out.resize(out.size() - kEndMark.size());
    return out;
}

} // namespace wb::sandbox
