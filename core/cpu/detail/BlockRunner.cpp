// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/cpu/detail/BlockRunner.h"
#include "core/cpu/detail/DebugRecord.h"

#include <boost/context/fiber.hpp>
#include <boost/context/stack_context.hpp>

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <new>
#include <span>
#include <utility>

// The running emulated thread of each OS thread, read by kernel libraries (see cpu_abi.h).
extern "C" {
__attribute__((visibility("default"))) __thread wbcpu::abi::Current wb_cpu_current = {};
}

namespace wb::cpu::detail {

namespace ctx = boost::context;
using wbcpu::abi::Dim;
using wbcpu::abi::ThreadState;

namespace {

/// Thrown by a host callback to unwind an emulated thread; the library's entry catches it.
struct HostAbort {};

std::string hexMask(unsigned m)
{
    char buf[16];
    std::snprintf(buf, sizeof buf, "0x%08x", m);
    return buf;
}

std::string where(const char* file, unsigned line)
{
    return std::string(file ? file : "?") + ":" + std::to_string(line);
}

Dim threadOf(unsigned linear, const Dim& block)
{
    return Dim{linear % block.x, (linear / block.x) % block.y, linear / (block.x * block.y)};
}

/// "threads (0,0,0)–(31,0,0), (40,0,0)" from sorted linear indices.
std::string formatThreads(const std::vector<unsigned>& linear, const Dim& block)
{
    std::string out;
    int ranges = 0;
    for (std::size_t i = 0; i < linear.size();) {
        std::size_t j = i;
        while (j + 1 < linear.size() && linear[j + 1] == linear[j] + 1)
            ++j;
        if (ranges == 8) {
            out += ", …";
            break;
        }
        if (!out.empty()) out += ", ";
        out += formatDim(threadOf(linear[i], block));
        if (j > i) out += "–" + formatDim(threadOf(linear[j], block));
        ++ranges;
        i = j + 1;
    }
    return (linear.size() == 1 ? "thread " : "threads ") + out;
}

/// Reusable fiber stacks with a guard page below each.
class StackPool {
public:
    explicit StackPool(std::size_t bytes)
        : m_bytes(bytes)
    {
    }
    ~StackPool()
    {
        for (void* base : m_free)
            munmap(base, m_bytes + page());
    }
    static std::size_t page() { return static_cast<std::size_t>(sysconf(_SC_PAGESIZE)); }
    void* take()
    {
        if (!m_free.empty()) {
            void* base = m_free.back();
            m_free.pop_back();
            return base;
        }
        void* base = mmap(nullptr, m_bytes + page(), PROT_READ | PROT_WRITE,
                          MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (base == MAP_FAILED) throw std::bad_alloc();
        mprotect(base, page(), PROT_NONE);
        return base;
    }
    void give(void* base) { m_free.push_back(base); }
    std::size_t bytes() const { return m_bytes; }

private:
    std::size_t m_bytes;
    std::vector<void*> m_free;
};

/// Boost.Context stack allocator over a StackPool. Stack tops are staggered by a few cache
/// lines per stack: with page-aligned tops, every fiber's hot frames would fall into the same
/// L1 cache sets and evict each other at each switch.
struct PooledStack {
    StackPool* pool;
    ctx::stack_context allocate()
    {
        void* base = pool->take();
        const std::size_t stagger = ((reinterpret_cast<std::uintptr_t>(base) >> 12) % 61) * 64;
        ctx::stack_context sc;
        sc.size = pool->bytes() - stagger;
        sc.sp = static_cast<char*>(base) + StackPool::page() + sc.size;
        return sc;
    }
    void deallocate(ctx::stack_context& sc) noexcept
    {
        pool->give(static_cast<char*>(sc.sp) - sc.size - StackPool::page());
    }
};

enum class State : unsigned char { Runnable, AtBarrier, AtWarp, AtTile, Finished };

struct WarpGroup {
    unsigned mask = 0;
    unsigned arrived = 0;
};

/// A pending sync() of a tile of more than one warp: threads [first, first + count).
struct TileGroup {
    unsigned first = 0;
    unsigned count = 0;
    unsigned arrived = 0;
};

} // namespace

/// One emulated thread. What a barrier touches (the kernel reads st.rt and st.host, the host
/// the fields up to `frame`) shares the record's second cache line with st's tail.
struct alignas(64) FiberThread {
    ThreadState st{};
    BlockRunner::Impl* block = nullptr;
    ctx::fiber fiber; ///< resumes this thread (while it is suspended or not yet started)
    State state = State::Runnable;
    bool started = false;
    // The pending barrier or warp operation.
    int op = 0;
    unsigned line = 0;
    const char* file = "";
    const void* frame = nullptr; ///< where it last suspended (a host frame on its stack)
    unsigned pos = 0;            ///< its place in a shuffled pass order (Impl::order)
    // Warp operations only.
    unsigned mask = 0;
    int param = 0;
    int width = 32;
    const char* what = "";
    unsigned long long value = 0;
    unsigned long long result = 0;
};

struct BlockRunner::Impl {
    /// The largest block (CpuBackend checks launches against it); a larger one rebuilds.
    static constexpr unsigned kMaxThreads = 1024;

