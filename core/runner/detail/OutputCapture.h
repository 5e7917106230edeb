// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
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

private:
    void read();
    void consume(const char* data, std::size_t size); ///< with m_mutex held

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
    std::thread m_thread;
};

} // namespace wb::runner::detail
