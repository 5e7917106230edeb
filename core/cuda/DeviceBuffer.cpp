// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/cuda/DeviceBuffer.h"

#include "core/cuda/CudaError.h"
#include "core/cuda/DevicePool.h"
#include "core/cuda/HandleRegistry.h"
#include "core/cuda/Stream.h"
#include "core/cuda/detail/DriverApi.h"

#include <utility>

namespace wb::cuda {

DeviceBuffer::DeviceBuffer(const Context& context, std::size_t bytes, std::string_view label)
    : m_label(label)
{
    const detail::DriverApi& api = detail::driver();
    const detail::ContextRef& state = context.state();
    const auto what = [&] {
        return "allocating buffer '" + m_label + "' (" + detail::formatBytes(bytes) + ") on " +
               state->describe();
    };
    if (bytes > state->totalMemory)
        throw Error(Error::Kind::OutOfMemory, what() + ": out of memory, the device has only " +
                                                  detail::formatBytes(state->totalMemory));
    state->makeCurrent();
    CUdeviceptr ptr = 0;
    // cuMemAlloc rejects 0 bytes; an empty buffer owns no memory but still names its context.
    if (bytes > 0) CU_CHECK(api.cuMemAlloc(&ptr, bytes), what());
    m_context = state;
    m_ptr = ptr;
    m_bytes = bytes;
    HandleRegistry::instance().added(HandleKind::DeviceBuffer, bytes);
}

DeviceBuffer DeviceBuffer::pooled(const Context& context, std::size_t bytes, std::string_view label)
{
    if (!devicePoolEnabled()) return DeviceBuffer(context, bytes, label);
    const detail::ContextRef& state = context.state();
    DeviceBuffer buffer;
    buffer.m_label = label;
    const std::size_t block = devicePoolClassBytes(bytes);
    if (block > state->totalMemory)
        throw Error(Error::Kind::OutOfMemory,
                    "allocating buffer '" + buffer.m_label + "' (" + detail::formatBytes(bytes) +
                        ") on " + state->describe() + ": out of memory, the device has only " +
                        detail::formatBytes(state->totalMemory));
    CUdeviceptr ptr = 0;
    if (block > 0)
        CU_CHECK(state->poolAllocate(block, ptr),
                 "allocating buffer '" + buffer.m_label + "' (" + detail::formatBytes(bytes) +
                     ") from the device pool of " + state->describe());
    buffer.m_context = state;
    buffer.m_ptr = ptr;
    buffer.m_bytes = bytes;
    buffer.m_poolClass = block;
    HandleRegistry::instance().added(HandleKind::DeviceBuffer, bytes);
    return buffer;
}

DeviceBuffer::DeviceBuffer(DeviceBuffer&& other) noexcept
    : m_context(std::move(other.m_context))
    , m_ptr(std::exchange(other.m_ptr, 0))
    , m_bytes(std::exchange(other.m_bytes, 0))
    , m_poolClass(std::exchange(other.m_poolClass, 0))
    , m_label(std::move(other.m_label))
{
}

DeviceBuffer& DeviceBuffer::operator=(DeviceBuffer&& other) noexcept
{
    if (this != &other) {
        release();
        m_context = std::move(other.m_context);
        m_ptr = std::exchange(other.m_ptr, 0);
        m_bytes = std::exchange(other.m_bytes, 0);
        m_poolClass = std::exchange(other.m_poolClass, 0);
        m_label = std::move(other.m_label);
    }
    return *this;
}

DeviceBuffer::~DeviceBuffer()
{
    release();
}

void DeviceBuffer::release() noexcept
{
    if (!m_context) return;
    if (m_ptr && m_poolClass) {
        m_context->poolFree(m_ptr, m_poolClass);
    } else if (m_ptr) {
        const detail::DriverApi& api = detail::driverUnchecked();
        m_context->makeCurrentNoThrow();
        detail::reportCudaFailure(api.cuMemFree(m_ptr), "cuMemFree", "freeing a device buffer");
    }
    HandleRegistry::instance().removed(HandleKind::DeviceBuffer, m_bytes);
    m_ptr = 0;
    m_bytes = 0;
    m_poolClass = 0;
    m_context.reset();
}

void DeviceBuffer::checkRange(const char* what, std::size_t bytes, std::size_t offset) const
{
    if (!m_context) [[unlikely]]
        throw Error(Error::Kind::InvalidArgument,
                    std::string(what) + ": use of a moved-from or empty DeviceBuffer");
    if (offset > m_bytes || bytes > m_bytes - offset) [[unlikely]]
        throw Error(Error::Kind::InvalidArgument,
                    std::string(what) + " buffer '" + m_label + "': " + std::to_string(bytes) +
                        " bytes at offset " + std::to_string(offset) + " exceed its size of " +
                        std::to_string(m_bytes) + " bytes");
}

void DeviceBuffer::upload(const void* src, std::size_t bytes, std::size_t offset)
{
    checkRange("uploading to", bytes, offset);
    if (bytes == 0) return;
    const detail::DriverApi& api = detail::driverUnchecked();
    m_context->makeCurrent();
    CU_CHECK(api.cuMemcpyHtoD(m_ptr + offset, src, bytes),
             "uploading " + detail::formatBytes(bytes) + " to buffer '" + m_label + "'");
}

void DeviceBuffer::download(void* dst, std::size_t bytes, std::size_t offset) const
{
    checkRange("downloading from", bytes, offset);
    if (bytes == 0) return;
    const detail::DriverApi& api = detail::driverUnchecked();
    m_context->makeCurrent();
    CU_CHECK(api.cuMemcpyDtoH(dst, m_ptr + offset, bytes),
             "downloading " + detail::formatBytes(bytes) + " from buffer '" + m_label + "'");
}

void DeviceBuffer::uploadAsync(const void* src, std::size_t bytes, const Stream& stream,
                               std::size_t offset)
{
    checkRange("uploading to", bytes, offset);
    if (bytes == 0) return;
    const detail::DriverApi& api = detail::driverUnchecked();
    m_context->makeCurrent();
    CU_CHECK(api.cuMemcpyHtoDAsync(m_ptr + offset, src, bytes, stream.handle()),
             "uploading " + detail::formatBytes(bytes) + " to buffer '" + m_label + "'");
}

void DeviceBuffer::downloadAsync(void* dst, std::size_t bytes, const Stream& stream,
                                 std::size_t offset) const
{
    checkRange("downloading from", bytes, offset);
    if (bytes == 0) return;
    const detail::DriverApi& api = detail::driverUnchecked();
    m_context->makeCurrent();
    CU_CHECK(api.cuMemcpyDtoHAsync(dst, m_ptr + offset, bytes, stream.handle()),
             "downloading " + detail::formatBytes(bytes) + " from buffer '" + m_label + "'");
}

void DeviceBuffer::copyFrom(const DeviceBuffer& src, std::size_t bytes)
{
    checkRange("copying into", bytes, 0);
    src.checkRange("copying from", bytes, 0);
    if (bytes == 0) return;
    const detail::DriverApi& api = detail::driverUnchecked();
    m_context->makeCurrent();
    CU_CHECK(api.cuMemcpyDtoD(m_ptr, src.m_ptr, bytes), "copying " + detail::formatBytes(bytes) +
                                                            " from buffer '" + src.m_label +
                                                            "' to buffer '" + m_label + "'");
}

void DeviceBuffer::fill8(std::uint8_t value)
{
    checkRange("filling", 0, 0);
    if (m_bytes == 0) return;
    const detail::DriverApi& api = detail::driverUnchecked();
    m_context->makeCurrent();
    CU_CHECK(api.cuMemsetD8(m_ptr, value, m_bytes), "filling buffer '" + m_label + "'");
}

void DeviceBuffer::fill16(std::uint16_t value)
{
    checkRange("filling", 0, 0);
    if (m_bytes % 2 != 0)
        throw Error(Error::Kind::InvalidArgument,
                    "filling buffer '" + m_label + "' with 16-bit words: its size is odd");
    if (m_bytes == 0) return;
    const detail::DriverApi& api = detail::driverUnchecked();
    m_context->makeCurrent();
    CU_CHECK(api.cuMemsetD16(m_ptr, value, m_bytes / 2), "filling buffer '" + m_label + "'");
}

void DeviceBuffer::checkWords32() const
{
    checkRange("filling", 0, 0);
    if (m_bytes % 4 != 0)
        throw Error(Error::Kind::InvalidArgument,
                    "filling buffer '" + m_label +
                        "' with 32-bit words: its size is not a multiple of 4");
}

void DeviceBuffer::fill32(std::uint32_t value)
{
    checkWords32();
    if (m_bytes == 0) return;
    const detail::DriverApi& api = detail::driverUnchecked();
    m_context->makeCurrent();
    CU_CHECK(api.cuMemsetD32(m_ptr, value, m_bytes / 4), "filling buffer '" + m_label + "'");
}

void DeviceBuffer::fill32Async(std::uint32_t value, const Stream& stream)
{
    checkWords32();
    if (!stream.valid())
        throw Error(Error::Kind::InvalidArgument, "use of a moved-from wb::cuda::Stream");
    if (m_bytes == 0) return;
    const detail::DriverApi& api = detail::driverUnchecked();
    m_context->makeCurrent();
    CU_CHECK(api.cuMemsetD32Async(m_ptr, value, m_bytes / 4, stream.handle()),
             "filling buffer '" + m_label + "' on a stream");
}

} // namespace wb::cuda