    StackPool stacks;
    /// One record and fiber per thread, kept from block to block: a thread whose kernel
    /// returned parks its fiber, and the next block runs its thread on it (no fiber creation,
    /// stack handling or exit per thread and block). Never reallocated while fibers exist:
    /// they hold pointers to their records.
    std::vector<FiberThread> threads;
    std::span<FiberThread> live; ///< the running block's threads (the first n)
    /// The order of a pass: live's threads in index order, or shuffled per pass when a
    /// schedule seed is set.
    std::vector<FiberThread*> order;
    std::uint64_t seed = 0; ///< schedule variation; 0: index order
    std::uint64_t rng = 0;  ///< splitmix64 state of the running block
    std::vector<std::vector<WarpGroup>> warps;
    std::vector<TileGroup> tiles;
    LaunchState* launch = nullptr;
    wbcpu::abi::RunThreadFn entry = nullptr; ///< the running block's kernel and arguments
    void** args = nullptr;
    Dim blockDim{};
    Dim blockIndex{};
    unsigned n = 0;
    unsigned finished = 0;
    unsigned atBarrier = 0;
    unsigned gridArrivals = 0; ///< threads of atBarrier that wait at grid.sync()
    unsigned coalescing = 0;   ///< threads waiting at coalesced_threads()
    int barrierAccumulator = 0;
    int barrierReleased = 0;
    bool cancelled = false;
    bool retiring = false;                ///< parked fibers return instead of running a thread
    ctx::fiber scheduler;                 ///< resumes the scheduler loop
    FiberThread* switchingFrom = nullptr; ///< who switched last (nullptr: the scheduler)

    explicit Impl(std::size_t stackBytes)
        : stacks(stackBytes)
    {
        threads.reserve(kMaxThreads);
    }
    ~Impl() { retire(); }

    /// Threads switch to each other directly (one context switch per thread and barrier);
    /// whoever gets control keeps the continuation of whoever gave it.
    void adopt(ctx::fiber&& from)
    {
        if (switchingFrom)
            switchingFrom->fiber = std::move(from);
        else
            scheduler = std::move(from);
    }

    void switchTo(FiberThread* self, ctx::fiber& target)
    {
        switchingFrom = self;
        adopt(std::move(target).resume());
    }

    /// The first runnable thread from place `pos` of the pass order on (0: a new pass), or
    /// nullptr.
    FiberThread* nextRunnable(unsigned pos)
    {
        if (!seed) [[likely]]
            return nextRunnableFrom(live.data() + pos);
        if (cancelled) return nullptr;
        for (; pos < n; ++pos)
            if (FiberThread* t = order[pos]; t->state == State::Runnable) {
                t->started = true;
                return t;
            }
        return nullptr;
    }

    std::uint64_t random()
    {
        std::uint64_t z = (rng += 0x9e3779b97f4a7c15ull);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        return z ^ (z >> 31);
    }

    /// The fixed order: the first runnable thread from record `from` on, or nullptr.
    FiberThread* nextRunnableFrom(FiberThread* from)
    {
        if (cancelled) return nullptr;
        for (FiberThread* const end = live.data() + live.size(); from != end; ++from)
            if (from->state == State::Runnable) {
                from->started = true;
                return from;
            }
        return nullptr;
    }

    /// The next runnable thread after `t` in this pass. The fixed order reads no field of `t`
    /// (`pos` lies in a cache line that barriers otherwise never touch).
    FiberThread* nextRunnableAfter(FiberThread& t)
    {
        return seed ? nextRunnable(t.pos + 1) : nextRunnableFrom(&t + 1);
    }

    /// Schedule variation: a new order for the next pass (Fisher–Yates).
    void newPass()
    {
        if (!seed) return;
        for (unsigned i = n; i > 1; --i)
            std::swap(order[i - 1], order[random() % i]);
        for (unsigned i = 0; i < n; ++i)
            order[i]->pos = i;
    }

    void fail(const std::string& message)
    {
        launch->setError("kernel '" + launch->kernel + "', block " + formatDim(blockIndex) + ": " +
                         message);
        cancelled = true;
    }

    unsigned lanesInWarp(unsigned warp) const
    {
        const unsigned first = warp * 32u;
        const unsigned count = std::min(32u, n - first);
        return count == 32u ? 0xffffffffu : ((1u << count) - 1u);
    }

