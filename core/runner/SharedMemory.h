// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstddef>
#include <sys/types.h>

namespace wb::runner {

/// An anonymous shared-memory region (memfd_create: private to this user, mode 0600, never in
/// a file system namespace, close-on-exec), mapped read-write. The runner owns one as its
/// buffer arena and grows it as needed; the client maps the same file read-only through
/// /proc/<runner pid>/fd/<fd> (same user only). Move-only.
class SharedMemory {
public:
    SharedMemory() = default;
    ~SharedMemory();
    SharedMemory(SharedMemory&& other) noexcept;
    SharedMemory& operator=(SharedMemory&& other) noexcept;
    SharedMemory(const SharedMemory&) = delete;
    SharedMemory& operator=(const SharedMemory&) = delete;

    /// A new region of `bytes` (at least one page), sealed against shrinking (F_SEAL_SHRINK).
    /// Throws wb::Error (OutOfMemory/Io).
    static SharedMemory create(std::size_t bytes, const char* name = "warpbench-buffers");
    /// Maps region `fd` of process `pid` read-only, `bytes` long. Throws wb::Error(Io) also
    /// when that is not a regular file, is shorter than `bytes` (checked with fstat before
    /// mapping: a mapping past the end of a file faults with SIGBUS when read) or is not
    /// sealed against shrinking.
    static SharedMemory openOf(pid_t pid, int fd, std::size_t bytes);

    /// Grows (never shrinks) a region made by create(); the mapping may move.
    void reserve(std::size_t bytes);

    int fd() const noexcept { return m_fd; }
    std::size_t size() const noexcept { return m_size; }
    unsigned char* data() noexcept { return m_data; }
    const unsigned char* data() const noexcept { return m_data; }
    bool valid() const noexcept { return m_data != nullptr; }

private:
    void release() noexcept;
    int m_fd = -1;
    std::size_t m_size = 0;
    unsigned char* m_data = nullptr;
};

} // namespace wb::runner
