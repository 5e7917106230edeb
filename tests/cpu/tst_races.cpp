// SPDX-License-Identifier: GPL-3.0-or-later
// Race-check mode of the CPU emulator (CpuBackend with kRaceCheckFlag, the ThreadSanitizer-
// instrumented library run by warpbench-cpu-sandbox) and schedule variation (setSchedule).
#include "core/backend/Backend.h"
#include "core/common/Error.h"
#include "core/cpu/CpuBackend.h"
#include "tests/support/SuiteMain.h"

#include <QtTest/QtTest>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>

using namespace wb;

namespace {

std::string readFile(const std::string& path)
{
    std::ifstream in(std::string(WB_SOURCE_DIR) + "/" + path);
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

/// Workers of a Run that names none: 1, or $WB_TEST_RACE_WORKERS (the tst_races_workers test
/// runs every case with blocks on 4 workers: the memory model's state under parallel blocks).
int defaultWorkers()
{
    const int n = qEnvironmentVariableIntValue("WB_TEST_RACE_WORKERS");
    return n > 0 ? n : 1;
}

/// Compiles `source`, launches `kernel` on buffers of floats/ints given as byte vectors.
struct Run {
    explicit Run(int threads = defaultWorkers())
        : backend(threads)
    {
    }
    cpu::CpuBackend backend;
    std::unique_ptr<BackendProgram> program;
    std::vector<std::unique_ptr<BackendBuffer>> buffers;
    std::vector<std::vector<unsigned char>> values;
    std::vector<KernelArgValue> args;
    std::vector<std::uint64_t> addresses;

    bool compile(const std::string& source, const std::string& name, bool races)
    {
        CompileOptions o;
        if (races) o.extraFlags.push_back(cpu::CpuBackend::kRaceCheckFlag);
        const CompileResult r = backend.compile(source, name, o);
        if (!r.ok) {
            qWarning("%s", r.log.c_str());
            return false;
        }
        program = backend.load(r);
        return true;
    }
    template <typename T> void buffer(const std::vector<T>& data, const char* label)
    {
        buffers.push_back(backend.allocate(data.size() * sizeof(T), label));
        backend.upload(*buffers.back(), data.data(), data.size() * sizeof(T));
    }
    template <typename T> std::vector<T> result(std::size_t i, std::size_t n)
    {
        std::vector<T> out(n);
        backend.download(*buffers[i], out.data(), n * sizeof(T));
        return out;
    }
    /// Pointer arguments for every buffer, in order, then the integers.
    void launch(const std::string& kernel, Dim3 grid, Dim3 block, std::vector<int> ints = {},
                unsigned shared = 0, bool cooperative = false)
    {
        values.clear();
        args.clear();
        values.reserve(buffers.size() + ints.size());
        for (const auto& b : buffers) {
            const std::uint64_t a = b->address();
            values.emplace_back(8);
            std::memcpy(values.back().data(), &a, 8);
            args.push_back({values.back().data(), 8, true});
        }
        for (int v : ints) {
            values.emplace_back(sizeof v);
            std::memcpy(values.back().data(), &v, sizeof v);
            args.push_back({values.back().data(), sizeof v, false});
        }
        LaunchConfig c;
        c.grid = grid;
        c.block = block;
        c.sharedBytes = shared;
        c.cooperative = cooperative;
        backend.launch(*program, kernel, c, args);
    }
};

bool hasRace(const std::vector<RaceFinding>& races, int lineA, bool writeA, int lineB, bool writeB)
{
    for (const RaceFinding& f : races) {
        if (f.first.line == lineA && f.first.isWrite == writeA && f.second.line == lineB &&
            f.second.isWrite == writeB)
            return true;
        if (f.first.line == lineB && f.first.isWrite == writeB && f.second.line == lineA &&
            f.second.isWrite == writeA)
            return true;
    }
    return false;
}

std::string describe(const std::vector<RaceFinding>& races)
{
    std::string s;
    for (const RaceFinding& f : races)
        s += f.location + ": " + f.first.file + ":" + std::to_string(f.first.line) +
             (f.first.isWrite ? " write" : " read") + " / " + f.second.file + ":" +
             std::to_string(f.second.line) + (f.second.isWrite ? " write" : " read") + "; ";
    return s.empty() ? "no races" : s;
}

/// Everything a finding says, for comparing whole race lists.
std::string fullText(const std::vector<RaceFinding>& races)
{
    const auto dim = [](const Dim3& d) {
        char text[64];
        std::snprintf(text, sizeof text, "(%u,%u,%u)", d.x, d.y, d.z);
        return std::string(text);
    };
    const auto side = [&](const RaceAccess& a) {
        return a.file + ":" + std::to_string(a.line) + (a.isWrite ? " write" : " read") +
               (a.isAtomic ? " atomic" : "") + " block " + dim(a.block) + " thread " +
               dim(a.thread);
    };
    std::string s;
    for (const RaceFinding& f : races)
        s += f.location + (f.shared ? " shared: " : " global: ") + side(f.first) + " / " +
             side(f.second) + " x" + std::to_string(f.occurrences) + "\n";
    return s;
}

/// Many blocks with every kind of race: in shared memory (no barrier between the store and the
/// neighbour's load), in global memory within a block (every thread adds to its block's
/// element) and across blocks (each block's thread 0 writes its neighbour's element).
const char* kManyBlocksRacy = R"(__global__ void racy(const float* in, float* out)
{
    __shared__ float cache[64];
    const int t = threadIdx.x;
    cache[t] = in[blockIdx.x * 64 + t];
    const float v = cache[(t + 1) % 64];
    out[blockIdx.x] += v;
    if (t == 0) out[(blockIdx.x + 1) % gridDim.x] = v;
}
)";

} // namespace