    /// Before switching to `next`: warms the caches for the thread after it, which a pass
    /// through a large block has evicted: its record, and its stack around the frame where it
    /// suspended (the registers Boost.Context saved, the host's frame, the kernel's).
    /// always_inline: out of line, GCC finds it free of side effects and drops the calls.
    [[gnu::always_inline]] void prefetchAfter(const FiberThread* next) const
    {
        const FiberThread* after = nullptr;
        if (!seed) [[likely]]
            after = next + 1 == live.data() + live.size() ? nullptr : next + 1;
        else
            after = next->pos + 1 < n ? order[next->pos + 1] : nullptr;
        if (!after) return;
        const FiberThread& t = *after;
        __builtin_prefetch(&t.fiber);
        const auto sp = reinterpret_cast<std::uintptr_t>(t.frame);
        for (std::uintptr_t line = sp - 128; line != sp + 128; line += 64)
            __builtin_prefetch(reinterpret_cast<const void*>(line));
    }

    void yield(FiberThread& t)
    {
        FiberThread* next = nextRunnableAfter(t);
        t.frame = __builtin_frame_address(0);
        if (next) prefetchAfter(next);
        switchTo(&t, next ? next->fiber : scheduler);
        if (cancelled) throw HostAbort{};
    }

    /// Every thread waits at the barrier (none exited, none waits at a warp operation).
    void releaseBarrier()
    {
        barrierReleased = barrierAccumulator;
        barrierAccumulator = 0;
        atBarrier = 0;
        for (FiberThread& x : live)
            x.state = State::Runnable;
        newPass();
        if (debugRecording()) debugBarrierReleased(n);
    }

    /// A barrier every thread reached: where it waits at grid.sync(), every block of the
    /// launch must arrive too. False (the launch failed) otherwise.
    bool passGridBarrier()
    {
        if (!gridArrivals) [[likely]]
            return true;
        const FiberThread* grid = nullptr;
        const FiberThread* block = nullptr;
        for (const FiberThread& x : live)
            (x.op == wbcpu::abi::SyncGrid ? grid : block) = &x;
        gridArrivals = 0;
        if (block) {
            fail("grid.sync() at " + where(grid->file, grid->line) + " and __syncthreads() at " +
                 where(block->file, block->line) +
                 " are the same barrier for the threads of the block: every thread must reach "
                 "the same one");
            return false;
        }
        if (!launch->gridSync(grid->file, grid->line)) {
            cancelled = true;
            return false;
        }
        return true;
    }

    /// sync() of a tile of 64–512 threads: a barrier of the threads [first, first + count).
    int tileSync(FiberThread& t, unsigned first, unsigned count, const char* file, unsigned line)
    {
        const std::string at =
            "thread_block_tile<" + std::to_string(count) + ">::sync() at " + where(file, line);
        if (first + count > n || t.st.linear < first || t.st.linear >= first + count) {
            fail(formatThreads({t.st.linear}, blockDim) + " calls " + at + " for threads " +
                 std::to_string(first) + "–" + std::to_string(first + count - 1) +
                 ", which the block does not have or which do not include it");
            throw HostAbort{};
        }
        auto g = std::find_if(tiles.begin(), tiles.end(),
                              [&](const TileGroup& x) { return x.first == first; });
        if (g != tiles.end() && g->count != count) {
            fail(formatThreads({t.st.linear}, blockDim) + " calls " + at +
                 " while other threads of its tile wait at a sync() of a tile of " +
                 std::to_string(g->count) + " threads");
            throw HostAbort{};
        }
        if (g == tiles.end()) {
            std::vector<unsigned> exited;
            for (unsigned l = first; l < first + count; ++l)
                if (threads[l].state == State::Finished) exited.push_back(l);
            if (!exited.empty()) {
                fail(formatThreads({t.st.linear}, blockDim) + " calls " + at + ", but " +
                     formatThreads(exited, blockDim) +
                     " of that tile already exited and will never arrive");
                throw HostAbort{};
            }
            tiles.push_back(TileGroup{first, count, 0});
            g = std::prev(tiles.end());
        }
        t.op = wbcpu::abi::SyncTile;
        t.file = file;
        t.line = line;
        if (++g->arrived < count) {
            t.state = State::AtTile;
            if (debugRecording()) debugThreadWaits(t.st.linear, DebugAtBarrier, line);
            yield(t);
            return 0;
        }
        tiles.erase(g);
        for (unsigned l = first; l < first + count; ++l)
            if (threads[l].state == State::AtTile) {
                threads[l].state = State::Runnable;
                if (debugRecording()) debugThreadWaits(l, DebugRunning, 0);
            }
        if (launch->tileSynced) launch->tileSynced(first, count);
        return 0;
    }

