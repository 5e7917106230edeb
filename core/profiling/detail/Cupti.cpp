// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/profiling/detail/Cupti.h"

#include "core/common/DynamicLibrary.h"
#include "core/common/Error.h"

#include <cstdlib>
#include <filesystem>
#include <vector>

namespace wb::profiling::detail {

namespace {

struct Loaded {
    std::vector<DynamicLibrary> helpers; // libnvperf_host/target, kept loaded
    DynamicLibrary library;
    Cupti table;
    Cupti real; ///< as resolved, before the test seam (kCuptiFaultVariable)
    std::string error;
};

std::vector<std::string> candidateDirectories()
{
    std::vector<std::string> dirs;
#ifdef WB_CUDA_TOOLKIT_ROOT
    dirs.push_back(std::string(WB_CUDA_TOOLKIT_ROOT) + "/lib64");
    dirs.push_back(std::string(WB_CUDA_TOOLKIT_ROOT) + "/extras/CUPTI/lib64");
#endif
    dirs.push_back("/usr/local/cuda/lib64");
    dirs.push_back("/usr/local/cuda/extras/CUPTI/lib64");
    return dirs;
}

CUptiResult injectedProfilerInitialize(CUpti_Profiler_Initialize_Params* params);

Loaded load()
{
    Loaded loaded;
    std::vector<std::string> names;
    if (const char* env = std::getenv("WARPBENCH_CUPTI"); env && *env) names.push_back(env);
    names.push_back("libcupti.so.13");
    std::error_code ec;
    for (const std::string& dir : candidateDirectories())
        if (std::filesystem::exists(dir + "/libcupti.so.13", ec))
            names.push_back(dir + "/libcupti.so.13");

    // Preload the perf helpers from the folder CUPTI will come from, so that CUPTI's own
    // dlopen("libnvperf_host.so") finds them even when that folder is not on the search path.
    for (const std::string& dir : candidateDirectories()) {
        if (!std::filesystem::exists(dir + "/libnvperf_host.so", ec)) continue;
        for (const char* helper : {"libnvperf_host.so", "libnvperf_target.so"}) {
            DynamicLibrary lib = DynamicLibrary::open({dir + "/" + helper}, true);
            if (lib) loaded.helpers.push_back(std::move(lib));
        }
        break;
    }

    loaded.library = DynamicLibrary::open(names, false);
    if (!loaded.library) {
        loaded.error = "CUPTI (libcupti.so.13) was not found: install the CUDA toolkit's CUPTI "
                       "component (" +
                       loaded.library.error() + ")";
        return loaded;
    }
    loaded.table.path = loaded.library.path();
#define WB_CUPTI_RESOLVE(name)                                                                     \
    loaded.table.name = loaded.library.function<decltype(&::name)>(#name);                         \
    if (!loaded.table.name && loaded.error.empty())                                                \
        loaded.error = "CUPTI in " + loaded.table.path + " lacks " #name " (CUPTI 13 is needed)";
    WB_CUPTI_FUNCTIONS(WB_CUPTI_RESOLVE)
#undef WB_CUPTI_RESOLVE
    loaded.real = loaded.table;
    if (loaded.error.empty()) loaded.table.cuptiProfilerInitialize = &injectedProfilerInitialize;
    return loaded;
}

Loaded& instance()
{
    static Loaded loaded = load();
    return loaded;
}

CUptiResult injectedProfilerInitialize(CUpti_Profiler_Initialize_Params* params)
{
    if (const auto fault = injectedCuptiFault()) return *fault;
    return instance().real.cuptiProfilerInitialize(params);
}

} // namespace

std::optional<CUptiResult> injectedCuptiFault()
{
    const char* env = std::getenv(kCuptiFaultVariable);
    if (!env || !*env) return std::nullopt;
    const std::string name = env;
    static const std::pair<const char*, CUptiResult> known[] = {
        {"CUPTI_ERROR_INSUFFICIENT_PRIVILEGES", CUPTI_ERROR_INSUFFICIENT_PRIVILEGES},
        {"CUPTI_ERROR_VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES",
         CUPTI_ERROR_VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES},
        {"CUPTI_ERROR_NOT_SUPPORTED", CUPTI_ERROR_NOT_SUPPORTED},
        {"CUPTI_ERROR_HARDWARE_BUSY", CUPTI_ERROR_HARDWARE_BUSY},
        {"CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED",
         CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED},
        {"CUPTI_ERROR_UNKNOWN", CUPTI_ERROR_UNKNOWN},
    };
    for (const auto& [n, r] : known)
        if (name == n) return r;
    char* end = nullptr;
    const long v = std::strtol(env, &end, 10);
    if (end && *end == '\0' && v > 0) return static_cast<CUptiResult>(v);
    return std::nullopt;
}

const std::string& cuptiLoadError() noexcept
{
    return instance().error;
}

const Cupti& cupti()
{
    Loaded& loaded = instance();
    if (!loaded.error.empty()) throw Error(Error::Kind::Unavailable, loaded.error);
    return loaded.table;
}

std::string cuptiResultText(CUptiResult result)
{
    const Loaded& loaded = instance();
    const char* text = nullptr;
    if (loaded.table.cuptiGetResultString) loaded.table.cuptiGetResultString(result, &text);
    std::string out = text ? text : "CUPTI error " + std::to_string(static_cast<int>(result));
    return out;
}

ProfilerStatus classifyCuptiResult(CUptiResult result, const std::string& step,
                                   const char* unsupported)
{
    const std::string text = step + ": " + cuptiResultText(result);
    switch (result) {
    case CUPTI_ERROR_INSUFFICIENT_PRIVILEGES:
    case CUPTI_ERROR_VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES:
        return {ProfilerStatus::State::InsufficientPrivileges,
                text + ". " + counterPermissionHelp()};
    case CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED:
    case CUPTI_ERROR_HARDWARE_BUSY:
    case CUPTI_ERROR_OLD_PROFILER_API_INITIALIZED:
        return {ProfilerStatus::State::ProfilerBusy,
                text + ". Another profiler is attached to this process or GPU (Nsight Compute, "
                       "Nsight Systems, or a second counter session): close it and retry."};
    case CUPTI_ERROR_NOT_SUPPORTED:
    case CUPTI_ERROR_NOT_COMPATIBLE:
    case CUPTI_ERROR_INVALID_CHIP_NAME:
    case CUPTI_ERROR_VIRTUALIZED_DEVICE_NOT_SUPPORTED:
    case CUPTI_ERROR_CONFIDENTIAL_COMPUTING_NOT_SUPPORTED:
    case CUPTI_ERROR_CMP_DEVICE_NOT_SUPPORTED:
    case CUPTI_ERROR_MIG_DEVICE_NOT_SUPPORTED:
    case CUPTI_ERROR_SLI_DEVICE_NOT_SUPPORTED:
    case CUPTI_ERROR_WSL_DEVICE_NOT_SUPPORTED:
    case CUPTI_ERROR_LEGACY_PROFILER_NOT_SUPPORTED:
        return {ProfilerStatus::State::UnsupportedDevice, text + ". " + unsupported};
    case CUPTI_ERROR_INVALID_METRIC_NAME:
        return {ProfilerStatus::State::InvalidMetric, text};
    default:
        return {ProfilerStatus::State::Failed, text};
    }
}

} // namespace wb::profiling::detail
