// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cuda.h>

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace wb::cuda::detail {

/// In/Out/InOut payloads of at most this many bytes in total (after 256-byte alignment of each
/// argument) are staged in mapped pinned memory that the kernel reads and writes directly
/// (zero-copy: one launch and one synchronisation, no copy-engine work), when the device can
/// map host memory and the call is not timed. Larger payloads go through a device buffer.
inline constexpr std::size_t kZeroCopyLimit = std::size_t{64} << 10;

/// Pooled resources for In/Out/InOut calls and timed launches: one device allocation and one
/// pinned staging buffer that grow on demand, one mapped pinned buffer of kZeroCopyLimit bytes
/// for small payloads, one stream, two timing events. Owned by the context (raw handles, no
/// back-reference, so no ownership cycle); guarded by the mutex.
struct Scratch {
    CUdeviceptr device = 0;
    std::size_t deviceBytes = 0;
    void* host = nullptr;
    std::size_t hostBytes = 0;
    void* mapped = nullptr;       ///< mapped pinned memory (CU_MEMHOSTALLOC_DEVICEMAP)
    CUdeviceptr mappedDevice = 0; ///< its address on the device
    std::size_t mappedBytes = 0;
    CUstream stream = nullptr;
    CUevent start = nullptr;
    CUevent stop = nullptr;
};

/// The device memory pool (core/cuda/DevicePool.h): pooled DeviceBuffers return their block
/// here when released, and the next pooled allocation of the same size class takes it back
/// without a driver call. Guarded by its mutex; the idle blocks are freed with the context.
struct PoolState {
    std::mutex mutex;
    std::map<std::size_t, std::vector<CUdeviceptr>> idle; ///< by size class
    std::size_t idleBytes = 0;
    std::size_t idleBlocks = 0;
    std::size_t inUseBytes = 0;
    std::size_t inUseBlocks = 0;
};

/// A retained primary context and what launches need to know about its device, cached once.
/// Shared by every handle created in it; released (cuDevicePrimaryCtxRelease) with the last.
struct ContextState {
    int ordinal = 0;
    CUdevice device = 0;
    CUcontext context = nullptr;
    std::string deviceName;
    std::uint64_t totalMemory = 0;
    int maxThreadsPerBlock = 0;
    std::array<int, 3> maxBlock{};
    std::array<int, 3> maxGrid{};
    int maxSharedOptin = 0;
    int clusterLaunch = 0;
    int cooperativeLaunch = 0; ///< CU_DEVICE_ATTRIBUTE_COOPERATIVE_LAUNCH
    int multiprocessors = 0;
    /// The device can map host memory and shares one address space with the host.
    bool canMapHost = false;
    /// Payloads up to this many bytes take the zero-copy path (kZeroCopyLimit; 0 disables it).
    /// Read under scratchMutex at each call; tests and benchmarks lower it to force the
    /// device-buffer path.
    std::atomic<std::size_t> zeroCopyLimit{kZeroCopyLimit};

    std::mutex scratchMutex;
    Scratch scratch;

    PoolState pool;

    ContextState() = default;
    ContextState(const ContextState&) = delete;
    ContextState& operator=(const ContextState&) = delete;
    ~ContextState();

    /// Makes this context current on the calling thread (cheap when it already is).
    void makeCurrent() const;
    /// The same, for destructors: false (and a report) on failure.
    bool makeCurrentNoThrow() const noexcept;
    /// Grows the scratch buffers to at least `bytes`; call with scratchMutex held.
    void ensureScratch(std::size_t bytes);
    /// Creates the call stream and the mapped staging buffer when missing; call with
    /// scratchMutex held and only when canMapHost.
    void ensureMappedScratch();
    /// Frees the scratch resources; call with scratchMutex held.
    void releaseScratch() noexcept;
    /// A block of exactly `classBytes` (a pool size class) from the pool, or from cuMemAlloc
    /// when none is idle (after freeing the idle blocks if the device is out of memory).
    /// Returns the driver's result; makes the context current.
    CUresult poolAllocate(std::size_t classBytes, CUdeviceptr& ptr);
    /// Gives a block back to the pool; never throws.
    void poolFree(CUdeviceptr ptr, std::size_t classBytes) noexcept;
    /// Frees every idle block (cuMemFree); never throws.
    void trimPool() noexcept;
    /// "device 0 (NVIDIA H200)"
    std::string describe() const;
};

using ContextRef = std::shared_ptr<ContextState>;

/// The process-wide primary context of device `ordinal`, retained while anything refers to it.
ContextRef primaryContext(int ordinal);

/// "1.6 MB", "400 B"
std::string formatBytes(std::size_t bytes);

} // namespace wb::cuda::detail
