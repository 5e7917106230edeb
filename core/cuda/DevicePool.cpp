// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/cuda/DevicePool.h"

#include <atomic>
#include <bit>
#include <mutex>

namespace wb::cuda {

namespace {
std::atomic<bool> g_poolEnabled{true};
} // namespace

void setDevicePoolEnabled(bool enabled) noexcept
{
    g_poolEnabled.store(enabled, std::memory_order_relaxed);
}

bool devicePoolEnabled() noexcept
{
    return g_poolEnabled.load(std::memory_order_relaxed);
}

std::size_t devicePoolClassBytes(std::size_t bytes) noexcept
{
    constexpr std::size_t kSmallest = 512;
    if (bytes == 0) return 0;
    if (bytes <= kSmallest) return kSmallest;
    const std::size_t power = std::bit_floor(bytes);
    const std::size_t step = power / 4;
    return (bytes + step - 1) / step * step;
}

DevicePoolUsage devicePoolUsage(const Context& context)
{
    detail::PoolState& pool = context.state()->pool;
    std::lock_guard lock(pool.mutex);
    return {pool.idleBytes, pool.idleBlocks, pool.inUseBytes, pool.inUseBlocks};
}

void trimDevicePool(const Context& context)
{
    context.state()->trimPool();
}

} // namespace wb::cuda
