// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/runner/SharedMemory.h"

#include "core/common/Error.h"

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <fcntl.h>
#include <string>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <utility>

namespace wb::runner {

namespace {

constexpr std::size_t kPage = 4096;

std::size_t roundUp(std::size_t n)
{
    return n == 0 ? kPage : (n + kPage - 1) / kPage * kPage;
}

[[noreturn]] void fail(const std::string& what)
{
    const int e = errno;
    throw Error(e == ENOMEM || e == ENOSPC ? Error::Kind::OutOfMemory : Error::Kind::Io,
                "shared memory: " + what + ": " + std::strerror(e));
}

} // namespace

SharedMemory::~SharedMemory()
{
    release();
}

SharedMemory::SharedMemory(SharedMemory&& other) noexcept
    : m_fd(std::exchange(other.m_fd, -1))
    , m_size(std::exchange(other.m_size, 0))
    , m_data(std::exchange(other.m_data, nullptr))
{
}

SharedMemory& SharedMemory::operator=(SharedMemory&& other) noexcept
{
    if (this != &other) {
        release();
        m_fd = std::exchange(other.m_fd, -1);
        m_size = std::exchange(other.m_size, 0);
        m_data = std::exchange(other.m_data, nullptr);
    }
    return *this;
}

void SharedMemory::release() noexcept
{
    if (m_data) ::munmap(m_data, m_size);
    if (m_fd >= 0) ::close(m_fd);
    m_data = nullptr;
    m_fd = -1;
    m_size = 0;
}

SharedMemory SharedMemory::create(std::size_t bytes, const char* name)
{
    SharedMemory m;
    m.m_fd = ::memfd_create(name, MFD_CLOEXEC | MFD_ALLOW_SEALING);
    if (m.m_fd < 0) fail("memfd_create");
    ::fchmod(m.m_fd, 0600);
    // It may grow, never shrink: a reader's mapping can then never point past its end.
    if (::fcntl(m.m_fd, F_ADD_SEALS, F_SEAL_SHRINK) != 0) fail("sealing");
    m.reserve(bytes);
    return m;
}

void SharedMemory::reserve(std::size_t bytes)
{
    const std::size_t want = roundUp(bytes);
    if (m_data && want <= m_size) return;
    if (::ftruncate(m_fd, static_cast<off_t>(want)) != 0)
        fail("growing to " + std::to_string(want) + " bytes");
    if (m_data) ::munmap(m_data, m_size);
    m_data = nullptr;
    void* p = ::mmap(nullptr, want, PROT_READ | PROT_WRITE, MAP_SHARED, m_fd, 0);
    if (p == MAP_FAILED) fail("mapping " + std::to_string(want) + " bytes");
    m_data = static_cast<unsigned char*>(p);
    m_size = want;
}

SharedMemory SharedMemory::openOf(pid_t pid, int fd, std::size_t bytes)
{
    SharedMemory m;
    const std::string path = "/proc/" + std::to_string(pid) + "/fd/" + std::to_string(fd);
    m.m_fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (m.m_fd < 0) fail("opening " + path);
    // Mapping past the end of the file would turn the first read there into SIGBUS: the file
    // must be a regular one (a memfd) at least as long as announced.
    struct stat st {};
    if (::fstat(m.m_fd, &st) != 0) fail("fstat " + path);
    if (!S_ISREG(st.st_mode))
        throw Error(Error::Kind::Io, "shared memory: " + path + " is not a shared-memory file");
    if (bytes > static_cast<std::uint64_t>(st.st_size))
        throw Error(Error::Kind::Io, "shared memory: " + path + " holds " +
                                         std::to_string(st.st_size) + " bytes, fewer than the " +
                                         std::to_string(bytes) + " announced");
    // A region that can shrink could still fault later: the runner seals its arena.
    const int seals = ::fcntl(m.m_fd, F_GET_SEALS);
    if (seals < 0 || !(seals & F_SEAL_SHRINK))
        throw Error(Error::Kind::Io,
                    "shared memory: " + path + " is not sealed against shrinking (F_SEAL_SHRINK)");
    m.m_size = bytes;
    if (m.m_size == 0) return m;
    void* p = ::mmap(nullptr, m.m_size, PROT_READ, MAP_SHARED, m.m_fd, 0);
    if (p == MAP_FAILED) fail("mapping " + path);
    m.m_data = static_cast<unsigned char*>(p);
    return m;
}

} // namespace wb::runner
