// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>

namespace wb {

/// The one way core reads a file a user named: a project, a kernel or reference source, a .npy
/// or .bin input, an image. It opens without blocking (a FIFO never stalls the caller), checks
/// with fstat that the file is a regular file and no larger than `maxBytes` before reading
/// anything, then reads exactly that many bytes. Symbolic links are followed (projects may
/// link shared data on purpose); what they point to must still be a regular file.
/// Every failure is Error(Kind::Io) naming the path and `what` ("the kernel source"):
/// "data/x.npy: cannot read the .npy input: it is a directory, not a regular file".
class UserFile {
public:
    static constexpr std::uint64_t kMaxTextBytes = std::uint64_t{64} << 20; ///< sources, projects
    static constexpr std::uint64_t kMaxDataBytes = std::uint64_t{64} << 30; ///< .npy, .bin, images

    /// The whole file.
    static std::string read(const std::filesystem::path& path, std::uint64_t maxBytes,
                            const std::string& what);
};

} // namespace wb
