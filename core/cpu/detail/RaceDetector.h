// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "resources/prelude/warpbench/cpu_abi.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

namespace wb::cpu::detail {

/// The race detector of the CPU emulator's race-check mode, inside warpbench-cpu-sandbox. The
/// kernel library is built with the compiler's ThreadSanitizer instrumentation, whose entry
/// points (core/cpu/sandbox/TsanHooks.cpp) hand every load, store, atomic and fence here.
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
/// Shadow state: per 4-byte word, the two latest writes and the two latest reads by different
/// threads (block, thread, barrier phase, warp-sync generation, grid phase, byte mask, code
/// address). A word where a third thread displaced an access unordered with its own (a write,
/// or a read that a later write may be concurrent with) is counted as crowded: a race with the
/// displaced access may go unseen. A read like both kept reads but for its thread (same block,
/// phases, code and bytes; read-shared words such as a matrix row all threads of a block read)
/// is not kept: the word is marked as if it had displaced one (quietRead() says why that hides
/// no race silently), so read-shared words are not rewritten by every reader. A report is
/// kept once per distinct (code address pair, kinds) with one example and a count.
///
/// Not recorded (docs/cpu-emulator.md argues why no finding changes): reads of read-only regions
/// (addRegion's `readOnly`, settled by skipRead() in the entry point); accesses to a worker's
/// shared memory are held (hold(), holdRead() inline) and checked when their barrier interval
/// ends, where reads of words nobody wrote in the interval are let go (checkHeld()); with
/// learnSharedWrites(), reads of a __shared__ variable in an interval where the worker's first
/// block wrote none of it are let go at once. A write that breaks either assumption is noted
/// (assumptionBroken()) for the caller to run the launch again without them.
///
/// Concurrency: the blocks of a launch may run on several worker threads at once (startBlock
/// names the worker). What is whose:
/// - per block and per thread of a block (barrier phases, grid phases, warp and tile sync
///   tables, the threads' and the block's release/acquire knowledge): the Worker that runs the
///   block, touched only by its thread;
/// - a worker's instance of the shared memory and its shadow (addWorkerRegion), its held
///   accesses and Lane, what it learned of its first block: that worker's (finish() checks the
///   held accesses of every worker after the blocks ran);
/// - a global-memory word's shadow Cell and its crowding entry: the word's lock (bit 0 of
///   Cell::state, a sequence lock), taken for each check while blocks run on several workers,
///   except by a read that changes nothing, which only reads the cell (quietUnlocked());
/// - an atomic location's release sequence (SyncClock): the lock of its stripe
///   (lockLocation()), which the instrumentation holds around the real atomic operation and the
///   detector's update of it, so that the value a thread reads and what it acquires agree;
/// - the report list: m_reportMutex; crowded-word counts: atomic counters;
/// - the emulated thread that runs: per OS thread (setCurrent).
/// The report list does not depend on the interleaving for shared memory: a report's example
/// is the one of the earliest block in the run order (startBlock's `sequence`), reports are
/// printed in that order. Global-memory reports and crowding of a parallel run can depend on
/// it: hasGlobalReports() says when the caller should replay the launch on one worker for a
/// deterministic list.
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
    /// startBlock() is not called; the blocks take turns, never two at once).
    /// `workers`: worker threads that run blocks at once (startBlock's `worker`).
    RaceDetector(std::uintptr_t libraryBase, wbcpu::abi::Dim blockSize, wbcpu::abi::Dim gridSize,
                 std::size_t maxReports = 64, bool cooperative = false, int workers = 1);
    ~RaceDetector();
    RaceDetector(const RaceDetector&) = delete;
    RaceDetector& operator=(const RaceDetector&) = delete;

