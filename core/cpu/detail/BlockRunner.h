// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "resources/prelude/warpbench/cpu_abi.h"

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace wb::cpu::detail {

/// What every block of one launch shares: the kernel, its shape, and the first error.
struct LaunchState {
    std::string kernel;
    wbcpu::abi::Dim grid{};
    wbcpu::abi::Dim block{};
    std::atomic<bool> failed{false};
    std::mutex mutex;
    std::string error;
    /// A cooperative launch: every block runs at once (its own OS thread), grid.sync() allowed.
    bool cooperative = false;
    /// Race-check mode: called by the last lane of a completed warp operation (__syncwarp, a
    /// *_sync shuffle, vote, match or reduce, a tile's sync() or collective) with the block's
    /// linear index of lane 0 of the warp and the lanes that took part.
    std::function<void(unsigned warpBase, unsigned mask)> warpSynced;
    /// Race-check mode: called by the last thread of a completed sync() of a tile of 64–512
    /// threads, the block's threads [first, first + count).
    std::function<void(unsigned first, unsigned count)> tileSynced;
    /// Called by a block about to wait at grid.sync() (true) and when it goes on (false): the
    /// sandbox runs a cooperative launch's blocks one at a time and hands over here.
    std::function<void(bool waiting)> gridWaiting;

    /// Keeps the first error; later ones are dropped. Wakes blocks waiting at grid.sync().
    void setError(const std::string& message);

    /// grid.sync() of one block (its last thread to arrive): waits until every block of the
    /// launch arrived. False when the launch failed meanwhile or some block exited without
    /// arriving (the error then names the line and the blocks).
    bool gridSync(const char* file, unsigned line);
    /// A block of a cooperative launch finished its kernel.
    void blockExited(const wbcpu::abi::Dim& block);

private:
    std::mutex m_gridMutex;
    std::condition_variable m_gridCv;
    std::uint64_t m_gridArrived = 0, m_gridExited = 0, m_gridGeneration = 0;
    std::string m_gridWhere; ///< "file:line" of the pending grid.sync()
    wbcpu::abi::Dim m_lastExited{};
    void checkGridStall(std::unique_lock<std::mutex>& lock);
};

/// The host's services as the kernel library sees them, plus the launch they belong to.
struct HostRuntime {
    wbcpu::abi::Runtime rt; // first member: the library receives &rt
    LaunchState* launch = nullptr;
};

/// Fills `runtime` with the host's callbacks for `launch`.
void initRuntime(HostRuntime& runtime, LaunchState& launch);

/// "(3,0,0)"
std::string formatDim(const wbcpu::abi::Dim& d);

/// Schedule variation between blocks: the linear block to run as the `index`th of `count`
/// (a bijection drawn from `seed`; the identity for seed 0).
std::uint64_t scheduledBlock(std::uint64_t seed, std::uint64_t index, std::uint64_t count);

/// Runs the threads of one block as fibers (Boost.Context), one OS thread, cooperative:
/// a thread runs until it reaches a barrier or a warp operation, then the next one runs.
/// A barrier that cannot complete (threads exited, masks that disagree, a cycle of waits)
/// stops the block with an error naming the block and the threads; never a hang.
/// One runner per worker thread; it keeps its fiber stacks between blocks.
class BlockRunner {
public:
    explicit BlockRunner(std::size_t stackBytes = 256 * 1024);
    ~BlockRunner();
    BlockRunner(const BlockRunner&) = delete;
    BlockRunner& operator=(const BlockRunner&) = delete;

    /// Schedule variation: 0 (the default) runs the runnable threads of each pass between
    /// barriers in index order; any other seed runs them in a pseudo-random order drawn anew for
    /// every pass, reproducible from the seed and the block index.
    void setSchedule(std::uint64_t seed);

    /// Runs every thread of block `base.blockIndex`; errors go to the launch state.
    void run(const wbcpu::abi::KernelDesc& kernel, void** args,
             const wbcpu::abi::ThreadState& base);

    struct Impl;

private:
    std::unique_ptr<Impl> m_impl;
};

} // namespace wb::cpu::detail
