// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/common/LaunchConfig.h"

#include <cstdint>
#include <string>
#include <vector>

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

/// Words of one buffer or `__shared__` variable that more threads touched between two
/// synchronisations than the race detector compares (it keeps two reads and two writes per
/// 4-byte word): a race with an access it no longer compared may have gone unreported.
struct RaceCrowding {
    std::string location; ///< "data", "cache": the buffer or __shared__ variable
    bool shared = false;
    std::uint64_t words = 0;
};

/// "12 words (shared cache: 8, data: 4) had more accessors than the race check compares; races
/// among them may be missed", or empty when `crowding` is.
inline std::string raceCrowdingText(const std::vector<RaceCrowding>& crowding)
{
    std::uint64_t total = 0;
    std::string parts;
    for (const RaceCrowding& c : crowding) {
        total += c.words;
        if (!parts.empty()) parts += ", ";
        parts += (c.shared ? "shared " : "") + c.location + ": " + std::to_string(c.words);
    }
    if (!total) return {};
    return std::to_string(total) + (total == 1 ? " word (" : " words (") + parts + ") had " +
           "more accessors than the race check compares (2 reads and 2 writes per word); races "
           "among them may be missed";
}

/// "write-write", "read-write" or "write-read" for the example's kinds, in order.
inline std::string raceKindName(const RaceFinding& f)
{
    return std::string(f.first.isWrite ? "write" : "read") + "-" +
           (f.second.isWrite ? "write" : "read");
}

} // namespace wb
