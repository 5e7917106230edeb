// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/cuda/Context.h"

#include <cstddef>

namespace wb::cuda {

/// The device memory pool: a size-class pool per context, of our own (not the driver's
/// stream-ordered cuMemPool; docs/cuda.md says why). DeviceBuffer::pooled takes blocks from it,
/// DeviceArray and the CUDA backend's buffers (sessions) are pooled, so allocating again what
/// was freed costs a lock and a list pop instead of cuMemAlloc. Idle blocks stay until
/// trimDevicePool, an out-of-memory allocation (which frees them and retries), or the
/// context's release. The handle registry counts blocks in use as DeviceBuffer and idle ones as
/// PooledMemory.
struct DevicePoolUsage {
    std::size_t idleBytes = 0;
    std::size_t idleBlocks = 0;
    std::size_t inUseBytes = 0; ///< whole size classes, not the bytes asked for
    std::size_t inUseBlocks = 0;
};

/// The size class a request of `bytes` gets: 512 bytes at least, then four classes per power
/// of two (at most 25 % more than asked). 0 for 0.
std::size_t devicePoolClassBytes(std::size_t bytes) noexcept;
DevicePoolUsage devicePoolUsage(const Context& context);
/// Frees the context's idle blocks (cuMemFree).
void trimDevicePool(const Context& context);
/// Off: DeviceBuffer::pooled allocates exactly `bytes` with cuMemAlloc, as DeviceBuffer does.
/// For runs under compute-sanitizer (warpbench-runner --no-device-pool): memcheck knows a
/// buffer's bounds from its allocation, so an access past a pooled buffer's end but inside its
/// size class would go unseen. Process-wide; on by default.
void setDevicePoolEnabled(bool enabled) noexcept;
bool devicePoolEnabled() noexcept;

} // namespace wb::cuda
