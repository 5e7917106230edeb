// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <functional>
#include <string>
#include <string_view>

namespace wb::sandbox {

/// Native code written by a stranger — an emulated kernel, a project's C++ reference — runs
/// behind a seccomp-BPF filter (libseccomp): once a process is sealed it can still compute,
/// allocate, start threads and write to the descriptors it holds, but it cannot start programs
/// or processes, open files, create sockets, trace or signal other processes, or change files
/// by name. A forbidden call ends the process at once: the SIGSYS handler records
/// "<who> attempted <call>" and exits with kViolationExitCode. A filter cannot be lifted, so a
/// process is sealed only when it is disposable (a runner's per-run child); anything else that
/// must call untrusted code forks a sealed child for it (runIsolated). docs/runner.md, "Sandbox".

/// What this process does with untrusted code.
enum class Policy {
    Off,     ///< runs it in place, unconfined (tests, `warpbench-cli run --in-process`)
    Confine, ///< runs it only sealed: in place when disposable, else in a sealed child
};
void setPolicy(Policy policy) noexcept;
Policy policy() noexcept;
/// This process ends after the current run: it may be sealed in place.
void setDisposable(bool disposable) noexcept;
bool disposable() noexcept;
/// Whether the filter is installed in this process.
bool sealed() noexcept;

/// Exit status of a process that attempted a forbidden call.
constexpr int kViolationExitCode = 97;

/// Names what runs now for a violation message: `who` is "kernel" or "C++ reference",
/// `detail` e.g. "kernel 'k'". Async-signal-safe to read; cheap to call per launch.
void setActivity(std::string_view who, std::string_view detail = {}) noexcept;

/// The message for a forbidden call: "kernel attempted execve: …".
std::string violationMessage(std::string_view who, std::string_view call, std::string_view detail);

/// Installs the filter in this process, every thread included. Clears the environment first.
/// `allowReadingFiles` lets the process open files read-only (warpbench-cpu-sandbox's
/// bounds-checked mode, where AddressSanitizer reads debug information to name the faulting
/// line). Throws Error(Unavailable) when the kernel refuses a seccomp filter.
void seal(bool allowReadingFiles = false);

/// What confines this sealed process, one clause per layer: "seccomp-bpf filter (user
/// notification); Landlock ABI 7: no file access by path, no TCP, … (all 3 threads); namespaces:
/// not entered (…)". Empty when the process is not sealed. Landlock and the namespaces are
/// best effort (detail/SandboxLayers.h): where one is missing, the clause says why.
std::string layers();

/// Before calling untrusted code in this process: with Policy::Confine seals it (once),
/// after setActivity(who, detail). Throws Error(Internal) when the process must stay usable
/// (not disposable): such callers use runIsolated instead.
void confine(std::string_view who, std::string_view detail);

/// Whether untrusted code must go to a sealed child here (Confine, not sealed, not disposable).
bool mustIsolate() noexcept;

/// A record in memory shared with forked children: what a sealed child attempted before the
/// SIGSYS handler ended it. Create it before fork(), arm() it in the child.
class ViolationRecord {
public:
    ViolationRecord();
    ~ViolationRecord();
    ViolationRecord(const ViolationRecord&) = delete;
    ViolationRecord& operator=(const ViolationRecord&) = delete;
    /// In the child: the SIGSYS handler writes here.
    void arm() const noexcept;
    bool happened() const noexcept;
    std::string call() const;
    std::string who() const;
    std::string detail() const;
    void clear() noexcept;

    struct Page; ///< the shared page's layout (Sandbox.cpp)

private:
    Page* m_page = nullptr;
};

/// Runs `body` in a forked child that seals itself first, and returns what `body` put in its
/// output string. In a process that is sealed already it runs in place. Throws
/// Error(Runtime) naming `who` when the child attempted a forbidden call ("… attempted
/// openat"), crashed, or exited on its own; rethrows an Error the body threw as its message.
/// With `timeoutMs` > 0 a child that takes longer is killed: Error(Timeout).
std::string runIsolated(std::string_view who, std::string_view detail,
                        const std::function<void(std::string& out)>& body, int timeoutMs = 0);

/// The name of a signal and what it usually means ("SIGSEGV (segmentation fault)").
std::string signalDescription(int signal);

} // namespace wb::sandbox
