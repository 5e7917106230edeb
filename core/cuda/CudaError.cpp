// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/cuda/CudaError.h"

#include "core/cuda/detail/DriverApi.h"

#include <QtCore/QtGlobal>

namespace wb::cuda {

namespace {

std::string buildMessage(CUresult result, const std::string& call, const std::string& context)
{
    std::string msg = context.empty() ? std::string() : context + ": ";
    msg += call + " failed with " + CudaError::nameOf(result);
    const std::string text = CudaError::describe(result);
    if (!text.empty()) msg += " (" + text + ")";
    if (CudaError::isSticky(result)) msg += "; the context is lost; restart required";
    return msg;
}

} // namespace

CudaError::CudaError(CUresult result, std::string call, std::string context)
    : Error(kindOf(result), buildMessage(result, call, context))
    , m_result(result)
    , m_call(std::move(call))
    , m_name(nameOf(result))
    , m_string(describe(result))
    , m_context(std::move(context))
{
}

bool CudaError::isSticky(CUresult result) noexcept
{
    switch (result) {
    case CUDA_ERROR_ILLEGAL_ADDRESS:
    case CUDA_ERROR_LAUNCH_FAILED:
    case CUDA_ERROR_LAUNCH_TIMEOUT:
    case CUDA_ERROR_MISALIGNED_ADDRESS:
    case CUDA_ERROR_HARDWARE_STACK_ERROR:
    case CUDA_ERROR_ILLEGAL_INSTRUCTION:
    case CUDA_ERROR_INVALID_ADDRESS_SPACE:
    case CUDA_ERROR_INVALID_PC:
    case CUDA_ERROR_ASSERT:
    case CUDA_ERROR_ECC_UNCORRECTABLE:
    case CUDA_ERROR_CONTEXT_IS_DESTROYED:
        return true;
    default:
        return false;
    }
}

Error::Kind CudaError::kindOf(CUresult result) noexcept
{
    if (isSticky(result)) return Kind::ContextLost;
    switch (result) {
    case CUDA_ERROR_OUT_OF_MEMORY:
        return Kind::OutOfMemory;
    case CUDA_ERROR_NO_DEVICE:
    case CUDA_ERROR_STUB_LIBRARY:
    case CUDA_ERROR_SYSTEM_DRIVER_MISMATCH:
    case CUDA_ERROR_NOT_INITIALIZED:
    case CUDA_ERROR_DEINITIALIZED:
    case CUDA_ERROR_NO_BINARY_FOR_GPU:
    case CUDA_ERROR_UNSUPPORTED_PTX_VERSION:
        return Kind::Unavailable;
    case CUDA_ERROR_INVALID_VALUE:
    case CUDA_ERROR_INVALID_HANDLE:
    case CUDA_ERROR_NOT_FOUND:
    case CUDA_ERROR_INVALID_IMAGE:
    case CUDA_ERROR_INVALID_PTX:
    case CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES:
    case CUDA_ERROR_INVALID_CLUSTER_SIZE:
        return Kind::InvalidArgument;
    default:
        return Kind::Runtime;
    }
}

std::string CudaError::nameOf(CUresult result)
{
    const detail::DriverApi& api = detail::driverUnchecked();
    const char* name = nullptr;
    if (api.cuGetErrorName && api.cuGetErrorName(result, &name) == CUDA_SUCCESS && name)
        return name;
    return "CUresult " + std::to_string(static_cast<int>(result));
}

std::string CudaError::describe(CUresult result)
{
    const detail::DriverApi& api = detail::driverUnchecked();
    const char* text = nullptr;
    if (api.cuGetErrorString && api.cuGetErrorString(result, &text) == CUDA_SUCCESS && text)
        return text;
    return {};
}

namespace detail {

void throwCudaError(CUresult result, const char* call, const std::string& context)
{
    throw CudaError(result, call, context);
}

void reportCudaFailure(CUresult result, const char* call, const char* what) noexcept
{
    if (result == CUDA_SUCCESS || result == CUDA_ERROR_DEINITIALIZED) return;
    try {
        qWarning("warpbench: %s: %s failed with %s", what, call, CudaError::nameOf(result).c_str());
    } catch (...) {
        // Reporting must never throw from a destructor.
    }
}

} // namespace detail

} // namespace wb::cuda
