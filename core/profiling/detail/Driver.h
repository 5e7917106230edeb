// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cuda.h>
#include <cudaTypedefs.h>

#include <string>

namespace wb::profiling::detail {

/// The driver entry points profiling needs, as `(name, version, typedef)`, fetched with
/// cuGetProcAddress_v2 at that version (the typedef is that version's ABI: CUDA 13.0 changed
/// cuCtxSynchronize and cuCtxGetDevice, so those are pinned to the 12.x ABI).
///
/// This mirrors wb::cuda::detail::DriverApi (branch `cuda`) on purpose — same member names —
/// so profiling can switch to that table once it is merged, without other changes.
#define WB_PROFILING_DRIVER_FUNCTIONS(X)                                                           \
    X(cuDeviceGet, 13000, PFN_cuDeviceGet_v2000)                                                   \
    X(cuDeviceGetCount, 13000, PFN_cuDeviceGetCount_v2000)                                         \
    X(cuDeviceGetName, 13000, PFN_cuDeviceGetName_v2000)                                           \
    X(cuDeviceGetAttribute, 13000, PFN_cuDeviceGetAttribute_v2000)                                 \
    X(cuDevicePrimaryCtxRetain, 13000, PFN_cuDevicePrimaryCtxRetain_v7000)                         \
    X(cuDevicePrimaryCtxRelease, 13000, PFN_cuDevicePrimaryCtxRelease_v11000)                      \
    X(cuCtxSetCurrent, 13000, PFN_cuCtxSetCurrent_v4000)                                           \
    X(cuCtxGetCurrent, 13000, PFN_cuCtxGetCurrent_v4000)                                           \
    X(cuCtxGetDevice, 12080, PFN_cuCtxGetDevice_v2000)                                             \
    X(cuCtxSynchronize, 12080, PFN_cuCtxSynchronize_v2000)                                         \
    X(cuMemAlloc, 13000, PFN_cuMemAlloc_v3020)                                                     \
    X(cuMemFree, 13000, PFN_cuMemFree_v3020)                                                       \
    X(cuMemcpyHtoD, 13000, PFN_cuMemcpyHtoD_v3020)                                                 \
    X(cuMemcpyDtoH, 13000, PFN_cuMemcpyDtoH_v3020)                                                 \
    X(cuMemcpyDtoD, 13000, PFN_cuMemcpyDtoD_v3020)                                                 \
    X(cuMemsetD32Async, 13000, PFN_cuMemsetD32Async_v3020)                                         \
    X(cuModuleLoadData, 13000, PFN_cuModuleLoadData_v2000)                                         \
    X(cuModuleUnload, 13000, PFN_cuModuleUnload_v2000)                                             \
    X(cuModuleGetFunction, 13000, PFN_cuModuleGetFunction_v2000)                                   \
    X(cuLaunchKernel, 13000, PFN_cuLaunchKernel_v4000)                                             \
    X(cuStreamCreate, 13000, PFN_cuStreamCreate_v2000)                                             \
    X(cuStreamDestroy, 13000, PFN_cuStreamDestroy_v4000)                                           \
    X(cuStreamSynchronize, 13000, PFN_cuStreamSynchronize_v2000)                                   \
    X(cuEventCreate, 13000, PFN_cuEventCreate_v2000)                                               \
    X(cuEventDestroy, 13000, PFN_cuEventDestroy_v4000)                                             \
    X(cuEventRecord, 13000, PFN_cuEventRecord_v2000)                                               \
    X(cuEventSynchronize, 13000, PFN_cuEventSynchronize_v2000)                                     \
    X(cuEventElapsedTime, 13000, PFN_cuEventElapsedTime_v12080)

struct Driver {
    PFN_cuGetErrorName_v6000 cuGetErrorName = nullptr;
    PFN_cuGetErrorString_v6000 cuGetErrorString = nullptr;
    PFN_cuDriverGetVersion_v2020 cuDriverGetVersion = nullptr;
#define WB_PROFILING_DECLARE_MEMBER(name, version, type) type name = nullptr;
    WB_PROFILING_DRIVER_FUNCTIONS(WB_PROFILING_DECLARE_MEMBER)
#undef WB_PROFILING_DECLARE_MEMBER
};

/// Empty when the driver is loaded, initialised and has a device; else the reason
/// ("no NVIDIA driver (libcuda.so.1: cannot open shared object file)", "CUDA stub library",
/// "no CUDA device"). Found once per process; never throws, never crashes without a driver.
const std::string& driverUnavailableReason() noexcept;

/// The table; throws wb::Error(Unavailable) with driverUnavailableReason() when unusable.
const Driver& driver();

/// Throws wb::Error(Runtime) "<what>: <call> failed: CUDA_ERROR_X (text)" unless CUDA_SUCCESS.
void check(CUresult result, const char* call, const std::string& what);

} // namespace wb::profiling::detail
