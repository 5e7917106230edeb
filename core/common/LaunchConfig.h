// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>

namespace wb {

/// CUDA's dim3 as a value type.
struct Dim3 {
    unsigned x = 1, y = 1, z = 1;
    constexpr std::uint64_t volume() const noexcept
    {
        return std::uint64_t{x} * std::uint64_t{y} * std::uint64_t{z};
    }
    friend constexpr bool operator==(const Dim3&, const Dim3&) = default;
};

/// The limits CUDA puts on every launch (compute capability 5.0 and later). The session runner
/// checks a project's launches against them, naming the field; the CPU emulator keeps the same
/// ones, so that a session valid on one backend is valid on the other.
struct LaunchLimits {
    static constexpr std::uint64_t kMaxGrid[3] = {0x7fffffffu, 65535, 65535};
    static constexpr std::uint64_t kMaxBlock[3] = {1024, 1024, 64};
    static constexpr std::uint64_t kMaxBlockThreads = 1024;
};

/// How a kernel is launched. cluster = {0,0,0} means no thread-block cluster.
struct LaunchConfig {
    Dim3 grid;
    Dim3 block;
    unsigned sharedBytes = 0; ///< dynamic shared memory per block
    Dim3 cluster{0, 0, 0};    ///< Hopper thread-block clusters (cuLaunchKernelEx)
    /// Every block resident at once, so that cooperative_groups::this_grid().sync() works
    /// (cuLaunchCooperativeKernel; refused when the grid cannot be resident).
    bool cooperative = false;

    bool hasCluster() const noexcept { return cluster.x != 0; }
    friend constexpr bool operator==(const LaunchConfig&, const LaunchConfig&) = default;
};

} // namespace wb
