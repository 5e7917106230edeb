// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/cuda/HandleRegistry.h"

namespace wb::cuda {

const char* handleKindName(HandleKind kind) noexcept
{
    switch (kind) {
    case HandleKind::Context:
        return "context";
    case HandleKind::DeviceBuffer:
        return "device buffer";
    case HandleKind::PinnedHostBuffer:
        return "pinned host buffer";
    case HandleKind::Module:
        return "module";
    case HandleKind::Stream:
        return "stream";
    case HandleKind::Event:
        return "event";
    case HandleKind::PooledMemory:
        return "pooled device memory (idle)";
    case HandleKind::Count:
        break;
    }
    return "handle";
}

HandleRegistry& HandleRegistry::instance() noexcept
{
    // Never destroyed: handles may be released during static destruction.
    static HandleRegistry* registry = new HandleRegistry;
    return *registry;
}

void HandleRegistry::added(HandleKind kind, std::size_t bytes) noexcept
{
    const auto i = static_cast<std::size_t>(kind);
    m_counts[i].fetch_add(1, std::memory_order_relaxed);
    m_bytes[i].fetch_add(static_cast<std::int64_t>(bytes), std::memory_order_relaxed);
}

void HandleRegistry::removed(HandleKind kind, std::size_t bytes) noexcept
{
    const auto i = static_cast<std::size_t>(kind);
    m_counts[i].fetch_sub(1, std::memory_order_relaxed);
    m_bytes[i].fetch_sub(static_cast<std::int64_t>(bytes), std::memory_order_relaxed);
}

HandleRegistry::Usage HandleRegistry::usage(HandleKind kind) const noexcept
{
    const auto i = static_cast<std::size_t>(kind);
    return {m_counts[i].load(std::memory_order_relaxed),
            m_bytes[i].load(std::memory_order_relaxed)};
}

std::int64_t HandleRegistry::totalCount() const noexcept
{
    std::int64_t total = 0;
    for (const auto& c : m_counts)
        total += c.load(std::memory_order_relaxed);
    return total;
}

} // namespace wb::cuda
