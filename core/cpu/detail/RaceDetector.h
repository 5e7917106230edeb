// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "resources/prelude/warpbench/cpu_abi.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace wb::cpu::detail {

/// The race detector of the CPU emulator's race-check mode, inside warpbench-cpu-sandbox. The
/// kernel library is built with the compiler's ThreadSanitizer instrumentation, whose entry
/// points (core/cpu/sandbox/TsanHooks.cpp) hand every load, store and atomic here.
///
/// CUDA's memory model (docs/cpu-emulator.md, "Race-check mode"): two accesses to the same byte
/// by different threads, at least one a write, race unless both are atomics whose scopes include
/// both threads, or one happens before the other: a barrier of their block between them (the
/// threads' barrier counts differ); a warp operation (__syncwarp, any *_sync intrinsic, a tile's
/// sync or collective) both took part in; a grid.sync() of a cooperative launch; or a release
/// (an atomic write of release order or after a release fence) read by an acquire (an atomic
/// read of acquire order, a CUDA atomic*() call, or a relaxed read before an acquire fence)
/// whose scopes include both threads, carried on through barriers and warp operations. All
/// blocks are concurrent; shared memory belongs to its block. Only the launch's buffers and the
/// block's shared memory are watched (registered regions); everything else (stacks, the
/// prelude's own state) is ignored, except that release/acquire is followed on any location.
///
/// State, for whoever makes it concurrent: per word of a region its Cell (check() reads and
/// updates it) and its Region::Displaced entry; per thread (slot()) m_phase, m_grid, m_joint,
/// m_tile and m_threadSync; per warp m_warpFull; per block m_syncGen and m_blockSync; per atomic
/// location m_clocks (atomic() and fence() only).
///
/// Shadow state: per 4-byte word, the two latest writes and the two latest reads by different
/// threads (block, thread, barrier phase, warp-sync generation, grid phase, byte mask, code
/// address). A word where a third thread displaced an access unordered with its own (a write,
/// or a read that a later write may be concurrent with) is counted as crowded: a race with the
/// displaced access may go unseen. A report is kept once per
/// distinct (code address pair, kinds) with one example and a count.
class RaceDetector {
public:
    /// One side of a reported race. `pc` is relative to the kernel library's load address.
    struct Side {
        std::uint32_t pc = 0;
        bool write = false;
        bool atomic = false;
        wbcpu::abi::Dim block{};
        wbcpu::abi::Dim thread{};
    };
    struct Report {
        int region = 0; ///< index given to addRegion
        std::uint64_t offset = 0;
        std::uintptr_t address = 0;
        unsigned size = 0;
        Side first, second;
        std::uint64_t count = 0;
    };

    /// `libraryBase`: the load address of the instrumented kernel library (code addresses are
    /// kept relative to it). `maxReports`: distinct reports kept, later ones only counted.
    /// `cooperative`: every block runs at once (per-thread state is kept for the whole grid and
    /// startBlock() is not called).
    RaceDetector(std::uintptr_t libraryBase, wbcpu::abi::Dim blockSize, wbcpu::abi::Dim gridSize,
                 std::size_t maxReports = 64, bool cooperative = false);
    ~RaceDetector();
    RaceDetector(const RaceDetector&) = delete;
    RaceDetector& operator=(const RaceDetector&) = delete;

    /// Watches [begin, begin + size) as region `id`; `shared`: per-block memory.
    void addRegion(const void* begin, std::size_t size, int id, bool shared);
    /// Before each block runs: every thread starts at barrier phase 0.
    void startBlock();
    /// The emulated thread `st` arrives at a barrier of its block (__syncthreads or grid.sync()):
    /// what it learned from atomics (release/acquire) becomes its block's once the barrier
    /// completes.
    void barrierArriving(const wbcpu::abi::ThreadState* st);
    /// The emulated thread `st` passed a barrier (__syncthreads or grid.sync()).
    void barrierPassed(const wbcpu::abi::ThreadState* st);
    /// The emulated thread `st` passed a grid.sync().
    void gridPassed(const wbcpu::abi::ThreadState* st);
    /// A __syncwarp / tile.sync() of the current thread's block completed: lanes `mask` of the
    /// warp whose lane 0 is thread `warpBase` of the block.
    void warpSynced(unsigned warpBase, unsigned mask);
    /// A sync() of the tile of threads [first, first + count) of the current thread's block
    /// (tiles of 64–512 threads) completed.
    void tileSynced(unsigned first, unsigned count);
    /// The emulated thread that runs from now on (fiber mode). Set by the host whenever it
    /// hands control to a thread (its start, its return from a barrier or warp operation): in a
    /// thread's own code the optimiser may store the coordinates in wb_cpu_current late. nullptr
    /// (loop mode): wb_cpu_current, which the race-check build of the block loop stores before
    /// each thread behind a compiler barrier.
    void setCurrent(const wbcpu::abi::ThreadState* st) noexcept { m_current = st; }
    /// One plain access by the current emulated thread, from code address `pc`.
    void access(const void* address, std::size_t size, bool write, const void* pc);
    enum class AtomicKind { Load, Store, ReadModifyWrite };
    /// One atomic operation by the current emulated thread: `order` and `scope` are
    /// wbcpu::abi::RaceOrder and RaceScope. Checked as an access (atomics of scopes that include
    /// both threads do not race with each other), then CUDA's memory model: a release (release,
    /// acq_rel or seq_cst order, or any atomic write after a release fence) publishes what
    /// happened before it on the location, an acquire (acquire, acq_rel, seq_cst, or CUDA's
    /// atomicAdd & co.) that reads it orders what follows, when both scopes include both
    /// threads. Read-modify-writes continue the location's release sequence; a store starts a
    /// new one.
    void atomic(const void* address, std::size_t size, AtomicKind kind, int order, int scope,
                const void* pc);
    /// A fence by the current emulated thread (__threadfence*, cuda::atomic_thread_fence): of
    /// release order, it makes the thread's later atomic writes releases; of acquire order, what
    /// its earlier relaxed atomic reads observed orders what follows.
    void fence(int order, int scope);

