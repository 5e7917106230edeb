// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/cpu/detail/DebugRecord.h"

#include <cstring>

extern "C" {
__attribute__((visibility("default"), used)) int wb_cpu_debug_enabled = 0;
__attribute__((visibility("default"), used)) std::uint32_t wb_cpu_debug_block[4] = {};
__attribute__((visibility("default"), used))
wb::cpu::detail::DebugThreadRecord wb_cpu_debug_threads[wb::cpu::detail::kDebugMaxThreads] = {};
__attribute__((visibility("default"), used))
wb::cpu::detail::DebugWarpRecord wb_cpu_debug_warps[wb::cpu::detail::kDebugMaxWarps] = {};

__attribute__((visibility("default"), noinline, used)) void
wb_cpu_debug_block_hook(std::uint32_t x, std::uint32_t y, std::uint32_t z)
{
    // Kept as a real call with its arguments in registers (x in %edi, y in %esi, z in %edx).
    asm volatile("" : : "r"(x), "r"(y), "r"(z) : "memory");
}

__attribute__((visibility("default"), noinline, used)) void
wb_cpu_debug_barrier_hook(std::uint32_t phase)
{
    asm volatile("" : : "r"(phase) : "memory"); // phase in %edi
}
}

namespace wb::cpu::detail {

void debugBlockStarted(unsigned x, unsigned y, unsigned z, unsigned threads) noexcept
{
    wb_cpu_debug_block[0] = x;
    wb_cpu_debug_block[1] = y;
    wb_cpu_debug_block[2] = z;
    wb_cpu_debug_block[3] = threads;
    std::memset(wb_cpu_debug_threads, 0, sizeof wb_cpu_debug_threads);
    std::memset(wb_cpu_debug_warps, 0, sizeof wb_cpu_debug_warps);
    wb_cpu_debug_block_hook(x, y, z);
}

void debugThreadWaits(unsigned linear, DebugThreadState state, unsigned line) noexcept
{
    if (linear >= kDebugMaxThreads) return;
    wb_cpu_debug_threads[linear].state = state;
    wb_cpu_debug_threads[linear].line = line;
}

void debugThreadExited(unsigned linear) noexcept
{
    debugThreadWaits(linear, DebugExited, 0);
}

void debugBarrierReleased(unsigned threads) noexcept
{
    for (unsigned i = 0; i < threads && i < kDebugMaxThreads; ++i) {
        ++wb_cpu_debug_threads[i].phase;
        wb_cpu_debug_threads[i].state = DebugRunning;
        wb_cpu_debug_threads[i].line = 0;
    }
    if (threads > 0) wb_cpu_debug_barrier_hook(wb_cpu_debug_threads[0].phase);
}

void debugWarpExchange(unsigned warp, int op, unsigned mask, int param, const char* what,
                       unsigned line, const std::uint64_t* values,
                       const std::uint64_t* results) noexcept
{
    if (warp >= kDebugMaxWarps) return;
    DebugWarpRecord& r = wb_cpu_debug_warps[warp];
    ++r.sequence;
    r.op = op;
    r.mask = mask;
    r.line = line;
    r.param = static_cast<std::uint32_t>(param);
    std::strncpy(r.what, what ? what : "", sizeof r.what - 1);
    r.what[sizeof r.what - 1] = '\0';
    for (unsigned l = 0; l < 32; ++l) {
        const bool in = (mask >> l) & 1u;
        r.values[l] = in ? values[l] : 0;
        r.results[l] = in ? results[l] : 0;
    }
}

} // namespace wb::cpu::detail
