// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cuda.h>
#include <cudaTypedefs.h>

#include <string>
#include <vector>

namespace wb::cuda::detail {

/// Every driver entry point Warpbench calls, as `(name, version, typedef)`. Each one is fetched
/// with cuGetProcAddress_v2 at `version` (clipped to the installed driver's version), and the
/// typedef is the ABI of that version: cuda.h remaps several names in 13.0
/// (cuCtxSynchronize → cuCtxSynchronize_v2(CUcontext), cuEventElapsedTime →
/// cuEventElapsedTime_v2, cuCtxCreate → cuCtxCreate_v4), so the version asked for and the
/// signature used must agree. cuCtxSynchronize is pinned to the 12.x ABI (no argument).
#define WB_CUDA_DRIVER_FUNCTIONS(X)                                                                \
    X(cuDeviceGet, 13000, PFN_cuDeviceGet_v2000)                                                   \
    X(cuDeviceGetCount, 13000, PFN_cuDeviceGetCount_v2000)                                         \
    X(cuDeviceGetName, 13000, PFN_cuDeviceGetName_v2000)                                           \
    X(cuDeviceGetAttribute, 13000, PFN_cuDeviceGetAttribute_v2000)                                 \
    X(cuDeviceTotalMem, 13000, PFN_cuDeviceTotalMem_v3020)                                         \
    X(cuDevicePrimaryCtxRetain, 13000, PFN_cuDevicePrimaryCtxRetain_v7000)                         \
    X(cuDevicePrimaryCtxRelease, 13000, PFN_cuDevicePrimaryCtxRelease_v11000)                      \
    X(cuCtxSetCurrent, 13000, PFN_cuCtxSetCurrent_v4000)                                           \
    X(cuCtxGetCurrent, 13000, PFN_cuCtxGetCurrent_v4000)                                           \
    X(cuCtxSynchronize, 12080, PFN_cuCtxSynchronize_v2000)                                         \
    X(cuCtxGetDevice, 12080, PFN_cuCtxGetDevice_v2000)                                             \
    X(cuMemGetInfo, 13000, PFN_cuMemGetInfo_v3020)                                                 \
    X(cuMemAlloc, 13000, PFN_cuMemAlloc_v3020)                                                     \
    X(cuMemFree, 13000, PFN_cuMemFree_v3020)                                                       \
    X(cuMemHostAlloc, 13000, PFN_cuMemHostAlloc_v2020)                                             \
    X(cuMemFreeHost, 13000, PFN_cuMemFreeHost_v2000)                                               \
    X(cuMemHostGetDevicePointer, 13000, PFN_cuMemHostGetDevicePointer_v3020)                       \
    X(cuMemcpyHtoD, 13000, PFN_cuMemcpyHtoD_v3020)                                                 \
    X(cuMemcpyDtoH, 13000, PFN_cuMemcpyDtoH_v3020)                                                 \
    X(cuMemcpyDtoD, 13000, PFN_cuMemcpyDtoD_v3020)                                                 \
    X(cuMemcpyHtoDAsync, 13000, PFN_cuMemcpyHtoDAsync_v3020)                                       \
    X(cuMemcpyDtoHAsync, 13000, PFN_cuMemcpyDtoHAsync_v3020)                                       \
    X(cuMemsetD8, 13000, PFN_cuMemsetD8_v3020)                                                     \
    X(cuMemsetD32Async, 13000, PFN_cuMemsetD32Async_v3020)                                         \
    X(cuMemsetD16, 13000, PFN_cuMemsetD16_v3020)                                                   \
    X(cuMemsetD32, 13000, PFN_cuMemsetD32_v3020)                                                   \
    X(cuModuleLoadData, 13000, PFN_cuModuleLoadData_v2000)                                         \
    X(cuModuleLoadDataEx, 13000, PFN_cuModuleLoadDataEx_v2010)                                     \
    X(cuModuleUnload, 13000, PFN_cuModuleUnload_v2000)                                             \
    X(cuModuleGetFunction, 13000, PFN_cuModuleGetFunction_v2000)                                   \
    X(cuModuleGetGlobal, 13000, PFN_cuModuleGetGlobal_v3020)                                       \
    X(cuFuncGetAttribute, 13000, PFN_cuFuncGetAttribute_v2020)                                     \
    X(cuFuncSetAttribute, 13000, PFN_cuFuncSetAttribute_v9000)                                     \
    X(cuFuncGetParamInfo, 13000, PFN_cuFuncGetParamInfo_v12040)                                    \
    X(cuLaunchKernel, 13000, PFN_cuLaunchKernel_v4000)                                             \
    X(cuLaunchKernelEx, 13000, PFN_cuLaunchKernelEx_v11060)                                        \
    X(cuLaunchCooperativeKernel, 13000, PFN_cuLaunchCooperativeKernel_v9000)                       \
    X(cuStreamCreate, 13000, PFN_cuStreamCreate_v2000)                                             \
    X(cuStreamDestroy, 13000, PFN_cuStreamDestroy_v4000)                                           \
    X(cuStreamSynchronize, 13000, PFN_cuStreamSynchronize_v2000)                                   \
    X(cuStreamQuery, 13000, PFN_cuStreamQuery_v2000)                                               \
    X(cuEventCreate, 13000, PFN_cuEventCreate_v2000)                                               \
    X(cuEventDestroy, 13000, PFN_cuEventDestroy_v4000)                                             \
    X(cuEventRecord, 13000, PFN_cuEventRecord_v2000)                                               \
    X(cuEventSynchronize, 13000, PFN_cuEventSynchronize_v2000)                                     \
    X(cuEventElapsedTime, 13000, PFN_cuEventElapsedTime_v12080)                                    \
    X(cuOccupancyMaxActiveBlocksPerMultiprocessor, 13000,                                          \
      PFN_cuOccupancyMaxActiveBlocksPerMultiprocessor_v6050)                                       \
    X(cuCtxResetPersistingL2Cache, 13000, PFN_cuCtxResetPersistingL2Cache_v11000)                  \
    X(cuDeviceGetPCIBusId, 13000, PFN_cuDeviceGetPCIBusId_v4010)

/// The oldest driver Warpbench accepts (CUDA 12.8: cuEventElapsedTime_v2, cuFuncGetParamInfo).
inline constexpr int kMinimumDriverVersion = 12080;

/// Why the driver can or cannot be used, found once per process.
struct DriverStatus {
    enum class State { Usable, NoDriver, StubLibrary, TooOld, InitFailed, NoDevice };
    State state = State::NoDriver;
    std::string reason;      ///< empty when usable; otherwise a sentence for users
    std::string libraryPath; ///< the file that was opened, when one was
    int driverVersion = 0;   ///< cuDriverGetVersion (13000 = CUDA 13.0), 0 if unknown
    int deviceCount = 0;
};

/// The driver's function table. Each member has the name of its entry point (cuda.h's macros
/// rename the member and its uses alike, e.g. cuMemAlloc → cuMemAlloc_v2).
struct DriverApi {
    PFN_cuGetErrorName_v6000 cuGetErrorName = nullptr;
    PFN_cuGetErrorString_v6000 cuGetErrorString = nullptr;
    PFN_cuDriverGetVersion_v2020 cuDriverGetVersion = nullptr;
#define WB_CUDA_DECLARE_MEMBER(name, version, type) type name = nullptr;
    WB_CUDA_DRIVER_FUNCTIONS(WB_CUDA_DECLARE_MEMBER)
#undef WB_CUDA_DECLARE_MEMBER
};

/// Loads libcuda.so.1 (or $WARPBENCH_LIBCUDA) once per process and fills the table. Never throws.
const DriverStatus& driverStatus() noexcept;

/// The function table; throws wb::Error (Kind::Unavailable) with the reason when the driver is
/// not usable. Cheap after the first call.
const DriverApi& driver();

/// The table without the check, for destructors (which only run when driver() succeeded once).
const DriverApi& driverUnchecked() noexcept;

/// Probes the given library names without touching the process-wide state (for tests: the
/// CUDA toolkit's stub libcuda.so must be classified as a stub). The library stays loaded.
DriverStatus probeDriver(const std::vector<std::string>& libraryNames);

} // namespace wb::cuda::detail
