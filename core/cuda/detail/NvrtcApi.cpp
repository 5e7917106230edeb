// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/cuda/detail/NvrtcApi.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <string_view>

namespace wb::cuda::detail {

namespace {

template <typename Fn>
bool resolve(const DynamicLibrary& lib, Fn& fn, const char* name, std::string& missing)
{
    fn = lib.function<Fn>(name);
    if (!fn) {
        if (!missing.empty()) missing += ", ";
        missing += name;
    }
    return fn != nullptr;
}

std::vector<std::string> splitList(std::string_view text)
{
    std::vector<std::string> parts;
    while (!text.empty()) {
        const std::size_t end = text.find(';');
        const std::string_view part = text.substr(0, end);
        if (!part.empty()) parts.emplace_back(part);
        if (end == std::string_view::npos) break;
        text.remove_prefix(end + 1);
    }
    return parts;
}

} // namespace

std::string NvrtcApi::versionString() const
{
    return "NVRTC " + std::to_string(major) + "." + std::to_string(minor);
}

std::string NvrtcApi::errorString(nvrtcResult result) const
{
    const char* text = getErrorString ? getErrorString(result) : nullptr;
    return text ? std::string(text) : "NVRTC error " + std::to_string(static_cast<int>(result));
}

const NvrtcApi& NvrtcApi::get()
{
    static const NvrtcApi api = [] {
        // $WARPBENCH_LIBNVRTC names the library alone (a path that does not exist: no NVRTC,
        // as on a machine without the toolkit; tests use it).
        if (const char* forced = std::getenv("WARPBENCH_LIBNVRTC"); forced && *forced)
            return load({forced});
        std::vector<std::string> names{"libnvrtc.so.13", "libnvrtc.so"};
#ifdef WB_CUDA_TOOLKIT_ROOT
        names.push_back(std::string(WB_CUDA_TOOLKIT_ROOT) + "/lib64/libnvrtc.so.13");
#endif
        names.emplace_back("/usr/local/cuda/lib64/libnvrtc.so.13");
        return load(names);
    }();
    return api;
}

NvrtcApi NvrtcApi::load(const std::vector<std::string>& names)
{
    NvrtcApi a;
    a.m_library = DynamicLibrary::open(names);
    if (!a.m_library) {
        a.error = "libnvrtc.so.13 not found: install the CUDA toolkit's NVRTC "
                  "(cuda-nvrtc-13-0) or add its lib64 folder to LD_LIBRARY_PATH (" +
                  a.m_library.error() + ")";
        return a;
    }
    a.libraryPath = a.m_library.path();
    std::string missing;
    const DynamicLibrary& lib = a.m_library;
    resolve(lib, a.getErrorString, "nvrtcGetErrorString", missing);
    resolve(lib, a.version, "nvrtcVersion", missing);
    resolve(lib, a.createProgram, "nvrtcCreateProgram", missing);
    resolve(lib, a.destroyProgram, "nvrtcDestroyProgram", missing);
    resolve(lib, a.compileProgram, "nvrtcCompileProgram", missing);
    resolve(lib, a.getPTXSize, "nvrtcGetPTXSize", missing);
    resolve(lib, a.getPTX, "nvrtcGetPTX", missing);
    resolve(lib, a.getCUBINSize, "nvrtcGetCUBINSize", missing);
    resolve(lib, a.getCUBIN, "nvrtcGetCUBIN", missing);
    resolve(lib, a.getProgramLogSize, "nvrtcGetProgramLogSize", missing);
    resolve(lib, a.getProgramLog, "nvrtcGetProgramLog", missing);
    resolve(lib, a.addNameExpression, "nvrtcAddNameExpression", missing);
    resolve(lib, a.getLoweredName, "nvrtcGetLoweredName", missing);
    if (!missing.empty()) {
        a.error =
            a.m_library.name() + " lacks " + missing + ": install NVRTC from CUDA 12.6 or newer";
        return a;
    }
    if (a.version(&a.major, &a.minor) != NVRTC_SUCCESS) {
        a.error = a.m_library.name() + ": nvrtcVersion failed";
    }
    return a;
}

std::vector<std::string> toolkitIncludeDirs(const std::string& nvrtcLibraryPath)
{
    namespace fs = std::filesystem;
    std::vector<std::string> candidates;
#ifdef WB_CUDA_INCLUDE_DIR
    candidates = splitList(WB_CUDA_INCLUDE_DIR);
#endif
    if (!nvrtcLibraryPath.empty()) {
        // <root>/lib64/libnvrtc.so.13 or <root>/targets/<arch>/lib/libnvrtc.so.13
        const fs::path libDir = fs::path(nvrtcLibraryPath).parent_path();
        candidates.push_back((libDir.parent_path() / "include").string());
    }
    candidates.emplace_back("/usr/local/cuda/include");

    std::vector<std::string> dirs;
    std::error_code ec;
    for (const std::string& c : candidates) {
        if (!fs::exists(fs::path(c) / "cuda_fp16.h", ec)) continue;
        // One toolkit is enough; with it, its CCCL folder (cuda/std, cub, thrust).
        dirs.push_back(c);
        const std::string cccl = (fs::path(c) / "cccl").string();
        if (fs::is_directory(cccl, ec)) dirs.push_back(cccl);
        break;
    }
    // Keep extra dirs the build named (e.g. a separate cccl folder) after the main one.
    for (const std::string& c : candidates) {
        if (std::find(dirs.begin(), dirs.end(), c) == dirs.end() && !dirs.empty() &&
            fs::is_directory(c, ec) && c.rfind(dirs.front(), 0) == 0)
            dirs.push_back(c);
    }
    return dirs;
}

} // namespace wb::cuda::detail
