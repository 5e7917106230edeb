// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/session/HostArray.h"

#include <filesystem>
#include <optional>
#include <string>

namespace wb::session {

/// NumPy .npy files (format versions 1.0, 2.0 and 3.0), C order, little-endian, the element
/// types of ElementType. bf16 has no NumPy dtype: it is written as `<u2` (its raw bits) and a
/// `<u2`/`V2` file is accepted where bf16 is asked for. Fortran order, object arrays, structured
/// and big-endian dtypes are refused with an Error (Kind::Io) that names the file and the cause.
class Npy {
public:
    /// Reads a whole file. `wanted` only matters for the bf16 case above.
    static HostArray read(const std::filesystem::path& path,
                          std::optional<ElementType> wanted = std::nullopt);
    /// Parses bytes already in memory; `name` is used in errors.
    static HostArray parse(const std::string& bytes, const std::string& name,
                           std::optional<ElementType> wanted = std::nullopt);
    /// Writes version 1.0 (2.0 when the header needs it), atomically.
    static void write(const std::filesystem::path& path, const HostArray& array);
    static std::string serialize(const HostArray& array);
};

} // namespace wb::session
