// SPDX-License-Identifier: GPL-3.0-or-later
// cooperative_groups::reduce for Warpbench's CPU emulator (as in CUDA, only with this header).
#pragma once

#include "cooperative_groups.h"
#include "warpbench/cg_functional.h"

#define WB_CG_WHERE const char *file = __builtin_FILE(), unsigned line = __builtin_LINE()

namespace cooperative_groups {

/// The reduction of every thread's value over a tile or coalesced group, in every thread.
template <typename Group, typename T, typename Op>
auto reduce(const Group& g, T&& val, Op&& op, WB_CG_WHERE) -> std::decay_t<decltype(op(val, val))>
{
    static_assert(details::isWarpGroup<std::decay_t<Group>>,
                  "cooperative_groups::reduce takes a thread_block_tile or a coalesced_group");
    using R = std::decay_t<decltype(op(val, val))>;
    using G = std::decay_t<Group>;
    R v = val;
    if constexpr (details::isMultiWarpTile<G>()) {
        return details::multiWarpGather(
            G::num_threads(), v,
            [&op](unsigned, auto read) {
                return details::foldRanks<R>(op, read, G::num_threads());
            },
            file, line);
    } else if constexpr (details::IsTile<G>::value) {
        for (unsigned m = g.size() / 2; m > 0; m >>= 1)
            v = op(v, g.shfl_xor(v, m, file, line));
        return v;
    } else {
        const unsigned n = g.size(), rank = g.thread_rank();
        for (unsigned d = 1; d < n; d <<= 1) {
            const R other = g.shfl_down(v, d, file, line);
            if (rank + d < n) v = op(v, other);
        }
        return g.shfl(v, 0, file, line);
    }
}

} // namespace cooperative_groups

#undef WB_CG_WHERE
