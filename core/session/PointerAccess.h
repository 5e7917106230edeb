// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <map>
#include <string>
#include <vector>

namespace wb::session {

/// What a kernel's body does through one of its pointer parameters, read from the source text
/// (not compiled): enough for "Create Buffers from Signature" to tell `in`, `out` and `inout`
/// apart. The reading is conservative: where the pointer leaves the kernel's sight (passed to a
/// function other than an atomic, stored in a struct, cast) the access is Unknown, with why.
///
/// Seen: `p[i] = …` and `*(p + i) = …` write; `p[i] += …`, `p[i]++`, `atomicAdd(&p[i], …)`,
/// `atomicAdd(p + i, …)` read and write; any other `p[i]`, `*p` reads. A pointer initialised
/// from the parameter (`float* row = p + k * n;`) counts as the parameter.
struct PointerAccess {
    enum class Kind { Unknown, Unused, Read, Written, ReadWritten };
    Kind kind = Kind::Unknown;
    int line = 0;    ///< a line (1-based) of the source where the deciding access is
    std::string why; ///< for Unknown: "passed to scale_row() at line 7"; empty otherwise

    bool read() const noexcept { return kind == Kind::Read || kind == Kind::ReadWritten; }
    bool written() const noexcept { return kind == Kind::Written || kind == Kind::ReadWritten; }

    /// The accesses of each of `pointers` (parameter names) in the body of `__global__` kernel
    /// `kernel` (its name without template arguments) in `source`. A name missing from the
    /// result means the kernel's body was not found; `bodyFound` (optional) says which.
    static std::map<std::string, PointerAccess> analyse(const std::string& source,
                                                        const std::string& kernel,
                                                        const std::vector<std::string>& pointers,
                                                        bool* bodyFound = nullptr);
};

const char* pointerAccessKindName(PointerAccess::Kind kind) noexcept;

} // namespace wb::session
