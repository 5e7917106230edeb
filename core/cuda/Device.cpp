// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/cuda/Device.h"

#include "core/cuda/CudaError.h"
#include "core/cuda/detail/DriverApi.h"

#include <array>

namespace wb::cuda {

int Device::count()
{
    const detail::DriverApi& api = detail::driver();
    int n = 0;
    CU_CHECK(api.cuDeviceGetCount(&n), "counting CUDA devices");
    return n;
}

std::vector<Device> Device::all()
{
    std::vector<Device> devices;
    const int n = count();
    devices.reserve(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i)
        devices.push_back(get(i));
    return devices;
}

Device Device::get(int ordinal)
{
    const detail::DriverApi& api = detail::driver();
    const int n = count();
    if (ordinal < 0 || ordinal >= n)
        throw Error(Error::Kind::InvalidArgument,
                    "there is no CUDA device " + std::to_string(ordinal) + " (this machine has " +
                        std::to_string(n) + ")");
    CUdevice dev = 0;
    CU_CHECK(api.cuDeviceGet(&dev, ordinal), "opening CUDA device " + std::to_string(ordinal));
    return Device(ordinal, dev);
}

std::string Device::driverVersion()
{
    const int v = detail::driverStatus().driverVersion;
    detail::driver();
    return std::to_string(v / 1000) + "." + std::to_string((v % 1000) / 10);
}

int Device::attribute(CUdevice_attribute attribute) const
{
    const detail::DriverApi& api = detail::driver();
    int value = 0;
    CU_CHECK(api.cuDeviceGetAttribute(&value, attribute, m_device),
             "querying attribute " + std::to_string(static_cast<int>(attribute)) + " of device " +
                 std::to_string(m_ordinal));
    return value;
}

std::string Device::name() const
{
    const detail::DriverApi& api = detail::driver();
    std::array<char, 256> buffer{};
    CU_CHECK(api.cuDeviceGetName(buffer.data(), static_cast<int>(buffer.size()), m_device),
             "querying the name of device " + std::to_string(m_ordinal));
    return buffer.data();
}

Device::ComputeCapability Device::computeCapability() const
{
    return {attribute(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR),
            attribute(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR)};
}

std::string Device::arch() const
{
    const ComputeCapability cc = computeCapability();
    return "sm_" + std::to_string(cc.major) + std::to_string(cc.minor);
}

int Device::multiprocessorCount() const
{
    return attribute(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
}

std::uint64_t Device::totalMemory() const
{
    const detail::DriverApi& api = detail::driver();
    std::size_t bytes = 0;
    CU_CHECK(api.cuDeviceTotalMem(&bytes, m_device),
             "querying the memory size of device " + std::to_string(m_ordinal));
    return bytes;
}

int Device::clockRateKHz() const
{
    return attribute(CU_DEVICE_ATTRIBUTE_CLOCK_RATE);
}
int Device::memoryClockKHz() const
{
    return attribute(CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE);
}
int Device::memoryBusWidthBits() const
{
    return attribute(CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH);
}

int fp32LanesPerSm(int ccMajor, int ccMinor) noexcept
{
    switch (ccMajor) {
    case 6:
        return ccMinor == 0 ? 64 : 128;
    case 7:
        return 64; // Volta, Turing
    case 8:
        return ccMinor == 0 ? 64 : 128; // A100: 64; GA10x, Ada: 128
    case 9:
        return 128; // Hopper
    case 10:
    case 11:
    case 12:
        return 128; // Blackwell
    default:
        return 0;
    }
}

double Device::peakFp32Gflops() const
{
    const ComputeCapability cc = computeCapability();
    return static_cast<double>(multiprocessorCount()) * fp32LanesPerSm(cc.major, cc.minor) * 2.0 *
           static_cast<double>(clockRateKHz()) * 1e3 / 1e9;
}

double Device::peakBandwidthGBs() const
{
    const double clockHz = static_cast<double>(memoryClockKHz()) * 1000.0;
    const double busBytes = static_cast<double>(memoryBusWidthBits()) / 8.0;
    return 2.0 * clockHz * busBytes / 1e9;
}

int Device::maxThreadsPerBlock() const
{
    return attribute(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK);
}

int Device::maxSharedMemoryPerBlockOptin() const
{
    return attribute(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN);
}

int Device::warpSize() const
{
    return attribute(CU_DEVICE_ATTRIBUTE_WARP_SIZE);
}

std::string Device::pciBusId() const
{
    char id[32] = {};
    CU_CHECK(detail::driver().cuDeviceGetPCIBusId(id, static_cast<int>(sizeof id), m_device),
             "querying the PCI bus id of device " + std::to_string(m_ordinal));
    return id;
}

} // namespace wb::cuda
