// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/cpu/detail/TraceRecorder.h"

#include "resources/prelude/warpbench/cpu_abi.h"

#include <algorithm>
#include <atomic>
#include <mutex>

namespace wb::cpu::detail {

namespace {
std::vector<TraceRecorder::Target> g_targets;
std::atomic<bool> g_active{false};
std::mutex g_mutex; // start/stop only
} // namespace

void TraceRecorder::start(std::vector<Target> targets)
{
    const std::lock_guard lock(g_mutex);
    g_targets = std::move(targets);
    g_active.store(!g_targets.empty(), std::memory_order_release);
}

void TraceRecorder::stop()
{
    const std::lock_guard lock(g_mutex);
    g_active.store(false, std::memory_order_release);
    g_targets.clear();
}

} // namespace wb::cpu::detail

extern "C" __attribute__((visibility("default"))) void
wb_cpu_trace_store(const void* address, unsigned long bytes, int atomic)
{
    using wb::cpu::detail::g_active;
    using wb::cpu::detail::g_targets;
    if (!g_active.load(std::memory_order_acquire)) return;
    const auto* p = static_cast<const unsigned char*>(address);
    const wbcpu::abi::Current& c = wb_cpu_current;
    const std::uint64_t blockLinear =
        c.block.x +
        std::uint64_t{c.gridSize.x} * (c.block.y + std::uint64_t{c.gridSize.y} * c.block.z);
    const std::uint64_t threadLinear =
        c.thread.x +
        std::uint64_t{c.blockSize.x} * (c.thread.y + std::uint64_t{c.blockSize.y} * c.thread.z);
    const std::uint64_t writer = (blockLinear << 32) | (threadLinear & 0xffffffffu);
    for (const auto& t : g_targets) {
        if (p < t.begin || p >= t.begin + t.bytes) continue;
        wb::WriteTrace& w = *t.trace;
        const std::size_t es = w.elementSize;
        const std::size_t first = static_cast<std::size_t>(p - t.begin) / es;
        const std::size_t end =
            std::min(w.count(), (static_cast<std::size_t>(p - t.begin) + bytes + es - 1) / es);
        for (std::size_t i = first; i < end; ++i) {
            std::atomic_ref<std::uint32_t>(w.writes[i]).fetch_add(1, std::memory_order_relaxed);
            if (atomic)
                std::atomic_ref<std::uint32_t>(w.atomicWrites[i])
                    .fetch_add(1, std::memory_order_relaxed);
            const std::uint64_t prev = std::atomic_ref<std::uint64_t>(w.lastWriter[i])
                                           .exchange(writer, std::memory_order_relaxed);
            if (prev != wb::WriteTrace::kNoWriter && prev != writer)
                std::atomic_ref<std::uint8_t>(w.multipleWriters[i])
                    .store(1, std::memory_order_relaxed);
        }
        return;
    }
}
