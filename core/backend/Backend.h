// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/common/CheckMode.h"
#include "core/common/CompileResult.h"
#include "core/common/LaunchConfig.h"
#include "core/common/MemoryFinding.h"
#include "core/common/RaceFinding.h"
#include "core/common/WriteTrace.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

struct CUstream_st; // CUstream, of the CUDA driver API

namespace wb {

namespace cuda {
class Context;
}

/// Where kernels run. Auto picks CUDA when a usable GPU is present, else the CPU emulator.
enum class BackendKind { Auto, Cuda, Cpu };

const char* backendName(BackendKind kind) noexcept; ///< "auto", "cuda", "cpu"
std::optional<BackendKind> parseBackendKind(std::string_view text) noexcept;

/// The device a backend runs on, for reports and the status bar.
struct DeviceDescription {
    std::string name; ///< "NVIDIA H200", "CPU emulator (AMD EPYC ..., 2 threads)"
    int index = 0;
    std::string arch;        ///< "sm_90" or "x86_64"
    int multiprocessors = 0; ///< SMs, or worker threads on the CPU
    std::uint64_t totalMemoryBytes = 0;
    double peakBandwidthGBs = 0; ///< theoretical; 0 when unknown
    double peakFp32Gflops = 0;   ///< theoretical FP32 rate (FMA = 2 FLOPs); 0 when unknown
    /// L2 cache size (CUDA); 0 when unknown or none. Data that fits may be read faster than
    /// DRAM's peak by warm launches: the speed-of-light check needs to know.
    std::uint64_t l2CacheBytes = 0;
    std::string driverVersion; ///< "580.95", "13.0"; empty for CPU
    /// The most dynamic shared memory one block may ask for (the opt-in limit on CUDA, the
    /// emulator's capacity on the CPU); 0 when unknown. Not part of saved reports.
    std::uint64_t maxDynamicSharedBytes = 0;
};

/// Clocks and temperature of a device at one moment, recorded with each run (timing is only
/// comparable between runs at similar clocks). -1 = unknown; `source` says where the figures
/// came from ("nvml") or why they are unknown ("libnvidia-ml.so.1 not found").
struct DeviceConditions {
    int smClockMHz = -1;
    int memoryClockMHz = -1;
    int temperatureC = -1;
    std::string source;
    bool known() const noexcept { return smClockMHz >= 0 || temperatureC >= 0; }
};

/// Memory that kernels of one backend can address. address() is what a pointer parameter
/// receives (a CUdeviceptr on CUDA, a host address on the CPU backend).
class BackendBuffer {
public:
    virtual ~BackendBuffer() = default;
    virtual std::uint64_t address() const noexcept = 0;
    virtual std::size_t size() const noexcept = 0;
};

/// A compiled source loaded into a backend, ready to launch its kernels.
class BackendProgram {
public:
    virtual ~BackendProgram() = default;
    virtual const CompileResult& compiled() const noexcept = 0;
};

/// One launch argument as raw bytes (like cuLaunchKernel's kernelParams), plus enough type
/// information to check it against the kernel's parameter before anything runs.
struct KernelArgValue {
    const void* data = nullptr; ///< points at the value (for pointers: at the 8-byte address)
    std::size_t size = 0;
    bool isPointer = false;
};

/// What the checks of a backend's last launch found (CheckMode::Bounds, CheckMode::Races).
struct LaunchFindings {
    std::vector<MemoryFinding> memory; ///< the faulting accesses of a bounds-checked launch
    std::vector<RaceFinding> races;    ///< the data races of a race-checked launch
    /// Words of a race-checked launch with more accessors than the race detector compares.
    std::vector<RaceCrowding> raceCrowding;
};

/// One output buffer a traced launch records (CheckMode::Trace).
struct TraceBuffer {
    std::string name;
    const BackendBuffer* buffer = nullptr;
    std::size_t elementSize = 0;
    std::vector<std::size_t> shape;
};

/// Device memory in use, as the driver counts it.
struct DeviceMemoryUse {
    std::uint64_t freeBytes = 0;
    std::uint64_t totalBytes = 0;
};

/// What a device profiler (CUPTI, core/profiling) needs of the backend that ran a launch: its
/// device context, and the launch enqueued on a stream of the profiler's without waiting or
/// timing (arguments checked as Backend::launch checks them). The CUDA backend has one
/// (Backend::profilingTarget).
class ProfilingTarget {
public:
    virtual const cuda::Context& context() const noexcept = 0;
    virtual void submit(BackendProgram& program, const std::string& kernel,
                        const LaunchConfig& config, std::span<const KernelArgValue> args,
                        CUstream_st* stream) = 0;

protected:
    ~ProfilingTarget() = default;
};

/// Compile, load, allocate, copy, launch, time: the interface both the CUDA backend and the
/// CPU emulator implement, and that sessions, the CLI, the runner and the GUI drive.
/// Errors are thrown as wb::Error (wb::cuda::CudaError on CUDA); a failed compile is a result.
class Backend {
public:
    virtual ~Backend() = default;
    virtual BackendKind kind() const noexcept = 0;
    virtual DeviceDescription device() const = 0;

    virtual CompileResult compile(const std::string& source, const std::string& sourceName,
                                  const CompileOptions& options) = 0;
    /// Throws when the result did not compile or cannot be loaded.
    virtual std::unique_ptr<BackendProgram> load(const CompileResult& compiled) = 0;

