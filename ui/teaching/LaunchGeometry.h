// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/common/LaunchConfig.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace wb::ui {

/// Which part of a 1-D or 2-D buffer a launch covers, under the usual one-thread-per-element
/// mapping: column = blockIdx.x * blockDim.x + threadIdx.x, row = blockIdx.y * blockDim.y +
/// threadIdx.y (1-D: index = the column). The picture a teacher draws on the board, as numbers.
struct LaunchGeometry {
    std::uint64_t rows = 1, cols = 1;             ///< the data shape (1-D: rows = 1)
    std::uint64_t threadRows = 1, threadCols = 1; ///< grid * block in y and x
    std::uint64_t elements = 0;                   ///< rows * cols
    std::uint64_t covered = 0;                    ///< elements some thread maps to
    std::uint64_t uncovered = 0;                  ///< elements no thread maps to (the red tail)
    std::uint64_t threads = 0;                    ///< every thread of the grid (z included)
    std::uint64_t idleThreads = 0; ///< threads outside the data (hatched over-coverage)
    unsigned uncoveredCols = 0, uncoveredRows = 0; ///< the uncovered band's width and height
    bool twoD = false;

    /// `shape` is the buffer's (1–3 dimensions; 3-D uses its last two as rows and columns).
    static LaunchGeometry compute(const LaunchConfig& launch,
                                  const std::vector<std::size_t>& shape);

    /// Rectangle [firstRow, endRow) × [firstCol, endCol) of block (bx, by) in element units,
    /// clipped to the data (empty when the block lies wholly outside it).
    struct Tile {
        std::uint64_t firstRow, endRow, firstCol, endCol;
    };
    static Tile tileOf(const LaunchConfig& launch, const LaunchGeometry& g, unsigned bx,
                       unsigned by);

    /// The block and thread the usual mapping gives element (row, col) — blockIdx.x =
    /// col / blockDim.x, threadIdx.x = col % blockDim.x, the same in y with the row (1-D: row
    /// 0, y = 0) — or nothing when the element is outside the data or no block of the grid
    /// reaches it.
    struct Thread {
        Dim3 block, thread;
    };
    static std::optional<Thread> threadOf(const LaunchConfig& launch, const LaunchGeometry& g,
                                          std::uint64_t row, std::uint64_t col);
};

} // namespace wb::ui