    int blockSync(FiberThread& t, int op, int predicate, const char* file, unsigned line)
    {
        if (op == wbcpu::abi::SyncTile)
            return tileSync(t, static_cast<unsigned>(predicate) & 0xffffu,
                            static_cast<unsigned>(predicate) >> 16, file, line);
        if (op == wbcpu::abi::SyncGrid) {
            if (!launch->cooperative) {
                fail(formatThreads({t.st.linear}, blockDim) + " calls grid.sync() at " +
                     where(file, line) +
                     ", which needs a cooperative launch: set \"cooperative\": true in the "
                     "project's launch (all blocks must run at once)");
                throw HostAbort{};
            }
            ++gridArrivals;
        }
        t.op = op;
        t.file = file;
        t.line = line;
        t.state = State::AtBarrier;
        if (debugRecording()) debugThreadWaits(t.st.linear, DebugAtBarrier, line);
        barrierAccumulator += predicate;
        if (++atBarrier == n && !cancelled && !launch->failed.load(std::memory_order_relaxed)) {
            // The last arrival releases the barrier and starts the next pass itself, as the
            // scheduler loop would, without the two switches through it.
            if (!passGridBarrier()) throw HostAbort{};
            releaseBarrier();
            FiberThread* first = nextRunnable(0);
            if (first != &t) {
                t.frame = __builtin_frame_address(0);
                prefetchAfter(first);
                switchTo(&t, first->fiber);
            }
            if (cancelled) throw HostAbort{};
        } else {
            yield(t);
        }
        if (op == wbcpu::abi::SyncPlain) [[likely]]
            return 0;
        switch (op) {
        case wbcpu::abi::SyncCount:
            return barrierReleased;
        case wbcpu::abi::SyncAnd:
            return barrierReleased == static_cast<int>(n) ? 1 : 0;
        case wbcpu::abi::SyncOr:
            return barrierReleased > 0 ? 1 : 0;
        default:
            return 0;
        }
    }

    std::vector<unsigned> lanesOf(unsigned warp, unsigned mask) const
    {
        std::vector<unsigned> out;
        for (unsigned l = 0; l < 32; ++l)
            if (mask & (1u << l)) out.push_back(warp * 32u + l);
        return out;
    }

    unsigned long long computeLane(const FiberThread& t, unsigned warp, unsigned mask) const
    {
        const unsigned lane = t.st.linear % 32u;
        const auto valueOf = [&](unsigned l) { return threads[warp * 32u + l].value; };
        const unsigned w = static_cast<unsigned>(t.width);
        const unsigned segment = lane & ~(w - 1u);
        unsigned src = lane;
        switch (t.op) {
        case wbcpu::abi::ShflIdx:
            src = segment + (static_cast<unsigned>(t.param) & (w - 1u));
            break;
        case wbcpu::abi::ShflUp:
            src = (lane - segment) >= static_cast<unsigned>(t.param)
                      ? lane - static_cast<unsigned>(t.param)
                      : lane;
            break;
        case wbcpu::abi::ShflDown:
            src = (lane - segment) + static_cast<unsigned>(t.param) < w
                      ? lane + static_cast<unsigned>(t.param)
                      : lane;
            break;
        case wbcpu::abi::ShflXor:
            src = lane ^ static_cast<unsigned>(t.param);
            if ((src & ~(w - 1u)) != segment) src = lane;
            break;
        default:
            break;
        }
        switch (t.op) {
        case wbcpu::abi::ShflIdx:
        case wbcpu::abi::ShflUp:
        case wbcpu::abi::ShflDown:
        case wbcpu::abi::ShflXor:
            return (src < 32u && (mask & (1u << src))) ? valueOf(src) : t.value;
        default:
            break;
        }
        unsigned long long acc = 0;
        bool first = true;
        unsigned ballot = 0;
        unsigned match = 0;
        bool allEqual = true;
        for (unsigned l = 0; l < 32; ++l) {
            if (!(mask & (1u << l))) continue;
            const unsigned long long v = valueOf(l);
            if (v) ballot |= 1u << l;
            if (v == t.value)
                match |= 1u << l;
            else
                allEqual = false;
            const long long sv = static_cast<long long>(v);
            switch (t.op) {
            case wbcpu::abi::ReduceAddU:
                acc = static_cast<unsigned long long>(static_cast<unsigned>(acc + v));
                break;
            case wbcpu::abi::ReduceMinU:
                acc = first ? v : std::min<unsigned long long>(acc, static_cast<unsigned>(v));
                break;
            case wbcpu::abi::ReduceMaxU:
                acc = first ? v : std::max<unsigned long long>(acc, static_cast<unsigned>(v));
                break;
            case wbcpu::abi::ReduceMinI:
                acc = first ? v
                            : static_cast<unsigned long long>(
                                  std::min(static_cast<long long>(acc), sv));
                break;
            case wbcpu::abi::ReduceMaxI:
                acc = first ? v
                            : static_cast<unsigned long long>(
                                  std::max(static_cast<long long>(acc), sv));
                break;
            case wbcpu::abi::ReduceAnd:
                acc = first ? v : (acc & v);
                break;
            case wbcpu::abi::ReduceOr:
                acc |= v;
                break;
            case wbcpu::abi::ReduceXor:
                acc ^= v;
                break;
            default:
                break;
            }
            first = false;
        }
        switch (t.op) {
        case wbcpu::abi::Ballot:
            return ballot;
        case wbcpu::abi::Any:
            return ballot != 0;
        case wbcpu::abi::All:
            return ballot == mask;
        case wbcpu::abi::MatchAny:
            return match;
        case wbcpu::abi::MatchAll:
            return allEqual ? mask : 0u;
        case wbcpu::abi::WarpSync:
            return 0;
        default:
            return acc;
        }
    }