    /// `label` names the buffer in errors ("allocating buffer 'dest' (1.6 MB)").
    virtual std::unique_ptr<BackendBuffer> allocate(std::size_t bytes, std::string_view label) = 0;
    virtual void upload(BackendBuffer& dst, const void* src, std::size_t bytes) = 0;
    virtual void download(const BackendBuffer& src, void* dst, std::size_t bytes) = 0;
    /// Sets a module-scope variable (__constant__ or __device__) of a loaded program.
    virtual void setConstant(BackendProgram& program, const std::string& symbol, const void* src,
                             std::size_t bytes) = 0;
    /// The size in bytes of the module-scope variable `symbol` (__constant__ or __device__).
    /// Throws Error(InvalidArgument) when the program has none of that name. 0 when the size
    /// cannot be known before a launch (the CPU emulator's bounds-checked builds run in a
    /// sandbox process, which checks it there).
    virtual std::size_t globalSize(BackendProgram& program, const std::string& symbol) = 0;
    /// Copies the module-scope variable `symbol` into `dst` (`bytes` must be its size): its
    /// value after the launches so far.
    virtual void readGlobal(BackendProgram& program, const std::string& symbol, void* dst,
                            std::size_t bytes) = 0;

    /// Launches one kernel, waits for it, and returns its duration in milliseconds (events on
    /// CUDA, wall clock on the CPU). Arguments are checked against the kernel's parameters
    /// first (count, size, pointer vs value): a mismatch throws Error::Kind::InvalidArgument
    /// naming the parameter.
    virtual double launch(BackendProgram& program, const std::string& kernel,
                          const LaunchConfig& config, std::span<const KernelArgValue> args) = 0;

    /// Runs `copies` (upload()/download() calls on this backend) and returns how long they took
    /// in milliseconds: events recorded around them on CUDA (a copy whose DMA outlives the call
    /// is counted), the wall clock here. Sessions time the real run's copies with it.
    virtual double timeCopies(const std::function<void()>& copies);

    /// Makes the next launch a cold one: on CUDA resets the persisting-L2 lines
    /// (cuCtxResetPersistingL2Cache) and flushes L2 by writing a buffer of its size, so that no
    /// data of an earlier launch is served from cache. Nothing on the CPU emulator.
    virtual void prepareColdLaunch() {}
    /// The device's clocks and temperature now (NVML on CUDA, loaded at run time); unknown
    /// here.
    virtual DeviceConditions conditions() const;
    /// Free and total device memory now (CUDA); nullopt where the backend has no device memory
    /// of its own. Throws what the driver throws.
    virtual std::optional<DeviceMemoryUse> memoryUse() const;

    /// Whether programs can be compiled for `mode` here (CompileOptions::check). None always.
    virtual bool supports(CheckMode mode) const noexcept;
    /// What the checks of the last launch found: memory errors (bounds-checked programs, whose
    /// launch throws Error(Runtime) after a fault) and data races (race-checked programs, whose
    /// launch completes). Empty for other launches and backends.
    virtual LaunchFindings lastLaunchFindings() const;
    /// What the checks found since the last call, for a run of several launches: the last
    /// launch's memory errors (a bounds-checked launch stops at its fault) and the races and
    /// crowded words of every race-checked launch, each race naming its kernel (a guard
    /// kernel's too). Starts a new log. Default: lastLaunchFindings().
    virtual LaunchFindings takeRunFindings();
    /// Schedule variation for later launches where the backend chooses the order of threads
    /// and blocks (the CPU emulator): 0 = the fixed order, any other value = a reproducible
    /// pseudo-random order. Nothing where the device schedules (CUDA).
    virtual void setSchedule(std::uint64_t seed);
    /// Trace mode (a program compiled with CheckMode::Trace): starts recording, for every
    /// element of `buffers`, each store a traced kernel makes until endTrace(); `launch`
    /// decodes the writers' indices. Throws Error(Unavailable) where !supports(Trace).
    virtual void beginTrace(const LaunchConfig& launch, const std::vector<TraceBuffer>& buffers);
    /// Stops recording and returns one WriteTrace per buffer given to beginTrace().
    virtual std::vector<WriteTrace> endTrace();
    /// What a device profiler can drive on this backend; nullptr where there is no device
    /// context to profile (the CPU emulator).
    virtual ProfilingTarget* profilingTarget() noexcept;

    /// Backends constructed in this process so far. Kernels, copies and device contexts belong
    /// in warpbench-runner: the GUI's tests check that a run leaves this at 0 in the window.
    static std::uint64_t createdCount() noexcept;

protected:
    Backend() noexcept;
};

/// Creates the backend for `kind` on device `device`. Auto falls back to the CPU emulator when
/// no GPU is usable. Throws Error::Kind::Unavailable with the reason when `kind` cannot run here.
std::unique_ptr<Backend> createBackend(BackendKind kind, int device = 0);

/// What createBackend(kind, device) would run on — its kind (Auto resolved) and device — found
/// without creating it: no CUDA context, no CPU worker threads. For the window's status bar and
/// occupancy (only warpbench-runner creates backends). Throws what createBackend throws.
struct BackendDescription {
    BackendKind kind = BackendKind::Cpu;
    DeviceDescription device;
};
BackendDescription describeBackend(BackendKind kind, int device = 0);

/// Why the CUDA backend is unavailable here ("no NVIDIA driver (libcuda.so.1 not found)"),
/// or nullopt when it is usable.
std::optional<std::string> cudaUnavailableReason();

} // namespace wb
