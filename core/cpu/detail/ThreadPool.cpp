// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/cpu/detail/ThreadPool.h"

#include <algorithm>

namespace wb::cpu::detail {

ThreadPool::ThreadPool(int threads)
{
    for (int i = 1; i < std::max(threads, 1); ++i)
        m_workers.emplace_back([this, i] { work(i); });
}

ThreadPool::~ThreadPool()
{
    {
        std::lock_guard lock(m_mutex);
        m_quit = true;
    }
    m_wake.notify_all();
    for (std::thread& t : m_workers)
        t.join();
}

void ThreadPool::drain(int worker)
{
    for (;;) {
        if (m_stop->load(std::memory_order_relaxed)) return;
        const std::uint64_t begin = m_next.fetch_add(m_chunk, std::memory_order_relaxed);
        if (begin >= m_count) return;
        (*m_fn)(begin, std::min(m_count, begin + m_chunk), worker);
    }
}

void ThreadPool::work(int worker)
{
    std::uint64_t seen = 0;
    for (;;) {
        {
            std::unique_lock lock(m_mutex);
            m_wake.wait(lock, [&] { return m_quit || m_generation != seen; });
            if (m_quit) return;
            seen = m_generation;
        }
        drain(worker);
        {
            std::lock_guard lock(m_mutex);
            if (--m_busy == 0) m_done.notify_all();
        }
    }
}

void ThreadPool::run(std::uint64_t count, const RangeFn& fn, const std::atomic<bool>& stop)
{
    m_fn = &fn;
    m_stop = &stop;
    m_count = count;
    // Small chunks keep the load balanced; several per worker amortise the atomic.
    m_chunk = std::max<std::uint64_t>(1, count / (static_cast<std::uint64_t>(size()) * 16));
    m_next.store(0, std::memory_order_relaxed);
    if (m_workers.empty() || count == 1) {
        drain(0);
        return;
    }
    {
        std::lock_guard lock(m_mutex);
        m_busy = static_cast<int>(m_workers.size());
        ++m_generation;
    }
    m_wake.notify_all();
    drain(0);
    std::unique_lock lock(m_mutex);
    m_done.wait(lock, [&] { return m_busy == 0; });
}

} // namespace wb::cpu::detail
