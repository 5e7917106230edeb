// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace wb::cpu::detail {

/// A fixed set of worker threads that run the blocks of one launch at a time. The calling
/// thread takes part as worker 0, so a pool of one thread runs everything inline.
class ThreadPool {
public:
    explicit ThreadPool(int threads);
    ~ThreadPool();
    ThreadPool(const ThreadPool&) = delete;
    ThreadPool& operator=(const ThreadPool&) = delete;

    int size() const noexcept { return static_cast<int>(m_workers.size()) + 1; }

    /// Calls fn(begin, end, worker) for consecutive ranges covering [0, count), spread over
    /// the workers, and returns when all are done. Stops handing out ranges once `stop` is set.
    using RangeFn = std::function<void(std::uint64_t, std::uint64_t, int)>;
    void run(std::uint64_t count, const RangeFn& fn, const std::atomic<bool>& stop);

private:
    void work(int worker);
    void drain(int worker);

    std::vector<std::thread> m_workers;
    std::mutex m_mutex;
    std::condition_variable m_wake;
    std::condition_variable m_done;
    std::uint64_t m_generation = 0;
    int m_busy = 0;
    bool m_quit = false;
    std::uint64_t m_count = 0;
    std::uint64_t m_chunk = 1;
    std::atomic<std::uint64_t> m_next{0};
    const RangeFn* m_fn = nullptr;
    const std::atomic<bool>* m_stop = nullptr;
};

} // namespace wb::cpu::detail
