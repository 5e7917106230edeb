// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "resources/prelude/warpbench/cpu_abi.h"

#include <atomic>
#include <cstddef>
#include <cstdint>
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

    /// Keeps the first error; later ones are dropped.
    void setError(const std::string& message);
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
