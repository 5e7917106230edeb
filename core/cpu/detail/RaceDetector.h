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
/// points (core/cpu/sandbox/TsanHooks.cpp) hand every load, store and atomic here.
///
/// CUDA's rules: two accesses to the same byte by different threads, at least one a write, not
/// both atomic, race unless they are in the same block and a barrier separates them (the
/// threads' barrier counts differ), or in the same warp and a __syncwarp / tile.sync() that both
/// threads took part in separates them; accesses of different blocks to global memory race
/// (all blocks are concurrent) unless a grid.sync() of a cooperative launch separates them;
/// shared memory belongs to its block. Only the launch's buffers
/// and the block's shared memory are watched (registered regions); everything else (stacks,
/// the prelude's own state) is ignored.
///
/// Shadow state: per 4-byte word, the two latest writes and the two latest reads by different
/// threads (block, thread, barrier phase, warp-sync generation, grid phase, byte mask, code
/// address). A report is kept once per
/// distinct (code address pair, kinds) with one example and a count.
///
/// Concurrency: the blocks of a launch may run on several worker threads at once (startBlock
/// names the worker). Each worker has its own per-block tables and its own instance of the
/// shared memory (addWorkerRegion); a global-memory word's shadow is updated under a per-word
/// lock; the current emulated thread is per OS thread. The report list does not depend on the
/// interleaving for shared memory: a report's example is the one of the earliest block in the
/// run order (startBlock's `sequence`), reports are printed in that order. Global-memory
/// reports of a parallel run can depend on it: hasGlobalReports() says when the caller should
/// replay the launch on one worker for a deterministic list.
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
    /// `workers`: worker threads that run blocks at once (startBlock's `worker`).
    RaceDetector(std::uintptr_t libraryBase, wbcpu::abi::Dim blockSize, wbcpu::abi::Dim gridSize,
                 std::size_t maxReports = 64, bool cooperative = false, int workers = 1);
    ~RaceDetector();
    RaceDetector(const RaceDetector&) = delete;
    RaceDetector& operator=(const RaceDetector&) = delete;

    /// Watches [begin, begin + size) as region `id`; `shared`: per-block memory. Not while
    /// blocks run on several workers.
    void addRegion(const void* begin, std::size_t size, int id, bool shared);
    /// Watches worker `worker`'s instance of a shared-memory variable (the emulator's shared
    /// memory is thread_local): seen only by accesses of that worker's thread.
    void addWorkerRegion(int worker, const void* begin, std::size_t size, int id);
    /// Before each block runs, on the thread that runs it: every thread starts at barrier phase
    /// 0; `worker` (< workers) is that thread's, `sequence` the block's place in the run order.
    void startBlock(int worker = 0, std::uint64_t sequence = 0);
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
    void setCurrent(const wbcpu::abi::ThreadState* st) noexcept { t_current = st; }
    /// One access by the current emulated thread, from code address `pc`.
    void access(const void* address, std::size_t size, bool write, bool atomic, const void* pc);

    /// The kept reports (at most maxReports), in run order. After the blocks ran.
    std::vector<Report> reports() const;
    /// Conflicting pairs beyond the kept reports. After the blocks ran.
    std::uint64_t dropped() const;
    /// Whether some report is about global memory (not a shared-memory region).
    bool hasGlobalReports() const;
    /// Writes one "WB-RACE ..." line per report (parsed by core/cpu/detail/Sandbox.cpp).
    void print(std::FILE* out) const;

    /// The detector the instrumentation entry points report to (nullptr: none).
    static RaceDetector* active;

private:
    struct Record;
    struct Cell;
    struct Region;
    struct Worker;
    struct Kept;
    void check(Cell& cell, const Record& now, const Region& region, std::uintptr_t address,
               unsigned size);
    void accessRegion(const Region& region, std::uintptr_t a, std::size_t size, bool write,
                      bool atomic, const void* pc);
    static std::unique_ptr<Region> makeRegion(const void* begin, std::size_t size, int id,
                                              bool shared);
    /// The calling thread's worker (cooperative launches and threads without startBlock: 0).
    Worker& here() const noexcept;
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
    bool m_cooperative = false;
    bool m_parallel = false;    ///< several workers: global-memory words are locked
    std::uint64_t m_serial;     ///< tells this detector's thread-local state from an earlier one's
    std::uint32_t m_generation; ///< marks the shadow cells it wrote (Cell::state)
    unsigned m_threads = 0;     ///< threads per block
    /// A thread's last tile sync (Worker::tile).
    struct TileSync {
        std::uint32_t generation = 0;
        std::uint16_t first = 0, count = 0;
    };
    std::vector<std::unique_ptr<Worker>> m_workers;
    mutable std::mutex m_reportMutex;
    std::vector<Kept> m_reports;
    std::unordered_map<std::uint64_t, std::size_t> m_index; ///< (pcs, kinds) -> m_reports
    std::uint64_t m_overflow = 0; ///< conflicting pairs beyond the distinct reports held

    /// Shadow mappings of the last detector, for the next to take (makeRegion).
    static std::mutex s_spareMutex;
    static std::vector<std::unique_ptr<Region>> s_spare;
    static thread_local const wbcpu::abi::ThreadState* t_current;
    static thread_local const std::uint32_t* t_jointRow; ///< the current access's thread's row
    static thread_local const TileSync* t_tileNow;       ///< the current access's last tile sync
};

} // namespace wb::cpu::detail
