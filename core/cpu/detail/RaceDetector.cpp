// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/cpu/detail/RaceDetector.h"

#include <algorithm>
#include <atomic>
#include <cinttypes>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <map>
#include <new>

#include <sys/mman.h>

namespace wb::cpu::detail {

RaceDetector* RaceDetector::active = nullptr;
void (*RaceDetector::outOfBounds)(const RaceDetector&, const Fault&) = nullptr;

/// One access kept in the shadow state (24 bytes).
struct RaceDetector::Record {
    std::uint32_t block = 0;   ///< linear block index
    std::uint32_t phase = 0;   ///< barriers the thread had passed
    std::uint32_t pc = 0;      ///< code address, relative to the library
    std::uint32_t syncGen = 0; ///< warp and tile syncs its block had completed
    std::uint32_t grid = 0;    ///< grid.sync()s the thread had passed
    std::uint16_t thread = 0;
    std::uint8_t mask = 0; ///< bytes of the word
    std::uint8_t flags = 0;

    static constexpr std::uint8_t kValid = 1, kWrite = 2, kAtomic = 4;
    /// An atomic of block or thread scope (RaceBlock / RaceThread); otherwise device or system.
    static constexpr std::uint8_t kBlockScope = 8, kThreadScope = 16;
    bool sameThread(const Record& o) const { return block == o.block && thread == o.thread; }
    bool sameEpoch(const Record& o) const
    {
        return phase == o.phase && syncGen == o.syncGen && grid == o.grid;
    }
};

/// The shadow of one 4-byte word: the two latest writes and reads by different threads, its
/// lock and the detector (m_generation) that wrote its reads and its writes last. Two cache
/// lines: a read touches only the first (lock, generations, reads) unless the word was written
/// in this launch; a write both. Reads or writes of an earlier detector count as none, so that
/// shadow memory passes from one launch to the next without being cleared (the kernel's zeroing
/// of fresh shadow pages was a fifth of a small launch's time).
struct alignas(64) RaceDetector::Cell {
    /// While blocks run on several workers: bit 0 the lock an update takes, the other bits a
    /// count of updates (a sequence lock: a reader that finds it unlocked and unchanged around
    /// its reads read a consistent cell without writing to it).
    std::uint32_t state = 0;
    std::uint32_t generation = 0;       ///< `reads` are this detector's (m_generation)
    std::uint32_t writesGeneration = 0; ///< `writes` are this detector's; else none
    std::uint32_t unused = 0;
    Record reads[2];
    alignas(64) Record writes[2];
};

namespace {

/// Knowledge keys: a block's thread (its linear index), a whole warp, or the whole block.
constexpr std::uint32_t kWarpWide = 0x8000u;   ///< | warp: every lane of the warp (sync gen)
constexpr std::uint32_t kBlockGen = 0xfffeu;   ///< every thread of the block (sync gen)
constexpr std::uint32_t kBlockPhase = 0xffffu; ///< every thread of the block (barrier phase)
/// Entries a Knowledge keeps per thread before it keeps one per block (a bound on the cost of
/// joins when every thread of a large grid publishes on one location; coarser, so a race among
/// the threads of a block that published may then be missed).
constexpr std::size_t kMaxKnowledge = 1u << 10;

constexpr std::uint64_t key(std::uint32_t block, std::uint32_t who)
{
    return (static_cast<std::uint64_t>(block) << 16) | who;
}

bool acquiring(int order)
{
    return order == wbcpu::abi::RaceAcquire || order == wbcpu::abi::RaceAcqRel ||
           order == wbcpu::abi::RaceSeqCst || order == wbcpu::abi::RaceLegacy;
}
bool releasingOrder(int order)
{
    return order == wbcpu::abi::RaceRelease || order == wbcpu::abi::RaceAcqRel ||
           order == wbcpu::abi::RaceSeqCst;
}

inline void spinPause() noexcept
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

/// Takes a spin lock word (bit 0 of `*word`); returns the word's other bits as they were.
inline std::uint32_t lockWord(std::uint32_t* word) noexcept
{
    std::uint32_t seen = __atomic_load_n(word, __ATOMIC_RELAXED);
    for (;;) {
        if (seen & 1u) {
            spinPause();
            seen = __atomic_load_n(word, __ATOMIC_RELAXED);
        } else if (__atomic_compare_exchange_n(word, &seen, seen | 1u, true, __ATOMIC_ACQUIRE,
                                               __ATOMIC_RELAXED)) {
            return seen;
        }
    }
}

std::atomic<std::uint64_t> g_serial{0};

/// Distinct reports held at most (the rest are counted): enough to sort them in run order.
constexpr std::size_t kMaxDistinct = 1u << 16;
/// Stripes of atomic locations while blocks run on several workers (one otherwise).
constexpr std::size_t kStripes = 1024;

} // namespace

/// What a thread knows to have happened before its current point beyond barriers and warp
/// syncs, learned through release/acquire: per key (a thread, a warp or a block of the grid)
/// a bound: its accesses with a sync generation (threads, warps, kBlockGen) or barrier phase
/// (kBlockPhase) below the bound happened before.
struct RaceDetector::Knowledge {
    std::unordered_map<std::uint64_t, std::uint32_t> bounds;

    bool empty() const { return bounds.empty(); }
    void clear() { bounds.clear(); }
    void raise(std::uint64_t k, std::uint32_t bound)
    {
        std::uint32_t& b = bounds[k];
        b = std::max(b, bound);
    }
    void join(const Knowledge& other)
    {
        if (&other == this) return;
        for (const auto& [k, b] : other.bounds)
            raise(k, b);
        if (bounds.size() > kMaxKnowledge) coarsen();
    }
    /// One bound per block instead of one per thread and warp.
    void coarsen()
    {
        std::unordered_map<std::uint64_t, std::uint32_t> coarse;
        for (const auto& [k, b] : bounds) {
            const auto who = static_cast<std::uint32_t>(k & 0xffffu);
            std::uint32_t& c =
                coarse[who == kBlockPhase ? k
                                          : key(static_cast<std::uint32_t>(k >> 16), kBlockGen)];
            c = std::max(c, b);
        }
        bounds = std::move(coarse);
    }
    std::uint32_t bound(std::uint64_t k) const
    {
        const auto it = bounds.find(k);
        return it == bounds.end() ? 0u : it->second;
    }
    /// An access of (block, thread) at sync generation `gen` and barrier phase `phase`.
    bool covers(std::uint32_t block, unsigned thread, std::uint32_t gen, std::uint32_t phase) const
    {
        if (bounds.empty()) return false;
        return bound(key(block, thread)) > gen ||
               bound(key(block, kWarpWide | (thread / 32u))) > gen ||
               bound(key(block, kBlockPhase)) > phase || bound(key(block, kBlockGen)) > gen;
    }
};

/// An atomic location's release sequence: what its releases published, for acquirers of
/// device or system scope (`wide`) and for block-scope acquirers of `narrowBlock` (`narrow`:
/// the releases of that block's threads, of any scope).
struct RaceDetector::SyncClock {
    Knowledge wide;
    std::uint32_t narrowBlock = ~0u;
    Knowledge narrow;
};

/// One thread's release/acquire state.
struct RaceDetector::ThreadSync {
    Knowledge acquired;  ///< learned from acquires (and from lanes it synchronised with)
    Knowledge pending;   ///< observed by relaxed atomic reads, for a later acquire fence
    bool fenced = false; ///< a release fence came before: its atomic writes publish
    int fenceScope = wbcpu::abi::RaceDevice;
    Knowledge fenceRelease; ///< what the fence would publish
};

/// One block's release/acquire state: what its threads learned before its last barrier
/// (`known`) and before the barrier they now arrive at (`arriving`).
struct RaceDetector::BlockSync {
    Knowledge known, arriving;
    std::uint32_t phase = 0; ///< the barrier phase `known` holds
};

/// Atomic locations whose addresses fall in one stripe: their lock (bit 0 of `lock`) and their
/// release sequences. A cache line each, so that workers on different stripes do not contend.
struct alignas(64) RaceDetector::Stripe {
    std::uint32_t lock = 0;
    std::unordered_map<std::uintptr_t, std::unique_ptr<SyncClock>> clocks;
};

struct RaceDetector::Region {
    std::uintptr_t begin = 0, end = 0;
    int id = 0;
    bool shared = false;
    bool readOnly = false; ///< addRegion's `readOnly`: reads are not recorded
    /// A worker's shared memory whose accesses may be held: its index in Worker::regions.
    bool holdable = false;
    std::uint8_t index = 0;
    /// A worker's shared memory: per word, whether it was written in the current barrier
    /// interval (1), and those words, to clear them when it ends (hold()).
    std::vector<std::uint8_t> written;
    std::vector<std::uint32_t> writtenWords;
    Cell* cells = nullptr; ///< anonymous mapping: zero pages only where the kernel accesses
    std::size_t bytes = 0;
    /// Per word, made when first needed: a read of another thread, unordered with the read that
    /// displaced it from the shadow (its block + 1 and barrier phase; 0: none), and whether the
    /// word is crowded (kCrowded in `phase`): it may hide a race with a displaced access. An
    /// entry is read and written under its word's lock, like the word's Cell.
    struct Displaced {
        std::uint32_t block;
        std::uint32_t phase;
    };
    static constexpr std::uint32_t kCrowded = 0x80000000u;
    std::atomic<Displaced*> displaced{nullptr};
    std::size_t displacedBytes = 0;
    std::mutex displacedMutex; ///< making `displaced`
    std::atomic<std::uint64_t> crowdedWords{0};

