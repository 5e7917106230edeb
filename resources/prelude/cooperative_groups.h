// SPDX-License-Identifier: GPL-3.0-or-later
// Cooperative groups for Warpbench's CPU emulator: CUDA's <cooperative_groups.h> API on top of
// the emulator's barriers and warp operations (warpbench/cuda_prelude.h). A group's sync is the
// barrier it stands for (__syncthreads for a block, __syncwarp over the group's lanes for a tile
// or coalesced group, a grid-wide barrier for this_grid() in a cooperative launch); its shuffles
// and votes are warp operations over the group's lanes. Calls that wait take the caller's file
// and line, so stalls and the debugger name the user's line. As in CUDA, cg::reduce, the scans
// and memcpy_async come with cooperative_groups/reduce.h, scan.h and memcpy_async.h. See
// docs/cpu-emulator.md.
#pragma once

#include "warpbench/cuda_prelude.h"

#include <cstddef>
#include <cstring>
#include <type_traits>
#include <utility>

#define WB_CG_WHERE const char *file = __builtin_FILE(), unsigned line = __builtin_LINE()

namespace cooperative_groups {

namespace details {

inline unsigned laneId()
{
    return (threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z)) % 32u;
}
inline unsigned lanemaskLt()
{
    return (1u << laneId()) - 1u;
}
inline unsigned blockRank()
{
    return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
}
inline unsigned blockThreads()
{
    return blockDim.x * blockDim.y * blockDim.z;
}
/// The lane of the `rank`th set bit of `mask`.
inline unsigned laneOfRank(unsigned mask, unsigned rank)
{
    for (unsigned l = 0; l < 32; ++l)
        if (mask & (1u << l)) {
            if (rank == 0) return l;
            --rank;
        }
    return laneId();
}
/// The bits of `lanes` at the lanes of `mask`, packed by rank (bit i: the lane of rank i).
inline unsigned packLanes(unsigned mask, unsigned lanes)
{
    unsigned out = 0, bit = 0;
    for (unsigned l = 0; l < 32; ++l)
        if (mask & (1u << l)) {
            if (lanes & (1u << l)) out |= 1u << bit;
            ++bit;
        }
    return out;
}

/// A warp shuffle of any trivially copyable value (moved 8 bytes at a time, as CUDA moves
/// larger types in 32-bit pieces).
template <typename T>
T shuffle(int op, unsigned mask, const T& var, int param, int width, const char* what,
          const char* file, unsigned line)
{
    static_assert(std::is_trivially_copyable_v<T>, "shuffled values must be trivially copyable");
    constexpr std::size_t n = (sizeof(T) + 7) / 8;
    unsigned long long in[n] = {}, out[n] = {};
    std::memcpy(in, &var, sizeof(T));
    for (std::size_t i = 0; i < n; ++i)
        out[i] = wbcpu::warpOp(op, mask, in[i], param, width, what, file, line);
    T r = var;
    std::memcpy(static_cast<void*>(&r), out, sizeof(T));
    return r;
}

inline unsigned long long vote(int op, unsigned mask, int predicate, const char* what,
                               const char* file, unsigned line)
{
    return wbcpu::warpOp(op, mask, predicate != 0, 0, 32, what, file, line);
}

template <typename T>
unsigned match(int op, unsigned mask, const T& value, const char* what, const char* file,
               unsigned line)
{
    static_assert(sizeof(T) <= 8 && std::is_trivially_copyable_v<T>,
                  "match_any/match_all compare values of at most 8 bytes");
    return static_cast<unsigned>(
        wbcpu::warpOp(op, mask, wbcpu::toBits(value), 0, 32, what, file, line));
}

struct GroupAccess;

/// sync() of the tile of `size` (64–512) threads that holds this thread: a barrier of its threads.
inline void multiWarpSync(unsigned size, const char* file, unsigned line)
{
    const unsigned first = blockRank() & ~(size - 1u);
    const wbcpu::Parked me = wbcpu::park();
    me.st->rt->blockSync(me.st, wbcpu::abi::SyncTile, static_cast<int>(first | (size << 16)), file,
                         line);
    wbcpu::unpark(me);
}

/// Collectives of tiles larger than a warp exchange values through per-block scratch memory
/// (one slot of 16 bytes per thread; thread_local = per block, like __shared__): every thread
/// writes its slot, the tile syncs, every thread reads the tile's slots, the tile syncs again.
alignas(16) inline thread_local unsigned char multiWarpScratch[1024 * 16];
template <typename T> T* scratchSlot(unsigned thread)
{
    static_assert(sizeof(T) <= 16 && std::is_trivially_copyable_v<T>,
                  "collectives of tiles larger than 32 threads move values of at most 16 bytes");
    return reinterpret_cast<T*>(multiWarpScratch + 16u * thread);
}
/// fold(first, count, read) over the values every thread of the tile gave, in rank order.
template <typename T, typename Fold>
auto multiWarpGather(unsigned size, const T& value, Fold fold, const char* file, unsigned line)
{
    const unsigned first = blockRank() & ~(size - 1u);
    std::memcpy(static_cast<void*>(scratchSlot<T>(blockRank())), &value, sizeof(T));
    multiWarpSync(size, file, line);
    const auto read = [first](unsigned rank) {
        T v;
        std::memcpy(static_cast<void*>(&v), scratchSlot<T>(first + rank), sizeof(T));
        return v;
    };
    const auto result = fold(blockRank() - first, read);
    multiWarpSync(size, file, line);
    return result;
}

} // namespace details

