// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/common/Diagnostic.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace wb {

/// One C++ translation unit to build into a shared library.
struct HostCompileRequest {
    std::string source; ///< full text of the translation unit
    std::string
        sourceName; ///< name diagnostics should carry ("reference.cpp"); use #line in source
    std::vector<std::string> flags; ///< e.g. "-O2", "-fsanitize=address"
    std::vector<std::string> includeDirs;
    std::vector<std::pair<std::string, std::string>> defines;
    std::vector<std::string> linkFlags; ///< e.g. "-lboost_context"
    /// Past this the compiler and everything it started (cc1plus, as, ld) are killed and the
    /// result says so.
    int timeoutMs = 300'000;
    /// Files written beside the source in the build folder (file name → content), such as the
    /// vetted copies of the user's headers that the source includes by these names (see
    /// scanIncludes); part of the cache key. A name is a plain file name.
    std::vector<std::pair<std::string, std::string>> files;
};

struct HostCompileResult {
    bool ok = false;
    std::string log;                     ///< the compiler's stderr
    std::vector<Diagnostic> diagnostics; ///< parsed from log
    std::string libraryPath;             ///< the .so, in the cache directory
    std::string commandLine;             ///< for the log view
    double compileMs = 0;
    bool cacheHit = false;
    /// Set when the build failed for a reason outside the source (no space left on device in
    /// the cache, a cache that cannot be written): what happened, for an error of that kind.
    /// Such a failure is not a compile error of the user's code; callers report it as an I/O
    /// error (ok is false, and diagnostics repeat it for logs).
    std::string environmentError;
};

/// The host C++ compiler (g++ or clang++) found at run time. Shared by the C++ CPU reference
/// of sessions and by the CPU emulation backend. Builds are cached on disk by a hash of the
/// source, the request's files, flags and compiler version, written atomically. The compiler
/// runs without CPATH, C_INCLUDE_PATH and CPLUS_INCLUDE_PATH: only the request says where
/// headers come from.
class HostCompiler {
public:
    /// $WARPBENCH_CXX, then $CXX, then g++, then clang++ on PATH. nullopt when none works;
    /// unavailableReason() then says what to install.
    static std::optional<HostCompiler> find();
    static std::string unavailableReason();

    const std::string& executable() const noexcept { return m_executable; }
    const std::string& version() const noexcept { return m_version; } ///< "g++ 12.2.0"
    bool isClang() const noexcept { return m_isClang; }

    /// Compiles to a shared library (-shared -fPIC -std=c++20 plus the request's flags).
    /// A compile error is a result (ok = false, diagnostics set), never an exception.
    HostCompileResult compileSharedLibrary(const HostCompileRequest& request) const;

    /// Precompiles the header `headerPath` with the request's flags, defines and include dirs
    /// (gcc only) into the cache, as <dir>/<includeName>.gch, so that `#include "<includeName>"`
    /// uses it when <dir> is the first -I of a compile with the same flags. The key covers the
    /// compiler, the arguments and every file in the header's folder. Returns <dir>, or an empty
    /// string when it cannot be used (clang, or the build failed: the plain header still works).
    std::string precompileHeader(const std::string& headerPath, const std::string& includeName,
                                 const HostCompileRequest& request) const;

private:
    friend struct HostCompilerAccess;
    std::string m_executable;
    std::string m_version;
    bool m_isClang = false;
};

/// Parses gcc/clang output ("file:line:col: error: message", "In instantiation of", notes)
/// into diagnostics.
std::vector<Diagnostic> parseGccDiagnostics(const std::string& log);

} // namespace wb
