// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/profiling/detail/Driver.h"

#include "core/common/DynamicLibrary.h"
#include "core/common/Error.h"

#include <algorithm>
#include <mutex>

namespace wb::profiling::detail {

namespace {

struct Loaded {
    DynamicLibrary library;
    Driver table;
    std::string reason;
};

Loaded load()
{
    Loaded loaded;
    loaded.library = DynamicLibrary::open({"libcuda.so.1", "libcuda.so"}, false);
    if (!loaded.library) {
        loaded.reason = "no NVIDIA driver (" + loaded.library.error() + ")";
        return loaded;
    }
    auto getProc = loaded.library.function<PFN_cuGetProcAddress_v12000>("cuGetProcAddress_v2");
    auto init = loaded.library.function<PFN_cuInit_v2000>("cuInit");
    if (!getProc || !init) {
        loaded.reason = "the NVIDIA driver in " + loaded.library.name() +
                        " is too old (cuGetProcAddress_v2 is missing; CUDA 12.8+ is needed)";
        return loaded;
    }
    const CUresult initResult = init(0);
    if (initResult == CUDA_ERROR_STUB_LIBRARY) {
        loaded.reason = "no NVIDIA driver (only the CUDA toolkit's stub libcuda is installed)";
        return loaded;
    }
    if (initResult != CUDA_SUCCESS) {
        loaded.reason = "the NVIDIA driver did not initialise (cuInit returned " +
                        std::to_string(static_cast<int>(initResult)) + ")";
        return loaded;
    }
    Driver& t = loaded.table;
    // Ask no newer ABI than the driver has, and the legacy default stream explicitly (as the
    // driver layer does): a null CUstream is the legacy stream.
    int driverVersion = 13000;
    if (auto getVersion =
            loaded.library.function<PFN_cuDriverGetVersion_v2020>("cuDriverGetVersion"))
        getVersion(&driverVersion);
    const auto fetch = [&](const char* name, int version, void** slot) {
        CUdriverProcAddressQueryResult status = CU_GET_PROC_ADDRESS_SUCCESS;
        *slot = nullptr;
        if (getProc(name, slot, std::min(version, driverVersion), CU_GET_PROC_ADDRESS_LEGACY_STREAM,
                    &status) != CUDA_SUCCESS ||
            status != CU_GET_PROC_ADDRESS_SUCCESS)
            *slot = nullptr;
        if (!*slot && loaded.reason.empty())
            loaded.reason = std::string("the NVIDIA driver lacks ") + name + " (version " +
                            std::to_string(version) + ")";
    };
    fetch("cuGetErrorName", 13000, reinterpret_cast<void**>(&t.cuGetErrorName));
    fetch("cuGetErrorString", 13000, reinterpret_cast<void**>(&t.cuGetErrorString));
    fetch("cuDriverGetVersion", 13000, reinterpret_cast<void**>(&t.cuDriverGetVersion));
#define WB_PROFILING_FETCH(name, version, type)                                                    \
    fetch(#name, version, reinterpret_cast<void**>(&t.name));
    WB_PROFILING_DRIVER_FUNCTIONS(WB_PROFILING_FETCH)
#undef WB_PROFILING_FETCH
    if (!loaded.reason.empty()) return loaded;
    int count = 0;
    if (t.cuDeviceGetCount(&count) != CUDA_SUCCESS || count == 0)
        loaded.reason = "no CUDA device is visible to the NVIDIA driver";
    return loaded;
}

Loaded& instance()
{
    static Loaded loaded = load();
    return loaded;
}

} // namespace

const std::string& driverUnavailableReason() noexcept
{
    return instance().reason;
}

const Driver& driver()
{
    Loaded& loaded = instance();
    if (!loaded.reason.empty()) throw Error(Error::Kind::Unavailable, loaded.reason);
    return loaded.table;
}

void check(CUresult result, const char* call, const std::string& what)
{
    if (result == CUDA_SUCCESS) return;
    const Driver& t = instance().table;
    const char* name = nullptr;
    const char* text = nullptr;
    if (t.cuGetErrorName) t.cuGetErrorName(result, &name);
    if (t.cuGetErrorString) t.cuGetErrorString(result, &text);
    std::string message = what + ": " + call + " failed: " +
                          (name ? name : "CUDA error " + std::to_string(static_cast<int>(result)));
    if (text) message += std::string(" (") + text + ")";
    const Error::Kind kind =
        result == CUDA_ERROR_OUT_OF_MEMORY ? Error::Kind::OutOfMemory
        : (result == CUDA_ERROR_ILLEGAL_ADDRESS || result == CUDA_ERROR_LAUNCH_FAILED)
            ? Error::Kind::ContextLost
            : Error::Kind::Runtime;
    throw Error(kind, message);
}

} // namespace wb::profiling::detail