/// Any group, by value (what tiled_partition(g, n) returns): its kind says what sync() is.
class thread_group {
public:
    unsigned long long size() const { return num_threads(); }
    unsigned long long num_threads() const
    {
        switch (m_kind) {
        case Kind::Block:
            return details::blockThreads();
        case Kind::Grid:
            return static_cast<unsigned long long>(gridDim.x) * gridDim.y * gridDim.z *
                   details::blockThreads();
        case Kind::Tile:
            return m_size;
        case Kind::Coalesced:
            return static_cast<unsigned>(__builtin_popcount(m_mask));
        }
        return 1;
    }
    unsigned long long thread_rank() const
    {
        switch (m_kind) {
        case Kind::Block:
            return details::blockRank();
        case Kind::Grid:
            return (blockIdx.x +
                    static_cast<unsigned long long>(gridDim.x) *
                        (blockIdx.y + static_cast<unsigned long long>(gridDim.y) * blockIdx.z)) *
                       details::blockThreads() +
                   details::blockRank();
        case Kind::Tile:
            if (m_size > 32) return details::blockRank() & (m_size - 1u);
            [[fallthrough]];
        case Kind::Coalesced:
            return static_cast<unsigned>(__builtin_popcount(m_mask & details::lanemaskLt()));
        }
        return 0;
    }
    void sync(WB_CG_WHERE) const
    {
        switch (m_kind) {
        case Kind::Block:
            __syncthreads(file, line);
            return;
        case Kind::Grid:
            gridSync(file, line);
            return;
        case Kind::Tile:
            if (m_size > 32) {
                details::multiWarpSync(m_size, file, line);
                return;
            }
            [[fallthrough]];
        case Kind::Coalesced:
            wbcpu::warpOp(wbcpu::abi::WarpSync, m_mask, 0, 0, 32, "group sync()", file, line);
            return;
        }
    }
    unsigned int get_type() const { return static_cast<unsigned>(m_kind); }
    bool is_valid() const { return true; }
    unsigned int meta_group_rank() const { return m_metaRank; }
    unsigned int meta_group_size() const { return m_metaSize; }

protected:
    friend struct details::GroupAccess;
    enum class Kind : unsigned char { Grid = 1, Block = 3, Tile = 4, Coalesced = 5 };
    thread_group(Kind kind, unsigned mask = 0, unsigned size = 0, unsigned metaRank = 0,
                 unsigned metaSize = 1)
        : m_kind(kind)
        , m_mask(mask)
        , m_size(size)
        , m_metaRank(metaRank)
        , m_metaSize(metaSize)
    {
    }
    static void gridSync(const char* file, unsigned line)
    {
        const wbcpu::Parked me = wbcpu::park();
        me.st->rt->blockSync(me.st, wbcpu::abi::SyncGrid, 0, file, line);
        wbcpu::unpark(me);
    }

    Kind m_kind;
    unsigned m_mask;     ///< tile and coalesced groups: their lanes in the warp
    unsigned m_size;     ///< tiles: the tile size
    unsigned m_metaRank; ///< tiles: which tile of the parent
    unsigned m_metaSize;
};

namespace details {
struct GroupAccess {
    static unsigned mask(const thread_group& g) { return g.m_mask; }
    static bool isBlock(const thread_group& g) { return g.m_kind == thread_group::Kind::Block; }
};
} // namespace details

