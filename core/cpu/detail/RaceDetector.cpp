// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/cpu/detail/RaceDetector.h"

#include <algorithm>
#include <atomic>
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
    bool sameThread(const Record& o) const { return block == o.block && thread == o.thread; }
    bool sameEpoch(const Record& o) const
    {
        return phase == o.phase && syncGen == o.syncGen && grid == o.grid;
    }
};

/// The shadow of one 4-byte word: the two latest writes and reads by different threads, and
/// its state word: bit 0 the lock its update takes while blocks run on several workers, the
/// other bits the detector (generation()) that wrote it last. A cell of an earlier detector
/// counts as empty, so that shadow memory passes from one launch to the next without being
/// cleared (the kernel's zeroing of fresh shadow pages was a fifth of a small launch's time).
struct RaceDetector::Cell {
    std::uint32_t state = 0;
    Record writes[2];
    Record reads[2];
};

struct RaceDetector::Region {
    std::uintptr_t begin = 0, end = 0;
    int id = 0;
    bool shared = false;
    Cell* cells = nullptr; ///< anonymous mapping: zero pages only where the kernel accesses
    std::size_t bytes = 0;

    ~Region()
    {
        if (cells) munmap(cells, bytes);
    }
};

/// What one worker thread keeps for the block it runs (all blocks of a cooperative launch).
struct RaceDetector::Worker {
    std::vector<std::uint32_t> phase; ///< barrier count of each thread (slot())
    std::vector<std::uint32_t> grid;  ///< grid.sync() count of each thread (slot())
    /// Per block (one unless cooperative): warp and tile syncs completed so far; every access
    /// records it (Record::syncGen).
    std::vector<std::uint32_t> syncGen;
    /// Per thread (slot()) and lane of its warp: the generation of the last warp sync both took
    /// part in. An earlier access by lane a at generation g is ordered before this thread's
    /// access when joint[slot * 32 + a] > g.
    std::vector<std::uint32_t> joint;
    /// Per thread (slot()): the last tile sync (64–512 threads) it took part in; an earlier
    /// access by a thread of that tile at generation g < its generation is ordered.
    std::vector<TileSync> tile;
    bool warpSynced = false; ///< syncGen / joint / tile were written since startBlock()
    /// This worker's instance of the shared memory (addWorkerRegion).
    std::vector<std::unique_ptr<Region>> regions;
    std::uintptr_t low = ~std::uintptr_t{0}, high = 0;
    std::uint64_t sequence = 0; ///< the running block's place in the run order
    std::uint64_t found = 0;    ///< conflicts found so far (orders the reports of one block)
};

/// A report and where in the run it was first seen (the earliest block in run order).
struct RaceDetector::Kept {
    Report report;
    std::uint64_t sequence = 0, found = 0;
    bool shared = false;
};

namespace {

inline void spinPause() noexcept
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

std::atomic<std::uint64_t> g_serial{0};

/// The worker of the calling thread, valid while t_serial is its detector's m_serial.
thread_local void* t_worker = nullptr;
thread_local std::uint64_t t_serial = 0;
/// Distinct reports held at most (the rest are counted): enough to sort them in run order.
constexpr std::size_t kMaxDistinct = 1u << 16;

} // namespace

std::mutex RaceDetector::s_spareMutex;
std::vector<std::unique_ptr<RaceDetector::Region>> RaceDetector::s_spare;
thread_local const wbcpu::abi::ThreadState* RaceDetector::t_current = nullptr;
thread_local const std::uint32_t* RaceDetector::t_jointRow = nullptr;
thread_local const RaceDetector::TileSync* RaceDetector::t_tileNow = nullptr;

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
    const int count = cooperative ? 1 : std::max(1, workers);
    for (int i = 0; i < count; ++i) {
        auto w = std::make_unique<Worker>();
        w->phase.assign(blocks * warps * 32u, 0);
        w->grid.assign(blocks * warps * 32u, 0);
        w->syncGen.assign(blocks, 0);
        w->joint.assign(blocks * warps * 32u * 32u, 0);
        w->tile.assign(blocks * warps * 32u, TileSync{});
        m_workers.push_back(std::move(w));
    }
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
    if (t_serial == m_serial && t_worker) return *static_cast<Worker*>(t_worker);
    return *m_workers[0];
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
    if (!r) r = std::make_unique<Region>();
    r->begin = reinterpret_cast<std::uintptr_t>(begin);
    r->end = r->begin + size;
    r->id = id;
    r->shared = shared;
    if (r->cells) return r;
    r->bytes = bytes;
    void* cells =
        mmap(nullptr, r->bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (cells == MAP_FAILED) throw std::bad_alloc();
    // Transparent huge pages where the system allows them: one fault per 2 MiB of shadow
    // instead of one per 4 KiB (the shadow is 25 times the watched memory).
    madvise(cells, r->bytes, MADV_HUGEPAGE);
    r->cells = static_cast<Cell*>(cells);
    return r;
}