    Displaced* displacedIfAny() const { return displaced.load(std::memory_order_acquire); }
    Displaced& displacedAt(std::size_t word)
    {
        if (Displaced* d = displaced.load(std::memory_order_acquire)) return d[word];
        return makeDisplaced()[word];
    }
    [[gnu::noinline]] Displaced* makeDisplaced()
    {
        Displaced* d = displaced.load(std::memory_order_acquire);
        if (!d) {
            std::lock_guard lock(displacedMutex);
            d = displaced.load(std::memory_order_relaxed);
            if (!d) {
                displacedBytes = (end - begin + 3) / 4 * sizeof(Displaced);
                void* m = mmap(nullptr, displacedBytes, PROT_READ | PROT_WRITE,
                               MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
                if (m == MAP_FAILED) throw std::bad_alloc();
                d = static_cast<Displaced*>(m);
                displaced.store(d, std::memory_order_release);
            }
        }
        return d;
    }
    void crowd(std::size_t word)
    {
        Displaced& d = displacedAt(word);
        if (d.phase & kCrowded) return;
        d.phase |= kCrowded;
        crowdedWords.fetch_add(1, std::memory_order_relaxed);
    }
    /// Forgets the crowding of an earlier launch (a reused shadow).
    void clearCrowding()
    {
        if (Displaced* d = displaced.exchange(nullptr)) munmap(d, displacedBytes);
        crowdedWords = 0;
    }

    ~Region()
    {
        if (cells) munmap(cells, bytes);
        clearCrowding();
    }
};

namespace {
/// Held accesses a worker keeps at most; more are checked at once (an interval's first ones).
constexpr std::size_t kMaxHeld = std::size_t{1} << 16;
} // namespace

/// What one worker thread keeps for the block it runs (all blocks of a cooperative launch):
/// touched only by that thread.
struct RaceDetector::Worker {
    Lane lane;                        ///< first: holdRead() reaches it through t_worker
    std::vector<std::uint32_t> phase; ///< barrier count of each thread (slot())
    std::vector<std::uint32_t> grid;  ///< grid.sync() count of each thread (slot())
    /// Per block (one unless cooperative): warp and tile syncs completed so far; every access
    /// records it (Record::syncGen).
    std::vector<std::uint32_t> syncGen;
    /// Per thread (slot()) and lane of its warp: the generation of the last warp sync both took
    /// part in. An earlier access by lane a at generation g is ordered before this thread's
    /// access when joint[slot * 32 + a] > g. Made by the first sync of part of a warp (empty:
    /// all zero; a launch's workers would otherwise clear 4 KiB per warp for nothing).
    std::vector<std::uint32_t> joint;
    /// Per warp (slot() / 32): the last sync every lane of the warp took part in (counts as
    /// joint for every pair of its lanes; most warp operations have the full mask).
    std::vector<std::uint32_t> warpFull;
    /// Per thread (slot()): the last tile sync (64–512 threads) it took part in; an earlier
    /// access by a thread of that tile at generation g < its generation is ordered.
    std::vector<TileSync> tile;
    bool warpSynced = false; ///< syncGen / joint / warpFull / tile written since startBlock()
    // Release/acquire through atomics (all empty until a kernel's atomics publish something).
    /// Per thread (slot()): what it learned from acquires, made on first use.
    std::vector<std::unique_ptr<ThreadSync>> threadSync;
    bool anyThreadSync = false; ///< some threadSync entry exists
    /// Per block (one unless cooperative): what its threads learned before its last barrier.
    std::vector<std::unique_ptr<BlockSync>> blockSync;
    bool anyBlockSync = false; ///< some blockSync entry exists
    /// This worker's instance of the shared memory (addWorkerRegion).
    std::vector<std::unique_ptr<Region>> regions;
    std::uintptr_t low = ~std::uintptr_t{0}, high = 0;
    Region* last = nullptr;     ///< the region of its last access (accessAs)
    Region* previous = nullptr; ///< the region `last` was before (two arrays read in turn)
    /// Accesses to its shared memory held until their barrier interval ends (hold()), in the
    /// order they were made: [held, lane.next), room for kMaxHeld.
    std::unique_ptr<Held[]> held;
    bool anyHeld() const noexcept { return lane.next != held.get(); }
    /// learnSharedWrites(): per barrier phase, the __shared__ variables (Region::index < 64)
    /// its first block wrote in that interval; whether that block ended; the variables whose
    /// reads the current interval lets go.
    std::vector<std::uint64_t> writtenIn;
    bool ranBlock = false, learned = false;
    std::uint64_t skipping = 0;
    std::uint32_t passed = 0; ///< barriers of the running block completed (barrierPassed)
    /// Its accesses to shared memory are held (fiber mode decides too: Lane::on): not in a
    /// cooperative launch, and only while no release/acquire state exists, which moves at
    /// barriers (barrierArriving), so that each access is checked under the state it was made
    /// under.
    bool holdable = false;
    std::uint64_t sequence = 0; ///< the running block's place in the run order
    std::uint64_t found = 0;    ///< conflicts found so far (orders the reports of one block)
};

/// A report and where in the run it was first seen (the earliest block in run order).
struct RaceDetector::Kept {
    Report report;
    std::uint64_t sequence = 0, found = 0;
    bool shared = false;
};

std::mutex RaceDetector::s_spareMutex;
std::vector<std::unique_ptr<RaceDetector::Region>> RaceDetector::s_spare;
thread_local const wbcpu::abi::ThreadState* RaceDetector::t_current = nullptr;
thread_local RaceDetector::Who RaceDetector::t_who;
constinit thread_local std::uintptr_t RaceDetector::t_sharedLow = 0;
constinit thread_local std::uintptr_t RaceDetector::t_sharedSize = 0;
constinit thread_local void* RaceDetector::t_worker = nullptr;
constinit thread_local std::uint64_t RaceDetector::t_serial = 0;
thread_local RaceDetector::Now RaceDetector::t_now;

RaceDetector::RaceDetector(std::uintptr_t libraryBase, wbcpu::abi::Dim blockSize,
                           wbcpu::abi::Dim gridSize, std::size_t maxReports, bool cooperative,
                           int workers)
    : m_base(libraryBase)
    , m_blockSize(blockSize)
    , m_gridSize(gridSize)
    , m_maxReports(maxReports)
    , m_cooperative(cooperative)
    , m_parallel(!cooperative && workers > 1)
    , m_serial(++g_serial)
    , m_generation(static_cast<std::uint32_t>(m_serial % 0x7fffffffu + 1u) << 1)
    , m_threads(blockSize.x * blockSize.y * blockSize.z)
{
    const std::size_t blocks =
        cooperative ? static_cast<std::size_t>(gridSize.x) * gridSize.y * gridSize.z : 1;
    const std::size_t warps = (m_threads + 31u) / 32u;
    m_slots = blocks * warps * 32u;
    const int count = cooperative ? 1 : std::max(1, workers);
    for (int i = 0; i < count; ++i) {
        auto w = std::make_unique<Worker>();
        w->phase.assign(blocks * warps * 32u, 0);
        w->grid.assign(blocks * warps * 32u, 0);
        w->syncGen.assign(blocks, 0);
        w->warpFull.assign(blocks * warps, 0);
        w->tile.assign(blocks * warps * 32u, TileSync{});
        w->threadSync.resize(blocks * warps * 32u);
        w->blockSync.resize(blocks);
        // w->held is made by the first access held (hold()): most launches hold none.
        m_workers.push_back(std::move(w));
    }
    m_stripes = std::make_unique<Stripe[]>(m_parallel ? kStripes : 1);
}

[[gnu::always_inline]] inline std::size_t RaceDetector::slot(std::uint32_t block,
                                                             unsigned linear) const
{
    if (!m_cooperative) return linear;
    // Warp-aligned per block, so that a warp's threads share one row block of joint.
    return static_cast<std::size_t>(block) * ((m_threads + 31u) / 32u * 32u) + linear;
}

std::uint32_t RaceDetector::blockOf(const wbcpu::abi::ThreadState* st) const
{
    const wbcpu::abi::Dim& b = st->blockIndex;
    return b.x + m_gridSize.x * (b.y + m_gridSize.y * b.z);
}

[[gnu::always_inline]] inline RaceDetector::Worker& RaceDetector::here() const noexcept
{
    static_assert(offsetof(Worker, lane) == 0);
    if (t_serial == m_serial && t_worker) return *static_cast<Worker*>(t_worker);
    return *m_workers[0];
}

RaceDetector::Stripe& RaceDetector::stripeOf(std::uintptr_t location) const noexcept
{
    // Locations of one 8-byte word share a stripe (an atomic may be narrower than another).
    return m_stripes[m_parallel ? (location >> 3) % kStripes : 0];
}

void RaceDetector::lockLocation(const void* address) noexcept
{
    if (m_parallel) lockWord(&stripeOf(reinterpret_cast<std::uintptr_t>(address)).lock);
}

void RaceDetector::unlockLocation(const void* address) noexcept
{
    if (m_parallel)
        __atomic_store_n(&stripeOf(reinterpret_cast<std::uintptr_t>(address)).lock, 0u,
                         __ATOMIC_RELEASE);
}

RaceDetector::~RaceDetector()
{
    if (active == this) active = nullptr;
    std::vector<std::unique_ptr<Region>> spare = std::move(m_regions);
    for (const std::unique_ptr<Worker>& w : m_workers)
        for (std::unique_ptr<Region>& r : w->regions)
            spare.push_back(std::move(r));
    std::lock_guard lock(s_spareMutex);
    s_spare.swap(spare); // the previous spare ones go
}

std::unique_ptr<RaceDetector::Region> RaceDetector::makeRegion(const void* begin, std::size_t size,
                                                               int id, bool shared)
{
    const std::size_t bytes = (size + 3) / 4 * sizeof(Cell);
    std::unique_ptr<Region> r;
    {
        // An earlier detector's shadow of about this size: its cells are stale (Cell::state).
        std::lock_guard lock(s_spareMutex);
        for (std::unique_ptr<Region>& spare : s_spare)
            if (spare && spare->bytes >= bytes && spare->bytes <= 2 * bytes + (1u << 21)) {
                r = std::move(spare);
                break;
            }
    }
    if (r)
        r->clearCrowding();
    else
        r = std::make_unique<Region>();
    r->begin = reinterpret_cast<std::uintptr_t>(begin);
    r->end = r->begin + size;
    r->id = id;
    r->shared = shared;
    r->readOnly = false;
    r->holdable = false;
    r->written.clear();
    r->writtenWords.clear();
    if (r->cells) return r;
    r->bytes = bytes;
    void* cells =
        mmap(nullptr, r->bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (cells == MAP_FAILED) throw std::bad_alloc();
    // Transparent huge pages where the system allows them: one fault per 2 MiB of shadow
    // instead of one per 4 KiB (the shadow is 32 times the watched memory).
    madvise(cells, r->bytes, MADV_HUGEPAGE);
    r->cells = static_cast<Cell*>(cells);
    return r;
}

void RaceDetector::addRegion(const void* begin, std::size_t size, int id, bool shared,
                             bool readOnly)
{
    if (size == 0) return;
    auto r = makeRegion(begin, size, id, shared);
    r->readOnly = readOnly && !shared;
    if (r->readOnly && m_readOnlyCount < kFastReadOnly && size >= 16)
        m_readOnly[m_readOnlyCount++] = ReadOnlyRange{r->begin, size - 16};
    m_low = std::min(m_low, r->begin);
    widenSpan(r->begin, r->end);
    m_high = std::max(m_high, r->end);
    m_regions.push_back(std::move(r));
}

void RaceDetector::widenSpan(std::uintptr_t low, std::uintptr_t high) noexcept
{
    if (m_spanSize) {
        high = std::max(high, m_spanLow + m_spanSize);
        low = std::min(low, m_spanLow);
    }
    m_spanLow = low;
    m_spanSize = high - low;
}

void RaceDetector::addWorkerRegion(int worker, const void* begin, std::size_t size, int id)
{
    if (size == 0 || worker < 0 || static_cast<std::size_t>(worker) >= m_workers.size()) return;
    Worker& w = *m_workers[static_cast<std::size_t>(worker)];
    auto r = makeRegion(begin, size, id, true);
    r->written.assign((size + 3) / 4, 0);
    // Held accesses name their region in a byte (Held::region).
    r->holdable = !m_cooperative && w.regions.size() < 256;
    if (r->holdable) __atomic_store_n(&m_mayHold, true, __ATOMIC_RELAXED);
    r->index = static_cast<std::uint8_t>(w.regions.size());
    w.low = std::min(w.low, r->begin);
    w.high = std::max(w.high, r->end);
    w.regions.push_back(std::move(r));
}

void RaceDetector::startBlock(int worker, std::uint64_t sequence)
{
    if (worker >= 0 && static_cast<std::size_t>(worker) < m_workers.size()) {
        t_worker = m_workers[static_cast<std::size_t>(worker)].get();
        t_serial = m_serial;
    }
    t_current = nullptr;
    Worker& w = here();
    t_sharedLow = w.low;
    t_sharedSize = w.high > w.low ? w.high - w.low : 0;
    if (w.ranBlock) endInterval(w, w.passed, 0, true); // the previous block's last interval
    w.ranBlock = true;
    w.lane.on = false;
    w.passed = 0;
    w.sequence = sequence;
    w.found = 0;
    std::fill(w.phase.begin(), w.phase.end(), 0u);
    std::fill(w.grid.begin(), w.grid.end(), 0u);
    if (w.warpSynced) { // the sync tables are only touched by kernels that sync warps or tiles
        std::fill(w.syncGen.begin(), w.syncGen.end(), 0u);
        std::fill(w.joint.begin(), w.joint.end(), 0u);
        std::fill(w.warpFull.begin(), w.warpFull.end(), 0u);
        std::fill(w.tile.begin(), w.tile.end(), TileSync{});
        w.warpSynced = false;
    }
    if (w.anyThreadSync) {
        for (auto& t : w.threadSync)
            t.reset();
        w.anyThreadSync = false;
    }
    if (w.anyBlockSync) {
        for (auto& b : w.blockSync)
            b.reset();
        w.anyBlockSync = false;
    }
    w.holdable = !m_cooperative;
}

RaceDetector::ThreadSync& RaceDetector::threadSync(Worker& w, const Who& who)
{
    std::unique_ptr<ThreadSync>& t = w.threadSync[who.slot];
    if (!t) {
        t = std::make_unique<ThreadSync>();
        w.anyThreadSync = true;
        w.holdable = false;
        w.lane.on = false;
    }
    return *t;
}

RaceDetector::BlockSync& RaceDetector::blockSync(Worker& w, std::uint32_t block)
{
    std::unique_ptr<BlockSync>& b = w.blockSync[m_cooperative ? block : 0u];
    if (!b) {
        b = std::make_unique<BlockSync>();
        w.anyBlockSync = true;
        w.holdable = false;
        w.lane.on = false;
    }
    return *b;
}

void RaceDetector::barrierArriving(const wbcpu::abi::ThreadState* st)
{
    Worker& w = here();
    if (!w.anyThreadSync) return; // nothing learned through atomics
    const Who who = whoIs(st);
    if (!who.known || !w.threadSync[who.slot]) return;
    ThreadSync& t = *w.threadSync[who.slot];
    if (t.acquired.empty()) return;
    blockSync(w, who.block).arriving.join(t.acquired);
    t.acquired.clear(); // its block's from the barrier on
}

void RaceDetector::barrierPassed(const wbcpu::abi::ThreadState* st)
{
    Worker& w = here();
    const std::size_t i = slot(blockOf(st), st->linear);
    if (i >= w.phase.size()) return;
    // The first thread out of a barrier of the block (the others pass it before they run any
    // code): the interval before it ended.
    if (!m_cooperative && w.phase[i] + 1u > w.passed) {
        endInterval(w, w.phase[i], w.phase[i] + 1u, false);
        w.passed = w.phase[i] + 1u;
    }
    ++w.phase[i];
    if (w.lane.on && w.lane.thread == st->linear) w.lane.phase = w.phase[i];
    // The first thread out of the barrier: every thread arrived, what they learned is the
    // block's now (the others run no code before they pass it too).
    std::unique_ptr<BlockSync>& b = w.blockSync[m_cooperative ? blockOf(st) : 0u];
    if (b && w.phase[i] > b->phase) {
        b->known.join(b->arriving);
        b->arriving.clear();
        b->phase = w.phase[i];
    }
}

void RaceDetector::gridPassed(const wbcpu::abi::ThreadState* st)
{
    Worker& w = here();
    const std::size_t i = slot(blockOf(st), st->linear);
    if (i < w.grid.size()) ++w.grid[i];
}

void RaceDetector::warpSynced(unsigned warpBase, unsigned mask)
{
    const wbcpu::abi::ThreadState* current = t_current;
    if (!current) return;
    Worker& w = here();
    checkHeld(w, false);
    const std::size_t base = slot(blockOf(current), warpBase);
    if (base + 32u > m_slots) return;
    w.warpSynced = true;
    const std::uint32_t generation = ++w.syncGen[m_cooperative ? blockOf(current) : 0u];
    // Every lane of the warp (shuffles and votes mostly are): one number for the warp instead
    // of 32 rows.
    const unsigned lanes = std::min(32u, m_threads - warpBase);
    const unsigned all = lanes >= 32u ? 0xffffffffu : (1u << lanes) - 1u;
    if (w.anyThreadSync) shareKnowledge(w, base, 32u, mask & all);
    if ((mask & all) == all) {
        w.warpFull[base / 32u] = generation;
        return;
    }
    if (w.joint.empty()) w.joint.assign(m_slots * 32u, 0);
    for (unsigned b = 0; b < 32; ++b) {
        if (!(mask & (1u << b))) continue;
        std::uint32_t* row = &w.joint[(base + b) * 32u];
        for (unsigned a = 0; a < 32; ++a)
            if (mask & (1u << a)) row[a] = generation;
    }
}

void RaceDetector::tileSynced(unsigned first, unsigned count)
{
    const wbcpu::abi::ThreadState* current = t_current;
    if (!current) return;
    Worker& w = here();
    checkHeld(w, false);
    const std::uint32_t block = blockOf(current);
    w.warpSynced = true;
    const std::uint32_t generation = ++w.syncGen[m_cooperative ? block : 0u];
    if (w.anyThreadSync && slot(block, first) + count <= w.threadSync.size())
        shareKnowledge(w, slot(block, first), count, 0xffffffffu);
    for (unsigned t = first; t < first + count; ++t) {
        const std::size_t i = slot(block, t);
        if (i < w.tile.size())
            w.tile[i] = TileSync{generation, static_cast<std::uint16_t>(first),
                                 static_cast<std::uint16_t>(count)};
    }
}

void RaceDetector::report(const Record& earlier, const Record& now, const Region& region,
                          std::uintptr_t address, unsigned size)
{
    const auto kinds = static_cast<std::uint64_t>(((earlier.flags & Record::kWrite) ? 2 : 0) |
                                                  ((now.flags & Record::kWrite) ? 1 : 0));
    const std::uint64_t key =
        (static_cast<std::uint64_t>(earlier.pc & 0x3fffffffu) << 32) | now.pc | (kinds << 62);
    const auto side = [&](const Record& r) {
        Side s;
        s.pc = r.pc;
        s.write = (r.flags & Record::kWrite) != 0;
        s.atomic = (r.flags & Record::kAtomic) != 0;
        s.block = {r.block % m_gridSize.x, (r.block / m_gridSize.x) % m_gridSize.y,
                   r.block / (m_gridSize.x * m_gridSize.y)};
        s.thread = {r.thread % m_blockSize.x, (r.thread / m_blockSize.x) % m_blockSize.y,
                    r.thread / (m_blockSize.x * m_blockSize.y)};
        return s;
    };
    const auto example = [&](Report& rep) {
        rep.region = region.id;
        rep.address = address;
        rep.offset = address - region.begin;
        rep.size = size;
        rep.first = side(earlier);
        rep.second = side(now);
    };
    Worker& w = here();
    const std::uint64_t found = w.found++;
    std::lock_guard lock(m_reportMutex);
    if (auto it = m_index.find(key); it != m_index.end()) {
        Kept& k = m_reports[it->second];
        ++k.report.count;
        // The example of the earliest block in run order, whichever worker found it first.
        if (std::pair(w.sequence, found) < std::pair(k.sequence, k.found)) {
            example(k.report);
            k.sequence = w.sequence;
            k.found = found;
            k.shared = region.shared;
        }
        return;
    }
    if (m_reports.size() >= kMaxDistinct) {
        ++m_overflow;
        return;
    }
    Kept k;
    example(k.report);
    k.report.count = 1;
    k.sequence = w.sequence;
    k.found = found;
    k.shared = region.shared;
    m_index.emplace(key, m_reports.size());
    m_reports.push_back(k);
}

std::vector<RaceDetector::Report> RaceDetector::reports() const
{
    std::lock_guard lock(m_reportMutex);
    std::vector<const Kept*> order;
    for (const Kept& k : m_reports)
        order.push_back(&k);
    std::sort(order.begin(), order.end(), [](const Kept* a, const Kept* b) {
        return std::pair(a->sequence, a->found) < std::pair(b->sequence, b->found);
    });
    std::vector<Report> out;
    for (std::size_t i = 0; i < order.size() && i < m_maxReports; ++i)
        out.push_back(order[i]->report);
    return out;
}

std::uint64_t RaceDetector::dropped() const
{
    std::lock_guard lock(m_reportMutex);
    std::uint64_t n = m_overflow;
    if (m_reports.size() > m_maxReports) {
        // The same reports reports() leaves out: the latest in run order.
        std::vector<std::pair<std::pair<std::uint64_t, std::uint64_t>, std::uint64_t>> all;
        for (const Kept& k : m_reports)
            all.push_back({{k.sequence, k.found}, k.report.count});
        std::sort(all.begin(), all.end());
        for (std::size_t i = m_maxReports; i < all.size(); ++i)
            n += all[i].second;
    }
    return n;
}

bool RaceDetector::hasGlobalReports() const
{
    std::lock_guard lock(m_reportMutex);
    return m_overflow > 0 ||
           std::any_of(m_reports.begin(), m_reports.end(),
                       [](const Kept& k) { return !k.shared; }) ||
           std::any_of(m_regions.begin(), m_regions.end(), [](const std::unique_ptr<Region>& r) {
               return !r->shared && r->crowdedWords.load(std::memory_order_relaxed) > 0;
           });
}

[[gnu::always_inline]] inline bool RaceDetector::ordered(const Record& r, const Record& now) const
{
    const Now& n = t_now;
    if (r.block != now.block) {
        if (r.grid != now.grid) return true; // a grid.sync() orders blocks
    } else {
        if (r.phase != now.phase) return true; // a barrier orders the same block
        // A warp sync both threads took part in, after the earlier access.
        if (r.thread / 32u == now.thread / 32u && n.warpFull &&
            std::max(*n.warpFull, n.jointRow ? n.jointRow[r.thread % 32u] : 0u) > r.syncGen)
            return true;
        // A sync of a tile of several warps both took part in, after it.
        if (n.tile && n.tile->generation > r.syncGen && r.thread >= n.tile->first &&
            r.thread < n.tile->first + n.tile->count)
            return true;
    }
    // Release/acquire: what the thread or its block learned through atomics.
    return (n.sync && n.sync->acquired.covers(r.block, r.thread, r.syncGen, r.phase)) ||
           (n.block && n.block->known.covers(r.block, r.thread, r.syncGen, r.phase));
}

namespace {

/// A record as three 64-bit words (block and barrier phase; code address and warp-sync
/// generation; grid phase, thread, byte mask and flags), so that records compare in a few
/// instructions.
struct Packed {
    static constexpr std::uint64_t kThread = 0xffffull << 32, kMask = 0xffull << 48;
    template <typename R> [[gnu::always_inline]] static std::uint64_t word(const R& r, int i)
    {
        std::uint64_t v;
        std::memcpy(&v, reinterpret_cast<const unsigned char*>(&r) + 8 * i, sizeof v);
        return v;
    }
};

} // namespace

[[gnu::always_inline]] inline bool RaceDetector::sameRead(const Record& kept, const Record& now)
{
    static_assert(sizeof(Record) == 24 && offsetof(Record, phase) == 4 &&
                  offsetof(Record, pc) == 8 && offsetof(Record, syncGen) == 12 &&
                  offsetof(Record, grid) == 16 && offsetof(Record, thread) == 20 &&
                  offsetof(Record, mask) == 22 && offsetof(Record, flags) == 23);
    // The update would store `now` over `kept` with the byte masks merged: the same record
    // (same thread, epoch, code address and flags, and its bytes among kept's).
    const auto w = [](const Record& r, int i) { return Packed::word(r, i); };
    return w(kept, 0) == w(now, 0) && w(kept, 1) == w(now, 1) &&
           ((w(kept, 2) ^ w(now, 2)) & ~Packed::kMask) == 0 && (kept.mask | now.mask) == kept.mask;
}

[[gnu::always_inline]] inline bool RaceDetector::sharedRead(const Record* reads, const Record& now)
{
    // Both kept reads like `now` in everything but the thread: same block, barrier phase,
    // warp-sync generation, grid phase, code address, bytes and kind.
    const auto w = [](const Record& r, int i) { return Packed::word(r, i); };
    const std::uint64_t n0 = w(now, 0), n1 = w(now, 1), n2 = w(now, 2);
    if ((w(reads[0], 0) ^ n0) | (w(reads[0], 1) ^ n1) | (w(reads[1], 0) ^ n0) |
        (w(reads[1], 1) ^ n1) | ((w(reads[0], 2) ^ n2) & ~Packed::kThread) |
        ((w(reads[1], 2) ^ n2) & ~Packed::kThread))
        return false;
    if (reads[0].thread == now.thread || reads[1].thread == now.thread) return false;
    // And their threads in two warps, or all three in one: no warp sync can order a later
    // access with both kept reads and not with `now`.
    const unsigned w0 = reads[0].thread / 32u, w1 = reads[1].thread / 32u;
    return w0 != w1 || w0 == now.thread / 32u;
}

[[gnu::always_inline]] inline bool RaceDetector::quietRead(Record* reads, const Record& now,
                                                           Region& region, std::size_t word)
{
    if (now.flags & Record::kAtomic) return false;
    // The same thread read the same bytes from the same code in the same epoch: the update
    // would store the record the cell holds.
    if ((reads[0].flags & Record::kValid) && !(region.shared && reads[0].block != now.block) &&
        sameRead(reads[0], now))
        return true;
    // A third thread reading what two others of its block read, in the same epoch, from the
    // same code (a row or a column of a matrix that a block's threads all read, a value
    // broadcast to a warp): the kept reads stay and this one is not kept, so that read-shared
    // words are not rewritten by every reader.
    //
    // Why no race goes unseen that keeping it would show. Keeping it (the two latest) would
    // displace reads[1]: unordered with `now` (same barrier phase and warp-sync generation, so
    // no barrier, warp or tile sync came between them, and release/acquire knowledge about a
    // block's accesses of this generation needs a release after them, which starts a new
    // generation), so it marks the word as possibly crowded for a later write of another block
    // (global memory) or of this barrier phase. The same mark is made here, with the same block
    // and phase, so crowding does not change. A later write W is compared with reads[0] and
    // reads[1] instead of `now` and reads[0]. All three have the same code address (the same
    // report: a report names a pair of code addresses and kinds), block, barrier phase,
    // warp-sync generation and grid phase, so W unordered with `now` is unordered with them
    // too, unless something that tells threads of one block apart orders W with both: a warp
    // sync (only when both are in W's warp, and then `now` is too, so it is ordered as well,
    // unless the sync's mask left it out), a tile sync of several warps that took in both and
    // not `now`, release/acquire knowledge of both threads and not of `now`'s, or W being by
    // one of them and ordered with the other that way. A write of another block, or of this
    // block in this barrier phase, finds the word marked, so the race those cases could hide is
    // counted as crowded (reported as possibly missed), as for any read the two slots let go.
    // A write of this block in a later barrier phase is ordered with all three.
    if (!(reads[0].flags & Record::kValid) || !(reads[1].flags & Record::kValid) ||
        !sharedRead(reads, now))
        return false;
    Region::Displaced& d = region.displacedAt(word);
    const std::uint32_t block = now.block + 1u;
    const std::uint32_t phase = (d.phase & Region::kCrowded) | (now.phase & ~Region::kCrowded);
    if (d.block != block || d.phase != phase) {
        d.block = block;
        d.phase = phase;
    }
    return true;
}

[[gnu::always_inline]] inline void RaceDetector::check(Cell& cell, const Record& now,
                                                       Region& region, std::size_t word,
                                                       std::uintptr_t address, unsigned size)
{
    const auto conflicts = [&](const Record& r) {
        if (!(r.flags & Record::kValid) || !(r.mask & now.mask) || r.sameThread(now)) return false;
        if (region.shared && r.block != now.block) return false; // another block's shared memory
        if ((r.flags & Record::kAtomic) && (now.flags & Record::kAtomic)) {
            // Atomics race only when a scope leaves out the other thread: a block-scope atomic
            // of another block, a thread-scope one of another thread.
            const std::uint8_t scopes = r.flags | now.flags;
            if (scopes & Record::kThreadScope) return !ordered(r, now);
            if (r.block == now.block || !(scopes & Record::kBlockScope)) return false;
        }
        return !ordered(r, now);
    };
    const bool write = (now.flags & Record::kWrite) != 0;
    const bool writesLive = cell.writesGeneration == m_generation;
    if (writesLive)
        for (const Record& r : cell.writes)
            if (conflicts(r)) report(r, now, region, address, size);
    if (write)
        for (const Record& r : cell.reads)
            if (conflicts(r)) report(r, now, region, address, size);
    // A write where a displaced read may have been concurrent with it: of another block (global
    // memory), or of its block in the same barrier phase.
    if (write) {
        if (const Region::Displaced* displaced = region.displacedIfAny()) {
            const Region::Displaced& d = displaced[word];
            if (d.block && !(d.phase & Region::kCrowded) &&
                (d.block - 1u != now.block ? !region.shared : d.phase == now.phase))
                region.crowd(word);
        }
    }

    // Keep the two latest accesses of this kind by different threads.
    if (write && !writesLive) { // the first write of this launch
        cell.writes[0] = cell.writes[1] = Record{};
        cell.writesGeneration = m_generation;
    }
    Record* slots = write ? cell.writes : cell.reads;
    const auto stale = [&](const Record& r) {
        return !(r.flags & Record::kValid) || (region.shared && r.block != now.block);
    };
    if (!write && quietRead(slots, now, region, word)) return;
    if (!stale(slots[0]) && slots[0].sameThread(now)) {
        const std::uint8_t mask = slots[0].sameEpoch(now)
                                      ? static_cast<std::uint8_t>(slots[0].mask | now.mask)
                                      : now.mask;
        slots[0] = now;
        slots[0].mask = mask;
        return;
    }
    if (!stale(slots[1]) && slots[1].sameThread(now)) {
        const std::uint8_t mask = slots[1].sameEpoch(now)
                                      ? static_cast<std::uint8_t>(slots[1].mask | now.mask)
                                      : now.mask;
        slots[1] = slots[0];
        slots[0] = now;
        slots[0].mask = mask;
        return;
    }
    // A third thread: the older of the two is no longer compared. Where it was unordered with
    // this access, a race with it may go unseen: a displaced write makes the word crowded, a
    // displaced read does when a write comes that it may be concurrent with.
    const Record gone = slots[1];
    slots[1] = stale(slots[0]) ? Record{} : slots[0];
    slots[0] = now;
    if (stale(gone) || ordered(gone, now)) return;
    if (gone.flags & Record::kWrite) {
        if (!((gone.flags & Record::kAtomic) && (now.flags & Record::kAtomic))) region.crowd(word);
    } else {
        Region::Displaced& d = region.displacedAt(word);
        d.block = gone.block + 1u;
        d.phase = (d.phase & Region::kCrowded) | (gone.phase & ~Region::kCrowded);
    }
}

RaceDetector::Who RaceDetector::whoIs(const wbcpu::abi::ThreadState* st) const
{
    Who who;
    who.block = blockOf(st);
    who.thread = st->linear;
    who.slot = slot(who.block, who.thread);
    who.known = who.slot < m_slots;
    return who;
}

void RaceDetector::setCurrent(const wbcpu::abi::ThreadState* st) noexcept
{
    t_current = st;
    if (st) t_who = whoIs(st);
    if (t_serial == m_serial && t_worker) laneUp(*static_cast<Worker*>(t_worker));
}

void RaceDetector::laneUp(Worker& w) const noexcept
{
    Lane& l = w.lane;
    l.on = t_current && t_who.known && w.holdable;
    if (!l.on) return;
    l.block = t_who.block;
    l.thread = static_cast<std::uint16_t>(t_who.thread);
    l.phase = w.phase[t_who.slot];
}

[[gnu::always_inline]] inline RaceDetector::Who RaceDetector::who(const Worker& w) const
{
    if (t_current) return t_who; // fiber mode: the host said who runs (setCurrent)
    // Loop mode: the block loop stores the coordinates before each thread.
    const wbcpu::abi::Current& c = wb_cpu_current;
    Who who;
    who.block = c.block.x + m_gridSize.x * (c.block.y + m_gridSize.y * c.block.z);
    who.thread = c.thread.x + m_blockSize.x * (c.thread.y + m_blockSize.y * c.thread.z);
    who.slot = slot(who.block, who.thread);
    who.known = who.slot < w.phase.size();
    return who;
}

void RaceDetector::addGuard(int id, const void* low, const void* high)
{
    Guard g;
    g.id = id;
    g.low = reinterpret_cast<std::uintptr_t>(low);
    g.high = reinterpret_cast<std::uintptr_t>(high);
    for (const std::unique_ptr<Region>& r : m_regions)
        if (r->id == id) g.begin = r->begin;
    m_guardLow = std::min(m_guardLow, g.low);
    widenSpan(g.low, g.high);
    m_guardHigh = std::max(m_guardHigh, g.high);
    m_guards.push_back(g);
}

void RaceDetector::guardHit(Worker& w, const Who* known, std::uintptr_t a, std::size_t size,
                            bool write, const void* pc)
{
    for (const Guard& g : m_guards) {
        if (a >= g.high || a + size <= g.low) continue;
        const Who who = known ? *known : this->who(w);
        Fault f;
        f.region = g.id;
        f.offset = static_cast<std::int64_t>(a) - static_cast<std::int64_t>(g.begin);
        f.size = size;
        f.write = write;
        f.pc = static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(pc) - m_base);
        f.block = {who.block % m_gridSize.x, (who.block / m_gridSize.x) % m_gridSize.y,
                   who.block / (m_gridSize.x * m_gridSize.y)};
        f.thread = {who.thread % m_blockSize.x, (who.thread / m_blockSize.x) % m_blockSize.y,
                    who.thread / (m_blockSize.x * m_blockSize.y)};
        f.address = a;
        if (outOfBounds) outOfBounds(*this, f);
        return;
    }
}

void RaceDetector::currentThread(wbcpu::abi::Dim& block, wbcpu::abi::Dim& thread) const
{
    if (const wbcpu::abi::ThreadState* st = t_current) {
        block = st->blockIndex;
        thread = st->threadIndex;
        return;
    }
    const wbcpu::abi::Current& c = wb_cpu_current;
    block = c.block;
    thread = c.thread;
}

void RaceDetector::locate(Fault& fault) const
{
    for (const Guard& g : m_guards)
        if (fault.address >= g.low && fault.address < g.high) {
            fault.region = g.id;
            fault.offset =
                static_cast<std::int64_t>(fault.address) - static_cast<std::int64_t>(g.begin);
            return;
        }
}

[[gnu::always_inline]] inline bool RaceDetector::mayConflict(const Record& write, const Record& now,
                                                             bool shared)
{
    // What check()'s conflicts() can tell without ordered(): another block's write in another
    // grid phase, or its block's in another barrier phase, is ordered with `now`.
    if (!(write.flags & Record::kValid) || !(write.mask & now.mask) || write.sameThread(now))
        return false;
    if (write.block != now.block) return !shared && write.grid == now.grid;
    return write.phase == now.phase;
}

[[gnu::always_inline]] inline void RaceDetector::setNow(Worker& w, std::size_t slot,
                                                        std::size_t block) const
{
    t_now = Now{w.joint.empty() ? nullptr : &w.joint[slot * 32u], &w.warpFull[slot / 32u],
                &w.tile[slot], w.threadSync[slot].get(), w.blockSync[block].get()};
}

namespace {

template <typename T> [[gnu::always_inline]] inline T relaxed(const T& v) noexcept
{
    return __atomic_load_n(&v, __ATOMIC_RELAXED);
}

} // namespace

[[gnu::always_inline]] inline bool RaceDetector::quietUnlocked(const Cell& cell, const Record& now,
                                                               Region& region, std::size_t word)
{
    // A sequence lock's reader: the cell's state before and after reading it, unlocked and
    // unchanged, so what was read is the cell as one update left it (every update takes the
    // lock and counts). If check() on that cell would neither report nor change anything, the
    // read is done: it is as if it had taken the lock at that moment and found nothing to do,
    // which is an order of the word's updates that the locked path allows too (workers take the
    // lock in any order). Otherwise the caller takes the lock and checks as usual.
    const std::uint32_t before = __atomic_load_n(&cell.state, __ATOMIC_ACQUIRE);
    if ((before & 1u) || relaxed(cell.generation) != m_generation) return false;
    const auto load = [](const Record& r) {
        Record c;
        c.block = relaxed(r.block);
        c.phase = relaxed(r.phase);
        c.pc = relaxed(r.pc);
        c.syncGen = relaxed(r.syncGen);
        c.grid = relaxed(r.grid);
        c.thread = relaxed(r.thread);
        c.mask = relaxed(r.mask);
        c.flags = relaxed(r.flags);
        return c;
    };
    // The writes: none that the read could race with, told from the records alone (another
    // block's in another grid phase, or its block's in another barrier phase: ordered;
    // anything else goes to the lock, where check() decides).
    if (relaxed(cell.writesGeneration) == m_generation)
        for (const Record& kept : cell.writes)
            if (mayConflict(load(kept), now, false)) return false;
    Record reads[2] = {load(cell.reads[0]), load(cell.reads[1])};
    bool quiet = (reads[0].flags & Record::kValid) && sameRead(reads[0], now);
    if (!quiet && (reads[0].flags & Record::kValid) && (reads[1].flags & Record::kValid) &&
        sharedRead(reads, now)) {
        // check() would only mark the word as quietRead() does: done if it is marked so.
        const Region::Displaced* displaced = region.displacedIfAny();
        if (displaced) {
            const Region::Displaced& d = displaced[word];
            quiet = relaxed(d.block) == now.block + 1u &&
                    (relaxed(d.phase) & ~Region::kCrowded) == (now.phase & ~Region::kCrowded);
        }
    }
    __atomic_thread_fence(__ATOMIC_ACQUIRE);
    return quiet && __atomic_load_n(&cell.state, __ATOMIC_RELAXED) == before;
}

RaceDetector::Region* RaceDetector::firstOverlapping(const Worker& w, std::uintptr_t a,
                                                     std::size_t size) const
{
    if (a < m_high && a + size > m_low)
        for (const std::unique_ptr<Region>& r : m_regions)
            if (a < r->end && a + size > r->begin) return r.get();
    if (a < w.high && a + size > w.low)
        for (const std::unique_ptr<Region>& r : w.regions)
            if (a < r->end && a + size > r->begin) return r.get();
    return nullptr;
}

void RaceDetector::accessAs(Worker& w, const Who* known, std::uintptr_t a, std::size_t size,
                            std::uint8_t flags, const void* pc)
{
    if (size == 0) return;
    // The region of this worker's last access first: a kernel's accesses mostly stay in one
    // buffer for a while. Taken only when it holds the whole access (an access that overlaps
    // two regions goes to the first of them that it overlaps, as below).
    Region* region = w.last;
    if (!region || a < region->begin || a + size > region->end) {
        region = firstOverlapping(w, a, size);
        if (region && a >= region->begin && a + size <= region->end) w.last = region;
    }
    if (!region) {
        if (a < m_guardHigh && a + size > m_guardLow)
            guardHit(w, known, a, size, (flags & Record::kWrite) != 0, pc);
        return;
    }
    if (region->readOnly) {
        if (!(flags & Record::kWrite)) return; // nothing writes it (or the launch runs again)
        assumptionFailed();
    }
    if (region->shared && w.anyHeld()) checkHeld(w, false); // in the order they were made
    const Who who = known ? *known : this->who(w);
    Record now;
    now.block = who.block;
    now.thread = static_cast<std::uint16_t>(who.thread);
    if (who.known) {
        const std::size_t i = who.slot;
        const std::size_t b = m_cooperative ? now.block : 0u;
        now.phase = w.phase[i];
        now.grid = w.grid[i];
        now.syncGen = w.syncGen[b];
        setNow(w, i, b);
    } else {
        t_now = Now{};
    }
    now.pc = static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(pc) - m_base);
    now.flags = static_cast<std::uint8_t>(Record::kValid | flags);
    // Another worker may update a global-memory word at the same time; shared memory is the
    // worker's own.
    const bool locked = m_parallel && !region->shared;
    const std::uintptr_t from = std::max(a, region->begin);
    const std::uintptr_t to = std::min(a + size, region->end);
    for (std::uintptr_t word = (from - region->begin) / 4; word <= (to - 1 - region->begin) / 4;
         ++word) {
        const std::uintptr_t wordStart = region->begin + word * 4;
        unsigned mask = 0;
        for (unsigned b = 0; b < 4; ++b)
            if (wordStart + b >= from && wordStart + b < to) mask |= 1u << b;
        now.mask = static_cast<std::uint8_t>(mask);
        if (flags & Record::kWrite) markWritten(*region, word);
        Cell& cell = region->cells[word];
        const auto fresh = [&] {
            if (cell.generation != m_generation) { // an earlier launch's: empty
                cell.reads[0] = cell.reads[1] = Record{};
                cell.generation = m_generation;
            }
        };
        if (locked) {
            // A read that would change nothing, seen without taking the lock: read-shared words
            // stay in every core's cache.
            if (!(flags & (Record::kWrite | Record::kAtomic)) &&
                quietUnlocked(cell, now, *region, word))
                continue;
            const std::uint32_t state = lockWord(&cell.state);
            // Readers that see any of the stores below see the lock or a later count.
            __atomic_thread_fence(__ATOMIC_RELEASE);
            fresh();
            check(cell, now, *region, word, a, static_cast<unsigned>(size));
            __atomic_store_n(&cell.state, state + 2u, __ATOMIC_RELEASE);
        } else {
            fresh();
            check(cell, now, *region, word, a, static_cast<unsigned>(size));
        }
    }
}

[[gnu::always_inline]] inline void RaceDetector::accessWord(Worker& w, const Who& who,
                                                            Region& region, std::uintptr_t a,
                                                            std::size_t size, std::uint8_t flags,
                                                            const void* pc)
{
    Record now;
    now.block = who.block;
    now.thread = static_cast<std::uint16_t>(who.thread);
    now.phase = w.phase[who.slot];
    now.grid = w.grid[who.slot];
    now.syncGen = w.syncGen[m_cooperative ? who.block : 0u];
    now.pc = static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(pc) - m_base);
    now.flags = static_cast<std::uint8_t>(Record::kValid | flags);
    const std::uintptr_t offset = a - region.begin;
    now.mask = static_cast<std::uint8_t>(((1u << size) - 1u) << (offset & 3u));
    const std::size_t word = offset / 4;
    Cell& cell = region.cells[word];
    const bool read = !(flags & Record::kWrite);
    if (m_parallel && !region.shared) {
        if (read && quietUnlocked(cell, now, region, word)) return;
        const std::uint32_t state = lockWord(&cell.state);
        __atomic_thread_fence(__ATOMIC_RELEASE);
        if (!settled(cell, now, region, word, read))
            checkWord(w, who, cell, now, region, word, a, size);
        __atomic_store_n(&cell.state, state + 2u, __ATOMIC_RELEASE);
    } else if (!settled(cell, now, region, word, read)) {
        checkWord(w, who, cell, now, region, word, a, size);
    }
}

