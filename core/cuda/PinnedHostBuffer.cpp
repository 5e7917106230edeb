// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/cuda/PinnedHostBuffer.h"

#include "core/cuda/CudaError.h"
#include "core/cuda/HandleRegistry.h"
#include "core/cuda/detail/DriverApi.h"

#include <utility>

namespace wb::cuda {

PinnedHostBuffer::PinnedHostBuffer(const Context& context, std::size_t bytes,
                                   std::string_view label)
    : m_label(label)
{
    const detail::DriverApi& api = detail::driver();
    const detail::ContextRef& state = context.state();
    state->makeCurrent();
    void* data = nullptr;
    if (bytes > 0)
        CU_CHECK(api.cuMemHostAlloc(&data, bytes, CU_MEMHOSTALLOC_PORTABLE),
                 "allocating pinned host buffer '" + m_label + "' (" + detail::formatBytes(bytes) +
                     ")");
    m_context = state;
    m_data = data;
    m_bytes = bytes;
    HandleRegistry::instance().added(HandleKind::PinnedHostBuffer, bytes);
}

PinnedHostBuffer::PinnedHostBuffer(PinnedHostBuffer&& other) noexcept
    : m_context(std::move(other.m_context))
    , m_data(std::exchange(other.m_data, nullptr))
    , m_bytes(std::exchange(other.m_bytes, 0))
    , m_label(std::move(other.m_label))
{
}

PinnedHostBuffer& PinnedHostBuffer::operator=(PinnedHostBuffer&& other) noexcept
{
    if (this != &other) {
        release();
        m_context = std::move(other.m_context);
        m_data = std::exchange(other.m_data, nullptr);
        m_bytes = std::exchange(other.m_bytes, 0);
        m_label = std::move(other.m_label);
    }
    return *this;
}

PinnedHostBuffer::~PinnedHostBuffer()
{
    release();
}

void PinnedHostBuffer::release() noexcept
{
    if (!m_context) return;
    if (m_data) {
        const detail::DriverApi& api = detail::driverUnchecked();
        m_context->makeCurrentNoThrow();
        detail::reportCudaFailure(api.cuMemFreeHost(m_data), "cuMemFreeHost",
                                  "freeing a pinned host buffer");
    }
    HandleRegistry::instance().removed(HandleKind::PinnedHostBuffer, m_bytes);
    m_data = nullptr;
    m_bytes = 0;
    m_context.reset();
}

} // namespace wb::cuda
