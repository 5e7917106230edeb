// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/array/KernelArgument.h"
#include "core/array/detail/CudaArgs.h"
#include "core/backend/Backend.h"
#include "core/common/CompileOptions.h"

#include <cuda.h>

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace wb {

/// PyCUDA's ElementwiseKernel: a kernel generated from an argument list and a statement that
/// uses the element index `i` (and the element count `n`):
///
///     wb::ElementwiseKernel axpy("float a, float *x, float *y, float *z", "z[i] = a*x[i] + y[i]");
///     axpy(2.0f, x, y, z);                 // DeviceArray<float> x, y, z: one launch, async
///
/// The source (source()) is CUDA C++: a grid-stride loop, min(ceil(n/256), SMs × resident
/// blocks per SM (occupancy API; 8 per worker thread on the CPU emulator)) blocks of
/// 256 threads, each thread taking 4 elements per trip. It holds two entry points: `<name>`,
/// and `<name>_noalias` with __restrict__ pointers, which a call takes when no written array
/// overlaps another array (more loads in flight). It is compiled like any kernel — NVRTC
/// through the compile cache on CUDA, the host compiler on the CPU emulator — once per device
/// (CUDA) or per load() (any wb::Backend).
///
/// The argument list is parsed strictly (parseKernelArguments): bad input throws wb::Error
/// naming the argument. A statement that does not compile throws wb::cuda::CompileError with
/// the diagnostics. Copies are not possible (a compiled module is owned); moves are.
class ElementwiseKernel {
public:
    ElementwiseKernel(std::string_view arguments, std::string_view operation,
                      std::string_view name = "elementwise", std::string_view preamble = {});
    ElementwiseKernel(ElementwiseKernel&&) noexcept;
    ElementwiseKernel& operator=(ElementwiseKernel&&) noexcept;
    ~ElementwiseKernel();

    const std::string& name() const noexcept { return m_name; }
    std::string noAliasName() const { return m_name + "_noalias"; }
    const std::vector<KernelArgument>& arguments() const noexcept { return m_arguments; }
    const std::string& operation() const noexcept { return m_operation; }
    /// The generated CUDA C++ (both entry points; parameters: the arguments, then
    /// `unsigned long long n`).
    const std::string& source() const noexcept { return m_source; }

    /// CUDA: DeviceArrays for pointer arguments, arithmetic values for scalars (converted to
    /// the declared type), in order; n is the arrays' size (all equal). Asynchronous on the
    /// legacy default stream, like PyCUDA's call; compiles on first use per device.
    template <typename... A> void operator()(const A&... args) const
    {
        detail::CudaArgs bound(m_name, m_arguments);
        (bound.add(args), ...);
        bound.finish();
        launchBound(bound);
    }
    /// The same with arguments already bound and checked (CudaArgs::finish called); queued on
    /// `stream` (legacy default stream when null).
    void launchBound(detail::CudaArgs& bound, CUstream stream = nullptr) const;

    /// Any backend (the CPU emulator included): compiles with `backend` and loads the result.
    /// Throws wb::cuda::CompileError when the source does not compile.
    std::unique_ptr<BackendProgram> load(Backend& backend,
                                         const CompileOptions& options = {}) const;
    /// Runs over `n` elements with `args` (one per declared argument, checked), waits, and
    /// returns the milliseconds the backend measured (0 when n is 0).
    double launch(Backend& backend, BackendProgram& program, std::span<const KernelArgValue> args,
                  std::size_t n) const;

    /// Modules built from generated source in this process so far (ElementwiseKernel and
    /// ReductionKernel, CUDA and backends): tests use it to see that a fused expression is one.
    static std::uint64_t buildCount() noexcept { return detail::generatedBuilds(); }

private:
    struct Cuda;

    std::string m_name;
    std::vector<KernelArgument> m_arguments;
    std::string m_operation;
    std::string m_source;
    std::unique_ptr<Cuda> m_cuda;
};

} // namespace wb
