// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/common/LaunchConfig.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace wb {

/// Who wrote what: for every element of one output buffer, the last writer and how often it
/// was written, recorded by a backend's trace mode (CheckMode::Trace; the CPU emulator's) during
/// one launch. Plain data for the buffer viewer's trace overlay.
struct WriteTrace {
    static constexpr std::uint64_t kNoWriter = ~std::uint64_t{0};

    std::string buffer;
    std::vector<std::size_t> shape;
    std::size_t elementSize = 0;
    Dim3 grid, block; ///< of the traced launch
    /// (linear block index << 32) | linear thread index of the last store; kNoWriter if none.
    std::vector<std::uint64_t> lastWriter;
    std::vector<std::uint32_t> writes; ///< stores, atomics included
    std::vector<std::uint32_t> atomicWrites;
    std::vector<std::uint8_t> multipleWriters; ///< 1: stores came from more than one thread
    /// Elements whose bytes changed although no traced store reached them (the kernel wrote
    /// through a raw pointer, e.g. inside a __device__ function taking `float*`).
    std::size_t untraced = 0;
    std::vector<std::uint8_t> untracedMask;

    std::size_t count() const noexcept { return writes.size(); }
    bool written(std::size_t i) const noexcept { return writes[i] != 0 || untracedMask[i] != 0; }
    /// A race: more than one thread stored here, at least one of them non-atomically.
    bool isRace(std::size_t i) const noexcept
    {
        return multipleWriters[i] != 0 && writes[i] > atomicWrites[i];
    }
    /// Every store here was atomic.
    bool isAtomic(std::size_t i) const noexcept
    {
        return writes[i] != 0 && writes[i] == atomicWrites[i];
    }
    /// blockIdx and threadIdx of the last writer (meaningful when writes[i] > 0).
    Dim3 lastBlock(std::size_t i) const noexcept;
    Dim3 lastThread(std::size_t i) const noexcept;
    std::uint32_t lastBlockLinear(std::size_t i) const noexcept
    {
        return static_cast<std::uint32_t>(lastWriter[i] >> 32);
    }
    std::uint32_t lastThreadLinear(std::size_t i) const noexcept
    {
        return static_cast<std::uint32_t>(lastWriter[i]);
    }

    std::size_t races() const noexcept;
    std::size_t unwritten() const noexcept;
    std::size_t writtenMoreThanOnce() const noexcept;
};

} // namespace wb