/// The threads of the block (this_thread_block()).
class thread_block : public thread_group {
public:
    thread_block()
        : thread_group(Kind::Block)
    {
    }
    static void sync(WB_CG_WHERE) { __syncthreads(file, line); }
    static unsigned int thread_rank() { return details::blockRank(); }
    static unsigned int size() { return details::blockThreads(); }
    static unsigned int num_threads() { return details::blockThreads(); }
    static dim3 group_index() { return dim3(blockIdx.x, blockIdx.y, blockIdx.z); }
    static dim3 thread_index() { return dim3(threadIdx.x, threadIdx.y, threadIdx.z); }
    static dim3 dim_threads() { return dim3(blockDim.x, blockDim.y, blockDim.z); }
    static dim3 group_dim() { return dim_threads(); }
};

/// Every thread of the launch (this_grid()); sync() needs a cooperative launch.
class grid_group : public thread_group {
public:
    grid_group()
        : thread_group(Kind::Grid)
    {
    }
    static void sync(WB_CG_WHERE) { gridSync(file, line); }
    static bool is_valid()
    {
        wbcpu::abi::ThreadState* st = wbcpu::current();
        return st->rt->cooperative(st) != 0;
    }
    static unsigned long long num_blocks()
    {
        return static_cast<unsigned long long>(gridDim.x) * gridDim.y * gridDim.z;
    }
    static unsigned long long block_rank()
    {
        return blockIdx.x +
               static_cast<unsigned long long>(gridDim.x) *
                   (blockIdx.y + static_cast<unsigned long long>(gridDim.y) * blockIdx.z);
    }
    static unsigned long long num_threads() { return num_blocks() * details::blockThreads(); }
    static unsigned long long size() { return num_threads(); }
    static unsigned long long thread_rank()
    {
        return block_rank() * details::blockThreads() + details::blockRank();
    }
    static dim3 block_index() { return dim3(blockIdx.x, blockIdx.y, blockIdx.z); }
    static dim3 dim_blocks() { return dim3(gridDim.x, gridDim.y, gridDim.z); }
    static dim3 dim_threads()
    {
        return dim3(gridDim.x * blockDim.x, gridDim.y * blockDim.y, gridDim.z * blockDim.z);
    }
    static dim3 group_dim() { return dim_threads(); }
};

/// Lanes of one warp that run together (coalesced_threads(), labeled_partition(),
/// binary_partition(), tiled_partition of a coalesced group). Ranks count the group's lanes
/// from the lowest.
class coalesced_group : public thread_group {
public:
    explicit coalesced_group(unsigned mask, unsigned metaRank = 0, unsigned metaSize = 1)
        : thread_group(Kind::Coalesced, mask, 0, metaRank, metaSize)
    {
    }
    unsigned int num_threads() const { return static_cast<unsigned>(__builtin_popcount(m_mask)); }
    unsigned int size() const { return num_threads(); }
    unsigned int thread_rank() const
    {
        return static_cast<unsigned>(__builtin_popcount(m_mask & details::lanemaskLt()));
    }
    void sync(WB_CG_WHERE) const
    {
        wbcpu::warpOp(wbcpu::abi::WarpSync, m_mask, 0, 0, 32, "coalesced_group::sync()", file,
                      line);
    }
    template <typename T> T shfl(T var, unsigned int srcRank, WB_CG_WHERE) const
    {
        return details::shuffle(wbcpu::abi::ShflIdx, m_mask, var,
                                static_cast<int>(details::laneOfRank(m_mask, srcRank % size())), 32,
                                "coalesced_group::shfl()", file, line);
    }
    template <typename T> T shfl_down(T var, unsigned int delta, WB_CG_WHERE) const
    {
        const unsigned r = thread_rank() + delta;
        const unsigned src = r < size() ? details::laneOfRank(m_mask, r) : details::laneId();
        return details::shuffle(wbcpu::abi::ShflIdx, m_mask, var, static_cast<int>(src), 32,
                                "coalesced_group::shfl_down()", file, line);
    }
    template <typename T> T shfl_up(T var, unsigned int delta, WB_CG_WHERE) const
    {
        const unsigned r = thread_rank();
        const unsigned src =
            r >= delta ? details::laneOfRank(m_mask, r - delta) : details::laneId();
        return details::shuffle(wbcpu::abi::ShflIdx, m_mask, var, static_cast<int>(src), 32,
                                "coalesced_group::shfl_up()", file, line);
    }
    int any(int predicate, WB_CG_WHERE) const
    {
        return static_cast<int>(details::vote(wbcpu::abi::Any, m_mask, predicate,
                                              "coalesced_group::any()", file, line));
    }
    int all(int predicate, WB_CG_WHERE) const
    {
        return static_cast<int>(details::vote(wbcpu::abi::All, m_mask, predicate,
                                              "coalesced_group::all()", file, line));
    }
    unsigned int ballot(int predicate, WB_CG_WHERE) const
    {
        return details::packLanes(
            m_mask, static_cast<unsigned>(details::vote(wbcpu::abi::Ballot, m_mask, predicate,
                                                        "coalesced_group::ballot()", file, line)));
    }
    template <typename T> unsigned int match_any(T val, WB_CG_WHERE) const
    {
        return details::packLanes(m_mask,
                                  details::match(wbcpu::abi::MatchAny, m_mask, val,
                                                 "coalesced_group::match_any()", file, line));
    }
    template <typename T> unsigned int match_all(T val, int& pred, WB_CG_WHERE) const
    {
        const unsigned m = details::match(wbcpu::abi::MatchAll, m_mask, val,
                                          "coalesced_group::match_all()", file, line);
        pred = m != 0;
        return details::packLanes(m_mask, m);
    }
};

