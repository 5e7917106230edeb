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
}

void RaceDetector::barrierPassed(const wbcpu::abi::ThreadState* st)
{
    const std::size_t i = slot(blockOf(st), st->linear);
    if (i < m_phase.size()) ++m_phase[i];
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
        if (r.thread / 32u == now.thread / 32u && m_jointRow &&
            std::max(*m_warpFullNow, m_jointRow[r.thread % 32u]) > r.syncGen)
            return false;
        return !m_tileNow || m_tileNow->generation <= r.syncGen || r.thread < m_tileNow->first ||
               r.thread >= m_tileNow->first + m_tileNow->count;
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
    if (size == 0 || a >= m_high || a + size <= m_low) return;
    for (const std::unique_ptr<Region>& rp : m_regions) {
        const Region& region = *rp;
        if (a >= region.end || a + size <= region.begin) continue;
        Record now;
        unsigned thread = 0;
        if (m_current) { // fiber mode: the host said who runs
            const wbcpu::abi::Dim& b = m_current->blockIndex;
            now.block = b.x + m_gridSize.x * (b.y + m_gridSize.y * b.z);
            thread = m_current->linear;
        } else { // loop mode: the block loop stores the coordinates before each thread
            const wbcpu::abi::Current& c = wb_cpu_current;
            now.block = c.block.x + m_gridSize.x * (c.block.y + m_gridSize.y * c.block.z);
            thread = c.thread.x + m_blockSize.x * (c.thread.y + m_blockSize.y * c.thread.z);
        }
        now.thread = static_cast<std::uint16_t>(thread);
        const std::size_t i = slot(now.block, thread);
        if (i < m_phase.size()) {
            now.phase = m_phase[i];
            now.grid = m_grid[i];
            now.syncGen = m_syncGen[m_cooperative ? now.block : 0u];
            m_jointRow = &m_joint[i * 32u];
            m_warpFullNow = &m_warpFull[i / 32u];
            m_tileNow = &m_tile[i];
        } else {
            m_jointRow = nullptr;
            m_tileNow = nullptr;
        }
        now.pc = static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(pc) - m_base);
        now.flags = static_cast<std::uint8_t>(Record::kValid | (write ? Record::kWrite : 0) |
                                              (atomic ? Record::kAtomic : 0));
        const std::uintptr_t from = std::max(a, region.begin);
        const std::uintptr_t to = std::min(a + size, region.end);
        for (std::uintptr_t word = (from - region.begin) / 4; word <= (to - 1 - region.begin) / 4;
             ++word) {
            const std::uintptr_t wordStart = region.begin + word * 4;
            unsigned mask = 0;
            for (unsigned b = 0; b < 4; ++b)
                if (wordStart + b >= from && wordStart + b < to) mask |= 1u << b;
            now.mask = static_cast<std::uint8_t>(mask);
            check(region.cells[word], now, region, a, static_cast<unsigned>(size));
        }
        return;
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
    std::fflush(out);
}

} // namespace wb::cpu::detail
