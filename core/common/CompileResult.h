// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/common/CompileOptions.h"
#include "core/common/Diagnostic.h"
#include "core/common/KernelInfo.h"

#include <cstdint>
#include <string>
#include <vector>

namespace wb {

/// What a compile produced, success or not: a failed compile is a result, not an exception.
struct CompileResult {
    bool ok = false;
    std::string sourceName;              ///< "kernel.cu"
    std::string log;                     ///< the compiler's raw log
    std::vector<Diagnostic> diagnostics; ///< parsed from log
    std::string target;                  ///< "sm_90" (CUDA) or "host-x86_64" (CPU backend)
    std::string ptx;                     ///< CUDA only
    std::vector<std::uint8_t> binary;    ///< CUBIN (CUDA, sm_XX targets) or nothing
    std::string libraryPath;             ///< CPU backend: the compiled shared library
    std::vector<KernelInfo> kernels;     ///< every __global__ function, with its parameters
    std::string compilerVersion;         ///< "NVRTC 13.0", "g++ 12.2.0"
    double compileMs = 0;                ///< wall time of this call (cache hits included)
    enum class Cache { Miss, MemoryHit, DiskHit, Disabled } cache = Cache::Disabled;

    /// The kernel the user calls `name` ("scale<float, 128>" or "multiply_them"); nullptr if none.
    const KernelInfo* findKernel(const std::string& name) const noexcept
    {
        for (const KernelInfo& k : kernels)
            if (k.name == name || k.loweredName == name) return &k;
        return nullptr;
    }
};

} // namespace wb
