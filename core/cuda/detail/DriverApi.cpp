// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/cuda/detail/DriverApi.h"

#include "core/common/DynamicLibrary.h"
#include "core/common/Error.h"

#include <algorithm>
#include <cstdlib>

namespace wb::cuda::detail {

namespace {

std::string versionText(int version)
{
    return std::to_string(version / 1000) + "." + std::to_string((version % 1000) / 10);
}

std::string resultText(const DriverApi& api, CUresult result)
{
    const char* name = nullptr;
    const char* text = nullptr;
    if (api.cuGetErrorName && api.cuGetErrorName(result, &name) != CUDA_SUCCESS) name = nullptr;
    if (api.cuGetErrorString && api.cuGetErrorString(result, &text) != CUDA_SUCCESS) text = nullptr;
    std::string out = name ? name : "CUresult " + std::to_string(static_cast<int>(result));
    if (text) out += std::string(" (") + text + ")";
    return out;
}

DriverStatus load(const std::vector<std::string>& names, DynamicLibrary& lib, DriverApi& api)
{
    using State = DriverStatus::State;
    DriverStatus st;
    lib = DynamicLibrary::open(names);
    if (!lib) {
        st.state = State::NoDriver;
        st.reason =
            "no NVIDIA driver: " + names.front() + " could not be loaded (" + lib.error() + ")";
        return st;
    }
    st.libraryPath = lib.path().empty() ? lib.name() : lib.path();

    const auto cuInit = lib.function<PFN_cuInit_v2000>("cuInit");
    const auto getProc = lib.function<PFN_cuGetProcAddress_v12000>("cuGetProcAddress_v2");
    api.cuDriverGetVersion = lib.function<PFN_cuDriverGetVersion_v2020>("cuDriverGetVersion");
    api.cuGetErrorName = lib.function<PFN_cuGetErrorName_v6000>("cuGetErrorName");
    api.cuGetErrorString = lib.function<PFN_cuGetErrorString_v6000>("cuGetErrorString");
    if (!cuInit || !api.cuDriverGetVersion) {
        st.state = State::NoDriver;
        st.reason = "no NVIDIA driver: " + st.libraryPath + " is not a CUDA driver library";
        return st;
    }

    const CUresult init = cuInit(0);
    if (init == CUDA_ERROR_STUB_LIBRARY) {
        st.state = State::StubLibrary;
        st.reason = "no NVIDIA driver: " + st.libraryPath +
                    " is the CUDA toolkit's stub library (CUDA_ERROR_STUB_LIBRARY); install the "
                    "NVIDIA driver or run on a machine with a GPU";
        return st;
    }
    if (init == CUDA_ERROR_NO_DEVICE) {
        st.state = State::NoDevice;
        st.reason = "no CUDA device: the NVIDIA driver found no GPU (CUDA_ERROR_NO_DEVICE)";
        return st;
    }
    if (init == CUDA_ERROR_SYSTEM_DRIVER_MISMATCH ||
        init == CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE) {
        st.state = State::TooOld;
        st.reason =
            "the NVIDIA driver is unusable or too old: cuInit failed with " + resultText(api, init);
        return st;
    }
    if (init != CUDA_SUCCESS) {
        st.state = State::InitFailed;
        st.reason =
            "the NVIDIA driver failed to initialise: cuInit failed with " + resultText(api, init);
        return st;
    }

    int version = 0;
    if (api.cuDriverGetVersion(&version) != CUDA_SUCCESS) version = 0;
    st.driverVersion = version;
    if (version < kMinimumDriverVersion || !getProc) {
        st.state = State::TooOld;
        st.reason = "the NVIDIA driver is too old: it supports CUDA " + versionText(version) +
                    ", Warpbench needs CUDA " + versionText(kMinimumDriverVersion) +
                    " or newer (update the driver)";
        return st;
    }

    std::string missing;
    const auto resolve = [&](const char* name, int wanted, void** slot) {
        CUdriverProcAddressQueryResult found = CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
        const CUresult r = getProc(name, slot, std::min(wanted, version),
                                   CU_GET_PROC_ADDRESS_LEGACY_STREAM, &found);
        if (r != CUDA_SUCCESS || found != CU_GET_PROC_ADDRESS_SUCCESS || !*slot) {
            *slot = nullptr;
            if (!missing.empty()) missing += ", ";
            missing += name;
        }
    };
#define WB_CUDA_RESOLVE(name, wanted, type)                                                        \
    {                                                                                              \
        void* fn = nullptr;                                                                        \
        resolve(#name, wanted, &fn);                                                               \
        api.name = reinterpret_cast<type>(fn);                                                     \
    }
    WB_CUDA_DRIVER_FUNCTIONS(WB_CUDA_RESOLVE)
#undef WB_CUDA_RESOLVE
    if (!missing.empty()) {
        st.state = State::TooOld;
        st.reason = "the NVIDIA driver (CUDA " + versionText(version) +
                    ") lacks entry points Warpbench needs: " + missing;
        return st;
    }

    int count = 0;
    const CUresult r = api.cuDeviceGetCount(&count);
    if (r != CUDA_SUCCESS || count <= 0) {
        st.state = State::NoDevice;
        st.reason = r != CUDA_SUCCESS
                        ? "no CUDA device: cuDeviceGetCount failed with " + resultText(api, r)
                        : std::string("no CUDA device: the NVIDIA driver reports 0 GPUs");
        return st;
    }
    st.deviceCount = count;
    st.state = State::Usable;
    return st;
}

struct Loaded {
    DynamicLibrary lib;
    DriverApi api;
    DriverStatus status;
    Loaded()
    {
        std::vector<std::string> names{"libcuda.so.1"};
        if (const char* forced = std::getenv("WARPBENCH_LIBCUDA"); forced && *forced)
            names = {forced};
        try {
            status = load(names, lib, api);
        } catch (const std::exception& e) {
            status.state = DriverStatus::State::InitFailed;
            status.reason = std::string("the NVIDIA driver could not be loaded: ") + e.what();
        }
    }
};

// Process lifetime, never destroyed: handles may be released during static destruction.
Loaded& loaded() noexcept
{
    static Loaded* instance = new Loaded;
    return *instance;
}

} // namespace

const DriverStatus& driverStatus() noexcept
{
    return loaded().status;
}

const DriverApi& driver()
{
    Loaded& l = loaded();
    if (l.status.state != DriverStatus::State::Usable) [[unlikely]]
        throw Error(Error::Kind::Unavailable, "CUDA is unavailable: " + l.status.reason);
    return l.api;
}

const DriverApi& driverUnchecked() noexcept
{
    return loaded().api;
}

DriverStatus probeDriver(const std::vector<std::string>& libraryNames)
{
    // Leaked on purpose: unloading a driver library that was initialised is not supported.
    auto* lib = new DynamicLibrary;
    DriverApi api;
    return load(libraryNames, *lib, api);
}

} // namespace wb::cuda::detail
