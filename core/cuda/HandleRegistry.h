// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>

namespace wb::cuda {

/// The kinds of driver resource Warpbench owns.
enum class HandleKind {
    Context,
    DeviceBuffer, ///< in use (pooled or not)
    PinnedHostBuffer,
    Module,
    Stream,
    Event,
    PooledMemory, ///< idle blocks kept by the device pool for reuse (DevicePool.h)
    Count
};

/// "context", "device buffer", ...
const char* handleKindName(HandleKind kind) noexcept;

/// Live driver resources per kind (count and bytes), for leak checks in tests and for the
/// resource panel. Every handle registers on creation and unregisters on release; lock-free.
class HandleRegistry {
public:
    struct Usage {
        std::int64_t count = 0;
        std::int64_t bytes = 0;
    };

    static HandleRegistry& instance() noexcept;

    void added(HandleKind kind, std::size_t bytes = 0) noexcept;
    void removed(HandleKind kind, std::size_t bytes = 0) noexcept;

    Usage usage(HandleKind kind) const noexcept;
    /// Sum of the counts over every kind; 0 when everything was released.
    std::int64_t totalCount() const noexcept;

private:
    HandleRegistry() = default;
    static constexpr std::size_t kKinds = static_cast<std::size_t>(HandleKind::Count);
    std::array<std::atomic<std::int64_t>, kKinds> m_counts{};
    std::array<std::atomic<std::int64_t>, kKinds> m_bytes{};
};

} // namespace wb::cuda