[[gnu::always_inline]] inline bool
RaceDetector::settled(Cell& cell, const Record& now, Region& region, std::size_t word, bool read)
{
    // What check() does, in the commonest cases, without ordered() (so without t_now): a cell
    // of an earlier launch is empty (`now` becomes its only record); a read that no kept write
    // may race with and that changes nothing (quietRead()).
    if (cell.generation != m_generation) {
        cell.reads[0] = cell.reads[1] = Record{};
        cell.generation = m_generation;
        if (read) {
            cell.reads[0] = now;
        } else { // no writes of this launch either
            cell.writes[0] = now;
            cell.writes[1] = Record{};
            cell.writesGeneration = m_generation;
        }
        return true;
    }
    return read &&
           (cell.writesGeneration != m_generation ||
            (!mayConflict(cell.writes[0], now, region.shared) &&
             !mayConflict(cell.writes[1], now, region.shared))) &&
           quietRead(cell.reads, now, region, word);
}

[[gnu::noinline]] void RaceDetector::checkWord(Worker& w, const Who& who, Cell& cell,
                                               const Record& now, Region& region, std::size_t word,
                                               std::uintptr_t a, std::size_t size)
{
    setNow(w, who.slot, m_cooperative ? who.block : 0u);
    check(cell, now, region, word, a, static_cast<unsigned>(size));
}

