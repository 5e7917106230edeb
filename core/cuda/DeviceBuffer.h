// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/cuda/Context.h"

#include <cuda.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace wb::cuda {

class Stream;

/// Device memory (cuMemAlloc) in a context it keeps alive. Move-only. The label names the
/// buffer in errors: "allocating buffer 'dest' (1.6 MB): ... CUDA_ERROR_OUT_OF_MEMORY".
class DeviceBuffer {
public:
    DeviceBuffer() = default;
    /// Throws wb::Error (OutOfMemory) naming the buffer when the device cannot hold it.
    DeviceBuffer(const Context& context, std::size_t bytes, std::string_view label = "buffer");
    /// The same from the context's device memory pool (DevicePool.h): a block of the size
    /// class of `bytes`, reused from an earlier pooled buffer when one is idle (no driver
    /// call), given back to the pool on release. The block is reused in the order of the
    /// legacy default stream: synchronise work on other streams before releasing it.
    static DeviceBuffer pooled(const Context& context, std::size_t bytes,
                               std::string_view label = "buffer");
    DeviceBuffer(DeviceBuffer&& other) noexcept;
    DeviceBuffer& operator=(DeviceBuffer&& other) noexcept;
    DeviceBuffer(const DeviceBuffer&) = delete;
    DeviceBuffer& operator=(const DeviceBuffer&) = delete;
    ~DeviceBuffer();

    bool valid() const noexcept { return m_context != nullptr; }
    /// The block came from the device pool.
    bool isPooled() const noexcept { return m_poolClass != 0; }
    CUdeviceptr ptr() const noexcept { return m_ptr; }
    /// Where the device address lives, for kernel parameter arrays.
    const CUdeviceptr* ptrAddress() const noexcept { return &m_ptr; }
    std::size_t size() const noexcept { return m_bytes; }
    const std::string& label() const noexcept { return m_label; }
    const detail::ContextRef& contextState() const noexcept { return m_context; }

    /// Synchronous copies (ordered with the legacy default stream).
    void upload(const void* src, std::size_t bytes, std::size_t offset = 0);
    void download(void* dst, std::size_t bytes, std::size_t offset = 0) const;
    /// Asynchronous copies on `stream`; `src`/`dst` should be pinned for true overlap.
    void uploadAsync(const void* src, std::size_t bytes, const Stream& stream,
                     std::size_t offset = 0);
    void downloadAsync(void* dst, std::size_t bytes, const Stream& stream,
                       std::size_t offset = 0) const;
    /// Device-to-device copy of `bytes` from `src`.
    void copyFrom(const DeviceBuffer& src, std::size_t bytes);
    /// Sets every byte / every 16-bit / every 32-bit word (size must be a multiple).
    void fill8(std::uint8_t value);
    void fill16(std::uint16_t value);
    void fill32(std::uint32_t value);
    /// fill32 queued on `stream` (cuMemsetD32Async): returns before the fill is done.
    void fill32Async(std::uint32_t value, const Stream& stream);

private:
    void release() noexcept;
    void checkRange(const char* what, std::size_t bytes, std::size_t offset) const;
    void checkWords32() const;
    detail::ContextRef m_context;
    CUdeviceptr m_ptr = 0;
    std::size_t m_bytes = 0;
    std::size_t m_poolClass = 0; ///< the pool size class of the block; 0 = cuMemAlloc'd
    std::string m_label;
};

} // namespace wb::cuda