template <unsigned int Size, typename ParentT = void> class thread_block_tile;

/// A tile of Size consecutive threads of the block: up to 32 (a power of two), within one warp,
/// its collectives warp operations over the tile's lanes; 64–512, several warps, with sync() a
/// barrier of its threads and shfl/any/all (and cg::reduce, the scans) through per-block scratch.
template <unsigned int Size> class thread_block_tile<Size, void> : public thread_group {
    static_assert(Size > 0 && Size <= 512 && (Size & (Size - 1)) == 0,
                  "a thread_block_tile has 1, 2, 4 ... 512 threads (a power of two)");
    static constexpr bool kMultiWarp = Size > 32;

public:
    static constexpr unsigned int numThreads = Size;
    static constexpr unsigned int num_threads() { return Size; }
    static constexpr unsigned int size() { return Size; }
    static unsigned int thread_rank()
    {
        if constexpr (kMultiWarp)
            return details::blockRank() & (Size - 1);
        else
            return details::laneId() & (Size - 1);
    }
    void sync(WB_CG_WHERE) const
    {
        if constexpr (kMultiWarp)
            details::multiWarpSync(Size, file, line);
        else
            wbcpu::warpOp(wbcpu::abi::WarpSync, m_mask, 0, 0, 32, "thread_block_tile::sync()", file,
                          line);
    }
    template <typename T> T shfl(T var, int srcRank, WB_CG_WHERE) const
    {
        if constexpr (kMultiWarp) {
            const unsigned src = static_cast<unsigned>(srcRank) & (Size - 1);
            return details::multiWarpGather(
                Size, var, [src](unsigned, auto read) { return read(src); }, file, line);
        } else {
            return details::shuffle(wbcpu::abi::ShflIdx, m_mask, var, srcRank,
                                    static_cast<int>(Size), "thread_block_tile::shfl()", file,
                                    line);
        }
    }
    template <typename T> T shfl_down(T var, unsigned int delta, WB_CG_WHERE) const
    {
        static_assert(!kMultiWarp, "tiles larger than 32 threads have no shfl_down (as in CUDA)");
        return details::shuffle(wbcpu::abi::ShflDown, m_mask, var, static_cast<int>(delta),
                                static_cast<int>(Size), "thread_block_tile::shfl_down()", file,
                                line);
    }
    template <typename T> T shfl_up(T var, unsigned int delta, WB_CG_WHERE) const
    {
        static_assert(!kMultiWarp, "tiles larger than 32 threads have no shfl_up (as in CUDA)");
        return details::shuffle(wbcpu::abi::ShflUp, m_mask, var, static_cast<int>(delta),
                                static_cast<int>(Size), "thread_block_tile::shfl_up()", file, line);
    }
    template <typename T> T shfl_xor(T var, unsigned int laneMask, WB_CG_WHERE) const
    {
        static_assert(!kMultiWarp, "tiles larger than 32 threads have no shfl_xor (as in CUDA)");
        return details::shuffle(wbcpu::abi::ShflXor, m_mask, var, static_cast<int>(laneMask),
                                static_cast<int>(Size), "thread_block_tile::shfl_xor()", file,
                                line);
    }
    int any(int predicate, WB_CG_WHERE) const
    {
        if constexpr (kMultiWarp) {
            return details::multiWarpGather(
                Size, predicate != 0,
                [](unsigned, auto read) {
                    int r = 0;
                    for (unsigned i = 0; i < Size; ++i)
                        r |= read(i) ? 1 : 0;
                    return r;
                },
                file, line);
        } else {
            return static_cast<int>(details::vote(wbcpu::abi::Any, m_mask, predicate,
                                                  "thread_block_tile::any()", file, line));
        }
    }
    int all(int predicate, WB_CG_WHERE) const
    {
        if constexpr (kMultiWarp) {
            return details::multiWarpGather(
                Size, predicate != 0,
                [](unsigned, auto read) {
                    int r = 1;
                    for (unsigned i = 0; i < Size; ++i)
                        r &= read(i) ? 1 : 0;
                    return r;
                },
                file, line);
        } else {
            return static_cast<int>(details::vote(wbcpu::abi::All, m_mask, predicate,
                                                  "thread_block_tile::all()", file, line));
        }
    }
    /// Bit i: the thread of rank i.
    unsigned int ballot(int predicate, WB_CG_WHERE) const
    {
        static_assert(!kMultiWarp, "tiles larger than 32 threads have no ballot (as in CUDA)");
        return static_cast<unsigned>(details::vote(wbcpu::abi::Ballot, m_mask, predicate,
                                                   "thread_block_tile::ballot()", file, line)) >>
               base();
    }
    template <typename T> unsigned int match_any(T val, WB_CG_WHERE) const
    {
        static_assert(!kMultiWarp, "tiles larger than 32 threads have no match_any (as in CUDA)");
        return details::match(wbcpu::abi::MatchAny, m_mask, val, "thread_block_tile::match_any()",
                              file, line) >>
               base();
    }
    template <typename T> unsigned int match_all(T val, int& pred, WB_CG_WHERE) const
    {
        static_assert(!kMultiWarp, "tiles larger than 32 threads have no match_all (as in CUDA)");
        const unsigned m = details::match(wbcpu::abi::MatchAll, m_mask, val,
                                          "thread_block_tile::match_all()", file, line);
        pred = m != 0;
        return m >> base();
    }
    operator coalesced_group() const { return coalesced_group(m_mask, m_metaRank, m_metaSize); }

protected:
    template <unsigned int, typename> friend class thread_block_tile;
    thread_block_tile(unsigned metaRank, unsigned metaSize)
        : thread_group(Kind::Tile, tileMask(), Size, metaRank, metaSize)
    {
    }
    static unsigned base() { return details::laneId() & ~(Size - 1u); }
    static unsigned tileMask()
    {
        if constexpr (Size >= 32)
            return 0xffffffffu;
        else
            return ((1u << Size) - 1u) << base();
    }

public:
    thread_block_tile()
        : thread_block_tile(0, 1)
    {
    }
    static thread_block_tile make(unsigned metaRank, unsigned metaSize)
    {
        return thread_block_tile(metaRank, metaSize);
    }
};

