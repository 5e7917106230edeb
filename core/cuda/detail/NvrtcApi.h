// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/common/DynamicLibrary.h"

#include <nvrtc.h>

#include <string>
#include <vector>

namespace wb::cuda::detail {

/// NVRTC's C API, resolved from libnvrtc.so.13 at run time (Warpbench never links NVRTC).
/// Every pointer is non-null when ok() is true.
struct NvrtcApi {
    decltype(&::nvrtcGetErrorString) getErrorString = nullptr;
    decltype(&::nvrtcVersion) version = nullptr;
    decltype(&::nvrtcCreateProgram) createProgram = nullptr;
    decltype(&::nvrtcDestroyProgram) destroyProgram = nullptr;
    decltype(&::nvrtcCompileProgram) compileProgram = nullptr;
    decltype(&::nvrtcGetPTXSize) getPTXSize = nullptr;
    decltype(&::nvrtcGetPTX) getPTX = nullptr;
    decltype(&::nvrtcGetCUBINSize) getCUBINSize = nullptr;
    decltype(&::nvrtcGetCUBIN) getCUBIN = nullptr;
    decltype(&::nvrtcGetProgramLogSize) getProgramLogSize = nullptr;
    decltype(&::nvrtcGetProgramLog) getProgramLog = nullptr;
    decltype(&::nvrtcAddNameExpression) addNameExpression = nullptr;
    decltype(&::nvrtcGetLoweredName) getLoweredName = nullptr;

    int major = 0;
    int minor = 0;
    /// Empty when loaded; otherwise what is missing and what to install.
    std::string error;
    /// The file that was opened ("/usr/local/cuda/lib64/libnvrtc.so.13").
    std::string libraryPath;

    bool ok() const noexcept { return error.empty(); }
    /// "NVRTC 13.0"
    std::string versionString() const;
    /// Error text for a result code ("NVRTC_ERROR_COMPILATION").
    std::string errorString(nvrtcResult result) const;

    /// Opens libnvrtc.so.13 (then libnvrtc.so, then the toolkit's lib64) once per process.
    static const NvrtcApi& get();
    /// Opens the first of `names` that loads; error() explains a failure. For get() and tests.
    static NvrtcApi load(const std::vector<std::string>& names);

private:
    DynamicLibrary m_library;
};

/// The toolkit's own include directories (cuda_fp16.h, cccl), always passed to NVRTC: from the
/// CUDAToolkit include dir that the build found, else next to the loaded libnvrtc, else
/// /usr/local/cuda/include. Only directories that exist are returned.
std::vector<std::string> toolkitIncludeDirs(const std::string& nvrtcLibraryPath);

} // namespace wb::cuda::detail
