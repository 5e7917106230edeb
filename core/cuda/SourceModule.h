// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/common/CompileOptions.h"
#include "core/common/CompileResult.h"
#include "core/cuda/Context.h"
#include "core/cuda/Kernel.h"
#include "core/cuda/Module.h"

#include <string>

namespace wb::cuda {

/// PyCUDA's SourceModule: compiles CUDA C++ for the context's device (NVRTC, through the
/// compile cache) and loads it. Throws CompileError, carrying the CompileResult, when the
/// source does not compile. Move-only (it owns a Module).
///
///     SourceModule mod(R"(__global__ void multiply_them(...) {...})");
///     Kernel multiply_them = mod.function("multiply_them");
class SourceModule {
public:
    /// Compiles for, and loads into, the primary context of `device`.
    explicit SourceModule(const std::string& source, const CompileOptions& options = {},
                          int device = 0);
    SourceModule(const Context& context, const std::string& source,
                 const CompileOptions& options = {}, const std::string& sourceName = "kernel.cu");

    /// PyCUDA's get_function.
    Kernel function(const std::string& name) const { return m_module.function(name); }
    const Module& module() const noexcept { return m_module; }
    const CompileResult& compiled() const noexcept { return m_compiled; }

private:
    static CompileResult compile(const Context& context, const std::string& source,
                                 const CompileOptions& options, const std::string& sourceName);
    SourceModule(const Context& context, CompileResult compiled);

    CompileResult m_compiled;
    Module m_module;
};

} // namespace wb::cuda