    unsigned long long warpOp(FiberThread& t, int op, unsigned mask, unsigned long long value,
                              int param, int width, const char* what, const char* file,
                              unsigned line)
    {
        const unsigned warp = t.st.linear / 32u;
        const unsigned lane = t.st.linear % 32u;
        if (op == wbcpu::abi::Coalesce) return coalesce(t, what, file, line);
        const std::string at = std::string(what) + " at " + where(file, line);
        if (width <= 0 || width > 32 || (width & (width - 1)) != 0) {
            fail(formatThreads({t.st.linear}, blockDim) + ": " + at + " with width " +
                 std::to_string(width) + " (must be a power of two up to 32)");
            throw HostAbort{};
        }
        const unsigned m = mask & lanesInWarp(warp);
        if (!(m & (1u << lane))) {
            fail(formatThreads({t.st.linear}, blockDim) + " calls " + at + " with mask " +
                 hexMask(mask) + ", which does not include its own lane " + std::to_string(lane));
            throw HostAbort{};
        }
        std::vector<WarpGroup>& groups = warps[warp];
        auto g = std::find_if(groups.begin(), groups.end(),
                              [&](const WarpGroup& x) { return x.mask == m; });
        // A pending operation of another mask may overlap this one: as on a GPU, where the
        // lanes of both wait until their own mask arrived (partitions of a warp still in their
        // collectives while the others reach the parent's sync), each completes when its lanes
        // are there. If they wait for each other, nothing can run and run() reports the masks.
        if (g == groups.end()) {
            std::vector<unsigned> exited;
            for (unsigned l : lanesOf(warp, m))
                if (threads[l].state == State::Finished) exited.push_back(l);
            if (!exited.empty()) {
                fail("inconsistent warp mask in warp " + std::to_string(warp) + ": " +
                     formatThreads({t.st.linear}, blockDim) + " calls " + at + " with mask " +
                     hexMask(mask) + ", but " + formatThreads(exited, blockDim) +
                     " of that mask already exited and will never arrive");
                throw HostAbort{};
            }
            groups.push_back(WarpGroup{m, 0});
            g = std::prev(groups.end());
        }
        t.op = op;
        t.mask = m;
        t.value = value;
        t.param = param;
        t.width = width;
        t.what = what;
        t.file = file;
        t.line = line;
        g->arrived |= 1u << lane;
        if (g->arrived != m) {
            t.state = State::AtWarp;
            if (debugRecording()) debugThreadWaits(t.st.linear, DebugAtWarpOp, line);
            yield(t);
            return t.result;
        }
        // Last lane in: everybody's result, then release the others.
        groups.erase(g);
        for (unsigned l : lanesOf(warp, m))
            threads[l].result = computeLane(threads[l], warp, m);
        for (unsigned l : lanesOf(warp, m))
            if (l != t.st.linear) threads[l].state = State::Runnable;
        if (debugRecording()) recordExchange(warp, m, t);
        // __syncwarp and every *_sync intrinsic (shuffles, votes, match, reduce) order memory
        // among the lanes of their mask.
        if (launch->warpSynced) launch->warpSynced(warp * 32u, m);
        return t.result;
    }

    /// A pending operation of `warp` whose mask overlaps `m` but differs, or nullptr.
    const WarpGroup* overlapping(unsigned warp, unsigned m) const
    {
        for (const WarpGroup& other : warps[warp])
            if (other.mask != m && (other.mask & m)) return &other;
        return nullptr;
    }

    /// Nothing can run: two pending operations of one warp whose masks overlap wait for each
    /// other's lanes (an inconsistent warp mask), or else describeStall().
    std::string describeOverlap() const
    {
        for (std::size_t w = 0; w < warps.size(); ++w) {
            const unsigned warp = static_cast<unsigned>(w);
            for (const WarpGroup& a : warps[w]) {
                const WarpGroup* b = overlapping(warp, a.mask);
                if (!b) continue;
                const FiberThread& first = threads[lanesOf(warp, a.arrived).front()];
                std::vector<unsigned> waiting;
                for (unsigned l : lanesOf(warp, b->arrived))
                    waiting.push_back(l);
                const FiberThread& sample = threads[waiting.back()];
                return "inconsistent warp mask in warp " + std::to_string(warp) + ": " +
                       formatThreads({first.st.linear}, blockDim) + " calls " + first.what +
                       " at " + where(first.file, first.line) + " with mask " + hexMask(a.mask) +
                       " while " + formatThreads(waiting, blockDim) + " wait at " + sample.what +
                       " at " + where(sample.file, sample.line) + " with mask " + hexMask(b->mask);
            }
        }
        return describeStall();
    }

    /// Lanes of `warp` waiting at coalesced_threads() at the same call as `t`.
    unsigned coalescedWith(unsigned warp, const FiberThread& t) const
    {
        unsigned m = 0;
        for (unsigned l : lanesOf(warp, lanesInWarp(warp))) {
            const FiberThread& x = threads[l];
            if (x.state == State::AtWarp && x.op == wbcpu::abi::Coalesce && x.line == t.line &&
                std::strcmp(x.file, t.file) == 0)
                m |= 1u << (l % 32u);
        }
        return m;
    }

