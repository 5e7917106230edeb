// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/backend/Backend.h"
#include "core/common/MemoryFinding.h"
#include "core/common/RaceFinding.h"

#include <cstdint>

#include <filesystem>
#include <iosfwd>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace wb::cpu::detail {

/// A host buffer a pointer argument may point into.
struct SandboxBuffer {
    unsigned char* data;
    std::size_t size;
    std::string label;
};

/// One launch of a bounds-checked (sanitized) kernel library.
struct SandboxLaunch {
    const CompileResult& compiled;
    const KernelInfo& kernel;
    const LaunchConfig& config;
    std::span<const KernelArgValue> args;
    const std::vector<std::pair<std::string, std::vector<unsigned char>>>& constants;
    std::vector<SandboxBuffer> buffers;
    bool raceCheck = false;                    ///< the library is race-check instrumented
    std::uint64_t schedule = 0;                ///< schedule variation seed (0: fixed order)
    std::vector<RaceFinding>* races = nullptr; ///< race-check mode: the races found go here
    /// When set, receives each of `constants` (same order) as the launch left it: a
    /// __device__ variable the kernel wrote keeps its value for the next launch and for
    /// Backend::readGlobal, as on the GPU.
    std::vector<std::pair<std::string, std::vector<unsigned char>>>* constantsAfter = nullptr;
    int workers = 1; ///< race-check mode: worker threads that run the blocks
    /// Race-check mode: the words that had more accessors than the detector compares.
    std::vector<RaceCrowding>* crowding = nullptr;
};

/// Runs the launch in the helper process warpbench-cpu-sandbox with libasan preloaded: the
/// buffers that pointer arguments point into are copied to it (into sanitizer-guarded heap
/// blocks), the kernel runs, the buffers come back. A sanitizer report becomes a MemoryFinding
/// (appended to `findings`) and an Error(Runtime); returns the kernel's wall time in ms.
double runInSandbox(const SandboxLaunch& launch, std::vector<MemoryFinding>& findings);

/// The request lines every sandbox launch starts with (library, dims, each argument: a pointer
/// into one of launch.buffers as an offset, anything else as hex bytes); returns, per buffer,
/// whether a pointer argument points into it. writeSandboxRequest and SandboxServer add the
/// buffers, constants and mode lines their way.
std::vector<int> writeSandboxLaunchLines(std::ostream& req, const SandboxLaunch& launch);
/// `n` bytes as lowercase hex, "-" when none: how the request spells raw bytes.
std::string sandboxHex(const void* data, std::size_t n);

/// Writes the sandbox's request for `launch` to `work`/request (with the buffers that pointer
/// arguments point into as `work`/buffer<i>); returns, per buffer, whether it was written.
/// Throws Error(Io). runInSandbox uses it; so does the thread debugger (core/debug), which
/// runs the same request under gdb.
std::vector<int> writeSandboxRequest(const SandboxLaunch& launch,
                                     const std::filesystem::path& work);

/// The sandbox's answer to `launch` (its output `output`, whose "WB-SANDBOX ok" line has been
/// found): the races into launch.races, the time in ms. Throws Error(Runtime).
double acceptSandboxAnswer(const SandboxLaunch& launch, const std::string& output);

/// Throws the error that the sandbox's output `output` tells of, for a launch that did not
/// complete (a sanitizer report becomes a MemoryFinding appended to `findings`). `exitCode`:
/// the process's, or -1 when it did not exit normally.
[[noreturn]] void throwSandboxFailure(const SandboxLaunch& launch, const std::string& output,
                                      int exitCode, std::vector<MemoryFinding>& findings);

/// Parses a sanitizer report (and the sandbox's "WB-SANDBOX at" line) into a finding.
MemoryFinding parseSanitizerReport(const std::string& output, const std::string& kernel,
                                   const std::string& sourceName);

/// Where the helper executable is: $WARPBENCH_CPU_SANDBOX, next to the running program, the
/// build tree, or the install's libexec folder.
std::string sandboxExecutable();

} // namespace wb::cpu::detail