class TestRaces : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void missingSyncthreadsIsReportedAtItsLine()
    {
        Run r;
        QVERIFY(r.compile(
            readFile("resources/examples/bugs/missing_syncthreads/missing_syncthreads.cu"),
            "missing_syncthreads.cu", true));
        const int n = 1024, threads = 256;
        r.buffer(std::vector<float>(n, 1.0f), "in");
        r.buffer(std::vector<float>(n / threads, 0.0f), "partial");
        r.launch("block_sum", {n / threads, 1, 1}, {threads, 1, 1}, {n}, threads * 4);
        const auto& races = r.backend.lastRaces();
        const std::string text = describe(races);
        QVERIFY2(!races.empty(), text.c_str());
        // cache[t] += cache[t + stride]: thread t reads what thread t + stride writes, same line.
        QVERIFY2(hasRace(races, 11, false, 11, true), text.c_str());
        for (const RaceFinding& f : races) {
            QVERIFY2(f.shared, text.c_str());
            QCOMPARE(f.first.file, std::string("missing_syncthreads.cu"));
            QVERIFY2(f.location.rfind("cache[", 0) == 0, f.location.c_str());
            QVERIFY(f.first.thread != f.second.thread);
            QCOMPARE(f.first.block, f.second.block);
        }
        // The launch still completes and its buffers come back.
        QVERIFY(r.result<float>(1, 1)[0] != 0.0f);
    }

    void globalRacesAreReportedAtTheirLines()
    {
        Run r;
        QVERIFY(r.compile(readFile("tests/cpu/kernels/race_global.cu"), "race_global.cu", true));
        r.buffer(std::vector<float>(256, 0.0f), "data");
        r.launch("neighbour", {2, 1, 1}, {128, 1, 1}, {256});
        std::string text = describe(r.backend.lastRaces());
        // Thread i reads data[i + 1] (line 6) that thread i + 1 writes (lines 5 and 6), also
        // across the two blocks.
        QVERIFY2(hasRace(r.backend.lastRaces(), 6, false, 5, true) ||
                     hasRace(r.backend.lastRaces(), 6, false, 6, true),
                 text.c_str());
        for (const RaceFinding& f : r.backend.lastRaces()) {
            QVERIFY(!f.shared);
            QVERIFY2(f.location.rfind("data[", 0) == 0, f.location.c_str());
        }

        Run s;
        QVERIFY(s.compile(readFile("tests/cpu/kernels/race_global.cu"), "race_global.cu", true));
        s.buffer(std::vector<int>(1, -1), "out");
        s.launch("same_cell", {4, 1, 1}, {32, 1, 1});
        text = describe(s.backend.lastRaces());
        QCOMPARE(s.backend.lastRaces().size(), std::size_t{1});
        const RaceFinding& f = s.backend.lastRaces()[0];
        QVERIFY2(hasRace(s.backend.lastRaces(), 11, true, 11, true), text.c_str());
        QCOMPARE(f.location, std::string("out[0]"));
        QVERIFY(f.first.block != f.second.block); // blocks are concurrent
        QCOMPARE(f.first.thread, (Dim3{0, 0, 0}));
    }

    void atomicsAndBarriersAreNotRaces()
    {
        const std::string source = R"(
__global__ void counted(int* total, float* out)
{
    __shared__ float tile[64];
    atomicAdd(&total[0], 1);
    tile[threadIdx.x] = threadIdx.x;
    __syncthreads();
    out[blockIdx.x * 64 + threadIdx.x] = tile[63 - threadIdx.x];
    __syncthreads();
    tile[threadIdx.x] = 0.0f;
}
__global__ void unsynced(float* out)
{
    __shared__ float tile[64];
    tile[threadIdx.x] = threadIdx.x;
    out[blockIdx.x * 64 + threadIdx.x] = tile[63 - threadIdx.x];
}
)";
        Run r;
        QVERIFY(r.compile(source, "barriers.cu", true));
        r.buffer(std::vector<int>(1, 0), "total");
        r.buffer(std::vector<float>(128, 0.0f), "out");
        r.launch("counted", {2, 1, 1}, {64, 1, 1});
        QVERIFY2(r.backend.lastRaces().empty(), describe(r.backend.lastRaces()).c_str());
        QCOMPARE(r.result<int>(0, 1)[0], 128); // the atomic entry points performed the adds
        QCOMPARE(r.result<float>(1, 128)[70], 57.0f);

        // The same accesses without the barrier are a race between lines 15 and 16.
        Run u;
        QVERIFY(u.compile(source, "barriers.cu", true));
        u.buffer(std::vector<float>(128, 0.0f), "out");
        u.launch("unsynced", {2, 1, 1}, {64, 1, 1});
        const std::string text = describe(u.backend.lastRaces());
        QVERIFY2(hasRace(u.backend.lastRaces(), 15, true, 16, false), text.c_str());
        QVERIFY2(u.backend.lastRaces()[0].location.rfind("tile[", 0) == 0, text.c_str());
    }

    void plainAndAtomicOnOneAddressRace()
    {
        const std::string source = R"(
__global__ void mixed(int* c)
{
    if (threadIdx.x == 0) c[0] = 5;
    else atomicAdd(&c[0], 1);
}
)";
        Run r;
        QVERIFY(r.compile(source, "mixed.cu", true));
        r.buffer(std::vector<int>(1, 0), "c");
        r.launch("mixed", {1, 1, 1}, {4, 1, 1});
        const auto& races = r.backend.lastRaces();
        QVERIFY2(hasRace(races, 4, true, 5, true), describe(races).c_str());
        bool oneAtomic = false;
        for (const RaceFinding& f : races)
            oneAtomic = oneAtomic || (f.first.isAtomic != f.second.isAtomic);
        QVERIFY(oneAtomic);
    }

    // The atomic side of a race is the innermost line in the user's source, not the line of
    // the prelude or the C++ library where the atomic happens: atomicInc's compare-exchange
    // loop runs in atomic_base.h, inlined into a helper of the user's header (which was named
    // atomic_base.h:992), and float atomics through the prelude (atomicAdd) or <cuda/atomic>
    // (cuda::atomic_ref::fetch_add) in the kernel file itself.
    void atomicSideIsTheUsersLine()
    {
        const std::string source = R"(#include <cuda/atomic>
#include <cstdint>

__global__ void tally(float* sum, float* ref, int mode)
{
    if (threadIdx.x == 0) {
        sum[0] = 1.0f;
        ref[0] = 1.0f;
    } else if (mode == 0) {
        atomicAdd(&sum[0], 2.0f);
    } else {
        cuda::atomic_ref<float, cuda::thread_scope_device> r(ref[0]);
        r.fetch_add(2.0f, cuda::memory_order_relaxed);
    }
}
)";
        // Through a helper in a header of the user's, out of line.
        Run h;
        QVERIFY(h.compile(readFile("tests/cpu/kernels/race_header.cu"),
                          WB_SOURCE_DIR "/tests/cpu/kernels/race_header.cu", true));
        h.buffer(std::vector<unsigned>(1, 0u), "counter");
        h.buffer(std::vector<unsigned>(32, 0u), "got");
        h.launch("tickets", {1, 1, 1}, {32, 1, 1});
        const std::string text = describe(h.backend.lastRaces());
        QVERIFY2(!h.backend.lastRaces().empty(), text.c_str());
        for (const RaceFinding& f : h.backend.lastRaces()) {
            const RaceAccess& atomic = f.first.isAtomic ? f.first : f.second;
            const RaceAccess& plain = f.first.isAtomic ? f.second : f.first;
            QVERIFY2(atomic.isAtomic && !plain.isAtomic, text.c_str());
            QCOMPARE(atomic.file, std::string("race_header.cuh"));
            QCOMPARE(atomic.line, 8);
            QCOMPARE(plain.file, std::string("race_header.cuh"));
            QCOMPARE(plain.line, 13);
        }

        for (int mode : {0, 1}) {
            Run r;
            QVERIFY(r.compile(source, "tally.cu", true));
            r.buffer(std::vector<float>(1, 0.0f), "sum");
            r.buffer(std::vector<float>(1, 0.0f), "ref");
            r.launch("tally", {1, 1, 1}, {32, 1, 1}, {mode});
            const auto& races = r.backend.lastRaces();
            const std::string text = describe(races);
            QVERIFY2(!races.empty(), text.c_str());
            for (const RaceFinding& f : races) {
                const RaceAccess& atomic = f.first.isAtomic ? f.first : f.second;
                const RaceAccess& plain = f.first.isAtomic ? f.second : f.first;
                QVERIFY2(atomic.isAtomic && !plain.isAtomic, text.c_str());
                QCOMPARE(atomic.file, std::string("tally.cu"));
                QCOMPARE(atomic.line, mode == 0 ? 10 : 13);
                QCOMPARE(plain.file, std::string("tally.cu"));
                QCOMPARE(plain.line, mode == 0 ? 7 : 8);
            }
        }
    }

    // Cooperative groups' syncs are the barriers they stand for: a block sync and the syncs of
    // tiles made at run time order shared memory (cg_groups.cu reports nothing); a tile whose
    // lanes read what others wrote without tile.sync() in between races at those lines.
    void cooperativeGroupSyncsAreBarriers()
    {
        Run r;
        QVERIFY(r.compile(readFile("tests/cpu/kernels/cg_groups.cu"), "cg_groups.cu", true));
        r.buffer(std::vector<int>(6, 0), "out");
        r.launch("cg_group_sums", {1, 1, 1}, {64, 1, 1}, {}, 64 * 4);
        QVERIFY2(r.backend.lastRaces().empty(), describe(r.backend.lastRaces()).c_str());
        QCOMPARE(r.result<int>(0, 6)[0], 63 * 64 / 2);

        const std::string source = R"(#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void tile_sum(int* out, int synced)
{
    __shared__ int x[64];
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<16> tile = cg::tiled_partition<16>(block);
    int* t = x + block.thread_rank() - tile.thread_rank();
    const int lane = tile.thread_rank();
    int val = block.thread_rank();
    for (int i = 8; i > 0; i /= 2) {
        t[lane] = val;
        if (synced) tile.sync();
        if (lane < i) val += t[lane + i];
        tile.sync();
    }
    if (lane == 0) out[block.thread_rank() / 16] = val;
}
)";
        Run s;
        QVERIFY(s.compile(source, "tile_sum.cu", true));
        s.buffer(std::vector<int>(4, 0), "out");
        s.launch("tile_sum", {1, 1, 1}, {64, 1, 1}, {1});
        QVERIFY2(s.backend.lastRaces().empty(), describe(s.backend.lastRaces()).c_str());
        QCOMPARE(s.result<int>(0, 4)[1], 16 * 16 + 120);

        Run u;
        QVERIFY(u.compile(source, "tile_sum.cu", true));
        u.buffer(std::vector<int>(4, 0), "out");
        u.launch("tile_sum", {1, 1, 1}, {64, 1, 1}, {0});
        const std::string text = describe(u.backend.lastRaces());
        QVERIFY2(hasRace(u.backend.lastRaces(), 12, true, 14, false), text.c_str());
        for (const RaceFinding& f : u.backend.lastRaces()) {
            QVERIFY2(f.shared, text.c_str());
            // Only lanes of one tile race: the tiles' syncs keep apart what they order.
            QCOMPARE(f.first.thread.x / 16, f.second.thread.x / 16);
        }
    }

    // A tile of 64 threads spans two warps: its sync() orders their shared-memory accesses
    // (cg_multi_warp.cu reads, after t64.sync(), what the other warp of the tile wrote).
    void multiWarpTileSyncIsABarrier()
    {
        Run r;
        QVERIFY(
            r.compile(readFile("tests/cpu/kernels/cg_multi_warp.cu"), "cg_multi_warp.cu", true));
        std::vector<int> in(192);
        for (std::size_t i = 0; i < in.size(); ++i)
            in[i] = static_cast<int>(i % 17) - 8;
        r.buffer(in, "in");
        r.buffer(std::vector<int>(8 * 192, 0), "out");
        r.launch("cg_multi_warp", {1, 1, 1}, {192, 1, 1});
        QVERIFY2(r.backend.lastRaces().empty(), describe(r.backend.lastRaces()).c_str());
        QCOMPARE(r.result<int>(1, 8 * 192)[6], in[63]);
    }

    // A sync() of a tile of 64 threads orders that tile only: it is not a barrier of the
    // block, so a read of the other tile's element races with its write.
    void multiWarpTileSyncOrdersOnlyItsTile()
    {
        const std::string source = R"(#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void tiles_apart(int* out)
{
    __shared__ int s[128];
    cg::thread_block_tile<64> tile = cg::tiled_partition<64>(cg::this_thread_block());
    s[threadIdx.x] = threadIdx.x;
    tile.sync();
    out[threadIdx.x] = s[(threadIdx.x + 64) % 128];
}
)";
        Run r;
        QVERIFY(r.compile(source, "tiles_apart.cu", true));
        r.buffer(std::vector<int>(128, 0), "out");
        r.launch("tiles_apart", {1, 1, 1}, {128, 1, 1});
        const std::string text = describe(r.backend.lastRaces());
        QVERIFY2(hasRace(r.backend.lastRaces(), 7, true, 9, false), text.c_str());
        for (const RaceFinding& f : r.backend.lastRaces())
            QVERIFY2(f.first.thread.x / 64 != f.second.thread.x / 64, text.c_str());
    }

    // grid.sync() in a cooperative launch orders global memory between blocks; without it,
    // block 0 reading every block's partial sum races with their writes.
    void gridSyncOrdersBlocks()
    {
        const std::string source = R"(#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void gather(float* partial, float* out, int synced)
{
    if (threadIdx.x == 0) partial[blockIdx.x] = blockIdx.x + 1.0f;
    if (synced) cg::this_grid().sync();
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        float t = 0.0f;
        for (unsigned b = 0; b < gridDim.x; ++b) t += partial[b];
        out[0] = t;
    }
}
)";
        Run r;
        QVERIFY(r.compile(source, "gather.cu", true));
        r.buffer(std::vector<float>(4, 0.0f), "partial");
        r.buffer(std::vector<float>(1, 0.0f), "out");
        r.launch("gather", {4, 1, 1}, {32, 1, 1}, {1}, 0, true);
        QVERIFY2(r.backend.lastRaces().empty(), describe(r.backend.lastRaces()).c_str());
        QCOMPARE(r.result<float>(1, 1)[0], 10.0f); // the blocks really ran at once

        Run u;
        QVERIFY(u.compile(source, "gather.cu", true));
        u.buffer(std::vector<float>(4, 0.0f), "partial");
        u.buffer(std::vector<float>(1, 0.0f), "out");
        u.launch("gather", {4, 1, 1}, {32, 1, 1}, {0}, 0, true);
        const std::string text = describe(u.backend.lastRaces());
        QVERIFY2(hasRace(u.backend.lastRaces(), 5, true, 9, false), text.c_str());
        for (const RaceFinding& f : u.backend.lastRaces())
            QVERIFY2(f.first.block != f.second.block, text.c_str());
    }

    void manyBlocksGiveTheSameRaceListOnAnyNumberOfWorkers()
    {
        // Blocks of a race-checked launch run on all workers (here 4, whatever the machine); the
        // list (findings, examples, counts) is the one a single worker gives, run after run.
        const int blocks = 96;
        std::vector<float> in(blocks * 64);
        for (std::size_t i = 0; i < in.size(); ++i)
            in[i] = static_cast<float>(i % 5);
        const auto races = [&](int workers) {
            Run r(workers);
            if (!r.compile(kManyBlocksRacy, "many_blocks.cu", true)) return std::string("compile");
            r.buffer(in, "in");
            r.buffer(std::vector<float>(blocks, 0.0f), "out");
            r.launch("racy", {blocks, 1, 1}, {64, 1, 1});
            const std::string first = fullText(r.backend.lastRaces());
            for (int again = 0; again < 2; ++again) { // the same process serves the next launch
                r.backend.upload(*r.buffers[1], std::vector<float>(blocks, 0.0f).data(),
                                 blocks * sizeof(float));
                r.launch("racy", {blocks, 1, 1}, {64, 1, 1});
                if (fullText(r.backend.lastRaces()) != first)
                    return "launch " + std::to_string(again + 2) + " differs:\n" +
                           fullText(r.backend.lastRaces()) + "first:\n" + first;
            }
            return first;
        };
        const std::string one = races(1);
        QVERIFY2(one.find(" shared: many_blocks.cu:6 read") != std::string::npos ||
                     one.find(" shared: many_blocks.cu:5 write") != std::string::npos,
                 one.c_str());
        QVERIFY2(one.find(" global: ") != std::string::npos, one.c_str());
        for (int run = 0; run < 3; ++run) {
            const std::string four = races(4);
            QCOMPARE(four, one);
        }
    }

    void sharedMemoryRacesOnManyWorkersAreTheOnesOfOneWorker()
    {
        // Only shared-memory races (no replay on one worker): each worker's blocks are checked
        // against its own shared memory, and the example of each finding is that of the first
        // block in run order, whichever worker found it first.
        Run one(1), four(4);
        const std::string source =
            readFile("resources/examples/bugs/missing_syncthreads/missing_syncthreads.cu");
        const int n = 256 * 64, threads = 256;
        std::string lists[2];
        int k = 0;
        for (Run* r : {&one, &four}) {
            QVERIFY(r->compile(source, "missing_syncthreads.cu", true));
            r->buffer(std::vector<float>(n, 1.0f), "in");
            r->buffer(std::vector<float>(n / threads, 0.0f), "partial");
            r->launch("block_sum", {n / threads, 1, 1}, {threads, 1, 1}, {n}, threads * 4);
            lists[k++] = fullText(r->backend.lastRaces());
        }
        QVERIFY2(lists[0].find(" shared: ") != std::string::npos, lists[0].c_str());
        QVERIFY2(lists[0].find(" global: ") == std::string::npos, lists[0].c_str());
        QCOMPARE(lists[1], lists[0]);
        QVERIFY2(lists[0].find("block (0,0,0)") != std::string::npos, lists[0].c_str());
    }

    void racesAcrossBlocksOnDifferentWorkersAreFound()
    {
        // Every block writes the same element and its own: blocks on different workers
        // conflict through the locked global shadow; nothing else is reported.
        const char* source = R"(__global__ void last_wins(int* flag, int* own)
{
    if (threadIdx.x == 0) *flag = blockIdx.x;
    own[blockIdx.x * blockDim.x + threadIdx.x] = 1;
}
)";
        for (int run = 0; run < 3; ++run) {
            Run r(4);
            QVERIFY(r.compile(source, "last_wins.cu", true));
            r.buffer(std::vector<int>(1, -1), "flag");
            r.buffer(std::vector<int>(64 * 32, 0), "own");
            r.launch("last_wins", {64, 1, 1}, {32, 1, 1});
            const auto& races = r.backend.lastRaces();
            const std::string text = fullText(races);
            QCOMPARE(races.size(), std::size_t{1});
            const RaceFinding& f = races[0];
            QCOMPARE(f.location, std::string("flag[0]"));
            QVERIFY2(f.first.isWrite && f.second.isWrite, text.c_str());
            QCOMPARE(f.first.line, 3);
            QVERIFY2(f.first.block != f.second.block, text.c_str());
            // In block order, as one worker finds it: block 0's write, then block 1's.
            QCOMPARE(f.first.block, (Dim3{0, 0, 0}));
            QCOMPARE(f.second.block, (Dim3{1, 0, 0}));
            // Each later block's write conflicts with the two kept writes of earlier blocks.
            QCOMPARE(f.occurrences, std::uint64_t{1 + 62 * 2});
            const auto own = r.result<int>(1, 64 * 32);
            QVERIFY(std::all_of(own.begin(), own.end(), [](int v) { return v == 1; }));
        }
    }

    void theRunInBlockOrderStartsFromTheLaunchsInputs()
    {
        // A global race on several workers makes the launch run again on one: the buffers and
        // the library's __device__ variables are put back first, so the results are those of a
        // single run in block order (each block draws its ticket in turn).
        const char* source = R"(__device__ unsigned int ticket = 0;
__global__ void draw(unsigned int* out)
{
    if (threadIdx.x == 0) {
        out[0] = blockIdx.x;
        out[1 + blockIdx.x] += atomicAdd(&ticket, 1u);
    }
}
)";
        const unsigned blocks = 40;
        Run r(4);
        QVERIFY(r.compile(source, "draw.cu", true));
        r.buffer(std::vector<unsigned>(1 + blocks, 0), "out");
        r.launch("draw", {blocks, 1, 1}, {32, 1, 1});
        QVERIFY2(r.backend.lastRaces().size() == 1, describe(r.backend.lastRaces()).c_str());
        const auto out = r.result<unsigned>(0, 1 + blocks);
        QCOMPARE(out[0], blocks - 1);
        for (unsigned b = 0; b < blocks; ++b)
            QCOMPARE(out[1 + b], b);
    }

    void aFailedRaceCheckedLaunchDoesNotStopTheNext()
    {
        // The sandbox that serves race-checked launches ends with a failed launch; the next
        // launch starts a new one.
        const char* source = R"(__global__ void stuck(int* out, int skip)
{
    if (threadIdx.x != skip) __syncthreads();
    out[blockIdx.x * blockDim.x + threadIdx.x] = threadIdx.x;
}
)";
        Run r(2);
        QVERIFY(r.compile(source, "stuck.cu", true));
        r.buffer(std::vector<int>(4 * 32, 0), "out");
        bool threw = false;
        try {
            r.launch("stuck", {4, 1, 1}, {32, 1, 1}, {5});
        } catch (const Error& e) {
            threw = true;
            QVERIFY2(std::string(e.what()).find("stuck") != std::string::npos, e.what());
        }
        QVERIFY(threw);
        r.launch("stuck", {4, 1, 1}, {32, 1, 1}, {-1});
        QVERIFY2(r.backend.lastRaces().empty(), describe(r.backend.lastRaces()).c_str());
        QCOMPARE(r.result<int>(0, 4 * 32)[4 * 32 - 1], 31);
    }

    void aForbiddenCallEndsTheServedSandboxWithItsMessage()
    {
        // The served sandbox is sealed like a one-shot one: a kernel that opens a file for
        // writing ends it with "kernel attempted ...", and the next launch gets a new one. (The
        // call is hidden from NVRTC's device-code check, which would refuse it at compile time:
        // the sandbox is the layer under test.)
        const char* source = R"(#ifdef __CUDACC_RTC__
#define OPEN_FILE() 0
#else
#include <cstdio>
#define OPEN_FILE() (std::fopen("/tmp/wb-race-escape", "w") != nullptr)
#endif
__global__ void escape(int* out, int open)
{
    if (open && threadIdx.x == 0) out[0] = OPEN_FILE();
    else out[threadIdx.x] = 2;
}
)";
        Run r(2);
        QVERIFY(r.compile(source, "escape.cu", true));
        r.buffer(std::vector<int>(32, 0), "out");
        r.launch("escape", {1, 1, 1}, {32, 1, 1}, {0});
        QCOMPARE(r.result<int>(0, 32)[0], 2);
        std::string message;
        try {
            r.launch("escape", {1, 1, 1}, {32, 1, 1}, {1});
        } catch (const Error& e) {
            message = e.what();
        }
        QVERIFY2(message.find("kernel attempted ") != std::string::npos, message.c_str());
        QVERIFY2(message.find("escape") != std::string::npos, message.c_str());
        r.launch("escape", {1, 1, 1}, {32, 1, 1}, {0});
        QCOMPARE(r.result<int>(0, 32)[31], 2);
    }

    // An access out of a buffer's bounds in a race-checked launch (as public suites' racy
    // kernels have them) is reported like the plain bounds check's: the race-checked launch,
    // the kernel's line, block and thread, how far out of which buffer; the races found
    // before it are kept; no protocol text; the next launch runs. A wild pointer alike.
    void outOfBoundsInARaceCheckedLaunch()
    {
        // (Separate statements per case: clang merges stores of one kernel under different
        // conditions into one instruction, which then has no line.)
        const char* source = R"(__global__ void spill(float* out, int at)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i > 0) out[0] += 1.0f;
    if (i == 7) out[at] = 2.0f;
}
__global__ void wild(float* out, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i > 0) out[0] += 1.0f;
    if (i == 7) reinterpret_cast<float*>(static_cast<unsigned long long>(n))[0] = 2.0f;
}
)";
        for (int workers : {1, 4}) {
            Run r(workers);
            QVERIFY(r.compile(source, "spill.cu", true));
            r.buffer(std::vector<float>(64, 0.0f), "out");
            const auto failure = [&](const char* kernel, int value) {
                try {
                    r.launch(kernel, {2, 1, 1}, {32, 1, 1}, {value});
                } catch (const Error& e) {
                    return std::string(e.what());
                }
                return std::string("no error");
            };
            struct Case {
                const char* kernel;
                int value;
                int line;
                const char* says;
            };
            for (const Case& c :
                 {Case{"spill", 66, 5,
                       "out of bounds access at spill.cu:5 by block (0,0,0), thread (7,0,0): write "
                       "of 4 bytes, 8 bytes past the end of buffer 'out' (256 bytes)"},
                  Case{"spill", -1, 5,
                       "out of bounds access at spill.cu:5 by block (0,0,0), thread (7,0,0): write "
                       "of 4 bytes, 4 bytes before buffer 'out' (256 bytes)"},
                  Case{"wild", 64, 11,
                       "invalid address access at spill.cu:11 by block (0,0,0), thread (7,0,0): "
                       "SEGV on address 0x40"}}) {
                const std::string message = failure(c.kernel, c.value);
                QVERIFY2(message.find("kernel '" + std::string(c.kernel) +
                                      "' (race-checked launch): ") == 0,
                         message.c_str());
                QVERIFY2(message.find(c.says) != std::string::npos, message.c_str());
                QVERIFY2(message.find("WB-") == std::string::npos, message.c_str());
                QVERIFY2(message.find("bounds-checked") == std::string::npos, message.c_str());
                const auto& races = r.backend.lastRaces();
                QVERIFY2(hasRace(races, c.line - 1, true, c.line - 1, false) ||
                             hasRace(races, c.line - 1, true, c.line - 1, true),
                         describe(races).c_str());
                QCOMPARE(r.backend.lastFindings().size(), std::size_t{1});
                QCOMPARE(r.backend.lastFindings()[0].line, c.line);
                // The next launch gets a new sandbox.
                r.backend.upload(*r.buffers[0], std::vector<float>(64, 0.0f).data(),
                                 64 * sizeof(float));
                r.launch("spill", {1, 1, 1}, {1, 1, 1}, {0});
                QVERIFY(r.backend.lastRaces().empty());
            }
        }
    }

    // CUDA's warp reduction in shared memory (the Programming Guide's idiom): __syncwarp()
    // between each step's read and write orders the lanes; 8 warps of 2 blocks report nothing
    // and compute the sums. Without the __syncwarp() after one step's read, that read races
    // with the next write of the lane it reads.
    void warpReductionWithSyncwarpIsClean()
    {
        const std::string source = readFile("tests/cpu/kernels/race_warp.cu");
        std::vector<int> in(512);
        for (std::size_t i = 0; i < in.size(); ++i)
            in[i] = static_cast<int>(i % 13);
        Run r;
        QVERIFY(r.compile(source, "race_warp.cu", true));
        r.buffer(in, "in");
        r.buffer(std::vector<int>(16, 0), "out");
        r.launch("warp_sum", {2, 1, 1}, {256, 1, 1}, {0});
        QVERIFY2(r.backend.lastRaces().empty(), describe(r.backend.lastRaces()).c_str());
        const std::vector<int> sums = r.result<int>(1, 16);
        for (std::size_t w = 0; w < 16; ++w) {
            int expected = 0;
            for (std::size_t l = 0; l < 32; ++l)
                expected += in[w * 32 + l];
            QCOMPARE(sums[w], expected);
        }

        for (int drop = 1; drop <= 5; ++drop) {
            Run u;
            QVERIFY(u.compile(source, "race_warp.cu", true));
            u.buffer(in, "in");
            u.buffer(std::vector<int>(16, 0), "out");
            u.launch("warp_sum", {2, 1, 1}, {256, 1, 1}, {drop});
            const std::string text = describe(u.backend.lastRaces());
            QVERIFY2(hasRace(u.backend.lastRaces(), 16, false, 18, true), text.c_str());
            for (const RaceFinding& f : u.backend.lastRaces()) {
                QVERIFY2(f.shared, text.c_str());
                QCOMPARE(f.first.block, f.second.block);
                QCOMPARE(f.first.thread.x / 32, f.second.thread.x / 32); // within one warp
            }
        }
    }

    // __syncwarp(mask) orders only the lanes of its mask: each half of the warp syncs on its
    // own, so the two lanes that read across the halves race (15 with 16, 31 with 0) and no
    // other pair does.
    void laneOutsideTheMaskIsNotOrdered()
    {
        Run r;
        QVERIFY(r.compile(readFile("tests/cpu/kernels/race_warp.cu"), "race_warp.cu", true));
        r.buffer(std::vector<int>(32, 0), "out");
        r.launch("half_mask", {1, 1, 1}, {32, 1, 1});
        const auto& races = r.backend.lastRaces();
        const std::string text = describe(races);
        QVERIFY2(hasRace(races, 30, true, 32, false), text.c_str());
        for (const RaceFinding& f : races) {
            const unsigned a = f.first.thread.x, b = f.second.thread.x;
            QVERIFY2((a < 16) != (b < 16), text.c_str());
            QVERIFY2((a == 15 && b == 16) || (a == 16 && b == 15) || (a == 31 && b == 0) ||
                         (a == 0 && b == 31),
                     text.c_str());
        }
        QCOMPARE(r.result<int>(0, 32)[3], 40);
    }

    // Shuffles and votes (*_sync intrinsics) order memory among the lanes of their mask.
    void shufflesAndVotesOrderTheirLanes()
    {
        Run r;
        QVERIFY(r.compile(readFile("tests/cpu/kernels/race_warp.cu"), "race_warp.cu", true));
        r.buffer(std::vector<int>(32, 0), "out");
        r.launch("shuffle_ordered", {1, 1, 1}, {32, 1, 1});
        QVERIFY2(r.backend.lastRaces().empty(), describe(r.backend.lastRaces()).c_str());
        QCOMPARE(r.result<int>(0, 32)[5], 4 + 32 + 7);
    }

    // CUDA's threadFenceReduction idiom: each block writes its partial sum, __threadfence(),
    // takes a ticket with atomicInc; the block with the last ticket reads every partial. The
    // fence and the ticket order the partials before the last block's reads (and its
    // __syncthreads() passes that on to all its threads); without the fence they race.
    void fenceThenAtomicPublishesToTheLastBlock()
    {
        const std::string source = readFile("tests/cpu/kernels/race_atomics.cu");
        const int blocks = 8, threads = 128;
        std::vector<float> in(blocks * threads);
        for (std::size_t i = 0; i < in.size(); ++i)
            in[i] = static_cast<float>(i % 5);
        float expected = 0.0f;
        for (float v : in)
            expected += v;
        Run r;
        QVERIFY(r.compile(source, "race_atomics.cu", true));
        r.buffer(in, "in");
        r.buffer(std::vector<float>(blocks, 0.0f), "partial");
        r.buffer(std::vector<float>(1, 0.0f), "total");
        r.launch("fence_sum", {blocks, 1, 1}, {threads, 1, 1}, {1});
        QVERIFY2(r.backend.lastRaces().empty(), describe(r.backend.lastRaces()).c_str());
        QCOMPARE(r.result<float>(2, 1)[0], expected);

        Run u;
        QVERIFY(u.compile(source, "race_atomics.cu", true));
        u.buffer(in, "in");
        u.buffer(std::vector<float>(blocks, 0.0f), "partial");
        u.buffer(std::vector<float>(1, 0.0f), "total");
        u.launch("fence_sum", {blocks, 1, 1}, {threads, 1, 1}, {0});
        const std::string text = describe(u.backend.lastRaces());
        QVERIFY2(hasRace(u.backend.lastRaces(), 23, true, 32, false), text.c_str());
        for (const RaceFinding& f : u.backend.lastRaces()) {
            QVERIFY2(!f.shared, text.c_str());
            QVERIFY2(f.location.rfind("partial[", 0) == 0, text.c_str());
            QVERIFY2(f.first.block != f.second.block, text.c_str());
        }
    }

    // cuda::atomic_ref with memory orders and scopes: a flag published with release and read
    // with acquire (or relaxed atomics between release and acquire fences, or seq_cst) orders
    // the data before it; relaxed does not, nor does a release the reader does not acquire, nor
    // block scope across blocks.
    void atomicRefOrdersFollowTheMemoryModel()
    {
        const std::string source = readFile("tests/cpu/kernels/race_atomics.cu");
        const auto run = [&](int mode, std::string& text) {
            // One worker, blocks in order: block 1 reads what block 0 published. On several
            // workers (tst_races_workers) block 1 may run first, see no flag and read nothing.
            Run r(1);
            if (!r.compile(source, "race_atomics.cu", true)) return std::vector<RaceFinding>{};
            r.buffer(std::vector<int>(4, 0), "data");
            r.buffer(std::vector<int>(1, 0), "flag");
            r.buffer(std::vector<int>(1, 0), "seen");
            r.launch("publish", {2, 1, 1}, {32, 1, 1}, {mode});
            text = describe(r.backend.lastRaces());
            if (r.result<int>(2, 1)[0] != 10 + 11 + 12 + 13) text += " (block 1 did not read)";
            return r.backend.lastRaces();
        };
        for (int mode : {1, 3, 5}) {
            std::string text;
            const auto races = run(mode, text);
            QVERIFY2(races.empty() && text == "no races",
                     (std::to_string(mode) + ": " + text).c_str());
        }
        for (int mode : {0, 2, 4}) {
            std::string text;
            const auto races = run(mode, text);
            QVERIFY2(hasRace(races, 57, true, 73, false),
                     (std::to_string(mode) + ": " + text).c_str());
            // Block scope across blocks: the two flag atomics race with each other as well.
            QCOMPARE(hasRace(races, 64, true, 71, false), mode == 4);
            for (const RaceFinding& f : races)
                QVERIFY2(f.location.rfind(mode == 4 && f.first.line == 64 ? "flag[" : "data[", 0) ==
                             0,
                         text.c_str());
        }
    }

    // A lock taken with atomicCAS and freed with atomicExch after a __threadfence() orders
    // the critical sections of every warp of every block; without the fence they race.
    void fencedSpinLockOrdersItsCriticalSections()
    {
        const std::string source = readFile("tests/cpu/kernels/race_atomics.cu");
        for (int fenced : {1, 0}) {
            Run r;
            QVERIFY(r.compile(source, "race_atomics.cu", true));
            r.buffer(std::vector<int>(1, 0), "lock");
            r.buffer(std::vector<int>(1, 0), "total");
            r.launch("locked_sum", {4, 1, 1}, {64, 1, 1}, {fenced});
            QCOMPARE(r.result<int>(1, 1)[0], 8);
            const std::string text = describe(r.backend.lastRaces());
            if (fenced)
                QVERIFY2(r.backend.lastRaces().empty(), text.c_str());
            else
                QVERIFY2(hasRace(r.backend.lastRaces(), 106, true, 106, true) ||
                             hasRace(r.backend.lastRaces(), 106, false, 106, true),
                         text.c_str());
        }
    }

    // atomicAdd_block reaches only its block: on one word from several blocks it is a race
    // (atomic against atomic); atomicAdd_system, or a word per block, is not.
    void blockScopedAtomicsAcrossBlocksRace()
    {
        const std::string source = readFile("tests/cpu/kernels/race_atomics.cu");
        Run r;
        QVERIFY(r.compile(source, "race_atomics.cu", true));
        r.buffer(std::vector<int>(4, 0), "count");
        r.launch("scoped_count", {4, 1, 1}, {32, 1, 1}, {0});
        const std::string text = describe(r.backend.lastRaces());
        QVERIFY2(hasRace(r.backend.lastRaces(), 81, true, 81, true), text.c_str());
        for (const RaceFinding& f : r.backend.lastRaces()) {
            QVERIFY(f.first.isAtomic && f.second.isAtomic);
            QVERIFY(f.first.block != f.second.block);
        }
        QCOMPARE(r.result<int>(0, 1)[0], 128);

        for (int mode : {1, 2}) {
            Run c;
            QVERIFY(c.compile(source, "race_atomics.cu", true));
            c.buffer(std::vector<int>(4, 0), "count");
            c.launch("scoped_count", {4, 1, 1}, {32, 1, 1}, {mode});
            QVERIFY2(c.backend.lastRaces().empty(), describe(c.backend.lastRaces()).c_str());
        }
    }

    // <cuda/atomic> works on the emulator with and without race checking: a block-scope
    // cuda::atomic in shared memory (no dynamic initialisation), atomic_ref on global memory.
    void cudaAtomicWorksInEveryMode()
    {
        const std::string source = readFile("tests/cpu/kernels/race_atomics.cu");
        for (bool races : {false, true}) {
            Run r;
            QVERIFY(r.compile(source, "race_atomics.cu", races));
            r.buffer(std::vector<int>(2, -1), "out");
            r.launch("shared_counter", {2, 1, 1}, {64, 1, 1});
            QCOMPARE(r.result<int>(0, 2), (std::vector<int>{64, 64}));
            QVERIFY2(r.backend.lastRaces().empty(), describe(r.backend.lastRaces()).c_str());

            Run p(1); // blocks in order: block 1 reads what block 0 published
            QVERIFY(p.compile(source, "race_atomics.cu", races));
            p.buffer(std::vector<int>(4, 0), "data");
            p.buffer(std::vector<int>(1, 0), "flag");
            p.buffer(std::vector<int>(1, 0), "seen");
            p.launch("publish", {2, 1, 1}, {32, 1, 1}, {1});
            QCOMPARE(p.result<int>(1, 1)[0], 1);
            QCOMPARE(p.result<int>(2, 1)[0], 10 + 11 + 12 + 13);
        }
    }

    // The shadow keeps two reads and two writes per word: where a third thread displaced an
    // access that a later one may race with, the word is counted (lastRaceCrowding), so that
    // the report says a race may have been missed instead of staying silent. Here thread 34's
    // write races with thread 0's read, which threads 32 and 33 displaced.
    // Release/acquire state is per launch: a fenced threadFenceReduction launch publishes on
    // the ticket counter, and the next launch of the unfenced variant on the same program (the
    // same served sandbox, the same counter, shadow memory passed on) must not acquire it: its
    // partials race. And the other way round, the races of an unfenced launch do not leak into
    // a fenced one. Accesses of one launch never race with those of the launch before (launches
    // on one stream are ordered): the fenced launch after an unfenced one reports nothing,
    // though both wrote and read the same partials.
    void releaseAcquireStateIsPerLaunch()
    {
        const std::string source = readFile("tests/cpu/kernels/race_atomics.cu");
        const int blocks = 8, threads = 128;
        for (int workers : {1, 4}) {
            Run r(workers);
            QVERIFY(r.compile(source, "race_atomics.cu", true));
            r.buffer(std::vector<float>(blocks * threads, 1.0f), "in");
            r.buffer(std::vector<float>(blocks, 0.0f), "partial");
            r.buffer(std::vector<float>(1, 0.0f), "total");
            for (int round = 0; round < 2; ++round) {
                r.launch("fence_sum", {blocks, 1, 1}, {threads, 1, 1}, {1});
                QVERIFY2(r.backend.lastRaces().empty(), describe(r.backend.lastRaces()).c_str());
                QCOMPARE(r.result<float>(2, 1)[0], float(blocks * threads));
                r.launch("fence_sum", {blocks, 1, 1}, {threads, 1, 1}, {0});
                const std::string text = describe(r.backend.lastRaces());
                QVERIFY2(hasRace(r.backend.lastRaces(), 23, true, 32, false), text.c_str());
                QCOMPARE(r.result<float>(2, 1)[0], float(blocks * threads));
            }
        }
    }

    // CpuBackend::takeRaceLog(): the races of every launch since the last take, each naming
    // its kernel; a finding a later launch repeats is kept once; a take starts a new log.
    void raceLogKeepsEveryLaunch()
    {
        Run r;
        QVERIFY(r.compile(readFile("tests/cpu/kernels/race_atomics.cu"), "race_atomics.cu", true));
        r.buffer(std::vector<float>(8 * 128, 1.0f), "in");
        r.buffer(std::vector<float>(8, 0.0f), "partial");
        r.buffer(std::vector<float>(1, 0.0f), "total");
        r.launch("fence_sum", {8, 1, 1}, {128, 1, 1}, {0});
        const std::size_t racesOfOne = r.backend.lastRaces().size();
        QVERIFY(racesOfOne > 0);
        r.launch("fence_sum", {8, 1, 1}, {128, 1, 1}, {0});
        r.launch("fence_sum", {8, 1, 1}, {128, 1, 1}, {1}); // clean, and the last launch
        QVERIFY(r.backend.lastRaces().empty());
        cpu::CpuBackend::RaceLog log = r.backend.takeRaceLog();
        QCOMPARE(log.races.size(), racesOfOne);
        for (const RaceFinding& f : log.races)
            QCOMPARE(f.kernel, std::string("fence_sum"));
        QVERIFY(r.backend.takeRaceLog().races.empty());

        Run s;
        QVERIFY(s.compile(readFile("tests/cpu/kernels/race_atomics.cu"), "race_atomics.cu", true));
        s.buffer(std::vector<int>(4, 0), "count");
        s.launch("scoped_count", {4, 1, 1}, {32, 1, 1}, {0}); // block-scope atomics: a race
        s.launch("scoped_count", {4, 1, 1}, {32, 1, 1}, {1});
        log = s.backend.takeRaceLog();
        QVERIFY2(!log.races.empty(), describe(log.races).c_str());
        QVERIFY(s.backend.lastRaces().empty());
    }

    // Read-shared words: a third thread's read like two kept ones (same block, barrier phase,
    // code, bytes) is not kept, and while blocks run on several workers such a read takes no
    // lock. The races those reads take part in are still found, on one worker and on four.
    void racesWithReadSharedWordsAreFound()
    {
        const std::string source = readFile("tests/cpu/kernels/race_shared_reads.cu");
        for (int workers : {1, 4}) {
            // {blocks, writer block, writer thread}: a write after 63 reads of its block; after
            // two blocks' reads, by a third block; before every other read, by block 0.
            const int cases[][3] = {{1, 0, 63}, {3, 2, 0}, {3, 0, 0}, {4, 3, 63}};
            for (const auto& c : cases) {
                Run r(workers);
                QVERIFY(r.compile(source, "race_shared_reads.cu", true));
                r.buffer(std::vector<int>(1, 5), "data");
                r.buffer(std::vector<int>(static_cast<std::size_t>(c[0]) * 64, 0), "out");
                r.launch("read_then_write", {static_cast<unsigned>(c[0]), 1, 1}, {64, 1, 1},
                         {c[1], c[2]});
                const std::string text = std::to_string(workers) + " workers, blocks " +
                                         std::to_string(c[0]) + ", writer " + std::to_string(c[1]) +
                                         "/" + std::to_string(c[2]) + ": " +
                                         describe(r.backend.lastRaces());
                QVERIFY2(hasRace(r.backend.lastRaces(), 11, false, 13, true), text.c_str());
            }
            // Read by every thread of four blocks, written by nobody: no race, no crowding.
            Run clean(workers);
            QVERIFY(clean.compile(source, "race_shared_reads.cu", true));
            clean.buffer(std::vector<int>(1, 5), "data");
            clean.buffer(std::vector<int>(4 * 64, 0), "out");
            clean.launch("read_then_write", {4, 1, 1}, {64, 1, 1}, {-1, -1});
            QVERIFY2(clean.backend.lastRaces().empty(),
                     describe(clean.backend.lastRaces()).c_str());
            QVERIFY(clean.backend.lastRaceCrowding().empty());
            QCOMPARE(clean.result<int>(1, 4 * 64), std::vector<int>(4 * 64, 5));

            // Shared memory: every thread reads s[0], thread 63 writes it; with a barrier
            // between, nothing races and nothing is crowded.
            for (int synced : {0, 1}) {
                Run s(workers);
                QVERIFY(s.compile(source, "race_shared_reads.cu", true));
                s.buffer(std::vector<int>(2 * 64, 0), "out");
                s.launch("shared_read_then_write", {2, 1, 1}, {64, 1, 1}, {63, synced});
                const std::string text = describe(s.backend.lastRaces());
                if (synced) {
                    QVERIFY2(s.backend.lastRaces().empty(), text.c_str());
                    QVERIFY(s.backend.lastRaceCrowding().empty());
                } else {
                    QVERIFY2(hasRace(s.backend.lastRaces(), 24, false, 26, true), text.c_str());
                }
            }
        }
    }

    // A buffer reached only through a `const` pointer is race-checked as read-only (its reads
    // are not recorded). A write through a cast is seen; the launch runs again from its inputs
    // with every read recorded, so the race with the other threads' reads is found, and what
    // thread 0 adds to in[1] is added once, not once per run.
    void constBufferWrittenThroughACastIsStillChecked()
    {
        const std::string source = readFile("tests/cpu/kernels/race_held.cu");
        for (int workers : {1, 4}) {
            for (int writer : {-1, 0, 63}) {
                Run r(workers);
                QVERIFY(r.compile(source, "race_held.cu", true));
                r.buffer(std::vector<int>{5, 10}, "in");
                r.buffer(std::vector<int>(2 * 64, 0), "out");
                r.launch("const_written", {2, 1, 1}, {64, 1, 1}, {writer});
                const std::string text = std::to_string(workers) + " workers, writer " +
                                         std::to_string(writer) + ": " +
                                         describe(r.backend.lastRaces());
                if (writer < 0)
                    QVERIFY2(r.backend.lastRaces().empty(), text.c_str());
                else
                    QVERIFY2(hasRace(r.backend.lastRaces(), 11, false, 12, true), text.c_str());
                // Thread 0 of block 0 adds one, in every case, once.
                QCOMPARE(r.result<int>(0, 2)[1], 11);
                if (writer < 0) QCOMPARE(r.result<int>(1, 2 * 64), std::vector<int>(2 * 64, 5));
            }
        }
    }

    // Shared-memory accesses are held until their barrier interval ends, and a read of a word
    // nobody wrote in the interval is let go there. A write checked earlier in the interval (at
    // a warp sync) still counts: thread 40's read, held to the barrier, races with thread 0's
    // write.
    void aWriteBeforeAWarpSyncCountsAtTheBarrier()
    {
        for (int workers : {1, 2}) {
            Run r(workers);
            QVERIFY(r.compile(readFile("tests/cpu/kernels/race_held.cu"), "race_held.cu", true));
            r.buffer(std::vector<int>(2 * 64, 0), "out");
            r.launch("write_sync_read", {2, 1, 1}, {64, 1, 1});
            const auto& races = r.backend.lastRaces();
            QVERIFY2(races.size() == 1 && hasRace(races, 24, true, 27, false),
                     describe(races).c_str());
        }
    }

    // A worker learns from its first block which __shared__ variables each interval writes and
    // lets go of the reads of the others in its later blocks. A later block that writes one
    // there (block 3 of 4, on one worker: blocks 0-2 wrote none) is seen and the launch runs
    // again with every read recorded: the race is found, on any number of workers.
    void aBlockThatWritesWhereTheFirstDidNotIsStillChecked()
    {
        for (int workers : {1, 2}) {
            for (int writer : {-1, 3}) {
                Run r(workers);
                QVERIFY(
                    r.compile(readFile("tests/cpu/kernels/race_held.cu"), "race_held.cu", true));
                r.buffer(std::vector<int>(4 * 64, 0), "out");
                r.launch("late_writer", {4, 1, 1}, {64, 1, 1}, {writer});
                const auto& races = r.backend.lastRaces();
                const std::string text = std::to_string(workers) + " workers, writer " +
                                         std::to_string(writer) + ": " + describe(races);
                if (writer < 0)
                    QVERIFY2(races.empty(), text.c_str());
                else
                    QVERIFY2(races.size() == 1 && hasRace(races, 41, false, 42, true),
                             text.c_str());
            }
        }
    }

    // Accesses of several words to shared memory (a double) are held as one: the race between
    // a thread's write and its neighbour's read is found (as a double: s[1]), and none where a
    // barrier separates them.
    void doublesInSharedMemoryAreHeldAndChecked()
    {
        for (int workers : {1, 2}) {
            for (int racy : {0, 1}) {
                Run r(workers);
                QVERIFY(
                    r.compile(readFile("tests/cpu/kernels/race_held.cu"), "race_held.cu", true));
                r.buffer(std::vector<double>(2 * 64, 0.0), "out");
                r.launch("shared_doubles", {2, 1, 1}, {64, 1, 1}, {racy});
                const auto& races = r.backend.lastRaces();
                const std::string text = std::to_string(workers) + " workers, racy " +
                                         std::to_string(racy) + ": " + describe(races);
                if (racy) {
                    QVERIFY2(hasRace(races, 53, true, 55, false), text.c_str());
                    QVERIFY2(races[0].location.rfind("s[", 0) == 0, text.c_str());
                } else {
                    QVERIFY2(races.empty(), text.c_str());
                    const std::vector<double> out = r.result<double>(0, 2 * 64);
                    for (int i = 0; i < 2 * 64; ++i)
                        QCOMPARE(out[static_cast<std::size_t>(i)], ((i % 64 + 1) % 64) * 0.5);
                }
            }
        }
    }

    // The case the read-shared rule can hide: lanes 0 and 1 keep their reads, lane 2's like them
    // is not kept, and lane 1 writes after a __syncwarp of lanes 0 and 1 only, ordered with both
    // kept reads and not with lane 2's. The race is reported, or else the word is counted as
    // crowded (a race may have been missed): never silence.
    void raceHiddenByReadSharingIsCrowdedAtLeast()
    {
        Run r;
        QVERIFY(r.compile(readFile("tests/cpu/kernels/race_shared_reads.cu"),
                          "race_shared_reads.cu", true));
        r.buffer(std::vector<int>(1, 5), "data");
        r.buffer(std::vector<int>(32, 0), "out");
        r.launch("partial_mask_write", {1, 1, 1}, {32, 1, 1});
        const auto& crowding = r.backend.lastRaceCrowding();
        const bool crowded = crowding.size() == 1 && crowding[0].words == 1 && !crowding[0].shared;
        QVERIFY2(hasRace(r.backend.lastRaces(), 35, false, 37, true) || crowded,
                 describe(r.backend.lastRaces()).c_str());
    }

    // Crowding is per launch too: the same launch again on the served sandbox (its shadow
    // passed on) counts the same word once, not once more per launch.
    void crowdingIsCountedPerLaunch()
    {
        Run r;
        QVERIFY(r.compile(readFile("tests/cpu/kernels/race_warp.cu"), "race_warp.cu", true));
        r.buffer(std::vector<int>(64, 0), "out");
        for (int launch = 0; launch < 3; ++launch) {
            r.launch("crowded", {1, 1, 1}, {64, 1, 1});
            const auto& crowding = r.backend.lastRaceCrowding();
            QCOMPARE(crowding.size(), std::size_t{1});
            QCOMPARE(crowding[0].words, std::uint64_t{1});
        }
    }

    void crowdedWordsAreReported()
    {
        Run r;
        QVERIFY(r.compile(readFile("tests/cpu/kernels/race_warp.cu"), "race_warp.cu", true));
        r.buffer(std::vector<int>(64, 0), "out");
        r.launch("crowded", {1, 1, 1}, {64, 1, 1});
        QVERIFY2(r.backend.lastRaces().empty(), describe(r.backend.lastRaces()).c_str());
        const auto& crowding = r.backend.lastRaceCrowding();
        QCOMPARE(crowding.size(), std::size_t{1});
        QCOMPARE(crowding[0].location, std::string("s"));
        QVERIFY(crowding[0].shared);
        QCOMPARE(crowding[0].words, std::uint64_t{1});
        const std::string text = raceCrowdingText(crowding);
        QVERIFY2(
            text.find("1 word (shared s: 1) had more accessors than the race check compares") !=
                std::string::npos,
            text.c_str());
        QVERIFY2(text.find("races among them may be missed") != std::string::npos, text.c_str());

        // Read-only words read by many threads, or words read by many and written only after a
        // barrier, are not crowded.
        Run c;
        QVERIFY(c.compile(readFile("tests/cpu/kernels/race_atomics.cu"), "race_atomics.cu", true));
        c.buffer(std::vector<float>(8 * 128, 1.0f), "in");
        c.buffer(std::vector<float>(8, 0.0f), "partial");
        c.buffer(std::vector<float>(1, 0.0f), "total");
        c.launch("fence_sum", {8, 1, 1}, {128, 1, 1}, {1});
        QVERIFY(c.backend.lastRaceCrowding().empty());
        QVERIFY(raceCrowdingText(c.backend.lastRaceCrowding()).empty());
    }

    void scheduleVariesTheResultReproducibly()
    {
        const std::string source =
            readFile("resources/examples/bugs/missing_syncthreads/missing_syncthreads.cu");
        const int n = 256, threads = 256;
        std::vector<float> in(n);
        for (int i = 0; i < n; ++i)
            in[static_cast<std::size_t>(i)] = static_cast<float>(i % 7 + 1);
        const auto sum = [&](std::uint64_t seed, bool races) {
            Run r;
            r.backend.setSchedule(seed);
            if (!r.compile(source, "missing_syncthreads.cu", races)) return -1.0f;
            r.buffer(in, "in");
            r.buffer(std::vector<float>(1, 0.0f), "partial");
            r.launch("block_sum", {1, 1, 1}, {threads, 1, 1}, {n}, threads * 4);
            return r.result<float>(1, 1)[0];
        };
        const float fixed = sum(0, false);
        const float seeded = sum(42, false);
        QCOMPARE(sum(42, false), seeded); // reproducible
        QVERIFY2(seeded != fixed,
                 qPrintable(QString("seed 42 gave %1 like the default order").arg(double(seeded))));
        // The sandbox (race-check mode) follows the same schedule.
        QCOMPARE(sum(42, true), seeded);
        QCOMPARE(sum(0, true), fixed);
    }
};

WB_QTEST_GUILESS_MAIN(TestRaces)
#include "tst_races.moc"