    const std::vector<Report>& reports() const noexcept { return m_reports; }
    /// Conflicting pairs beyond the kept reports.
    std::uint64_t dropped() const noexcept { return m_dropped; }
    /// Writes one "WB-RACE ..." line per report and one "WB-RACE-CROWDED region words" line per
    /// region with crowded words (parsed by core/cpu/detail/Sandbox.cpp).
    void print(std::FILE* out) const;

    /// The detector the instrumentation entry points report to (nullptr: none).
    static RaceDetector* active;

private:
    struct Record;
    struct Cell;
    struct Region;
    struct Knowledge;
    struct SyncClock;
    struct ThreadSync;
    struct BlockSync;
    /// The emulated thread that makes the current access.
    struct Who {
        std::uint32_t block = 0;
        unsigned thread = 0;
        std::size_t slot = 0; ///< slot(block, thread); valid only if `known`
        bool known = false;   ///< slot() is within the per-thread tables
    };
    Who who() const;
    Who whoIs(const wbcpu::abi::ThreadState* st) const;
    void accessAs(const Who& w, const void* address, std::size_t size, std::uint8_t flags,
                  const void* pc);
    /// Compares `now` with the shadow of word `word` of `region`, then keeps it there.
    void check(Cell& cell, const Record& now, Region& region, std::size_t word,
               std::uintptr_t address, unsigned size);
    /// `r` (an access by another thread) happens before the current access `now`.
    bool ordered(const Record& r, const Record& now) const;
    /// The current thread's ThreadSync, made on first use.
    ThreadSync& threadSync(const Who& w);
    BlockSync& blockSync(std::uint32_t block);
    /// What a release by `w` now publishes: everything that happened before this point of it.
    /// Starts a new sync generation of its block (its later accesses are not covered).
    Knowledge releasing(const Who& w);
    /// Threads [first, first + count) of the block (slots from `base`), those of `mask` when
    /// count <= 32, share what they learned (they just synchronised).
    void shareKnowledge(std::size_t base, unsigned count, unsigned mask);
    /// Index of the per-thread state of thread `linear` of block `block` (linear indices).
    std::size_t slot(std::uint32_t block, unsigned linear) const;
    std::uint32_t blockOf(const wbcpu::abi::ThreadState* st) const;
    void report(const Record& earlier, const Record& now, const Region& region,
                std::uintptr_t address, unsigned size);

    std::uintptr_t m_base;
    wbcpu::abi::Dim m_blockSize, m_gridSize;
    std::size_t m_maxReports;
    std::vector<std::unique_ptr<Region>> m_regions;
    std::uintptr_t m_low = ~std::uintptr_t{0}, m_high = 0;
    const wbcpu::abi::ThreadState* m_current = nullptr;
    bool m_cooperative = false;
    unsigned m_threads = 0;             ///< threads per block
    std::vector<std::uint32_t> m_phase; ///< barrier count of each thread (slot())
    std::vector<std::uint32_t> m_grid;  ///< grid.sync() count of each thread (slot())
    /// Per block (one in all unless cooperative): warp and tile syncs completed so far; every
    /// access records it (Record::syncGen).
    std::vector<std::uint32_t> m_syncGen;
    /// Per thread (slot()) and lane of its warp: the generation of the last warp sync both took
    /// part in. An earlier access by lane a at generation g is ordered before this thread's
    /// access when m_joint[slot * 32 + a] > g.
    std::vector<std::uint32_t> m_joint;
    /// Per warp (slot() / 32): the last sync every lane of the warp took part in (counts as
    /// m_joint for every pair of its lanes; most warp operations have the full mask).
    std::vector<std::uint32_t> m_warpFull;
    /// Per thread (slot()): the last tile sync (64–512 threads) it took part in; an earlier
    /// access by a thread of that tile at generation g < its generation is ordered.
    struct TileSync {
        std::uint32_t generation = 0;
        std::uint16_t first = 0, count = 0;
    };
    std::vector<TileSync> m_tile;
    const std::uint32_t* m_jointRow = nullptr;    ///< the current access's thread's row
    const std::uint32_t* m_warpFullNow = nullptr; ///< its warp's m_warpFull
    const TileSync* m_tileNow = nullptr;          ///< the current access's thread's last tile sync
    // Release/acquire through atomics (all empty until a kernel's atomics publish something).
    /// Per location of an atomic that published: what its release sequence carries.
    std::unordered_map<std::uintptr_t, std::unique_ptr<SyncClock>> m_clocks;
    /// Per thread (slot()): what it learned from acquires, made on first use.
    std::vector<std::unique_ptr<ThreadSync>> m_threadSync;
    bool m_anyThreadSync = false; ///< some m_threadSync entry exists
    /// Per block (one unless cooperative): what its threads learned before its last barrier.
    std::vector<std::unique_ptr<BlockSync>> m_blockSync;
    const ThreadSync* m_syncNow = nullptr; ///< the current access's thread's, or nullptr
    const BlockSync* m_blockNow = nullptr; ///< its block's, or nullptr
    bool m_warpSynced = false; ///< m_syncGen / m_joint / m_tile were written since startBlock()
    std::vector<Report> m_reports;
    std::unordered_map<std::uint64_t, std::size_t> m_index; ///< (pcs, kinds) -> m_reports
    std::uint64_t m_dropped = 0;
};

} // namespace wb::cpu::detail
