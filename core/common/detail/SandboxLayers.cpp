// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/common/detail/SandboxLayers.h"

#include <dirent.h>
#include <linux/landlock.h>
#include <sched.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

namespace wb::sandbox::detail {

namespace {

// Access rights by Landlock ABI version (Debian 12's <linux/landlock.h> knows ABI 2 at most, so
// the later ones are spelled out as the kernel's uapi header defines them).
constexpr std::uint64_t kFsAbi1 = (1ULL << 13) - 1; // EXECUTE … MAKE_SYM
constexpr std::uint64_t kFsRefer = 1ULL << 13;      // ABI 2
constexpr std::uint64_t kFsTruncate = 1ULL << 14;   // ABI 3
constexpr std::uint64_t kFsIoctlDev = 1ULL << 15;   // ABI 5
constexpr std::uint64_t kFsReading = LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_READ_DIR;
constexpr std::uint64_t kNetBindTcp = 1ULL << 0;        // ABI 4
constexpr std::uint64_t kNetConnectTcp = 1ULL << 1;     // ABI 4
constexpr std::uint64_t kScopeAbstractUnix = 1ULL << 0; // ABI 6
constexpr std::uint64_t kScopeSignal = 1ULL << 1;       // ABI 6

/// struct landlock_ruleset_attr as of ABI 6; older kernels are given its first fields only.
struct RulesetAttr {
    std::uint64_t handledAccessFs = 0;
    std::uint64_t handledAccessNet = 0;
    std::uint64_t scoped = 0;
};

int g_ruleset = -1;
std::atomic<int> g_restricted{0};
std::atomic<int> g_refused{0};

/// Restricts the calling thread (Landlock domains are per thread; new threads inherit them).
/// Async-signal-safe: the other threads run it from a signal handler.
void restrictThisThread() noexcept
{
    const int saved = errno;
    if (::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0 &&
        ::syscall(SYS_landlock_restrict_self, g_ruleset, 0) == 0)
        g_restricted.fetch_add(1);
    else
        g_refused.fetch_add(1);
    errno = saved;
}

void onRestrictSignal(int) noexcept
{
    restrictThisThread();
}

/// The process's threads (from /proc/self/task, read before anything is sealed).
std::vector<pid_t> threadsOfThisProcess()
{
    std::vector<pid_t> tids;
    if (DIR* dir = ::opendir("/proc/self/task")) {
        while (const dirent* e = ::readdir(dir))
            if (const long tid = std::strtol(e->d_name, nullptr, 10); tid > 0)
                tids.push_back(static_cast<pid_t>(tid));
        ::closedir(dir);
    }
    return tids;
}

std::string errnoText(int error)
{
    return std::strerror(error);
}

std::string addLandlock(bool allowReadingFiles, const std::vector<pid_t>& threads)
{
    const long abi =
        ::syscall(SYS_landlock_create_ruleset, nullptr, 0, LANDLOCK_CREATE_RULESET_VERSION);
    if (abi < 1)
        return "Landlock: not available (" + errnoText(errno) +
               "); the system-call filter alone keeps files out of reach";
    RulesetAttr attr;
    attr.handledAccessFs = kFsAbi1 | (abi >= 2 ? kFsRefer : 0) | (abi >= 3 ? kFsTruncate : 0) |
                           (abi >= 5 ? kFsIoctlDev : 0);
    if (allowReadingFiles) attr.handledAccessFs &= ~kFsReading;
    std::size_t size = sizeof attr.handledAccessFs;
    if (abi >= 4) {
        attr.handledAccessNet = kNetBindTcp | kNetConnectTcp;
        size = 2 * sizeof(std::uint64_t);
    }
    if (abi >= 6) {
        attr.scoped = kScopeAbstractUnix | kScopeSignal;
        size = sizeof attr;
    }
    const long fd = ::syscall(SYS_landlock_create_ruleset, &attr, size, 0U);
    if (fd < 0)
        return "Landlock: the ruleset was refused (" + errnoText(errno) +
               "); the system-call filter alone keeps files out of reach";
    g_ruleset = static_cast<int>(fd);
    g_restricted = 0;
    g_refused = 0;

    // Every other thread restricts itself from a signal handler; this one directly.
    const pid_t self = static_cast<pid_t>(::syscall(SYS_gettid));
    const int signal = SIGRTMIN;
    struct sigaction sa {};
    struct sigaction previous {};
    sa.sa_handler = &onRestrictSignal;
    sa.sa_flags = SA_RESTART;
    sigemptyset(&sa.sa_mask);
    ::sigaction(signal, &sa, &previous);
    int asked = 0;
    for (const pid_t tid : threads)
        if (tid != self && ::syscall(SYS_tgkill, ::getpid(), tid, signal) == 0) ++asked;
    restrictThisThread();
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(2);
    while (g_restricted + g_refused < asked + 1 && std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    ::sigaction(signal, &previous, nullptr);
    ::close(g_ruleset);

    const int total = static_cast<int>(std::max<std::size_t>(threads.size(), 1));
    const int restricted = g_restricted;
    std::string what = "Landlock ABI " + std::to_string(abi) + ": ";
    what += allowReadingFiles ? "files may be read, not written, created or executed"
                              : "no file access by path";
    if (abi >= 4) what += ", no TCP";
    if (abi >= 6) what += ", signals and abstract sockets scoped to the process";
    if (restricted >= total)
        return what + (total == 1 ? std::string(" (its one thread)")
                                  : " (all " + std::to_string(total) + " threads)");
    return what + " on " + std::to_string(restricted) + " of " + std::to_string(total) +
           " threads (the others did not answer)";
}

std::string addNamespaces(const std::vector<pid_t>& threads)
{
    if (threads.size() > 1)
        return "namespaces: not entered (the process has " + std::to_string(threads.size()) +
               " threads; unshare gives a user namespace only to a single-threaded process)";
    if (::unshare(CLONE_NEWUSER | CLONE_NEWNET | CLONE_NEWIPC) != 0)
        return "namespaces: not available (unshare: " + errnoText(errno) + ")";
    return "namespaces: new user, network and IPC namespaces";
}

} // namespace

std::string addDefenceInDepth(bool allowReadingFiles)
{
    const std::vector<pid_t> threads = threadsOfThisProcess();
    // Namespaces first: unshare needs the process single-threaded, Landlock does not.
    std::string layers = addNamespaces(threads);
    return addLandlock(allowReadingFiles, threads) + "; " + layers;
}

} // namespace wb::sandbox::detail