    void releaseCoalesced(unsigned warp, unsigned mask)
    {
        for (unsigned l : lanesOf(warp, mask)) {
            threads[l].result = mask;
            threads[l].state = State::Runnable;
            --coalescing;
            if (debugRecording()) debugThreadWaits(l, DebugRunning, 0);
        }
    }

    /// coalesced_threads(): the lanes of the warp that reach this call together. The group
    /// closes when every lane of the warp that has not exited is here, or else at the end of
    /// the pass (every other lane waits elsewhere or exited: it took another branch).
    unsigned long long coalesce(FiberThread& t, const char* what, const char* file, unsigned line)
    {
        const unsigned warp = t.st.linear / 32u;
        t.op = wbcpu::abi::Coalesce;
        t.what = what;
        t.file = file;
        t.line = line;
        t.mask = 0;
        t.state = State::AtWarp;
        ++coalescing;
        if (debugRecording()) debugThreadWaits(t.st.linear, DebugAtWarpOp, line);
        const unsigned here = coalescedWith(warp, t);
        if (here == activeMask(t)) {
            releaseCoalesced(warp, here);
            return here;
        }
        yield(t);
        return t.result;
    }

    /// End of a pass with threads at coalesced_threads(): each call site's lanes form a group.
    void resolveCoalesced()
    {
        for (FiberThread& t : live)
            if (t.state == State::AtWarp && t.op == wbcpu::abi::Coalesce) {
                const unsigned warp = t.st.linear / 32u;
                releaseCoalesced(warp, coalescedWith(warp, t));
            }
    }

    /// Debug mode: what the lanes of `mask` gave and got (DebugRecord.h).
    void recordExchange(unsigned warp, unsigned mask, const FiberThread& t) const
    {
        std::uint64_t values[32] = {}, results[32] = {};
        for (unsigned l : lanesOf(warp, mask)) {
            values[l % 32u] = threads[l].value;
            results[l % 32u] = threads[l].result;
            debugThreadWaits(l, DebugRunning, 0);
        }
        debugWarpExchange(warp, t.op, mask, t.param, t.what, t.line, values, results);
    }

    unsigned activeMask(const FiberThread& t) const
    {
        const unsigned warp = t.st.linear / 32u;
        unsigned m = 0;
        for (unsigned l : lanesOf(warp, lanesInWarp(warp)))
            if (threads[l].state != State::Finished) m |= 1u << (l % 32u);
        return m;
    }

    /// Nothing can run and the block is not done: say who waits for whom.
    std::string describeStall() const
    {
        std::vector<unsigned> barrier, exited;
        const FiberThread* barrierSample = nullptr;
        for (const FiberThread& t : live) {
            if (t.state == State::AtBarrier) {
                barrier.push_back(t.st.linear);
                barrierSample = &t;
            }
            if (t.state == State::Finished) exited.push_back(t.st.linear);
        }
        std::string out;
        if (barrierSample) {
            out = "__syncthreads() at " + where(barrierSample->file, barrierSample->line) +
                  " is not reached by every thread of the block: " +
                  formatThreads(barrier, blockDim) + " wait there";
        }
        for (std::size_t w = 0; w < warps.size(); ++w)
            for (const WarpGroup& g : warps[w]) {
                std::vector<unsigned> waiting, missing;
                const FiberThread* sample = nullptr;
                for (unsigned l : lanesOf(static_cast<unsigned>(w), g.mask)) {
                    if (g.arrived & (1u << (l % 32u))) {
                        waiting.push_back(l);
                        sample = &threads[l];
                    } else {
                        missing.push_back(l);
                    }
                }
                if (!out.empty()) out += "; ";
                out += formatThreads(waiting, blockDim) + " wait at " + sample->what + " at " +
                       where(sample->file, sample->line) + " (mask " + hexMask(g.mask) + ") for " +
                       formatThreads(missing, blockDim) + ", which will never arrive";
            }
        for (const TileGroup& g : tiles) {
            std::vector<unsigned> waiting, missing;
            const FiberThread* sample = nullptr;
            for (unsigned l = g.first; l < g.first + g.count; ++l) {
                if (threads[l].state == State::AtTile) {
                    waiting.push_back(l);
                    sample = &threads[l];
                } else {
                    missing.push_back(l);
                }
            }
            if (!sample) continue;
            if (!out.empty()) out += "; ";
            out += formatThreads(waiting, blockDim) + " wait at thread_block_tile<" +
                   std::to_string(g.count) + ">::sync() at " + where(sample->file, sample->line) +
                   " for " + formatThreads(missing, blockDim) + ", which will never arrive";
        }
        if (!exited.empty()) out += "; " + formatThreads(exited, blockDim) + " exited";
        return out;
    }

