// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cuda.h>

#include <cstdint>
#include <string>
#include <vector>

namespace wb::cuda {

/// A GPU as the driver numbers it. A plain value (a device owns no resource); the primary
/// context that runs work on it is a Context. Queries throw CudaError / wb::Error.
class Device {
public:
    struct ComputeCapability {
        int major = 0;
        int minor = 0;
        friend bool operator==(const ComputeCapability&, const ComputeCapability&) = default;
    };

    /// Devices the driver reports; throws wb::Error (Unavailable) with the reason when CUDA is
    /// not usable here.
    static int count();
    static std::vector<Device> all();
    /// Device `ordinal` (0-based); throws InvalidArgument when there is no such device.
    static Device get(int ordinal);
    /// "13.0" from cuDriverGetVersion.
    static std::string driverVersion();

    int ordinal() const noexcept { return m_ordinal; }
    CUdevice handle() const noexcept { return m_device; }

    std::string name() const; ///< "NVIDIA H200"
    ComputeCapability computeCapability() const;
    std::string arch() const; ///< "sm_90"
    int multiprocessorCount() const;
    std::uint64_t totalMemory() const; ///< bytes
    int clockRateKHz() const;          ///< SM clock (typical)
    int memoryClockKHz() const;        ///< peak memory clock, as the driver reports it
    int memoryBusWidthBits() const;
    /// Theoretical DRAM bandwidth in GB/s: 2 (double data rate) × memoryClockKHz × busWidth / 8,
    /// from the driver's attributes. Exact for GDDR and HBM2e/HBM3 (H100 SXM: 3.35 TB/s); for
    /// HBM3e compare with the vendor's figure (H200: 4.8 TB/s), see docs/cuda.md.
    double peakBandwidthGBs() const;
    /// Theoretical FP32 rate in GFLOP/s: SMs × FP32 lanes per SM (fp32LanesPerSm) × 2 (an
    /// FMA is two FLOPs) × clockRateKHz; 0 when the compute capability is unknown to it.
    double peakFp32Gflops() const;
    int maxThreadsPerBlock() const;
    int maxSharedMemoryPerBlockOptin() const;
    int warpSize() const;
    /// "0000:19:00.0" (cuDeviceGetPCIBusId): how NVML finds the same device.
    std::string pciBusId() const;
    int attribute(CUdevice_attribute attribute) const;

private:
    Device(int ordinal, CUdevice device)
        : m_ordinal(ordinal)
        , m_device(device)
    {
    }
    int m_ordinal = 0;
    CUdevice m_device = 0;
};

/// FP32 lanes per SM for a compute capability (64 or 128); 0 when unknown.
int fp32LanesPerSm(int ccMajor, int ccMinor) noexcept;

} // namespace wb::cuda
