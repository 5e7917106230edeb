// SPDX-License-Identifier: GPL-3.0-or-later
// cooperative_groups::memcpy_async / wait / wait_prior for Warpbench's CPU emulator: the group's
// threads copy the bytes between them (each thread a strided share, as a group of GPU threads
// submits its copies), so the copy is done when memcpy_async returns in every thread; wait()
// is the group's sync(), which orders those writes for the other threads of the group.
#pragma once

#include "cooperative_groups.h"

#include <cstddef>

#ifndef WB_CUDA_ALIGNED_SIZE_T
#define WB_CUDA_ALIGNED_SIZE_T
namespace cuda {
/// A byte count whose alignment the caller promises (<cuda/barrier>'s cuda::aligned_size_t).
template <std::size_t Alignment> struct aligned_size_t {
    static constexpr std::size_t align = Alignment;
    std::size_t value;
    constexpr explicit aligned_size_t(std::size_t v)
        : value(v)
    {
    }
    constexpr operator std::size_t() const { return value; }
};
} // namespace cuda
#endif

namespace cooperative_groups {

namespace details {
template <typename Group>
void groupCopy(const Group& g, void* dst, const void* src, std::size_t bytes)
{
    const auto rank = static_cast<std::size_t>(g.thread_rank());
    const auto size = static_cast<std::size_t>(g.num_threads());
    const auto d = reinterpret_cast<std::uintptr_t>(dst), s = reinterpret_cast<std::uintptr_t>(src);
    if (((d | s | bytes) & 3u) == 0) {
        auto* dw = static_cast<unsigned*>(dst);
        const auto* sw = static_cast<const unsigned*>(src);
        for (std::size_t i = rank; i < bytes / 4; i += size)
            dw[i] = sw[i];
        return;
    }
    auto* db = static_cast<unsigned char*>(dst);
    const auto* sb = static_cast<const unsigned char*>(src);
    for (std::size_t i = rank; i < bytes; i += size)
        db[i] = sb[i];
}
} // namespace details

/// Copies `bytes` bytes (a byte count or cuda::aligned_size_t) from src to dst with the group.
template <typename Group, typename T, typename SizeT>
void memcpy_async(const Group& g, T* dst, const T* src, const SizeT& bytes)
{
    details::groupCopy(g, static_cast<void*>(dst), static_cast<const void*>(src),
                       static_cast<std::size_t>(bytes));
}
/// Element counts: min(dstCount, srcCount) elements of T.
template <typename Group, typename T>
void memcpy_async(const Group& g, T* dst, std::size_t dstCount, const T* src, std::size_t srcCount)
{
    details::groupCopy(g, static_cast<void*>(dst), static_cast<const void*>(src),
                       (dstCount < srcCount ? dstCount : srcCount) * sizeof(T));
}

template <typename Group>
void wait(const Group& g, const char* file = __builtin_FILE(), unsigned line = __builtin_LINE())
{
    g.sync(file, line);
}
template <unsigned int Stage, typename Group>
void wait_prior(const Group& g, const char* file = __builtin_FILE(),
                unsigned line = __builtin_LINE())
{
    g.sync(file, line);
}

} // namespace cooperative_groups