void RaceDetector::access(const void* address, std::size_t size, bool write, const void* pc)
{
    const auto a = reinterpret_cast<std::uintptr_t>(address);
    Worker& w = here();
    // The commonest access of a kernel with barriers: up to 16 bytes of its block's shared
    // memory, in one of the two arrays it accessed last, held for the end of the interval.
    if (w.lane.on) { // laneUp(): fiber mode, a known thread, holdable
        Region* r = w.last;
        const auto within = [&](const Region* region) {
            return region && region->holdable && a >= region->begin && a + size <= region->end &&
                   size - 1u < 16u; // 1 to 16 bytes (a double, a float4): one held access
        };
        if (within(r) || (within(w.previous) && (r = w.previous, w.previous = w.last, true))) {
            w.last = r;
            hold(w, t_who, *r, a, size, write ? Record::kWrite : 0, pc);
            return;
        }
    }
    accessOther(w, a, size, write, pc);
}

void RaceDetector::accessOther(Worker& w, std::uintptr_t a, std::size_t size, bool write,
                               const void* pc)
{
    if (size == 0) return;
    const std::uint8_t flags = write ? Record::kWrite : 0;
    // Within one word of one region: the short way. The regions of this worker's last two
    // accesses first (a kernel's accesses mostly stay in one or two arrays for a while), then
    // the others.
    Region* r = w.last;
    const auto holds = [&](const Region* region) {
        return a >= region->begin && a + size <= region->end;
    };
    if (!r || !holds(r)) {
        Region* const previous = w.previous;
        if (previous && holds(previous)) {
            w.previous = r;
            w.last = r = previous;
        } else {
            // The first region it overlaps, as accessAs() takes it; the short way if it holds
            // it.
            Region* const first = firstOverlapping(w, a, size);
            r = first && holds(first) ? first : nullptr;
            if (r) {
                w.previous = w.last;
                w.last = r;
            }
        }
    }
    if (r && ((a - r->begin) & 3u) + size <= 4u) {
        if (r->readOnly) {
            if (!write) return; // nothing writes it (or the launch runs again)
            assumptionFailed();
        }
        const Who who = this->who(w);
        if (who.known) {
            if (r->shared) {
                if (r->holdable && w.lane.on) {
                    hold(w, who, *r, a, size, flags, pc);
                    return;
                }
                if (w.anyHeld()) checkHeld(w, false);
                if (write) markWritten(*r, (a - r->begin) / 4);
            }
            accessWord(w, who, *r, a, size, flags, pc);
            return;
        }
    }
    if ((a < m_high && a + size > m_low) || (a < w.high && a + size > w.low) ||
        (a < m_guardHigh && a + size > m_guardLow))
        accessAs(w, nullptr, a, size, flags, pc);
}