/// The tile as tiled_partition<Size>(parent) returns it; converts to thread_block_tile<Size>.
template <unsigned int Size, typename ParentT>
class thread_block_tile : public thread_block_tile<Size, void> {
public:
    explicit thread_block_tile(const thread_block_tile<Size, void>& t)
        : thread_block_tile<Size, void>(t)
    {
    }
};

inline thread_block this_thread_block()
{
    return thread_block();
}
/// Scratch for tiles larger than a warp (CUDA keeps their barriers and exchange slots in it;
/// the emulator has its own per-block scratch, so it only needs to exist).
template <unsigned int MaxBlockSize = 1024> struct block_tile_memory {
    alignas(16) unsigned char reserved[16];
};
template <unsigned int MaxBlockSize>
thread_block this_thread_block(block_tile_memory<MaxBlockSize>&)
{
    return thread_block();
}
inline grid_group this_grid()
{
    return grid_group();
}
inline thread_block_tile<1> this_thread()
{
    return thread_block_tile<1>::make(details::blockRank(), details::blockThreads());
}

/// The lanes of the warp that reach this call together (see docs/cpu-emulator.md).
inline coalesced_group coalesced_threads(WB_CG_WHERE)
{
    return coalesced_group(static_cast<unsigned>(wbcpu::warpOp(
        wbcpu::abi::Coalesce, 0xffffffffu, 0, 0, 32, "coalesced_threads()", file, line)));
}

