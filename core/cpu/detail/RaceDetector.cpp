// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/cpu/detail/RaceDetector.h"

#include <algorithm>
#include <cinttypes>
#include <cstdlib>
#include <new>

#include <sys/mman.h>

namespace wb::cpu::detail {

RaceDetector* RaceDetector::active = nullptr;

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

/// The shadow of one 4-byte word: the two latest writes and reads by different threads.
struct RaceDetector::Cell {
    Record writes[2];
    Record reads[2];
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

struct RaceDetector::Region {
    std::uintptr_t begin = 0, end = 0;
    int id = 0;
    bool shared = false;
    Cell* cells = nullptr; ///< anonymous mapping: zero pages only where the kernel accesses
    std::size_t bytes = 0;
    /// Per word, made when first needed: a read of another thread, unordered with the read that
    /// displaced it from the shadow (its block + 1 and barrier phase; 0: none), and whether the
    /// word is crowded (kCrowded in `phase`): it may hide a race with a displaced access.
    struct Displaced {
        std::uint32_t block;
        std::uint32_t phase;
    };
    static constexpr std::uint32_t kCrowded = 0x80000000u;
    Displaced* displaced = nullptr;
    std::size_t displacedBytes = 0;
    std::uint64_t crowdedWords = 0;

    Displaced& displacedAt(std::size_t word)
    {
        if (!displaced) {
            displacedBytes = (end - begin + 3) / 4 * sizeof(Displaced);
            void* m = mmap(nullptr, displacedBytes, PROT_READ | PROT_WRITE,
                           MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
            if (m == MAP_FAILED) throw std::bad_alloc();
            displaced = static_cast<Displaced*>(m);
        }
        return displaced[word];
    }
    void crowd(std::size_t word)
    {
        Displaced& d = displacedAt(word);
        if (d.phase & kCrowded) return;
        d.phase |= kCrowded;
        ++crowdedWords;
    }

    ~Region()
    {
        if (cells) munmap(cells, bytes);
        if (displaced) munmap(displaced, displacedBytes);
    }
};

RaceDetector::RaceDetector(std::uintptr_t libraryBase, wbcpu::abi::Dim blockSize,
                           wbcpu::abi::Dim gridSize, std::size_t maxReports, bool cooperative)
    : m_base(libraryBase)
    , m_blockSize(blockSize)
    , m_gridSize(gridSize)
    , m_maxReports(maxReports)
    , m_cooperative(cooperative)
    , m_threads(blockSize.x * blockSize.y * blockSize.z)
{
    const std::size_t blocks =
        cooperative ? static_cast<std::size_t>(gridSize.x) * gridSize.y * gridSize.z : 1;
    const std::size_t warps = (m_threads + 31u) / 32u;
    m_phase.assign(blocks * warps * 32u, 0);
    m_grid.assign(blocks * warps * 32u, 0);
    m_syncGen.assign(blocks, 0);
    m_joint.assign(blocks * warps * 32u * 32u, 0);
    m_warpFull.assign(blocks * warps, 0);
    m_threadSync.resize(blocks * warps * 32u);
    m_blockSync.resize(blocks);
    m_tile.assign(blocks * warps * 32u, TileSync{});
}

std::size_t RaceDetector::slot(std::uint32_t block, unsigned linear) const
{
    if (!m_cooperative) return linear;
    // Warp-aligned per block, so that a warp's threads share one row block of m_joint.
    return static_cast<std::size_t>(block) * ((m_threads + 31u) / 32u * 32u) + linear;
}

std::uint32_t RaceDetector::blockOf(const wbcpu::abi::ThreadState* st) const
{
    const wbcpu::abi::Dim& b = st->blockIndex;
    return b.x + m_gridSize.x * (b.y + m_gridSize.y * b.z);
}

RaceDetector::~RaceDetector()
{
    if (active == this) active = nullptr;
}

void RaceDetector::addRegion(const void* begin, std::size_t size, int id, bool shared)
{
    if (size == 0) return;
    auto r = std::make_unique<Region>();
    r->begin = reinterpret_cast<std::uintptr_t>(begin);
    r->end = r->begin + size;
    r->id = id;
    r->shared = shared;
    r->bytes = (size + 3) / 4 * sizeof(Cell);
    void* cells =
        mmap(nullptr, r->bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (cells == MAP_FAILED) throw std::bad_alloc();
    // Transparent huge pages where the system allows them: one fault per 2 MiB of shadow
    // instead of one per 4 KiB (the shadow is 16 times the watched memory).
    madvise(cells, r->bytes, MADV_HUGEPAGE);
    r->cells = static_cast<Cell*>(cells);
    m_low = std::min(m_low, r->begin);
    m_high = std::max(m_high, r->end);
    m_regions.push_back(std::move(r));
}

void RaceDetector::startBlock()
{
    std::fill(m_phase.begin(), m_phase.end(), 0u);
    std::fill(m_grid.begin(), m_grid.end(), 0u);
    if (m_warpSynced) { // the sync tables are only touched by kernels that sync warps or tiles
        std::fill(m_syncGen.begin(), m_syncGen.end(), 0u);
        std::fill(m_joint.begin(), m_joint.end(), 0u);
        std::fill(m_warpFull.begin(), m_warpFull.end(), 0u);
        std::fill(m_tile.begin(), m_tile.end(), TileSync{});
        m_warpSynced = false;
    }
    if (m_anyThreadSync) {
        for (auto& t : m_threadSync)
            t.reset();
        m_anyThreadSync = false;
    }
    for (auto& b : m_blockSync)
        b.reset();
}

RaceDetector::ThreadSync& RaceDetector::threadSync(const Who& w)
{
    std::unique_ptr<ThreadSync>& t = m_threadSync[w.slot];
    if (!t) {
        t = std::make_unique<ThreadSync>();
        m_anyThreadSync = true;
    }
    return *t;
}

RaceDetector::BlockSync& RaceDetector::blockSync(std::uint32_t block)
{
    std::unique_ptr<BlockSync>& b = m_blockSync[m_cooperative ? block : 0u];
    if (!b) b = std::make_unique<BlockSync>();
    return *b;
}

void RaceDetector::barrierArriving(const wbcpu::abi::ThreadState* st)
{
    const Who w = whoIs(st);
    if (!w.known || !m_threadSync[w.slot]) return;
    ThreadSync& t = *m_threadSync[w.slot];
    if (t.acquired.empty()) return;
    blockSync(w.block).arriving.join(t.acquired);
    t.acquired.clear(); // its block's from the barrier on
}

void RaceDetector::barrierPassed(const wbcpu::abi::ThreadState* st)
{
    const std::size_t i = slot(blockOf(st), st->linear);
    if (i >= m_phase.size()) return;
    ++m_phase[i];
    // The first thread out of the barrier: every thread arrived, what they learned is the
    // block's now (the others run no code before they pass it too).
    std::unique_ptr<BlockSync>& b = m_blockSync[m_cooperative ? blockOf(st) : 0u];
    if (b && m_phase[i] > b->phase) {
        b->known.join(b->arriving);
        b->arriving.clear();
        b->phase = m_phase[i];
    }
}

void RaceDetector::gridPassed(const wbcpu::abi::ThreadState* st)
{
    const std::size_t i = slot(blockOf(st), st->linear);
    if (i < m_grid.size()) ++m_grid[i];
}

void RaceDetector::warpSynced(unsigned warpBase, unsigned mask)
{
    if (!m_current) return;
    const std::size_t base = slot(blockOf(m_current), warpBase);
    if ((base + 32u) * 32u > m_joint.size()) return;
    m_warpSynced = true;
    const std::uint32_t generation = ++m_syncGen[m_cooperative ? blockOf(m_current) : 0u];
    // Every lane of the warp (shuffles and votes mostly are): one number for the warp instead
    // of 32 rows.
    const unsigned lanes = std::min(32u, m_threads - warpBase);
    const unsigned all = lanes >= 32u ? 0xffffffffu : (1u << lanes) - 1u;
    if (m_anyThreadSync) shareKnowledge(base, 32u, mask & all);
    if ((mask & all) == all) {
        m_warpFull[base / 32u] = generation;
        return;
    }
    for (unsigned b = 0; b < 32; ++b) {
        if (!(mask & (1u << b))) continue;
        std::uint32_t* row = &m_joint[(base + b) * 32u];
        for (unsigned a = 0; a < 32; ++a)
            if (mask & (1u << a)) row[a] = generation;
    }
}

void RaceDetector::tileSynced(unsigned first, unsigned count)
{
    if (!m_current) return;
    const std::uint32_t block = blockOf(m_current);
    m_warpSynced = true;
    const std::uint32_t generation = ++m_syncGen[m_cooperative ? block : 0u];
    if (m_anyThreadSync && slot(block, first) + count <= m_threadSync.size())
        shareKnowledge(slot(block, first), count, 0xffffffffu);
    for (unsigned t = first; t < first + count; ++t) {
        const std::size_t i = slot(block, t);
        if (i < m_tile.size())
            m_tile[i] = TileSync{generation, static_cast<std::uint16_t>(first),
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
    if (auto it = m_index.find(key); it != m_index.end()) {
        ++m_reports[it->second].count;
        return;
    }
    if (m_reports.size() >= m_maxReports) {
        ++m_dropped;
        return;
    }
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
    Report rep;
    rep.region = region.id;
    rep.address = address;
    rep.offset = address - region.begin;
    rep.size = size;
    rep.first = side(earlier);
    rep.second = side(now);
    rep.count = 1;
    m_index.emplace(key, m_reports.size());
    m_reports.push_back(rep);
}

bool RaceDetector::ordered(const Record& r, const Record& now) const
{
    if (r.block != now.block) {
        if (r.grid != now.grid) return true; // a grid.sync() orders blocks
    } else {
        if (r.phase != now.phase) return true; // a barrier orders the same block
        // A warp sync both threads took part in, after the earlier access.
        if (r.thread / 32u == now.thread / 32u && m_jointRow &&
            std::max(*m_warpFullNow, m_jointRow[r.thread % 32u]) > r.syncGen)
            return true;
        // A sync of a tile of several warps both took part in, after it.
        if (m_tileNow && m_tileNow->generation > r.syncGen && r.thread >= m_tileNow->first &&
            r.thread < m_tileNow->first + m_tileNow->count)
            return true;
    }
    // Release/acquire: what the thread or its block learned through atomics.
    return (m_syncNow && m_syncNow->acquired.covers(r.block, r.thread, r.syncGen, r.phase)) ||
           (m_blockNow && m_blockNow->known.covers(r.block, r.thread, r.syncGen, r.phase));
}

void RaceDetector::check(Cell& cell, const Record& now, Region& region, std::size_t word,
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
    for (const Record& r : cell.writes)
        if (conflicts(r)) report(r, now, region, address, size);
    if (write)
        for (const Record& r : cell.reads)
            if (conflicts(r)) report(r, now, region, address, size);
    // A write where a displaced read may have been concurrent with it: of another block (global
    // memory), or of its block in the same barrier phase.
    if (write && region.displaced) {
        const Region::Displaced& d = region.displaced[word];
        if (d.block && !(d.phase & Region::kCrowded) &&
            (d.block - 1u != now.block ? !region.shared : d.phase == now.phase))
            region.crowd(word);
    }

    // Keep the two latest accesses of this kind by different threads.
    Record* slots = write ? cell.writes : cell.reads;
    const auto stale = [&](const Record& r) {
        return !(r.flags & Record::kValid) || (region.shared && r.block != now.block);
    };
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
    Who w;
    w.block = blockOf(st);
    w.thread = st->linear;
    w.slot = slot(w.block, w.thread);
    w.known = w.slot < m_phase.size();
    return w;
}

RaceDetector::Who RaceDetector::who() const
{
    if (m_current) return whoIs(m_current); // fiber mode: the host said who runs
    // Loop mode: the block loop stores the coordinates before each thread.
    const wbcpu::abi::Current& c = wb_cpu_current;
    Who w;
    w.block = c.block.x + m_gridSize.x * (c.block.y + m_gridSize.y * c.block.z);
    w.thread = c.thread.x + m_blockSize.x * (c.thread.y + m_blockSize.y * c.thread.z);
    w.slot = slot(w.block, w.thread);
    w.known = w.slot < m_phase.size();
    return w;
}

void RaceDetector::access(const void* address, std::size_t size, bool write, const void* pc)
{
    const auto a = reinterpret_cast<std::uintptr_t>(address);
    if (size == 0 || a >= m_high || a + size <= m_low) return;
    accessAs(who(), address, size, write ? Record::kWrite : 0, pc);
}

void RaceDetector::accessAs(const Who& w, const void* address, std::size_t size, std::uint8_t flags,
                            const void* pc)
{
    const auto a = reinterpret_cast<std::uintptr_t>(address);
    if (size == 0 || a >= m_high || a + size <= m_low) return;
    for (const std::unique_ptr<Region>& rp : m_regions) {
        Region& region = *rp;
        if (a >= region.end || a + size <= region.begin) continue;
        Record now;
        now.block = w.block;
        now.thread = static_cast<std::uint16_t>(w.thread);
        m_syncNow = nullptr;
        m_blockNow = nullptr;
        if (w.known) {
            const std::size_t i = w.slot;
            now.phase = m_phase[i];
            now.grid = m_grid[i];
            now.syncGen = m_syncGen[m_cooperative ? now.block : 0u];
            m_jointRow = &m_joint[i * 32u];
            m_warpFullNow = &m_warpFull[i / 32u];
            m_tileNow = &m_tile[i];
            m_syncNow = m_threadSync[i].get();
            m_blockNow = m_blockSync[m_cooperative ? now.block : 0u].get();
        } else {
            m_jointRow = nullptr;
            m_tileNow = nullptr;
        }
        now.pc = static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(pc) - m_base);
        now.flags = static_cast<std::uint8_t>(Record::kValid | flags);
        const std::uintptr_t from = std::max(a, region.begin);
        const std::uintptr_t to = std::min(a + size, region.end);
        for (std::uintptr_t word = (from - region.begin) / 4; word <= (to - 1 - region.begin) / 4;
             ++word) {
            const std::uintptr_t wordStart = region.begin + word * 4;
            unsigned mask = 0;
            for (unsigned b = 0; b < 4; ++b)
                if (wordStart + b >= from && wordStart + b < to) mask |= 1u << b;
            now.mask = static_cast<std::uint8_t>(mask);
            check(region.cells[word], now, region, word, a, static_cast<unsigned>(size));
        }
        return;
    }
}

RaceDetector::Knowledge RaceDetector::releasing(const Who& w)
{
    Knowledge k;
    if (const ThreadSync* t = m_threadSync[w.slot].get()) k.join(t->acquired);
    if (const BlockSync* b = m_blockSync[m_cooperative ? w.block : 0u].get()) k.join(b->known);
    // Its own accesses so far: a new generation of its block's syncs separates them from later
    // ones.
    m_warpSynced = true;
    const std::uint32_t mine = ++m_syncGen[m_cooperative ? w.block : 0u];
    k.raise(key(w.block, w.thread), mine);
    // Its block's accesses before the barriers it passed.
    if (m_phase[w.slot]) k.raise(key(w.block, kBlockPhase), m_phase[w.slot]);
    // The lanes and tile threads it synchronised with, before those syncs.
    const unsigned warpFirst = w.thread / 32u * 32u;
    const std::uint32_t full = m_warpFull[w.slot / 32u];
    if (full) k.raise(key(w.block, kWarpWide | (w.thread / 32u)), full);
    const std::uint32_t* row = &m_joint[w.slot * 32u];
    for (unsigned lane = 0; lane < 32u; ++lane)
        if (row[lane] > full) k.raise(key(w.block, warpFirst + lane), row[lane]);
    const TileSync& tile = m_tile[w.slot];
    for (unsigned t = tile.first; tile.generation && t < tile.first + tile.count; ++t)
        k.raise(key(w.block, t), tile.generation);
    return k;
}

void RaceDetector::shareKnowledge(std::size_t base, unsigned count, unsigned mask)
{
    Knowledge all;
    const auto in = [&](unsigned t) { return count > 32u || (mask & (1u << t)); };
    for (unsigned t = 0; t < count; ++t)
        if (in(t) && base + t < m_threadSync.size() && m_threadSync[base + t])
            all.join(m_threadSync[base + t]->acquired);
    if (all.empty()) return;
    for (unsigned t = 0; t < count; ++t) {
        if (!in(t) || base + t >= m_threadSync.size()) continue;
        std::unique_ptr<ThreadSync>& s = m_threadSync[base + t];
        if (!s) s = std::make_unique<ThreadSync>();
        s->acquired.join(all);
    }
}

void RaceDetector::atomic(const void* address, std::size_t size, AtomicKind kind, int order,
                          int scope, const void* pc)
{
    const Who w = who();
    std::uint8_t flags = Record::kAtomic;
    if (kind != AtomicKind::Load) flags |= Record::kWrite;
    if (scope == wbcpu::abi::RaceBlock) flags |= Record::kBlockScope;
    if (scope == wbcpu::abi::RaceThread) flags |= Record::kThreadScope;
    accessAs(w, address, size, flags, pc);
    if (!w.known || scope == wbcpu::abi::RaceThread) return; // orders nothing between threads

    const auto location = reinterpret_cast<std::uintptr_t>(address);
    auto it = m_clocks.find(location);
    // The read: what the location's release sequence published, as far as the scopes reach.
    if (kind != AtomicKind::Store && it != m_clocks.end() &&
        (acquiring(order) || order == wbcpu::abi::RaceRelaxed)) {
        const SyncClock& c = *it->second;
        ThreadSync& t = threadSync(w);
        Knowledge& into = acquiring(order) ? t.acquired : t.pending;
        if (scope != wbcpu::abi::RaceBlock) into.join(c.wide);
        if (c.narrowBlock == w.block) into.join(c.narrow);
    }
    if (kind == AtomicKind::Load) return;
    // The write: a store starts a new release sequence, a read-modify-write continues it.
    if (kind == AtomicKind::Store && it != m_clocks.end()) {
        it->second->wide.clear();
        it->second->narrow.clear();
    }
    Knowledge published;
    int publishScope = scope;
    if (releasingOrder(order)) {
        published = releasing(w);
    } else if (m_threadSync[w.slot] && m_threadSync[w.slot]->fenced) {
        const ThreadSync& t = *m_threadSync[w.slot];
        published = t.fenceRelease;
        if (t.fenceScope == wbcpu::abi::RaceBlock) publishScope = wbcpu::abi::RaceBlock;
    }
    if (published.empty()) return;
    if (it == m_clocks.end()) it = m_clocks.emplace(location, std::make_unique<SyncClock>()).first;
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
    const Who w = who();
    if (!w.known || scope == wbcpu::abi::RaceThread) return;
    ThreadSync& t = threadSync(w);
    if (acquiring(order) && !t.pending.empty()) {
        t.acquired.join(t.pending);
        t.pending.clear();
    }
    if (releasingOrder(order)) {
        t.fenceRelease = releasing(w);
        t.fenced = true;
        t.fenceScope = scope;
    }
}

void RaceDetector::print(std::FILE* out) const
{
    const auto side = [&](const Side& s) {
        std::fprintf(out, " %" PRIu32 " %d %d %u %u %u %u %u %u", s.pc, s.write ? 1 : 0,
                     s.atomic ? 1 : 0, s.block.x, s.block.y, s.block.z, s.thread.x, s.thread.y,
                     s.thread.z);
    };
    for (const Report& r : m_reports) {
        std::fprintf(out, "WB-RACE %d %" PRIu64 " %" PRIuPTR " %u %" PRIu64, r.region, r.offset,
                     r.address, r.size, r.count);
        side(r.first);
        side(r.second);
        std::fputc('\n', out);
    }
    if (m_dropped) std::fprintf(out, "WB-RACE-DROPPED %" PRIu64 "\n", m_dropped);
    for (const std::unique_ptr<Region>& r : m_regions)
        if (r->crowdedWords)
            std::fprintf(out, "WB-RACE-CROWDED %d %" PRIu64 "\n", r->id, r->crowdedWords);
    std::fflush(out);
}

} // namespace wb::cpu::detail
