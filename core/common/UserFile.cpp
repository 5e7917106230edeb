// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/common/UserFile.h"

#include "core/common/Error.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace wb {

namespace {

const char* fileKind(mode_t mode) noexcept
{
    if (S_ISDIR(mode)) return "a directory";
    if (S_ISFIFO(mode)) return "a FIFO (named pipe)";
    if (S_ISCHR(mode)) return "a character device";
    if (S_ISBLK(mode)) return "a block device";
    if (S_ISSOCK(mode)) return "a socket";
    return "not a plain file";
}

std::string sizeText(std::uint64_t bytes)
{
    if (bytes >= (std::uint64_t{1} << 30) && bytes % (std::uint64_t{1} << 30) == 0)
        return std::to_string(bytes >> 30) + " GiB";
    if (bytes >= (std::uint64_t{1} << 20) && bytes % (std::uint64_t{1} << 20) == 0)
        return std::to_string(bytes >> 20) + " MiB";
    return std::to_string(bytes) + " bytes";
}

/// Closes the descriptor on every path out.
class Fd {
public:
    explicit Fd(int fd) noexcept
        : m_fd(fd)
    {
    }
    ~Fd()
    {
        if (m_fd >= 0) ::close(m_fd);
    }
    Fd(const Fd&) = delete;
    Fd& operator=(const Fd&) = delete;
    int get() const noexcept { return m_fd; }

private:
    int m_fd;
};

} // namespace

std::string UserFile::read(const std::filesystem::path& path, std::uint64_t maxBytes,
                           const std::string& what)
{
    const std::string prefix = path.string() + ": cannot read " + what + ": ";
    const auto fail = [&prefix](const std::string& why) -> Error {
        return Error(Error::Kind::Io, prefix + why);
    };
    // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer.
    const Fd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK));
    if (fd.get() < 0) {
        const int e = errno;
        if (e == ENOENT) throw fail("no such file");
        // A socket cannot be opened at all (ENXIO: "No such device or address"), a device
        // without a driver neither: say what the path is rather than what open() said.
        struct stat st {};
        if (::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode))
            throw fail(std::string("it is ") + fileKind(st.st_mode) + ", not a regular file");
        if (e == EACCES) throw fail("permission denied");
        throw fail(std::strerror(e));
    }
    struct stat st {};
    if (::fstat(fd.get(), &st) != 0) throw fail(std::strerror(errno));
    if (!S_ISREG(st.st_mode))
        throw fail(std::string("it is ") + fileKind(st.st_mode) + ", not a regular file");
    const auto size = static_cast<std::uint64_t>(st.st_size);
    if (size > maxBytes)
        throw fail("it has " + std::to_string(size) + " bytes, more than the " +
                   sizeText(maxBytes) + " allowed here");
    std::string bytes;
    try {
        bytes.resize(static_cast<std::size_t>(size));
    } catch (const std::bad_alloc&) {
        throw Error(Error::Kind::OutOfMemory,
                    prefix + "not enough memory for its " + std::to_string(size) + " bytes");
    }
    std::size_t got = 0;
    while (got < bytes.size()) {
        const ssize_t n = ::read(fd.get(), bytes.data() + got, bytes.size() - got);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) throw fail(std::strerror(errno));
        if (n == 0) break;
        got += static_cast<std::size_t>(n);
    }
    if (got != bytes.size())
        throw fail("it shrank from " + std::to_string(size) + " to " + std::to_string(got) +
                   " bytes while being read");
    return bytes;
}

} // namespace wb
