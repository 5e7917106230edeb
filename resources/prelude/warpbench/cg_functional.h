// SPDX-License-Identifier: GPL-3.0-or-later
// The operators of cooperative_groups::reduce and the scans (CUDA's
// cooperative_groups/details/functional.h), for reduce.h and scan.h of the CPU emulator.
#pragma once

#include "cooperative_groups.h"

#include <type_traits>

namespace cooperative_groups {

template <typename T> struct plus {
    T operator()(T a, T b) const { return a + b; }
};
template <typename T> struct less {
    T operator()(T a, T b) const { return (b < a) ? b : a; }
};
template <typename T> struct greater {
    T operator()(T a, T b) const { return (a < b) ? b : a; }
};
template <typename T> struct bit_and {
    T operator()(T a, T b) const { return a & b; }
};
template <typename T> struct bit_or {
    T operator()(T a, T b) const { return a | b; }
};
template <typename T> struct bit_xor {
    T operator()(T a, T b) const { return a ^ b; }
};

namespace details {
template <typename G> struct IsTile : std::false_type {
};
template <unsigned int S, typename P> struct IsTile<thread_block_tile<S, P>> : std::true_type {
};
template <typename G>
inline constexpr bool isWarpGroup = IsTile<G>::value || std::is_same_v<G, coalesced_group>;
/// A tile of more than one warp (its collectives go through scratch memory).
template <typename G> constexpr bool isMultiWarpTile()
{
    if constexpr (IsTile<G>::value)
        return G::num_threads() > 32;
    else
        return false;
}
/// op over the values of ranks [0, end) in rank order (end >= 1).
template <typename R, typename Op, typename Read> R foldRanks(Op& op, Read& read, unsigned end)
{
    R acc = read(0);
    for (unsigned i = 1; i < end; ++i)
        acc = op(acc, read(i));
    return acc;
}
} // namespace details

} // namespace cooperative_groups