void RaceDetector::markWritten(Region& region, std::size_t word)
{
    if (word >= region.written.size() || region.written[word]) return;
    region.written[word] = 1;
    region.writtenWords.push_back(static_cast<std::uint32_t>(word));
}

[[gnu::always_inline]] inline void RaceDetector::hold(Worker& w, const Who& who, Region& region,
                                                      std::uintptr_t a, std::size_t size,
                                                      std::uint8_t flags, const void* pc)
{
    Lane& l = w.lane;
    if (!w.held) {
        w.held = std::make_unique_for_overwrite<Held[]>(kMaxHeld);
        l.next = w.held.get();
        l.limit = w.held.get() + kMaxHeld;
    }
    if (l.next == l.limit) checkHeld(w, false);
    l.block = who.block; // the block's: held accesses are checked before the next block starts
    const auto offset = static_cast<std::uint32_t>(a - region.begin);
    if (flags & Record::kWrite)
        for (std::size_t word = offset / 4u; word <= (offset + size - 1u) / 4u; ++word)
            markWritten(region, word);
    *l.next++ = Held{offset,
                     static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(pc) - m_base),
                     w.phase[who.slot],
                     static_cast<std::uint16_t>(who.thread),
                     region.index,
                     static_cast<std::uint8_t>(size | (flags << Held::kFlagsShift))};
    // The region of this access becomes the lane's first (holdRead()).
    if (l.begin[0] != region.begin || l.end[0] != region.end) {
        l.begin[1] = l.begin[0];
        l.end[1] = l.end[0];
        l.region[1] = l.region[0];
        l.begin[0] = region.begin;
        l.end[0] = region.end;
        l.region[0] = region.index;
        laneSkips(w);
    }
}

