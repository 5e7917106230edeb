// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/profiling/detail/Driver.h"

#include "core/cuda/CudaError.h"

namespace wb::profiling::detail {

const std::string& driverUnavailableReason() noexcept
{
    return wb::cuda::detail::driverStatus().reason;
}

const Driver& driver()
{
    return wb::cuda::detail::driver();
}

void check(CUresult result, const char* call, const std::string& what)
{
    if (result != CUDA_SUCCESS) wb::cuda::detail::throwCudaError(result, call, what);
}

} // namespace wb::profiling::detail