    /// Watches [begin, begin + size) as region `id`; `shared`: per-block memory. Not while
    /// blocks run on several workers. `readOnly`: the caller expects the launch not to write the
    /// region (a buffer reached only through `const` pointers): its reads are not recorded, since
    /// a read of memory that nothing writes in the launch races with nothing. A write to it makes
    /// assumptionBroken() true; the caller must then run the launch again without the assumption
    /// (the reads before that write were not recorded).
    void addRegion(const void* begin, std::size_t size, int id, bool shared, bool readOnly = false);
    /// Each worker learns from its first block which __shared__ variables each barrier interval
    /// writes; in its later blocks, reads of a variable in an interval that wrote none of it
    /// are not recorded (such a read races with nothing, as hold() argues). A write to it in
    /// such an interval makes assumptionBroken() true. Off unless asked for.
    void learnSharedWrites() noexcept { m_learning = true; }
    /// A read-only region was written, or a __shared__ variable where learnSharedWrites() said
    /// none would be: this launch's findings are incomplete; run it again without either.
    bool assumptionBroken() const noexcept
    {
        return __atomic_load_n(&m_assumptionBroken, __ATOMIC_RELAXED);
    }
    /// Whether an access at `address` may concern the detector: within the span of the
    /// buffers and their guards, or of the calling worker's shared memory. The instrumentation
    /// asks this first, inline: most other accesses (the emulator's own state) end here.
    [[gnu::always_inline]] bool mayWatch(const void* address) const noexcept
    {
        const auto a = reinterpret_cast<std::uintptr_t>(address);
        return a - m_spanLow < m_spanSize || a - t_sharedLow < t_sharedSize;
    }
    /// One access to a worker's shared memory, held until its barrier interval ends (hold()):
    /// everything its record needs that may change before then (the grid phase and the sync
    /// generation do not: a grid.sync or a warp or tile sync checks what is held first).
    struct Held {
        std::uint32_t offset; ///< from the region's start
        std::uint32_t pc;
        std::uint32_t phase;
        std::uint16_t thread;      ///< of the worker's block (Lane::block)
        std::uint8_t region;       ///< index in the worker's shared regions
        std::uint8_t sizeAndFlags; ///< bytes (1-16), and Record flags << kFlagsShift
        static constexpr unsigned kSizeMask = 31u, kFlagsShift = 5u;
    };
    /// What the instrumentation needs to hold a read of the calling worker's shared memory
    /// without a call (holdRead()): the two shared regions it held accesses to last, where the
    /// next held access goes, and the running thread. The first member of a Worker; kept by
    /// setCurrent, startBlock, barrierPassed and whatever ends holding.
    struct Lane {
        std::uintptr_t begin[2] = {0, 0}, end[2] = {0, 0};
        std::uint8_t region[2] = {0, 0};
        Held* next = nullptr;
        Held* limit = nullptr;
        std::uint32_t phase = 0, block = 0;
        std::uint16_t thread = 0;
        bool on =
            false; ///< accesses are held: fiber mode, a known thread, no release/acquire state
        bool skip[2] = {false, false}; ///< its reads of region k are not recorded (learned)
    };
    /// A plain read of at most 4 bytes within one word of the calling worker's shared memory,
    /// held for the end of its barrier interval (hold()'s commonest case, inline): false where
    /// access() must take it.
    [[gnu::always_inline]] bool holdRead(const void* address, std::size_t size,
                                         const void* pc) const noexcept
    {
        if (!__atomic_load_n(&m_mayHold, __ATOMIC_RELAXED) || t_serial != m_serial) return false;
        Lane& l = *static_cast<Lane*>(t_worker);
        if (!l.on || l.next == l.limit) return false;
        const auto a = reinterpret_cast<std::uintptr_t>(address);
        unsigned k = 0;
        if (a - l.begin[0] >= l.end[0] - l.begin[0]) {
            if (a - l.begin[1] >= l.end[1] - l.begin[1]) return false;
            k = 1;
        }
        const std::uintptr_t offset = a - l.begin[k];
        if (size == 0 || (offset & 3u) + size > 4u || a + size > l.end[k]) return false;
        if (l.skip[k]) return true;
        *l.next++ = Held{static_cast<std::uint32_t>(offset),
                         static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(pc) - m_base),
                         l.phase,
                         l.thread,
                         l.region[k],
                         static_cast<std::uint8_t>(size)};
        return true;
    }
    /// A read of at most 16 bytes at `address` within a read-only region (not near its end):
    /// nothing to record. The instrumentation asks this first, inline.
    [[gnu::always_inline]] bool skipRead(const void* address) const noexcept
    {
        const auto a = reinterpret_cast<std::uintptr_t>(address);
        for (unsigned i = 0; i < m_readOnlyCount; ++i)
            if (a - m_readOnly[i].begin <= m_readOnly[i].limit) return true;
        return false;
    }
    /// Watches worker `worker`'s instance of a shared-memory variable (the emulator's shared
    /// memory is thread_local): seen only by accesses of that worker's thread.
    void addWorkerRegion(int worker, const void* begin, std::size_t size, int id);
    /// Before each block runs, on the thread that runs it: every thread starts at barrier phase
    /// 0 and knows nothing from atomics; `worker` (< workers) is that thread's, `sequence` the
    /// block's place in the run order.
    void startBlock(int worker = 0, std::uint64_t sequence = 0);
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
    void setCurrent(const wbcpu::abi::ThreadState* st) noexcept;
    /// Everything found so far: the accesses to shared memory still held for the end of their
    /// barrier interval are checked now. Called after the blocks ran (and by a fault report).
    void finish();
    /// finish() for the calling thread's worker only, while other workers may still run.
    void finishHere();
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
    /// new one. The caller holds lockLocation(address) around the operation and this call.
    void atomic(const void* address, std::size_t size, AtomicKind kind, int order, int scope,
                const void* pc);
    /// A fence by the current emulated thread (__threadfence*, cuda::atomic_thread_fence): of
    /// release order, it makes the thread's later atomic writes releases; of acquire order, what
    /// its earlier relaxed atomic reads observed orders what follows.
    void fence(int order, int scope);
    /// The lock of the stripe of atomic locations `address` belongs to: the real atomic
    /// operation and atomic() happen under it, so that no other worker's atomic on the location
    /// comes between them. Not taken (and not needed) while blocks run on one thread.
    void lockLocation(const void* address) noexcept;
    void unlockLocation(const void* address) noexcept;

    /// An access outside a buffer's bounds (region >= 0), or another fault of the kernel's code.
    struct Fault {
        int region = -1;         ///< the buffer's id (addRegion), -1: none known
        std::int64_t offset = 0; ///< from the buffer's start
        std::size_t size = 0;
        bool write = false;
        std::uint32_t pc = 0; ///< relative to the library
        wbcpu::abi::Dim block{}, thread{};
        std::uintptr_t address = 0;
    };
    /// Accesses to [low, high) outside region `id` (a buffer) are out of its bounds: the slack
    /// and guard pages of its mapping, where nothing else lives. Not while blocks run.
    void addGuard(int id, const void* low, const void* high);
    /// Called, before the access happens, for an access out of a buffer's bounds (addGuard); it
    /// is not expected to return (the sandbox reports and ends the process).
    static void (*outOfBounds)(const RaceDetector& detector, const Fault& fault);
    /// The emulated thread the calling OS thread runs (a fault handler's question).
    void currentThread(wbcpu::abi::Dim& block, wbcpu::abi::Dim& thread) const;
    /// Names the buffer whose guard `fault.address` is in (region and offset), if any.
    void locate(Fault& fault) const;
    std::uintptr_t libraryBase() const noexcept { return m_base; }
    /// The "WB-RACE" lines of print() alone (no crowding): safe while blocks still run.
    void printReports(std::FILE* out) const;

    /// The kept reports (at most maxReports), in run order. After the blocks ran.
    std::vector<Report> reports() const;
    /// Conflicting pairs beyond the kept reports. After the blocks ran.
    std::uint64_t dropped() const;
    /// Whether some report or crowded word is about global memory (not a shared-memory region).
    bool hasGlobalReports() const;
    /// Writes one "WB-RACE ..." line per report and one "WB-RACE-CROWDED region words" line per
    /// region with crowded words (parsed by core/cpu/detail/Sandbox.cpp).
    void print(std::FILE* out) const;

    /// The detector the instrumentation entry points report to (nullptr: none).
    static RaceDetector* active;

    /// Read-only regions that skipRead() tells at once (the others are told in access()).
    static constexpr unsigned kFastReadOnly = 4;

