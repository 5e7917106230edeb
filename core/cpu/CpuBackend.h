// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/backend/Backend.h"
#include "core/common/MemoryFinding.h"
#include "core/common/RaceFinding.h"
#include "core/common/WriteTrace.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace wb::cpu {

/// Runs CUDA C++ on the CPU: the source is compiled by the host C++ compiler against the CUDA
/// prelude (resources/prelude) into a shared library; blocks spread over a thread pool; the
/// threads of a block run as a loop, or as fibers when the kernel has barriers or warp
/// operations. See docs/cpu-emulator.md.
///
/// Bounds-checked mode: compile with CompileOptions::check = CheckMode::Bounds (a project file may
/// spell it "--cpu-bounds-check" in extraFlags).
/// The kernel is then built with -fsanitize=address,undefined and each launch runs in a helper
/// process (warpbench-cpu-sandbox, libasan preloaded); a memory error makes launch() throw
/// wb::Error(Runtime) and is kept in lastFindings() (and lastLaunchFindings()) with the kernel's
/// file:line and the offending block and thread.
///
/// Race-check mode: compile with CheckMode::Races ("--cpu-race-check"). The kernel is then built
/// with the compiler's ThreadSanitizer instrumentation (without libtsan) and each launch runs in
/// the helper process, whose CUDA-aware detector reports data races on shared and global memory;
/// the launch completes and the races are kept in lastRaces().
///
/// Schedule variation: setSchedule(seed) runs the threads of each pass between barriers, and
/// the blocks, in a pseudo-random order drawn from the seed (0, the default: index order).
class CpuBackend final : public Backend {
public:
    /// `threads` worker threads; 0 = one per core.
    explicit CpuBackend(int threads = 0);
    ~CpuBackend() override;
    CpuBackend(const CpuBackend&) = delete;
    CpuBackend& operator=(const CpuBackend&) = delete;

    BackendKind kind() const noexcept override { return BackendKind::Cpu; }
    DeviceDescription device() const override;
    /// What device() says for a backend with `threads` workers (0: one per hardware thread),
    /// without starting them.
    static DeviceDescription describe(int threads = 0);

    CompileResult compile(const std::string& source, const std::string& sourceName,
                          const CompileOptions& options) override;
    std::unique_ptr<BackendProgram> load(const CompileResult& compiled) override;
    std::unique_ptr<BackendBuffer> allocate(std::size_t bytes, std::string_view label) override;
    void upload(BackendBuffer& dst, const void* src, std::size_t bytes) override;
    void download(const BackendBuffer& src, void* dst, std::size_t bytes) override;
    void setConstant(BackendProgram& program, const std::string& symbol, const void* src,
                     std::size_t bytes) override;
    std::size_t globalSize(BackendProgram& program, const std::string& symbol) override;
    void readGlobal(BackendProgram& program, const std::string& symbol, void* dst,
                    std::size_t bytes) override;
    double launch(BackendProgram& program, const std::string& kernel, const LaunchConfig& config,
                  std::span<const KernelArgValue> args) override;
    bool supports(CheckMode) const noexcept override { return true; }
    LaunchFindings lastLaunchFindings() const override;
    /// lastFindings() and takeRaceLog().
    LaunchFindings takeRunFindings() override;

    /// A cooperative launch (LaunchConfig::cooperative) runs every block at once, each on its
    /// own OS thread with its threads as fibers: at most this many blocks and threads in all.
    static constexpr std::uint64_t kMaxCooperativeBlocks = 1024;
    static constexpr std::uint64_t kMaxCooperativeThreads = 16384;

    /// Worker threads used by launches (1 = everything on the calling thread).
    int threadCount() const noexcept;
    void setThreadCount(int threads);
    /// Memory errors found by the last launch in bounds-checked mode.
    const std::vector<MemoryFinding>& lastFindings() const noexcept;
    /// Data races found by the last launch in race-check mode.
    const std::vector<RaceFinding>& lastRaces() const noexcept;
    /// Race-check mode: the words of the last launch that had more accessors between two
    /// synchronisations than the detector compares (a race among them may be missed).
    const std::vector<RaceCrowding>& lastRaceCrowding() const noexcept;
    /// Race-check mode: what every launch found since the last takeRaceLog(), in launch order;
    /// each race names its kernel. A program or session that launches several kernels (a guard
    /// kernel, then the main one; a pipeline) reports them all, not only the last launch's. A
    /// finding a later launch repeats (same kernel, memory, lines and kinds) is kept once, with
    /// the larger count; crowded words per buffer or variable, the most of any launch.
    struct RaceLog {
        std::vector<RaceFinding> races;
        std::vector<RaceCrowding> crowding;
    };
    /// Returns the log and starts a new one.
    RaceLog takeRaceLog();
    /// Schedule variation for later launches: 0 = the fixed order (threads by index, blocks in
    /// order); any other value = a reproducible pseudo-random order. Kernels without barriers
    /// then run as fibers too, so that their threads' order can vary.
    void setSchedule(std::uint64_t seed) override;
    std::uint64_t schedule() const noexcept;

    /// Starts recording, for every element of `buffers`, each store a traced kernel makes (last
    /// writer, count, atomic or not) until endTrace(). `launch` decodes the writers' indices.
    void beginTrace(const LaunchConfig& launch, const std::vector<TraceBuffer>& buffers) override;
    /// Stops recording and returns one WriteTrace per buffer given to beginTrace(), with the
    /// elements that changed without a traced store counted as `untraced`.
    std::vector<WriteTrace> endTrace() override;

    /// The project-file spellings of the check modes in CompileOptions::extraFlags (CheckMode.h).
    /// Trace mode makes the mutable pointer parameters of the kernels recording proxies (see
    /// docs/teaching.md).
    static constexpr const char* kTraceFlag = kTraceModeFlag;
    static constexpr const char* kBoundsCheckFlag = kBoundsCheckModeFlag;
    static constexpr const char* kRaceCheckFlag = kRaceCheckModeFlag;
    /// "kernel 'name' cannot run on the CPU emulator: ", the beginning of the warning that a
    /// compile gives for each kernel refused alone (textures, inline PTX ... in its body), at
    /// the construct's line; the other kernels of the file compile and run.
    static std::string refusedKernelMessage(const std::string& kernel)
    {
        return "kernel '" + kernel + "' cannot run on the CPU emulator: ";
    }
    /// Host compiler flags may be passed as extraFlags entries "--host-flag=<flag>"; every
    /// other extraFlags entry is an NVRTC flag and is ignored here.
    static constexpr const char* kHostFlagPrefix = "--host-flag=";

private:
    struct Impl;
    std::unique_ptr<Impl> m_impl;
};

/// The CPU emulator as a wb::Backend.
std::unique_ptr<Backend> makeCpuBackend();

} // namespace wb::cpu