template <unsigned int Size>
thread_block_tile<Size, thread_block> tiled_partition(const thread_block&)
{
    return thread_block_tile<Size, thread_block>(thread_block_tile<Size>::make(
        details::blockRank() / Size, (details::blockThreads() + Size - 1) / Size));
}
template <unsigned int Size, unsigned int ParentSize, typename P>
thread_block_tile<Size, thread_block_tile<ParentSize, P>>
tiled_partition(const thread_block_tile<ParentSize, P>& parent)
{
    static_assert(Size <= ParentSize, "a tile is partitioned into smaller tiles");
    return thread_block_tile<Size, thread_block_tile<ParentSize, P>>(
        thread_block_tile<Size>::make(parent.thread_rank() / Size, ParentSize / Size));
}

/// Tiles of `tileSize` ranks of a coalesced group.
inline coalesced_group tiled_partition(const coalesced_group& parent, unsigned int tileSize)
{
    const unsigned mask = details::GroupAccess::mask(parent);
    const unsigned rank = parent.thread_rank(), first = rank / tileSize * tileSize;
    unsigned tile = 0, r = 0;
    for (unsigned l = 0; l < 32; ++l)
        if (mask & (1u << l)) {
            if (r >= first && r < first + tileSize) tile |= 1u << l;
            ++r;
        }
    return coalesced_group(tile, rank / tileSize, (parent.size() + tileSize - 1) / tileSize);
}

/// tiled_partition(g, n) at run time: n a power of two up to 32.
inline thread_group tiled_partition(const thread_group& parent, unsigned int tileSize, WB_CG_WHERE)
{
    if (tileSize == 0 || tileSize > 32 || (tileSize & (tileSize - 1)) != 0)
        wbcpu::fail("tiled_partition(): the tile size must be a power of two up to 32 on the "
                    "Warpbench CPU emulator",
                    file, line);
    if (details::GroupAccess::isBlock(parent)) {
        const unsigned base = details::laneId() & ~(tileSize - 1u);
        const unsigned mask = tileSize == 32 ? 0xffffffffu : (((1u << tileSize) - 1u) << base);
        struct Tile : thread_group {
            Tile(unsigned m, unsigned s, unsigned r, unsigned n)
                : thread_group(Kind::Tile, m, s, r, n)
            {
            }
        };
        return Tile(mask, tileSize, details::blockRank() / tileSize,
                    (details::blockThreads() + tileSize - 1) / tileSize);
    }
    return tiled_partition(coalesced_group(details::GroupAccess::mask(parent)), tileSize);
}
inline thread_group tiled_partition(const thread_block& parent, unsigned int tileSize, WB_CG_WHERE)
{
    return tiled_partition(static_cast<const thread_group&>(parent), tileSize, file, line);
}

/// The lanes of `g` with the same label.
template <typename Group, typename Label>
coalesced_group labeled_partition(const Group& g, Label label, WB_CG_WHERE)
{
    const unsigned mask = details::GroupAccess::mask(g);
    return coalesced_group(
        details::match(wbcpu::abi::MatchAny, mask, label, "labeled_partition()", file, line));
}
/// The lanes of `g` whose predicate agrees with this lane's.
template <typename Group> coalesced_group binary_partition(const Group& g, bool pred, WB_CG_WHERE)
{
    const unsigned mask = details::GroupAccess::mask(g);
    const auto ballot = static_cast<unsigned>(
        details::vote(wbcpu::abi::Ballot, mask, pred, "binary_partition()", file, line));
    return coalesced_group(pred ? ballot : (mask & ~ballot));
}

template <typename Group> void sync(const Group& g, WB_CG_WHERE)
{
    g.sync(file, line);
}
template <typename Group> auto thread_rank(const Group& g)
{
    return g.thread_rank();
}
template <typename Group> auto group_size(const Group& g)
{
    return g.num_threads();
}
template <typename Group> auto num_threads(const Group& g)
{
    return g.num_threads();
}

/// One thread of the group calls fn (invoke_one); _broadcast hands its result to all.
template <typename Group, typename Fn, typename... Args>
void invoke_one(const Group& g, Fn&& fn, Args&&... args)
{
    if (g.thread_rank() == 0) std::forward<Fn>(fn)(std::forward<Args>(args)...);
}
template <typename Group, typename Fn, typename... Args>
auto invoke_one_broadcast(const Group& g, Fn&& fn, Args&&... args)
{
    using R = decltype(fn(args...));
    R r{};
    if (g.thread_rank() == 0) r = std::forward<Fn>(fn)(std::forward<Args>(args)...);
    return g.shfl(r, 0);
}

} // namespace cooperative_groups

#undef WB_CG_WHERE
