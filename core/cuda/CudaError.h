// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/common/Error.h"

#include <cuda.h>

#include <string>

namespace wb::cuda {

/// A failed driver call: the call's text, its CUresult with name and description, and what the
/// user was doing ("allocating buffer 'dest' (1.6 MB)"). Sticky errors (illegal address,
/// launch failure, ...) are Kind::ContextLost: the context is unusable until the process
/// restarts; CUDA_ERROR_OUT_OF_MEMORY is Kind::OutOfMemory. Nothing is retried.
class CudaError : public Error {
public:
    CudaError(CUresult result, std::string call, std::string context);

    CUresult result() const noexcept { return m_result; }
    const std::string& call() const noexcept { return m_call; }
    const std::string& resultName() const noexcept { return m_name; }
    const std::string& resultString() const noexcept { return m_string; }
    const std::string& context() const noexcept { return m_context; }

    /// True for errors after which the CUDA context cannot be used again.
    static bool isSticky(CUresult result) noexcept;
    /// The Error::Kind a CUresult maps to.
    static Kind kindOf(CUresult result) noexcept;
    /// "CUDA_ERROR_OUT_OF_MEMORY", or "CUresult 2" when the driver cannot say.
    static std::string nameOf(CUresult result);
    /// "out of memory", or empty when the driver cannot say.
    static std::string describe(CUresult result);

private:
    CUresult m_result;
    std::string m_call;
    std::string m_name;
    std::string m_string;
    std::string m_context;
};

namespace detail {
/// Throws CudaError; out of line so that CU_CHECK's success path stays small.
[[noreturn]] void throwCudaError(CUresult result, const char* call, const std::string& context);
/// For destructors: reports a failed release on stderr (through qWarning); silent for
/// CUDA_ERROR_DEINITIALIZED, which only means the process is shutting down.
void reportCudaFailure(CUresult result, const char* call, const char* what) noexcept;
} // namespace detail

} // namespace wb::cuda

/// Runs a driver call through the loaded table (`api` must be in scope, see DriverApi.h);
/// on failure throws CudaError. `context` is evaluated only on failure, so it may build strings.
#define CU_CHECK(call, context)                                                                    \
    do {                                                                                           \
        const CUresult wb_cu_result_ = (call);                                                     \
        if (wb_cu_result_ != CUDA_SUCCESS) [[unlikely]]                                            \
            ::wb::cuda::detail::throwCudaError(wb_cu_result_, #call, (context));                   \
    } while (false)
