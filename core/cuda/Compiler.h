// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/common/CompileOptions.h"
#include "core/common/CompileResult.h"

#include <string>

namespace wb::cuda {

/// CUDA C++ → PTX/CUBIN through NVRTC, which is opened at run time (libnvrtc.so.13).
/// Results are cached (memory, then disk under cacheDir()/nvrtc). Thread-safe.
class Compiler {
public:
    /// The process-wide compiler. Never throws: when NVRTC is missing, available() is false and
    /// compile() returns a failed result whose diagnostic says what to install.
    static Compiler& instance();

    bool available() const noexcept;
    /// "libnvrtc.so.13 not found: install the CUDA toolkit (nvrtc)"; empty when available.
    const std::string& unavailableReason() const noexcept;
    std::string version() const; ///< "NVRTC 13.0"

    /// Compiles `source` (named `sourceName` in diagnostics). options.arch empty means
    /// `defaultArch` ("sm_90" from the current device; callers without a device pass "").
    /// Kernels (options.nameExpressions included) are discovered with their parameters.
    CompileResult compile(const std::string& source, const std::string& sourceName,
                          const CompileOptions& options, const std::string& defaultArch = {});

    /// Drops the in-memory layer (the disk cache stays); for tests and benchmarks.
    void clearMemoryCache();
    /// Turns both cache layers off or on (on by default; $WARPBENCH_NO_CACHE=1 turns it off).
    void setCacheEnabled(bool enabled);

private:
    Compiler();
    struct Impl;
    Impl* m_impl; // process lifetime; never destroyed (NVRTC may be used during static destruction)
};

} // namespace wb::cuda
