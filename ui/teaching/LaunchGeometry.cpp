// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/teaching/LaunchGeometry.h"

#include <algorithm>

namespace wb::ui {

LaunchGeometry LaunchGeometry::compute(const LaunchConfig& launch,
                                       const std::vector<std::size_t>& shape)
{
    LaunchGeometry g;
    g.twoD = shape.size() >= 2;
    g.cols = shape.empty() ? 1 : shape.back();
    g.rows = g.twoD ? shape[shape.size() - 2] : 1;
    g.elements = g.rows * g.cols;
    g.threadCols = std::uint64_t{launch.grid.x} * launch.block.x;
    g.threadRows = g.twoD ? std::uint64_t{launch.grid.y} * launch.block.y : 1;
    g.threads = launch.grid.volume() * launch.block.volume();
    const std::uint64_t coveredCols = std::min(g.cols, g.threadCols);
    const std::uint64_t coveredRows = std::min(g.rows, g.threadRows);
    g.covered = coveredCols * coveredRows;
    g.uncovered = g.elements - g.covered;
    g.uncoveredCols = static_cast<unsigned>(g.cols - coveredCols);
    g.uncoveredRows = static_cast<unsigned>(g.rows - coveredRows);
    // Threads mapping into the data: one per covered element for the (x, y) plane; in 1-D the
    // y and z dimensions of grid and block repeat the same x indices.
    const std::uint64_t repeats =
        g.twoD ? std::uint64_t{launch.grid.z} * launch.block.z
               : std::uint64_t{launch.grid.y} * launch.grid.z * launch.block.y * launch.block.z;
    g.idleThreads = g.threads - std::min(g.threads, g.covered * repeats);
    return g;
}

LaunchGeometry::Tile LaunchGeometry::tileOf(const LaunchConfig& launch, const LaunchGeometry& g,
                                            unsigned bx, unsigned by)
{
    Tile t{};
    t.firstCol = std::min(g.cols, std::uint64_t{bx} * launch.block.x);
    t.endCol = std::min(g.cols, std::uint64_t{bx + 1} * launch.block.x);
    const std::uint64_t bh = g.twoD ? launch.block.y : 1;
    t.firstRow = std::min(g.rows, std::uint64_t{by} * bh);
    t.endRow = std::min(g.rows, std::uint64_t{by + 1} * bh);
    return t;
}

std::optional<LaunchGeometry::Thread> LaunchGeometry::threadOf(const LaunchConfig& launch,
                                                               const LaunchGeometry& g,
                                                               std::uint64_t row, std::uint64_t col)
{
    if (row >= g.rows || col >= g.cols || launch.block.x == 0 || launch.block.y == 0)
        return std::nullopt;
    const std::uint64_t bh = g.twoD ? launch.block.y : 1;
    const std::uint64_t bx = col / launch.block.x, by = row / bh;
    if (bx >= launch.grid.x || by >= (g.twoD ? launch.grid.y : 1u)) return std::nullopt;
    Thread t;
    t.block = {static_cast<unsigned>(bx), static_cast<unsigned>(by), 0};
    t.thread = {static_cast<unsigned>(col % launch.block.x), static_cast<unsigned>(row % bh), 0};
    return t;
}

} // namespace wb::ui
