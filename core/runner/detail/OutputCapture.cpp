// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/runner/detail/OutputCapture.h"

#include "core/common/Error.h"

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <iostream>
#include <iterator>
#include <poll.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

namespace wb::runner::detail {

namespace {

/// Written to the pipe by take() after the flush: when the reader sees it, it has seen
/// everything printed before. Control characters no printf of text is likely to produce.
constexpr char kMark[] = "\x1e\x1fwarpbench-runner-mark\x1f\x1e";
constexpr std::size_t kMarkSize = sizeof kMark - 1;

// For the fatal-signal handler: the pipe's read end, and whether the reader holds bytes it has
// not yet handed to the listener.
std::atomic<int> g_readFd{-1};
std::atomic<bool> g_busy{false};
constexpr int kFatalSignals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
struct sigaction g_previous[std::size(kFatalSignals)];

/// A kernel crashed the process: give the reader (at most 300 ms) to take what is still in the
/// pipe and hand it to the listener, then die of the signal as before (SA_RESETHAND restored the
/// default action). Only async-signal-safe calls.
extern "C" void onFatalSignal(int sig)
{
    const int fd = g_readFd.load();
    for (int i = 0; i < 150 && fd >= 0; ++i) {
        int pending = 0;
        if (::ioctl(fd, FIONREAD, &pending) != 0) break;
        if (pending == 0 && !g_busy.load()) break;
        const timespec pause{0, 2'000'000};
        ::nanosleep(&pause, nullptr);
    }
    ::raise(sig);
}

} // namespace

OutputCapture::OutputCapture(std::size_t maxLines, std::size_t maxBytes)
    : m_maxLines(maxLines)
    , m_maxBytes(maxBytes)
{
    int p[2];
    if (::pipe2(p, O_CLOEXEC) != 0)
        throw Error(Error::Kind::Io, std::string("kernel output pipe: ") + std::strerror(errno));
    std::fflush(stdout);
    // Line by line: a line printed just before a crash is in the pipe, not lost in the buffer.
    std::setvbuf(stdout, nullptr, _IOLBF, BUFSIZ);
    ::dup2(p[1], 1); // fd 1 itself stays inheritable: tools started by a kernel print here too
    ::close(p[1]);
    m_readFd = p[0];
    g_readFd = m_readFd;
    struct sigaction sa {};
    sa.sa_handler = &onFatalSignal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESETHAND | SA_NODEFER;
    for (std::size_t i = 0; i < std::size(kFatalSignals); ++i)
        ::sigaction(kFatalSignals[i], &sa, &g_previous[i]);
    m_thread = std::thread([this] { read(); });
}

OutputCapture::~OutputCapture()
{
    for (std::size_t i = 0; i < std::size(kFatalSignals); ++i)
        ::sigaction(kFatalSignals[i], &g_previous[i], nullptr);
    g_readFd = -1;
    std::fflush(stdout);
    ::dup2(2, 1);
    m_stop = true; // a process a kernel started may still hold the pipe open
    m_thread.join();
    ::close(m_readFd);
}

void OutputCapture::setListener(std::function<void(const Text& delta)> listener)
{
    std::lock_guard lock(m_mutex);
    m_listener = std::move(listener);
}

void OutputCapture::read()
{
    char buf[1 << 14];
    while (!m_stop) {
        pollfd p{m_readFd, POLLIN, 0};
        if (::poll(&p, 1, 100) <= 0) continue;
        g_busy = true;
        struct Idle {
            ~Idle() { g_busy = false; }
        } idle;
        const ssize_t n = ::read(m_readFd, buf, sizeof buf);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return;
        Text delta;
        std::function<void(const Text&)> tell;
        {
            std::lock_guard lock(m_mutex);
            received(buf, static_cast<std::size_t>(n));
            if (m_listener) {
                const auto now = std::chrono::steady_clock::now();
                const bool fresh = m_text.text.size() > m_told;
                const bool counted = m_text.moreLines != m_toldMore &&
                                     now - m_toldAt >= std::chrono::milliseconds(250);
                if (fresh || counted) {
                    delta.text = m_text.text.substr(m_told);
                    delta.moreLines = m_text.moreLines;
                    m_told = m_text.text.size();
                    m_toldMore = m_text.moreLines;
                    m_toldAt = now;
                    tell = m_listener;
                }
            }
        }
        if (tell) {
            try {
                tell(delta);
            } catch (...) {
                // The listener's channel is gone: what was printed still comes with take().
            }
        }
    }
}

void OutputCapture::received(const char* data, std::size_t size)
{
    m_pending.append(data, size);
    for (;;) {
        const std::size_t at = m_pending.find(kMark, 0, kMarkSize);
        if (at == std::string::npos) break;
        consume(m_pending.data(), at);
        m_pending.erase(0, at + kMarkSize);
        ++m_marksSeen;
        m_cv.notify_all();
    }
    // Keep only what may be the beginning of a mark.
    std::size_t keep = std::min(m_pending.size(), kMarkSize - 1);
    while (keep > 0 && m_pending.compare(m_pending.size() - keep, keep, kMark, keep) != 0)
        --keep;
    consume(m_pending.data(), m_pending.size() - keep);
    m_pending.erase(0, m_pending.size() - keep);
}

void OutputCapture::consume(const char* data, std::size_t size)
{
    for (std::size_t i = 0; i < size; ++i) {
        const char c = data[i];
        if (!m_full && (m_lines >= m_maxLines || m_text.text.size() >= m_maxBytes)) m_full = true;
        if (!m_full) {
            m_text.text += c;
            if (c == '\n') ++m_lines;
            continue;
        }
        // Past the limit: count the lines (a last one without '\n' counts too).
        if (c == '\n') {
            ++m_text.moreLines;
            m_partial = false;
        } else
            m_partial = true;
    }
}

OutputCapture::Text OutputCapture::take()
{
    std::fflush(stdout);
    std::cout.flush();
    std::unique_lock lock(m_mutex);
    const std::uint64_t mark = ++m_marksWritten;
    lock.unlock();
    std::size_t done = 0;
    while (done < kMarkSize) {
        const ssize_t n = ::write(1, kMark + done, kMarkSize - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        done += static_cast<std::size_t>(n);
    }
    lock.lock();
    m_cv.wait_for(lock, std::chrono::seconds(2), [&] { return m_marksSeen >= mark; });
    Text t = std::move(m_text);
    if (m_partial) ++t.moreLines;
    m_text = {};
    m_lines = 0;
    m_told = 0;
    m_toldMore = 0;
    m_full = m_partial = false;
    return t;
}

} // namespace wb::runner::detail
