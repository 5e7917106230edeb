// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/cuda/Context.h"

#include <cstddef>
#include <span>
#include <string>
#include <string_view>

namespace wb::cuda {

/// Page-locked host memory (cuMemHostAlloc, portable), for fast and asynchronous copies.
/// Keeps its context alive. Move-only.
class PinnedHostBuffer {
public:
    PinnedHostBuffer() = default;
    PinnedHostBuffer(const Context& context, std::size_t bytes, std::string_view label = "staging");
    PinnedHostBuffer(PinnedHostBuffer&& other) noexcept;
    PinnedHostBuffer& operator=(PinnedHostBuffer&& other) noexcept;
    PinnedHostBuffer(const PinnedHostBuffer&) = delete;
    PinnedHostBuffer& operator=(const PinnedHostBuffer&) = delete;
    ~PinnedHostBuffer();

    bool valid() const noexcept { return m_context != nullptr; }
    void* data() const noexcept { return m_data; }
    std::size_t size() const noexcept { return m_bytes; }
    const std::string& label() const noexcept { return m_label; }
    /// The memory as elements of T (size() / sizeof(T) of them).
    template <typename T> std::span<T> as() const noexcept
    {
        return {static_cast<T*>(m_data), m_bytes / sizeof(T)};
    }

private:
    void release() noexcept;
    detail::ContextRef m_context;
    void* m_data = nullptr;
    std::size_t m_bytes = 0;
    std::string m_label;
};

} // namespace wb::cuda