void RaceDetector::checkHeld(Worker& w, bool intervalEnded)
{
    // Why a read may be let go at the end of its interval. Shared memory is its block's, and a
    // barrier orders every access of the block before it with every one after it (their barrier
    // phases differ), so an access of this interval can race only with another of this
    // interval. A read of a word that no access of the interval wrote (the held ones and those
    // checked at once, markWritten) therefore races with nothing, and keeping it in the shadow
    // would matter to nothing later: later accesses are ordered with it. The held accesses are
    // checked in the order they were made, under the sync state they were made under (a warp
    // or tile sync, an atomic or a fence checks what is held first), so what is checked gives
    // the findings, crowding and shadow that checking at once gives. Where threads of the block
    // held accesses of different barrier phases (barriers reached unlike), every one is checked.
    const Held* const first = w.held.get();
    const Held* const last = w.lane.next;
    if (first != last) {
        bool filter = intervalEnded;
        for (const Held* h = first; filter && h != last; ++h)
            filter = h->phase == first->phase;
        if (filter && std::all_of(w.regions.begin(), w.regions.end(),
                                  [](const auto& r) { return r->writtenWords.empty(); })) {
            // Nothing written in the interval (a tile every thread reads): nothing to check.
            w.lane.next = w.held.get();
            return;
        }
        const std::uint32_t syncGen = w.syncGen[0];
        const std::uint32_t block = w.lane.block;
        for (const Held* h = first; h != last; ++h) {
            Region& region = *w.regions[h->region];
            const unsigned size = h->sizeAndFlags & Held::kSizeMask;
            const std::size_t firstWord = h->offset / 4u, lastWord = (h->offset + size - 1u) / 4u;
            if (filter) {
                bool written = false;
                for (std::size_t word = firstWord; word <= lastWord && !written; ++word)
                    written = region.written[word] != 0;
                if (!written) continue;
            }
            const auto flags = static_cast<std::uint8_t>(h->sizeAndFlags >> Held::kFlagsShift);
            Record now;
            now.block = block;
            now.thread = h->thread;
            now.phase = h->phase;
            now.grid = w.grid[h->thread];
            now.syncGen = syncGen;
            now.pc = h->pc;
            now.flags = static_cast<std::uint8_t>(Record::kValid | flags);
            Who who;
            who.block = block;
            who.thread = h->thread;
            who.slot = h->thread; // not cooperative: slot() is the thread
            who.known = true;
            // Word by word, as accessAs() takes an access of several words.
            const std::uint32_t end = h->offset + size;
            for (std::size_t word = firstWord; word <= lastWord; ++word) {
                unsigned mask = 0;
                for (unsigned b = 0; b < 4; ++b) {
                    const std::size_t at = word * 4u + b;
                    if (at >= h->offset && at < end) mask |= 1u << b;
                }
                now.mask = static_cast<std::uint8_t>(mask);
                Cell& cell = region.cells[word];
                if (!settled(cell, now, region, word, !(flags & Record::kWrite)))
                    checkWord(w, who, cell, now, region, word, region.begin + h->offset, size);
            }
        }
        w.lane.next = w.held.get();
    }
    if (!intervalEnded) return;
    for (const std::unique_ptr<Region>& region : w.regions) {
        for (const std::uint32_t word : region->writtenWords)
            region->written[word] = 0;
        region->writtenWords.clear();
    }
}

