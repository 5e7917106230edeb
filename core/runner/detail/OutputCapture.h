// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

namespace wb::runner::detail {

/// The runner's stdout (fd 1) turned into a pipe that a thread of this object reads, so that
/// what kernels print (printf on the CPU emulator, device printf flushed by the CUDA driver)
/// can travel in the report: take() returns what was printed since the last take(), the first
/// `maxLines` lines (at most `maxBytes` bytes) and a count of the lines after them, which are
/// read and dropped (a kernel printing in a loop never blocks, never fills memory). The
/// protocol must already have moved off fd 1. The destructor points fd 1 at stderr again.
/// C stdout is made line-buffered, and while a capture exists a process killed by SIGSEGV,
/// SIGBUS, SIGFPE, SIGILL or SIGABRT first waits (at most 300 ms) until the reader has taken
/// what is in the pipe, so that a printf just before a crash reaches the listener.
class OutputCapture {
public:
    struct Text {
        std::string text;            ///< the first lines, as printed
        std::uint64_t moreLines = 0; ///< lines printed after them
    };

    /// Throws wb::Error(Io) when the pipe cannot be made.
    OutputCapture(std::size_t maxLines, std::size_t maxBytes);
    ~OutputCapture();
    OutputCapture(const OutputCapture&) = delete;
    OutputCapture& operator=(const OutputCapture&) = delete;

    /// Flushes C and C++ stdout, waits (up to 2 s) until the reader has seen everything
    /// written before this call, and returns it; the next take() starts afresh.
    Text take();

    /// Called on the reader thread as output arrives, so that what a run printed survives the
    /// run's process (a crash, a kill at a time limit): `text` is what was kept since the
    /// previous call (within the bounds above), `moreLines` the lines dropped so far (updates of
    /// the count alone come at most every 250 ms). Never called with m_mutex held; exceptions
    /// it throws are swallowed. Set before output starts, or between runs.
    void setListener(std::function<void(const Text& delta)> listener);

private:
    void read();
    void received(const char* data, std::size_t size); ///< with m_mutex held
    void consume(const char* data, std::size_t size);  ///< with m_mutex held

    std::size_t m_maxLines, m_maxBytes;
    int m_readFd = -1;
    std::mutex m_mutex;
    std::condition_variable m_cv;
    std::uint64_t m_marksWritten = 0, m_marksSeen = 0;
    std::string m_pending; ///< bytes that may be the start of a mark
    Text m_text;
    std::size_t m_lines = 0;
    bool m_full = false, m_partial = false;
    std::atomic<bool> m_stop{false};
    std::function<void(const Text&)> m_listener;
    std::size_t m_told = 0;       ///< bytes of m_text.text given to the listener
    std::uint64_t m_toldMore = 0; ///< m_text.moreLines given to the listener
    std::chrono::steady_clock::time_point m_toldAt{};
    std::thread m_thread;
};

} // namespace wb::runner::detail
