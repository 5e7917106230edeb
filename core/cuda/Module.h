// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/common/CompileResult.h"
#include "core/cuda/Context.h"
#include "core/cuda/detail/ModuleState.h"

#include <cuda.h>

#include <cstddef>
#include <string>
#include <vector>

namespace wb::cuda {

class Kernel;

/// Compiled code loaded into a context (cuModuleLoadDataEx), which it keeps alive. Kernels
/// taken from it keep the module alive in turn. Move-only.
class Module {
public:
    struct Global {
        CUdeviceptr ptr = 0;
        std::size_t bytes = 0;
    };

    /// Loads the CUBIN of `compiled`, or its PTX when there is no CUBIN. Throws wb::Error
    /// (InvalidArgument) for a failed compile, CudaError (with the JIT log) when loading fails.
    static Module load(const Context& context, const CompileResult& compiled);
    /// Loads a CUBIN, fatbin or NUL-terminated PTX image; `kernels` describes its kernels when
    /// known (else parameters come from cuFuncGetParamInfo).
    static Module loadImage(const Context& context, const void* image,
                            std::vector<KernelInfo> kernels = {});

    Module(Module&&) noexcept = default;
    Module& operator=(Module&&) noexcept = default;
    Module(const Module&) = delete;
    Module& operator=(const Module&) = delete;
    ~Module() = default;

    bool valid() const noexcept { return m_state != nullptr; }
    CUmodule handle() const noexcept { return m_state ? m_state->module : nullptr; }
    /// The kernels the compiler reported (empty for loadImage without descriptions).
    const std::vector<KernelInfo>& kernels() const;

    /// The kernel the user calls `name` ("multiply_them", "scale<float, 128>") or its lowered
    /// name. Throws InvalidArgument listing the module's kernels when there is none.
    Kernel function(const std::string& name) const;
    /// A __device__ / __constant__ variable.
    Global global(const std::string& name) const;
    /// Copies `bytes` from `src` into the variable `name` (checks the size).
    void setGlobal(const std::string& name, const void* src, std::size_t bytes) const;
    /// Copies the variable `name` into `dst` (checks the size).
    void getGlobal(const std::string& name, void* dst, std::size_t bytes) const;

private:
    explicit Module(detail::ModuleRef state)
        : m_state(std::move(state))
    {
    }
    const detail::ModuleState& state() const;
    detail::ModuleRef m_state;
};

} // namespace wb::cuda