void RaceDetector::addRegion(const void* begin, std::size_t size, int id, bool shared)
{
    if (size == 0) return;
    auto r = makeRegion(begin, size, id, shared);
    m_low = std::min(m_low, r->begin);
    m_high = std::max(m_high, r->end);
    m_regions.push_back(std::move(r));
}

void RaceDetector::addWorkerRegion(int worker, const void* begin, std::size_t size, int id)
{
    if (size == 0 || worker < 0 || static_cast<std::size_t>(worker) >= m_workers.size()) return;
    Worker& w = *m_workers[static_cast<std::size_t>(worker)];
    auto r = makeRegion(begin, size, id, true);
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
    w.sequence = sequence;
    w.found = 0;
    std::fill(w.phase.begin(), w.phase.end(), 0u);
    std::fill(w.grid.begin(), w.grid.end(), 0u);
    if (w.warpSynced) { // the sync tables are only touched by kernels that sync warps or tiles
        std::fill(w.syncGen.begin(), w.syncGen.end(), 0u);
        std::fill(w.joint.begin(), w.joint.end(), 0u);
        std::fill(w.tile.begin(), w.tile.end(), TileSync{});
        w.warpSynced = false;
    }
}

void RaceDetector::barrierPassed(const wbcpu::abi::ThreadState* st)
{
    Worker& w = here();
    const std::size_t i = slot(blockOf(st), st->linear);
    if (i < w.phase.size()) ++w.phase[i];
}

void RaceDetector::gridPassed(const wbcpu::abi::ThreadState* st)
{
    Worker& w = here();
    const std::size_t i = slot(blockOf(st), st->linear);
    if (i < w.grid.size()) ++w.grid[i];
}

void RaceDetector::warpSynced(unsigned warpBase, unsigned mask)
{
    if (!t_current) return;
    Worker& w = here();
    const std::size_t base = slot(blockOf(t_current), warpBase);
    if ((base + 32u) * 32u > w.joint.size()) return;
    w.warpSynced = true;
    const std::uint32_t generation = ++w.syncGen[m_cooperative ? blockOf(t_current) : 0u];
    for (unsigned b = 0; b < 32; ++b) {
        if (!(mask & (1u << b))) continue;
        std::uint32_t* row = &w.joint[(base + b) * 32u];
        for (unsigned a = 0; a < 32; ++a)
            if (mask & (1u << a)) row[a] = generation;
    }
}

void RaceDetector::tileSynced(unsigned first, unsigned count)
{
    if (!t_current) return;
    Worker& w = here();
    const std::uint32_t block = blockOf(t_current);
    w.warpSynced = true;
    const std::uint32_t generation = ++w.syncGen[m_cooperative ? block : 0u];
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
           std::any_of(m_reports.begin(), m_reports.end(), [](const Kept& k) { return !k.shared; });
}

void RaceDetector::check(Cell& cell, const Record& now, const Region& region,
                         std::uintptr_t address, unsigned size)
{
    const auto conflicts = [&](const Record& r) {
        if (!(r.flags & Record::kValid) || !(r.mask & now.mask) || r.sameThread(now)) return false;
        if (region.shared && r.block != now.block) return false; // another block's shared memory
        if ((r.flags & Record::kAtomic) && (now.flags & Record::kAtomic)) return false;
        if (r.block != now.block) return r.grid == now.grid; // a grid.sync() orders blocks
        if (r.phase != now.phase) return false;              // a barrier orders the same block
        // A warp sync both threads took part in, after the earlier access.
        // A warp or tile sync both threads took part in, after the earlier access.
        if (r.thread / 32u == now.thread / 32u && t_jointRow &&
            t_jointRow[r.thread % 32u] > r.syncGen)
            return false;
        return !t_tileNow || t_tileNow->generation <= r.syncGen || r.thread < t_tileNow->first ||
               r.thread >= t_tileNow->first + t_tileNow->count;
    };
    const bool write = (now.flags & Record::kWrite) != 0;
    for (const Record& r : cell.writes)
        if (conflicts(r)) report(r, now, region, address, size);
    if (write)
        for (const Record& r : cell.reads)
            if (conflicts(r)) report(r, now, region, address, size);

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
    slots[1] = stale(slots[0]) ? Record{} : slots[0];
    slots[0] = now;
}

