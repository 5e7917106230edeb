// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/common/CompileOptions.h"
#include "core/common/Diagnostic.h"

#include <cstddef>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace wb {

/// Where the `#include` directives of a kernel or reference source may look. Every compiler
/// Warpbench runs (NVRTC, the CPU emulator's and the C++ reference's host compiler) resolves user
/// headers through scanIncludes() first, so that all three find the same files and none reads
/// a file outside these folders (issue 25), or blocks on a special file (issue 26).
struct IncludePaths {
    /// The project folder (absolute): quoted includes fall back to it. Empty: the working
    /// directory.
    std::filesystem::path projectDir;
    /// The folder of the main source (absolute); empty: projectDir.
    std::filesystem::path sourceDir;
    /// The project's includeDirs, absolute (CompileOptions::includeDirs resolved against the
    /// project folder).
    std::vector<std::filesystem::path> includeDirs;
    /// Headers the compiler brings (Warpbench's NVRTC headers or the emulator's prelude, the CUDA
    /// toolkit): searched after includeDirs, trusted and not followed.
    std::vector<std::filesystem::path> systemDirs;
};

/// A header of the user's reached from the source through `#include`.
struct UserHeader {
    std::filesystem::path path; ///< canonical
    std::string displayName;    ///< relative to the project folder when inside it, else `path`
    std::string text;           ///< the file as read
    std::string rewritten;      ///< `text`, its include directives rewritten (see scanIncludes)
};

/// What scanIncludes() found.
struct IncludeScan {
    std::string rewritten;                   ///< the main source, directives rewritten
    std::vector<UserHeader> headers;         ///< every user header reached, each once
    std::vector<std::string> systemIncludes; ///< names left to the compiler ("stdio.h"), each once
    std::vector<Diagnostic> errors;          ///< refused directives, at their file and line
};

/// Follows the `#include` directives of `source` (named `sourceName` in diagnostics) and of every
/// user header it reaches, in all branches of conditionals except `#if 0`:
/// - a quoted name is looked up next to the including file, then in the project folder, then in
///   includeDirs, then in systemDirs; an angle name in includeDirs, then in systemDirs;
/// - a file found in the project folder or includeDirs (after resolving symbolic links) is a
///   user header: it is read with UserFile (a FIFO, device, socket or directory is refused
///   without blocking) and its directive is rewritten to `#include "<nameOf(index, header)>"`
///   (`index` in IncludeScan::headers), so that
///   the compiler is handed exactly the file checked here;
/// - a file found in systemDirs is left to the compiler; a quoted name found nowhere becomes an
///   angle include, so that no compiler looks for it next to a file or in its working directory;
/// - a name that reaches a file outside those places (an absolute path, `..`, a symbolic link),
///   names a parent folder and is found nowhere, or is a macro that does not expand to a header
///   name defined in the scanned files, is refused with a diagnostic naming the rule (and never
///   the contents of the file).
/// Directives stay on their lines: the rewritten texts have the line structure of the originals.
IncludeScan scanIncludes(const std::string& source, const std::string& sourceName,
                         const IncludePaths& paths,
                         const std::function<std::string(std::size_t, const UserHeader&)>& nameOf);

/// The paths of `options` (projectDir, sourceDir, includeDirs resolved against the project
/// folder) with `systemDirs`. Without a projectDir or sourceDir the folder of `sourceName` (when
/// it names one) or the working directory stands for both.
IncludePaths includePathsOf(const CompileOptions& options, const std::string& sourceName,
                            std::vector<std::filesystem::path> systemDirs);

/// The rule, as diagnostics quote it.
inline constexpr const char* kIncludeRule =
    "#include may only name files in the project folder, its includeDirs, the CUDA toolkit and "
    "Warpbench's own headers";

} // namespace wb
