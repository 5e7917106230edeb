// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/cuda/detail/DriverApi.h"

#include <string>

namespace wb::profiling::detail {

/// Profiling uses core's one driver table (libcuda.so.1 loaded at run time).
using Driver = wb::cuda::detail::DriverApi;

/// Empty when the driver is loaded, initialised and has a device; else the reason. Never
/// throws, never crashes without a driver.
const std::string& driverUnavailableReason() noexcept;

/// The table; throws wb::Error(Unavailable) with the reason when unusable.
const Driver& driver();

/// Throws wb::cuda::CudaError (sticky errors → ContextLost) unless CUDA_SUCCESS.
void check(CUresult result, const char* call, const std::string& what);

} // namespace wb::profiling::detail