private:
    struct Record;
    struct Cell;
    struct Region;
    struct Worker;
    struct Kept;
    struct Knowledge;
    struct SyncClock;
    struct ThreadSync;
    struct BlockSync;
    struct Stripe;
    /// The emulated thread that makes the current access.
    struct Who {
        std::uint32_t block = 0;
        unsigned thread = 0;
        std::size_t slot = 0; ///< slot(block, thread); valid only if `known`
        bool known = false;   ///< slot() is within the per-thread tables
    };
    Who who(const Worker& w) const;
    Who whoIs(const wbcpu::abi::ThreadState* st) const;
    /// Keeps a plain access to `region` (a worker's shared memory, the short way) for the end
    /// of its barrier interval instead of checking it now.
    void hold(Worker& w, const Who& who, Region& region, std::uintptr_t a, std::size_t size,
              std::uint8_t flags, const void* pc);
    /// access() but for the held accesses of its first lines.
    [[gnu::noinline]] void accessOther(Worker& w, std::uintptr_t a, std::size_t size, bool write,
                                       const void* pc);
    /// Checks the held accesses in the order they were made. `intervalEnded`: the barrier
    /// interval they belong to ended (a barrier completed, the block ended), so a read of a
    /// word that no thread wrote in it races with nothing and is let go; otherwise (a warp or
    /// tile sync, an atomic, a fence or an access checked at once comes next) each is checked.
    void checkHeld(Worker& w, bool intervalEnded);
    /// Marks `word` of shared region `region` as written in the current barrier interval.
    static void markWritten(Region& region, std::size_t word);
    /// The first region (the launch's, then the worker's shared memory) that [a, a + size)
    /// overlaps, or nullptr.
    Region* firstOverlapping(const Worker& w, std::uintptr_t a, std::size_t size) const;
    /// One access by `known` (nullptr: who(w)), if it is to a watched region.
    void accessAs(Worker& w, const Who* known, std::uintptr_t a, std::size_t size,
                  std::uint8_t flags, const void* pc);
    /// Compares `now` with the shadow of word `word` of `region`, then keeps it there.
    void check(Cell& cell, const Record& now, Region& region, std::size_t word,
               std::uintptr_t address, unsigned size);
    /// A read `now` that changes nothing the cell keeps (`reads`: its two reads), checked
    /// against its writes already: the same thread's read again, or a third thread of a warp
    /// reading like two others of it (the word's crowding mark updated as keeping it would).
    bool quietRead(Record* reads, const Record& now, Region& region, std::size_t word);
    /// One plain access within one word of `region` by `who` (known): access()'s short way.
    void accessWord(Worker& w, const Who& who, Region& region, std::uintptr_t a, std::size_t size,
                    std::uint8_t flags, const void* pc);
    /// accessWord()'s commonest cases, settled without check(): false where check() is needed.
    bool settled(Cell& cell, const Record& now, Region& region, std::size_t word, bool read);
    /// check() for accessWord(), out of its way.
    void checkWord(Worker& w, const Who& who, Cell& cell, const Record& now, Region& region,
                   std::size_t word, std::uintptr_t a, std::size_t size);
    /// A kept write that may race with `now`, as far as the records tell (false: it cannot).
    static bool mayConflict(const Record& write, const Record& now, bool shared);
    /// t_now for the thread of slot `slot`, of block table `block`.
    void setNow(Worker& w, std::size_t slot, std::size_t block) const;
    /// quietRead() without the word's lock, while blocks run on several workers: false where
    /// the caller must take it (the cell changed meanwhile, or the read changes something).
    bool quietUnlocked(const Cell& cell, const Record& now, Region& region, std::size_t word);
    static bool sameRead(const Record& kept, const Record& now);
    static bool sharedRead(const Record* reads, const Record& now);
    /// `r` (an access by another thread) happens before the current access `now`.
    bool ordered(const Record& r, const Record& now) const;
    /// The current thread's ThreadSync, made on first use.
    ThreadSync& threadSync(Worker& w, const Who& who);
    BlockSync& blockSync(Worker& w, std::uint32_t block);
    /// What a release by `who` now publishes: everything that happened before this point of
    /// it. Starts a new sync generation of its block (its later accesses are not covered).
    Knowledge releasing(Worker& w, const Who& who);
    /// Threads [first, first + count) of the block (slots from `base`), those of `mask` when
    /// count <= 32, share what they learned (they just synchronised).
    void shareKnowledge(Worker& w, std::size_t base, unsigned count, unsigned mask);
    static std::unique_ptr<Region> makeRegion(const void* begin, std::size_t size, int id,
                                              bool shared);
    /// The calling thread's worker (cooperative launches and threads without startBlock: 0).
    Worker& here() const noexcept;
    Stripe& stripeOf(std::uintptr_t location) const noexcept;
    /// Index of the per-thread state of thread `linear` of block `block` (linear indices).
    std::size_t slot(std::uint32_t block, unsigned linear) const;
    std::uint32_t blockOf(const wbcpu::abi::ThreadState* st) const;
    void report(const Record& earlier, const Record& now, const Region& region,
                std::uintptr_t address, unsigned size);

    /// A read-only region for skipRead(): reads at [begin, begin + limit] of up to 16 bytes.
    struct ReadOnlyRange {
        std::uintptr_t begin = 0, limit = 0;
    };
    ReadOnlyRange m_readOnly[kFastReadOnly];
    unsigned m_readOnlyCount = 0;
    bool m_assumptionBroken = false;
    /// Some worker has shared memory whose accesses may be held (set by a worker's
    /// addWorkerRegion while others may run: read and written atomically).
    bool m_mayHold = false;
    bool m_learning = false; ///< learnSharedWrites()
    /// A write to a read-only region, or to a __shared__ variable whose reads an interval let go:
    /// noted (assumptionBroken()), then checked as any write.
    void assumptionFailed() noexcept
    {
        __atomic_store_n(&m_assumptionBroken, true, __ATOMIC_RELAXED);
    }
    /// The barrier interval of phase `phase` of the worker's block ended (a barrier completed,
    /// or `blockEnded`): what it wrote is learned (the worker's first block) or compared with
    /// what was learned, its held accesses are checked, and the reads to let go in the next
    /// interval (phase `next`) are set.
    void endInterval(Worker& w, std::uint32_t phase, std::uint32_t next, bool blockEnded);
    /// Lane::skip from the worker's current interval and the lane's regions.
    static void laneSkips(Worker& w) noexcept;

    /// mayWatch(): the span of every region and guard added with addRegion/addGuard, and the
    /// span of the calling thread's worker's shared memory (set by startBlock).
    std::uintptr_t m_spanLow = 0, m_spanSize = 0;
    void widenSpan(std::uintptr_t low, std::uintptr_t high) noexcept;
    static constinit thread_local std::uintptr_t t_sharedLow, t_sharedSize;
    /// The worker of the calling thread (its Lane first), valid while t_serial is this
    /// detector's m_serial (startBlock).
    static constinit thread_local void* t_worker;
    static constinit thread_local std::uint64_t t_serial;
    /// Lane::on for the calling thread's worker, from t_current and what holding needs.
    void laneUp(Worker& w) const noexcept;

    std::uintptr_t m_base;
    wbcpu::abi::Dim m_blockSize, m_gridSize;
    std::size_t m_maxReports;
    std::vector<std::unique_ptr<Region>> m_regions;
    std::uintptr_t m_low = ~std::uintptr_t{0}, m_high = 0;
    struct Guard {
        int id = 0;
        std::uintptr_t low = 0, high = 0, begin = 0;
    };
    std::vector<Guard> m_guards;
    std::uintptr_t m_guardLow = ~std::uintptr_t{0}, m_guardHigh = 0;
    void guardHit(Worker& w, const Who* known, std::uintptr_t a, std::size_t size, bool write,
                  const void* pc);
    bool m_cooperative = false;
    bool m_parallel = false;    ///< several workers: global-memory words are locked
    std::uint64_t m_serial;     ///< tells this detector's thread-local state from an earlier one's
    std::uint32_t m_generation; ///< marks the shadow cells it wrote (Cell::generation)
    unsigned m_threads = 0;     ///< threads per block
    /// A thread's last tile sync (Worker::tile).
    struct TileSync {
        std::uint32_t generation = 0;
        std::uint16_t first = 0, count = 0;
    };
    std::vector<std::unique_ptr<Worker>> m_workers;
    /// Atomic locations' release sequences, by stripe of addresses (each with its lock).
    std::unique_ptr<Stripe[]> m_stripes;
    mutable std::mutex m_reportMutex;
    std::vector<Kept> m_reports;
    std::unordered_map<std::uint64_t, std::size_t> m_index; ///< (pcs, kinds) -> m_reports
    std::uint64_t m_overflow = 0; ///< conflicting pairs beyond the distinct reports held

    /// Shadow mappings of the last detector, for the next to take (makeRegion).
    static std::mutex s_spareMutex;
    static std::vector<std::unique_ptr<Region>> s_spare;
    static thread_local const wbcpu::abi::ThreadState* t_current;
    /// whoIs(t_current), set with it (setCurrent).
    static thread_local Who t_who;
    std::size_t m_slots = 0; ///< entries of the per-thread tables (Who::known)
    /// The current access's thread: its joint row, its warp's full-warp sync, its last tile
    /// sync, what it and its block learned through atomics (set by accessRegion for check()).
    struct Now {
        const std::uint32_t* jointRow = nullptr;
        const std::uint32_t* warpFull = nullptr;
        const TileSync* tile = nullptr;
        const ThreadSync* sync = nullptr;
        const BlockSync* block = nullptr;
    };
    static thread_local Now t_now;
};

} // namespace wb::cpu::detail
