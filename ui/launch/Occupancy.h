// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

#include <optional>

namespace wb::ui {

/// Per-SM limits of a compute capability (the CUDA occupancy calculator's table).
struct SmLimits {
    int major = 9, minor = 0;
    int maxThreadsPerBlock = 1024;
    int maxWarpsPerSm = 64;
    int maxBlocksPerSm = 32;
    int registersPerSm = 65536;
    int maxRegistersPerThread = 255;
    int registerAllocationUnit = 256;  ///< registers, allocated per warp
    int sharedPerSm = 233472;          ///< bytes, largest carve-out
    int maxSharedPerBlock = 232448;    ///< bytes, opt-in maximum
    int sharedAllocationUnit = 128;    ///< bytes
    int reservedSharedPerBlock = 1024; ///< bytes the system keeps per block (cc ≥ 8.0)

    /// Limits for "sm_90", "compute_86", "90", ...; nullopt for unknown architectures.
    static std::optional<SmLimits> forArch(const QString& arch);
};

/// Theoretical occupancy of one kernel launch, by the standard formula: blocks per SM are
/// limited by warps (threads), the block-count cap, registers and shared memory; the smallest
/// limit wins.
struct Occupancy {
    enum class Limit { None, Threads, Blocks, Registers, SharedMemory, Invalid };

    int activeBlocksPerSm = 0;
    int activeWarpsPerSm = 0;
    double occupancy = 0; ///< active warps / max warps, 0..1
    Limit limitedBy = Limit::None;
    int blocksByWarps = 0, blocksByRegisters = 0, blocksByShared = 0, blocksByCap = 0;
    QString problem; ///< why the launch cannot run at all (Limit::Invalid)

    /// registers: per thread (0 = unknown, ignored); shared: static + dynamic bytes per block.
    static Occupancy compute(const SmLimits& sm, int threadsPerBlock, int registersPerThread,
                             int sharedBytesPerBlock);

    static QString limitName(Limit limit);
    /// "62 % · 20 blocks/SM · limited by registers".
    QString summary() const;
};

} // namespace wb::ui
