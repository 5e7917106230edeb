// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/array/KernelArgument.h"
#include "core/array/detail/CudaArgs.h"
#include "core/backend/Backend.h"
#include "core/common/CompileOptions.h"

#include <cuda.h>

#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace wb {

namespace detail {
/// ReductionKernel's untyped part (the value type as a ScalarType).
class Reduction {
public:
    Reduction(ScalarType type, std::string_view neutral, std::string_view reduceExpr,
              std::string_view mapExpr, std::string_view arguments, std::string_view name,
              std::string_view preamble);
    Reduction(Reduction&&) noexcept;
    Reduction& operator=(Reduction&&) noexcept;
    ~Reduction();

    const std::string& name() const noexcept { return m_name; }
    const std::vector<KernelArgument>& arguments() const noexcept { return m_arguments; }
    const std::string& source() const noexcept { return m_source; }

    void runCuda(CudaArgs& bound, void* result) const;
    std::unique_ptr<BackendProgram> load(Backend& backend, const CompileOptions& options) const;
    void launch(Backend& backend, BackendProgram& program, std::span<const KernelArgValue> args,
                std::size_t n, void* result) const;

private:
    struct Cuda;
    ScalarType m_type;
    std::string m_name;
    std::vector<KernelArgument> m_arguments;
    std::string m_source;
    std::unique_ptr<Cuda> m_cuda;
};
} // namespace detail

/// PyCUDA's ReductionKernel: reduces map_expr over i in [0, n) with reduce_expr (in `a` and
/// `b`; associative and commutative) from `neutral`, all C++ expressions:
///
///     wb::ReductionKernel<float> dot("0", "a+b", "x[i]*y[i]", "const float *x, const float *y");
///     float r = dot(x, y);                  // DeviceArray<float> x, y; waits for the result
///
/// The generated source (source()) has two kernels: stage 1 reduces a grid-stride share per
/// block (4 accumulators per thread, then warp shuffles and shared memory) into one partial per
/// block; when more than one block ran, stage 2 reduces the partials in one block. Inputs of at
/// most detail::kSinglePassLimit (4096) elements take one pass, in one block. T: int, unsigned int,
/// long long, unsigned long long, float or double (what warp shuffles carry). Runs on CUDA
/// (DeviceArrays) and on any wb::Backend (load + launch), the CPU emulator included.
template <typename T> class ReductionKernel {
    static_assert(std::is_same_v<T, int> || std::is_same_v<T, unsigned> ||
                      std::is_same_v<T, long long> || std::is_same_v<T, unsigned long long> ||
                      std::is_same_v<T, float> || std::is_same_v<T, double>,
                  "ReductionKernel<T>: T is int, unsigned, long long, unsigned long long, float "
                  "or double");

public:
    using value_type = T;

    ReductionKernel(std::string_view neutral, std::string_view reduceExpr, std::string_view mapExpr,
                    std::string_view arguments, std::string_view name = "reduce",
                    std::string_view preamble = {})
        : m_core(scalarTypeOf<T>(), neutral, reduceExpr, mapExpr, arguments, name, preamble)
    {
    }

    const std::string& name() const noexcept { return m_core.name(); }
    const std::vector<KernelArgument>& arguments() const noexcept { return m_core.arguments(); }
    const std::string& source() const noexcept { return m_core.source(); }

    /// CUDA: DeviceArrays and scalars as for ElementwiseKernel; returns the result (waits).
    template <typename... A> T operator()(const A&... args) const
    {
        detail::CudaArgs bound(m_core.name(), m_core.arguments());
        (bound.add(args), ...);
        bound.finish();
        T result{};
        m_core.runCuda(bound, &result);
        return result;
    }

    /// Any backend: compile and load (throws wb::cuda::CompileError on failure).
    std::unique_ptr<BackendProgram> load(Backend& backend, const CompileOptions& options = {}) const
    {
        return m_core.load(backend, options);
    }
    /// Reduces over `n` elements with `args` (checked against the declared arguments); the
    /// partials live in buffers allocated on `backend`. Returns the neutral value when n is 0.
    T launch(Backend& backend, BackendProgram& program, std::span<const KernelArgValue> args,
             std::size_t n) const
    {
        T result{};
        m_core.launch(backend, program, args, n, &result);
        return result;
    }

private:
    detail::Reduction m_core;
};

} // namespace wb
