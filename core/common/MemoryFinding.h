// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/common/LaunchConfig.h"

#include <cstdint>
#include <string>

namespace wb {

/// One memory error found in a kernel run: by the CPU emulator's bounds-checked mode
/// (AddressSanitizer/UBSan) or by a compute-sanitizer report parsed on the GPU.
struct MemoryFinding {
    enum class Kind {
        OutOfBounds, ///< read or write outside an allocation (heap/global/shared/stack)
        Misaligned,  ///< access at an address not aligned for its type
        UseAfterFree,
        InvalidAddress, ///< wild pointer, null, or an address no allocation covers
        Other,
    };
    Kind kind = Kind::Other;
    std::string kernel;   ///< "stencil"
    std::string file;     ///< "kernel.cu"; empty when unknown
    int line = 0;         ///< 1-based; 0 when unknown
    Dim3 block{0, 0, 0};  ///< blockIdx of the offending thread
    Dim3 thread{0, 0, 0}; ///< threadIdx of the offending thread
    bool located = false; ///< block/thread are known
    std::uint64_t address = 0;
    bool isWrite = false;
    std::uint32_t accessSize = 0;
    std::string
        message; ///< one line for users: "write of 4 bytes, 0 bytes past a 4096-byte buffer"
};

/// "out of bounds", "misaligned", ... as shown to users.
inline const char* memoryFindingKindName(MemoryFinding::Kind kind) noexcept
{
    switch (kind) {
    case MemoryFinding::Kind::OutOfBounds:
        return "out of bounds";
    case MemoryFinding::Kind::Misaligned:
        return "misaligned";
    case MemoryFinding::Kind::UseAfterFree:
        return "use after free";
    case MemoryFinding::Kind::InvalidAddress:
        return "invalid address";
    case MemoryFinding::Kind::Other:
        return "memory error";
    }
    return "memory error";
}

} // namespace wb
