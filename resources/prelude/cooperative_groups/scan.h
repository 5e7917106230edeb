// SPDX-License-Identifier: GPL-3.0-or-later
// cooperative_groups::inclusive_scan / exclusive_scan for Warpbench's CPU emulator (as in CUDA,
// only with this header).
#pragma once

#include "cooperative_groups.h"
#include "warpbench/cg_functional.h"

#include <utility>

#define WB_CG_WHERE const char *file = __builtin_FILE(), unsigned line = __builtin_LINE()

namespace cooperative_groups {

/// Inclusive prefix over the ranks of a tile or coalesced group.
template <typename Group, typename T, typename Op>
auto inclusive_scan(const Group& g, T&& val, Op&& op, WB_CG_WHERE)
    -> std::decay_t<decltype(op(val, val))>
{
    static_assert(details::isWarpGroup<std::decay_t<Group>>,
                  "cooperative_groups::inclusive_scan takes a thread_block_tile or a "
                  "coalesced_group");
    using R = std::decay_t<decltype(op(val, val))>;
    using G = std::decay_t<Group>;
    R v = val;
    if constexpr (details::isMultiWarpTile<G>()) {
        return details::multiWarpGather(
            G::num_threads(), v,
            [&op](unsigned rank, auto read) { return details::foldRanks<R>(op, read, rank + 1); },
            file, line);
    } else {
        const unsigned rank = g.thread_rank();
        for (unsigned d = 1; d < g.size(); d <<= 1) {
            const R other = g.shfl_up(v, d, file, line);
            if (rank >= d) v = op(v, other);
        }
        return v;
    }
}
template <typename Group, typename T>
std::decay_t<T> inclusive_scan(const Group& g, T&& val, WB_CG_WHERE)
{
    return inclusive_scan(g, std::forward<T>(val), plus<std::decay_t<T>>(), file, line);
}

/// Exclusive prefix: rank 0 gets a value-initialised T.
template <typename Group, typename T, typename Op>
auto exclusive_scan(const Group& g, T&& val, Op&& op, WB_CG_WHERE)
    -> std::decay_t<decltype(op(val, val))>
{
    using R = std::decay_t<decltype(op(val, val))>;
    using G = std::decay_t<Group>;
    if constexpr (details::isMultiWarpTile<G>()) {
        const R v = val;
        return details::multiWarpGather(
            G::num_threads(), v,
            [&op](unsigned rank, auto read) {
                return rank == 0 ? R{} : details::foldRanks<R>(op, read, rank);
            },
            file, line);
    } else {
        const R incl = inclusive_scan(g, std::forward<T>(val), std::forward<Op>(op), file, line);
        const R prev = g.shfl_up(incl, 1, file, line);
        return g.thread_rank() == 0 ? R{} : prev;
    }
}
template <typename Group, typename T>
std::decay_t<T> exclusive_scan(const Group& g, T&& val, WB_CG_WHERE)
{
    return exclusive_scan(g, std::forward<T>(val), plus<std::decay_t<T>>(), file, line);
}

} // namespace cooperative_groups

#undef WB_CG_WHERE