void RaceDetector::finish()
{
    void* const worker = t_worker;
    const std::uint64_t serial = t_serial;
    for (const std::unique_ptr<Worker>& w : m_workers) {
        // report() takes the order of a finding from the worker of the calling thread.
        t_worker = w.get();
        t_serial = m_serial;
        if (w->ranBlock) endInterval(*w, w->passed, 0, true);
    }
    t_worker = worker;
    t_serial = serial;
}

void RaceDetector::finishHere()
{
    Worker& w = here();
    if (w.ranBlock) endInterval(w, w.passed, 0, true);
}

void RaceDetector::endInterval(Worker& w, std::uint32_t phase, std::uint32_t next, bool blockEnded)
{
    if (m_learning) {
        std::uint64_t wrote = 0;
        for (const std::unique_ptr<Region>& r : w.regions)
            if (!r->writtenWords.empty()) wrote |= r->index < 64 ? 1ull << r->index : 0;
        if (wrote & w.skipping) assumptionFailed(); // reads it let go may race with these
        if (!w.learned) {
            if (phase >= w.writtenIn.size()) w.writtenIn.resize(phase + 1u, 0);
            w.writtenIn[phase] |= wrote;
            w.learned = blockEnded; // what the first block wrote, from its last interval on
        }
    }
    checkHeld(w, true);
    // The next interval (blockEnded: the next block's first) lets go of the reads of what the
    // first block did not write in it. Phases it did not reach let go of nothing.
    w.skipping = m_learning && w.learned && next < w.writtenIn.size() ? ~w.writtenIn[next] : 0;
    laneSkips(w);
}