    /// Runs thread `t` of each block that starts it; parked in between, until retire().
    ctx::fiber makeFiber(FiberThread& t)
    {
        return ctx::fiber(std::allocator_arg, PooledStack{&stacks}, [this, &t](ctx::fiber&& from) {
            adopt(std::move(from));
            while (!retiring) {
                entry(args, &t.st);
                t.state = State::Finished;
                if (debugRecording()) debugThreadExited(t.st.linear);
                ++finished;
                FiberThread* next = nextRunnableAfter(t);
                switchTo(&t, next ? next->fiber : scheduler);
            }
            return std::move(scheduler);
        });
    }

    /// Ends every fiber by letting it return (destroying a suspended fiber would unwind it
    /// with an exception). One still inside a kernel (run() left by an exception) is
    /// cancelled first, which parks it.
    void retire()
    {
        cancelled = true;
        retiring = true;
        for (FiberThread& t : threads)
            while (t.fiber)
                switchTo(nullptr, t.fiber);
        threads.clear();
        retiring = false;
    }

    void run(const wbcpu::abi::KernelDesc& kernel, void** kernelArgs, const ThreadState& base)
    {
        blockDim = base.blockSize;
        blockIndex = base.blockIndex;
        n = blockDim.x * blockDim.y * blockDim.z;
        entry = kernel.runThread;
        args = kernelArgs;
        finished = 0;
        atBarrier = 0;
        gridArrivals = 0;
        coalescing = 0;
        barrierAccumulator = 0;
        barrierReleased = 0;
        cancelled = false;
        if (n > threads.capacity()) {
            retire();
            threads.reserve(n);
        }
        while (threads.size() < n) {
            threads.emplace_back();
            threads.back().fiber = makeFiber(threads.back());
        }
        live = std::span<FiberThread>(threads.data(), n);
        order.resize(n);
        rng = seed ^ (0x100000001b3ull * (blockIndex.x + 1) + 0x1000193ull * (blockIndex.y + 1) +
                      0x9e3779b9ull * (blockIndex.z + 1));
        if (debugRecording()) debugBlockStarted(blockIndex.x, blockIndex.y, blockIndex.z, n);
        warps.assign((n + 31u) / 32u, {});
        tiles.clear();
        for (unsigned i = 0; i < n; ++i) {
            FiberThread& t = threads[i];
            t.st = base;
            t.st.threadIndex = threadOf(i, blockDim);
            t.st.linear = i;
            t.st.host = &t;
            t.block = this;
            t.state = State::Runnable;
            t.started = false;
            t.pos = i;
            order[i] = &t;
        }
        newPass();
        for (;;) {
            if (FiberThread* first = nextRunnable(0)) {
                switchTo(nullptr, first->fiber); // back here at the end of the pass
                if (cancelled || launch->failed.load(std::memory_order_relaxed)) break;
                continue;
            }
            if (finished == n) return;
            if (atBarrier == n && finished == 0) {
                if (!passGridBarrier()) break;
                releaseBarrier();
                continue;
            }
            if (coalescing) {
                resolveCoalesced();
                continue;
            }
            fail(describeOverlap());
            break;
        }
        // Stopped early: unwind the threads that are suspended inside the kernel (they park
        // again); never-started ones stay parked.
        cancelled = true;
        for (FiberThread& t : live) {
            if (t.started && t.state != State::Finished) {
                t.state = State::Runnable;
                switchTo(nullptr, t.fiber);
            }
        }
    }
};

void LaunchState::setError(const std::string& message)
{
    {
        std::lock_guard lock(mutex);
        if (error.empty()) error = message;
        failed.store(true, std::memory_order_relaxed);
    }
    {
        std::lock_guard grid(m_gridMutex); // a block about to wait sees `failed`
    }
    m_gridCv.notify_all();
}

bool LaunchState::gridSync(const char* file, unsigned line)
{
    std::unique_lock lock(m_gridMutex);
    if (failed.load()) return false;
    if (m_gridArrived == 0) m_gridWhere = where(file, line);
    const std::uint64_t generation = m_gridGeneration;
    ++m_gridArrived;
    if (m_gridArrived + m_gridExited == std::uint64_t{grid.x} * grid.y * grid.z) {
        if (m_gridExited == 0) {
            m_gridArrived = 0;
            ++m_gridGeneration;
            lock.unlock();
            m_gridCv.notify_all();
            return true;
        }
        checkGridStall(lock);
        return false;
    }
    if (gridWaiting) gridWaiting(true);
    m_gridCv.wait(lock, [&] { return m_gridGeneration != generation || failed.load(); });
    const bool passed = m_gridGeneration != generation;
    lock.unlock();
    if (gridWaiting) gridWaiting(false);
    return passed;
}

void LaunchState::blockExited(const Dim& blockIndex)
{
    std::unique_lock lock(m_gridMutex);
    ++m_gridExited;
    m_lastExited = blockIndex;
    if (m_gridArrived > 0 &&
        m_gridArrived + m_gridExited == std::uint64_t{grid.x} * grid.y * grid.z)
        checkGridStall(lock);
}

void LaunchState::checkGridStall(std::unique_lock<std::mutex>& lock)
{
    const std::string message =
        "kernel '" + kernel + "': grid.sync() at " + m_gridWhere +
        " is not reached by every block of the cooperative launch: " +
        std::to_string(m_gridArrived) + (m_gridArrived == 1 ? " block waits" : " blocks wait") +
        " there; " + std::to_string(m_gridExited) + (m_gridExited == 1 ? " block" : " blocks") +
        " exited (the last: block " + formatDim(m_lastExited) + ")";
    lock.unlock();
    setError(message);
}

std::string formatDim(const Dim& d)
{
    char buf[48];
    std::snprintf(buf, sizeof buf, "(%u,%u,%u)", d.x, d.y, d.z);
    return buf;
}

namespace {

LaunchState& launchOf(ThreadState* st)
{
    return *reinterpret_cast<const HostRuntime*>(st->rt)->launch;
}

[[noreturn]] void notInLoopMode(ThreadState* st, const char* what, const char* file, unsigned line)
{
    LaunchState& l = launchOf(st);
    l.setError("kernel '" + l.kernel + "' calls " + what + " at " + where(file, line) +
               ", but the emulator did not see barriers or warp operations in the source (hidden "
               "behind a macro or an included header?) and ran its threads as a plain loop");
    throw HostAbort{};
}

int blockSyncCallback(ThreadState* st, int op, int predicate, const char* file, unsigned line)
{
    auto* t = static_cast<FiberThread*>(st->host);
    if (!t)
        notInLoopMode(st, op == wbcpu::abi::SyncGrid ? "grid.sync()" : "__syncthreads()", file,
                      line);
    return t->block->blockSync(*t, op, predicate, file, line);
}

unsigned long long warpOpCallback(ThreadState* st, int op, unsigned mask, unsigned long long value,
                                  int param, int width, const char* what, const char* file,
                                  unsigned line)
{
    auto* t = static_cast<FiberThread*>(st->host);
    if (!t) notInLoopMode(st, what, file, line);
    return t->block->warpOp(*t, op, mask, value, param, width, what, file, line);
}

int cooperativeCallback(ThreadState* st)
{
    return launchOf(st).cooperative ? 1 : 0;
}

unsigned activeMaskCallback(ThreadState* st)
{
    if (auto* t = static_cast<FiberThread*>(st->host)) return t->block->activeMask(*t);
    const unsigned n = st->blockSize.x * st->blockSize.y * st->blockSize.z;
    const unsigned first = st->linear / 32u * 32u;
    const unsigned count = std::min(32u, n - first);
    return count == 32u ? 0xffffffffu : ((1u << count) - 1u);
}

void failCallback(ThreadState* st, const char* message, const char* file, unsigned line)
{
    LaunchState& l = launchOf(st);
    l.setError("kernel '" + l.kernel + "': " + message +
               (file && *file ? " at " + where(file, line) : std::string()) + " in block " +
               formatDim(st->blockIndex) + ", thread " + formatDim(st->threadIndex));
    if (auto* t = static_cast<FiberThread*>(st->host)) t->block->cancelled = true;
}

} // namespace

void initRuntime(HostRuntime& runtime, LaunchState& launch)
{
    runtime.rt.blockSync = &blockSyncCallback;
    runtime.rt.warpOp = &warpOpCallback;
    runtime.rt.activeMask = &activeMaskCallback;
    runtime.rt.fail = &failCallback;
    runtime.rt.cooperative = &cooperativeCallback;
    runtime.launch = &launch;
}

BlockRunner::BlockRunner(std::size_t stackBytes)
    : m_impl(std::make_unique<Impl>(stackBytes))
{
}
BlockRunner::~BlockRunner() = default;

void BlockRunner::setSchedule(std::uint64_t seed)
{
    m_impl->seed = seed;
}

std::uint64_t scheduledBlock(std::uint64_t seed, std::uint64_t index, std::uint64_t count)
{
    if (!seed || count < 2) return index;
    // index -> (a * index + c) mod count with a coprime to count: a bijection, cheap for any
    // grid size.
    std::uint64_t a = (seed * 0x9e3779b97f4a7c15ull) % count;
    const auto gcd = [](std::uint64_t x, std::uint64_t y) {
        while (y) {
            const std::uint64_t r = x % y;
            x = y;
            y = r;
        }
        return x;
    };
    if (a == 0) a = 1;
    while (gcd(a, count) != 1)
        a = a + 1 == count ? 1 : a + 1;
    const std::uint64_t c = (seed >> 17) % count;
    __extension__ using Wide = unsigned __int128;
    return static_cast<std::uint64_t>((static_cast<Wide>(a) * index + c) % count);
}

void BlockRunner::run(const wbcpu::abi::KernelDesc& kernel, void** args, const ThreadState& base)
{
    m_impl->launch = reinterpret_cast<const HostRuntime*>(base.rt)->launch;
    m_impl->run(kernel, args, base);
}

} // namespace wb::cpu::detail