void RaceDetector::access(const void* address, std::size_t size, bool write, bool atomic,
                          const void* pc)
{
    const auto a = reinterpret_cast<std::uintptr_t>(address);
    if (size == 0) return;
    if (a < m_high && a + size > m_low)
        for (const std::unique_ptr<Region>& rp : m_regions)
            if (a < rp->end && a + size > rp->begin)
                return accessRegion(*rp, a, size, write, atomic, pc);
    const Worker& w = here();
    if (a < w.high && a + size > w.low)
        for (const std::unique_ptr<Region>& rp : w.regions)
            if (a < rp->end && a + size > rp->begin)
                return accessRegion(*rp, a, size, write, atomic, pc);
}

void RaceDetector::accessRegion(const Region& region, std::uintptr_t a, std::size_t size,
                                bool write, bool atomic, const void* pc)
{
    Worker& w = here();
    Record now;
    unsigned thread = 0;
    if (const wbcpu::abi::ThreadState* current = t_current) { // fiber mode: the host said who runs
        const wbcpu::abi::Dim& b = current->blockIndex;
        now.block = b.x + m_gridSize.x * (b.y + m_gridSize.y * b.z);
        thread = current->linear;
    } else { // loop mode: the block loop stores the coordinates before each thread
        const wbcpu::abi::Current& c = wb_cpu_current;
        now.block = c.block.x + m_gridSize.x * (c.block.y + m_gridSize.y * c.block.z);
        thread = c.thread.x + m_blockSize.x * (c.thread.y + m_blockSize.y * c.thread.z);
    }
    now.thread = static_cast<std::uint16_t>(thread);
    const std::size_t i = slot(now.block, thread);
    if (i < w.phase.size()) {
        now.phase = w.phase[i];
        now.grid = w.grid[i];
        now.syncGen = w.syncGen[m_cooperative ? now.block : 0u];
        t_jointRow = &w.joint[i * 32u];
        t_tileNow = &w.tile[i];
    } else {
        t_jointRow = nullptr;
        t_tileNow = nullptr;
    }
    now.pc = static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(pc) - m_base);
    now.flags = static_cast<std::uint8_t>(Record::kValid | (write ? Record::kWrite : 0) |
                                          (atomic ? Record::kAtomic : 0));
    // Another worker may update a global-memory word at the same time; shared memory is the
    // worker's own.
    const bool locked = m_parallel && !region.shared;
    const std::uintptr_t from = std::max(a, region.begin);
    const std::uintptr_t to = std::min(a + size, region.end);
    for (std::uintptr_t word = (from - region.begin) / 4; word <= (to - 1 - region.begin) / 4;
         ++word) {
        const std::uintptr_t wordStart = region.begin + word * 4;
        unsigned mask = 0;
        for (unsigned b = 0; b < 4; ++b)
            if (wordStart + b >= from && wordStart + b < to) mask |= 1u << b;
        now.mask = static_cast<std::uint8_t>(mask);
        Cell& cell = region.cells[word];
        const auto fresh = [&](std::uint32_t state) {
            if ((state & ~1u) != m_generation) // an earlier launch's: empty
                cell.writes[0] = cell.writes[1] = cell.reads[0] = cell.reads[1] = Record{};
        };
        if (locked) {
            std::uint32_t seen = __atomic_load_n(&cell.state, __ATOMIC_RELAXED);
            for (;;) {
                if (seen & 1u) {
                    spinPause();
                    seen = __atomic_load_n(&cell.state, __ATOMIC_RELAXED);
                } else if (__atomic_compare_exchange_n(&cell.state, &seen, seen | 1u, true,
                                                       __ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) {
                    break;
                }
            }
            fresh(seen);
            check(cell, now, region, a, static_cast<unsigned>(size));
            __atomic_store_n(&cell.state, m_generation, __ATOMIC_RELEASE);
        } else {
            fresh(cell.state);
            cell.state = m_generation;
            check(cell, now, region, a, static_cast<unsigned>(size));
        }
    }
}

void RaceDetector::print(std::FILE* out) const
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
    std::fflush(out);
}

} // namespace wb::cpu::detail
