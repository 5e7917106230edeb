// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/common/LaunchConfig.h"

#include <cstdint>
#include <string>

namespace wb {

/// One side of a data race: which thread touched the memory, where in the kernel, and how.
struct RaceAccess {
    std::string file;     ///< "kernel.cu"; empty when the line is unknown
    int line = 0;         ///< 1-based; 0 when unknown
    Dim3 block{0, 0, 0};  ///< blockIdx
    Dim3 thread{0, 0, 0}; ///< threadIdx
    bool isWrite = false;
    bool isAtomic = false;
};

/// A data race found by the CPU emulator's race-check mode: two accesses by different threads
/// to the same shared or global address, at least one a write, not both atomic, not ordered by
/// a barrier (same block) and in the same launch (all blocks count as concurrent). One finding
/// per distinct pair of lines and kinds, with one example pair of accesses.
struct RaceFinding {
    std::string kernel;   ///< "block_sum"
    bool shared = false;  ///< shared memory (per block) rather than global memory
    std::string location; ///< "cache[17]", "out[0]": the buffer or __shared__ variable, element
    std::uint64_t address = 0;
    std::uint32_t accessSize = 0;
    RaceAccess first;              ///< the earlier access of the example
    RaceAccess second;             ///< the later one
    std::uint64_t occurrences = 1; ///< conflicting access pairs seen with this pair of lines
};

/// "write-write", "read-write" or "write-read" for the example's kinds, in order.
inline std::string raceKindName(const RaceFinding& f)
{
    return std::string(f.first.isWrite ? "write" : "read") + "-" +
           (f.second.isWrite ? "write" : "read");
}

} // namespace wb
