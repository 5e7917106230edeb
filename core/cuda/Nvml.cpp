// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/cuda/Nvml.h"

#include "core/common/DynamicLibrary.h"

#include <cstdlib>
#include <mutex>

namespace wb::cuda {

namespace {

// The few NVML declarations used, from its stable C ABI (nvml.h is not part of the toolkit
// image this builds on): every call returns nvmlReturn_t, NVML_SUCCESS = 0.
using NvmlDevice = struct NvmlDeviceOpaque*;
using NvmlInit = int (*)();
using NvmlByPci = int (*)(const char*, NvmlDevice*);
using NvmlClock = int (*)(NvmlDevice, int, unsigned*);
using NvmlTemperature = int (*)(NvmlDevice, int, unsigned*);
using NvmlErrorString = const char* (*)(int);
constexpr int kNvmlClockSm = 1;        // NVML_CLOCK_SM
constexpr int kNvmlClockMem = 2;       // NVML_CLOCK_MEM
constexpr int kNvmlTemperatureGpu = 0; // NVML_TEMPERATURE_GPU

struct Api {
    DynamicLibrary lib;
    NvmlByPci byPci = nullptr;
    NvmlClock clock = nullptr;
    NvmlTemperature temperature = nullptr;
    NvmlErrorString errorString = nullptr;
    std::string reason; ///< empty when usable
};

const Api& api() noexcept
{
    static Api a;
    static std::once_flag once;
    std::call_once(once, [] {
        const char* env = std::getenv("WARPBENCH_LIBNVML");
        a.lib = DynamicLibrary::open(env && *env ? std::vector<std::string>{env}
                                                 : std::vector<std::string>{"libnvidia-ml.so.1"});
        if (!a.lib) {
            a.reason = "libnvidia-ml.so.1 not found (" + a.lib.error() + ")";
            return;
        }
        const auto init = a.lib.function<NvmlInit>("nvmlInit_v2");
        a.byPci = a.lib.function<NvmlByPci>("nvmlDeviceGetHandleByPciBusId_v2");
        a.clock = a.lib.function<NvmlClock>("nvmlDeviceGetClockInfo");
        a.temperature = a.lib.function<NvmlTemperature>("nvmlDeviceGetTemperature");
        a.errorString = a.lib.function<NvmlErrorString>("nvmlErrorString");
        if (!init || !a.byPci || !a.clock || !a.temperature) {
            a.reason = "libnvidia-ml.so.1 lacks the clock and temperature queries";
            return;
        }
        // nvmlShutdown is never called: the library stays initialised for the process.
        if (const int r = init(); r != 0)
            a.reason = std::string("nvmlInit failed: ") +
                       (a.errorString ? a.errorString(r) : std::to_string(r).c_str());
    });
    return a;
}

} // namespace

const std::string& Nvml::unavailableReason() noexcept
{
    return api().reason;
}

DeviceConditions Nvml::conditions(const std::string& pciBusId) noexcept
{
    DeviceConditions c;
    const Api& a = api();
    if (!a.reason.empty()) {
        c.source = a.reason;
        return c;
    }
    NvmlDevice dev = nullptr;
    if (const int r = a.byPci(pciBusId.c_str(), &dev); r != 0) {
        c.source = "NVML does not know device " + pciBusId + " (" +
                   (a.errorString ? std::string(a.errorString(r)) : std::to_string(r)) + ")";
        return c;
    }
    unsigned v = 0;
    if (a.clock(dev, kNvmlClockSm, &v) == 0) c.smClockMHz = static_cast<int>(v);
    if (a.clock(dev, kNvmlClockMem, &v) == 0) c.memoryClockMHz = static_cast<int>(v);
    if (a.temperature(dev, kNvmlTemperatureGpu, &v) == 0) c.temperatureC = static_cast<int>(v);
    c.source = "nvml";
    return c;
}

} // namespace wb::cuda
