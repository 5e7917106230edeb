// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// What the thread debugger (core/debug, docs/debugger.md) reads from a debugged emulator
// process with gdb: per thread of the running block its barrier phase and where it waits, and
// per warp the last exchange of a warp operation. Plain C symbols of fixed layout, so gdb reads
// them as memory without debug information for the host. Written only when
// wb_cpu_debug_enabled is set (the sandbox's --debug mode: one block at a time on one OS
// thread), so ordinary launches pay one predictable branch per barrier.

#include <cstdint>

namespace wb::cpu::detail {

inline constexpr unsigned kDebugMaxThreads = 1024;
inline constexpr unsigned kDebugMaxWarps = kDebugMaxThreads / 32;

/// DebugThreadRecord::state
enum DebugThreadState : std::uint32_t {
    DebugNotStarted = 0,
    DebugRunning = 1, ///< runnable: running now, or between barriers
    DebugAtBarrier = 2,
    DebugAtWarpOp = 3,
    DebugExited = 4,
};

struct DebugThreadRecord {
    std::uint32_t phase; ///< barriers this thread has passed in its block
    std::uint32_t state; ///< DebugThreadState
    std::uint32_t line;  ///< where it waits (barrier or warp operation), 0 otherwise
    std::uint32_t pad;
};
static_assert(sizeof(DebugThreadRecord) == 16);

struct DebugWarpRecord {
    std::uint64_t sequence; ///< 0: no exchange yet in this block; counts up per exchange
    std::int32_t op;        ///< wbcpu::abi::WarpOp
    std::uint32_t mask;     ///< lanes that took part
    std::uint32_t line;
    std::uint32_t param;       ///< shfl: the lane/delta/xor mask
    char what[32];             ///< "__shfl_down_sync", NUL-terminated
    std::uint64_t values[32];  ///< what each lane gave
    std::uint64_t results[32]; ///< what each lane got
};
static_assert(sizeof(DebugWarpRecord) == 568);

} // namespace wb::cpu::detail

extern "C" {
/// Set (to 1) by the debugged sandbox before it runs; recording is off otherwise.
extern int wb_cpu_debug_enabled;
/// The running block's coordinates and thread count.
extern std::uint32_t wb_cpu_debug_block[4];
extern wb::cpu::detail::DebugThreadRecord wb_cpu_debug_threads[wb::cpu::detail::kDebugMaxThreads];
extern wb::cpu::detail::DebugWarpRecord wb_cpu_debug_warps[wb::cpu::detail::kDebugMaxWarps];
/// Called when a block starts (debug mode only): the debugger breaks here, conditioned on the
/// arguments' registers, to reach one block without evaluating conditions in every thread of
/// the blocks before it.
void wb_cpu_debug_block_hook(std::uint32_t x, std::uint32_t y, std::uint32_t z);
/// Called when a block barrier is released (debug mode only), with the phase that starts.
void wb_cpu_debug_barrier_hook(std::uint32_t phase);
}

namespace wb::cpu::detail {

inline bool debugRecording() noexcept
{
    return __builtin_expect(wb_cpu_debug_enabled != 0, 0);
}
void debugBlockStarted(unsigned x, unsigned y, unsigned z, unsigned threads) noexcept;
void debugThreadWaits(unsigned linear, DebugThreadState state, unsigned line) noexcept;
void debugThreadExited(unsigned linear) noexcept;
void debugBarrierReleased(unsigned threads) noexcept;
/// The last lane of `mask` arrived: `values`/`results` indexed by lane.
void debugWarpExchange(unsigned warp, int op, unsigned mask, int param, const char* what,
                       unsigned line, const std::uint64_t* values,
                       const std::uint64_t* results) noexcept;

} // namespace wb::cpu::detail