void RaceDetector::laneSkips(Worker& w) noexcept
{
    Lane& l = w.lane;
    for (int k = 0; k < 2; ++k)
        l.skip[k] = l.end[k] != 0 && l.region[k] < 64 && ((w.skipping >> l.region[k]) & 1u);
}

RaceDetector::Knowledge RaceDetector::releasing(Worker& w, const Who& who)
{
    Knowledge k;
    if (const ThreadSync* t = w.threadSync[who.slot].get()) k.join(t->acquired);
    if (const BlockSync* b = w.blockSync[m_cooperative ? who.block : 0u].get()) k.join(b->known);
    // Its own accesses so far: a new generation of its block's syncs separates them from later
    // ones.
    w.warpSynced = true;
    const std::uint32_t mine = ++w.syncGen[m_cooperative ? who.block : 0u];
    k.raise(key(who.block, who.thread), mine);
    // Its block's accesses before the barriers it passed.
    if (w.phase[who.slot]) k.raise(key(who.block, kBlockPhase), w.phase[who.slot]);
    // The lanes and tile threads it synchronised with, before those syncs.
    const unsigned warpFirst = who.thread / 32u * 32u;
    const std::uint32_t full = w.warpFull[who.slot / 32u];
    if (full) k.raise(key(who.block, kWarpWide | (who.thread / 32u)), full);
    for (unsigned lane = 0; !w.joint.empty() && lane < 32u; ++lane) {
        const std::uint32_t joint = w.joint[who.slot * 32u + lane];
        if (joint > full) k.raise(key(who.block, warpFirst + lane), joint);
    }
    const TileSync& tile = w.tile[who.slot];
    for (unsigned t = tile.first; tile.generation && t < tile.first + tile.count; ++t)
        k.raise(key(who.block, t), tile.generation);
    return k;
}

void RaceDetector::shareKnowledge(Worker& w, std::size_t base, unsigned count, unsigned mask)
{
    Knowledge all;
    const auto in = [&](unsigned t) { return count > 32u || (mask & (1u << t)); };
    for (unsigned t = 0; t < count; ++t)
        if (in(t) && base + t < w.threadSync.size() && w.threadSync[base + t])
            all.join(w.threadSync[base + t]->acquired);
    if (all.empty()) return;
    for (unsigned t = 0; t < count; ++t) {
        if (!in(t) || base + t >= w.threadSync.size()) continue;
        std::unique_ptr<ThreadSync>& s = w.threadSync[base + t];
        if (!s) s = std::make_unique<ThreadSync>();
        s->acquired.join(all);
    }
}

void RaceDetector::atomic(const void* address, std::size_t size, AtomicKind kind, int order,
                          int scope, const void* pc)
{
    Worker& wk = here();
    checkHeld(wk, false);
    const Who w = who(wk);
    std::uint8_t flags = Record::kAtomic;
    if (kind != AtomicKind::Load) flags |= Record::kWrite;
    if (scope == wbcpu::abi::RaceBlock) flags |= Record::kBlockScope;
    if (scope == wbcpu::abi::RaceThread) flags |= Record::kThreadScope;
    accessAs(wk, &w, reinterpret_cast<std::uintptr_t>(address), size, flags, pc);
    if (!w.known || scope == wbcpu::abi::RaceThread) return; // orders nothing between threads

    // The location's release sequence: under its stripe's lock, which the caller holds.
    const auto location = reinterpret_cast<std::uintptr_t>(address);
    auto& clocks = stripeOf(location).clocks;
    auto it = clocks.find(location);
    // The read: what the location's release sequence published, as far as the scopes reach.
    if (kind != AtomicKind::Store && it != clocks.end() &&
        (acquiring(order) || order == wbcpu::abi::RaceRelaxed)) {
        const SyncClock& c = *it->second;
        ThreadSync& t = threadSync(wk, w);
        Knowledge& into = acquiring(order) ? t.acquired : t.pending;
        if (scope != wbcpu::abi::RaceBlock) into.join(c.wide);
        if (c.narrowBlock == w.block) into.join(c.narrow);
    }
    if (kind == AtomicKind::Load) return;
    // The write: a store starts a new release sequence, a read-modify-write continues it.
    if (kind == AtomicKind::Store && it != clocks.end()) {
        it->second->wide.clear();
        it->second->narrow.clear();
    }
    Knowledge published;
    int publishScope = scope;
    if (releasingOrder(order)) {
        published = releasing(wk, w);
    } else if (wk.threadSync[w.slot] && wk.threadSync[w.slot]->fenced) {
        const ThreadSync& t = *wk.threadSync[w.slot];
        published = t.fenceRelease;
        if (t.fenceScope == wbcpu::abi::RaceBlock) publishScope = wbcpu::abi::RaceBlock;
    }
    if (published.empty()) return;
    if (it == clocks.end()) it = clocks.emplace(location, std::make_unique<SyncClock>()).first;
    SyncClock& c = *it->second;
    if (publishScope != wbcpu::abi::RaceBlock) c.wide.join(published);
    if (c.narrowBlock != w.block) {
        c.narrow.clear();
        c.narrowBlock = w.block;
    }
    c.narrow.join(published);
}

void RaceDetector::fence(int order, int scope)
{
    Worker& wk = here();
    checkHeld(wk, false);
    const Who w = who(wk);
    if (!w.known || scope == wbcpu::abi::RaceThread) return;
    ThreadSync& t = threadSync(wk, w);
    if (acquiring(order) && !t.pending.empty()) {
        t.acquired.join(t.pending);
        t.pending.clear();
    }
    if (releasingOrder(order)) {
        t.fenceRelease = releasing(wk, w);
        t.fenced = true;
        t.fenceScope = scope;
    }
}

void RaceDetector::printReports(std::FILE* out) const
{
    const auto side = [&](const Side& s) {
        std::fprintf(out, " %" PRIu32 " %d %d %u %u %u %u %u %u", s.pc, s.write ? 1 : 0,
                     s.atomic ? 1 : 0, s.block.x, s.block.y, s.block.z, s.thread.x, s.thread.y,
                     s.thread.z);
    };
    for (const Report& r : reports()) {
        std::fprintf(out, "WB-RACE %d %" PRIu64 " %" PRIuPTR " %u %" PRIu64, r.region, r.offset,
                     r.address, r.size, r.count);
        side(r.first);
        side(r.second);
        std::fputc('\n', out);
    }
    if (const std::uint64_t n = dropped()) std::fprintf(out, "WB-RACE-DROPPED %" PRIu64 "\n", n);
}

void RaceDetector::print(std::FILE* out) const
{
    printReports(out);
    // Crowded words per buffer, and per __shared__ variable the words crowded in any block:
    // each worker (each block of a cooperative launch) has its instance, and how blocks fall on
    // workers must not change the count.
    std::map<int, std::uint64_t> crowded;
    std::map<int, std::vector<bool>> sharedWords;
    const auto count = [&](const std::unique_ptr<Region>& r) {
        const std::uint64_t n = r->crowdedWords.load(std::memory_order_relaxed);
        if (!n) return;
        if (!r->shared) {
            crowded[r->id] += n;
            return;
        }
        const Region::Displaced* d = r->displacedIfAny();
        const std::size_t words = (r->end - r->begin + 3) / 4;
        std::vector<bool>& crowdedWords = sharedWords[r->id];
        crowdedWords.resize(std::max(crowdedWords.size(), words));
        for (std::size_t i = 0; d && i < words; ++i)
            if (d[i].phase & Region::kCrowded) crowdedWords[i] = true;
    };
    std::for_each(m_regions.begin(), m_regions.end(), count);
    for (const std::unique_ptr<Worker>& w : m_workers)
        std::for_each(w->regions.begin(), w->regions.end(), count);
    for (const auto& [id, words] : sharedWords)
        crowded[id] = static_cast<std::uint64_t>(std::count(words.begin(), words.end(), true));
    for (const auto& [id, words] : crowded)
        std::fprintf(out, "WB-RACE-CROWDED %d %" PRIu64 "\n", id, words);
    std::fflush(out);
}

} // namespace wb::cpu::detail
