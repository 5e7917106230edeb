// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/profiling/Throughput.h"

#include "core/cuda/Device.h"

namespace wb::profiling {

double boundBufferBytes(std::span<const std::size_t> bufferSizes) noexcept
{
    double total = 0;
    for (std::size_t size : bufferSizes)
        total += static_cast<double>(size);
    return total;
}

DevicePeaks devicePeaks(int ccMajor, int ccMinor, int multiprocessors, double smClockHz,
                        double memoryClockHz, int busWidthBits) noexcept
{
    DevicePeaks peaks;
    peaks.bandwidthBytesPerS = 2.0 * memoryClockHz * static_cast<double>(busWidthBits) / 8.0;
    peaks.flopsPerS = static_cast<double>(multiprocessors) *
                      static_cast<double>(cuda::fp32LanesPerSm(ccMajor, ccMinor)) * 2.0 * smClockHz;
    return peaks;
}

std::vector<Summary> throughputSummaries(double seconds, const Workload& workload,
                                         const DevicePeaks& peaks)
{
    std::vector<Summary> out;
    if (!(seconds > 0)) return out;
    if (workload.bytes && *workload.bytes > 0) {
        const double bw = *workload.bytes / seconds;
        out.push_back({"wb/throughput/bandwidth", "Bandwidth", "bandwidth", bw,
                       "Stated bytes per launch / time per launch"});
        if (peaks.bandwidthBytesPerS > 0)
            out.push_back({"wb/throughput/bandwidth_peak", "BW % peak", "percentage",
                           100.0 * bw / peaks.bandwidthBytesPerS,
                           "Bandwidth as a share of the device's theoretical DRAM peak"});
    }
    if (workload.flops && *workload.flops > 0) {
        const double f = *workload.flops / seconds;
        out.push_back({"wb/throughput/flops", "FLOP/s", "flops", f,
                       "Stated FLOPs per launch / time per launch"});
        if (peaks.flopsPerS > 0)
            out.push_back({"wb/throughput/flops_peak", "FLOP % peak", "percentage",
                           100.0 * f / peaks.flopsPerS,
                           "FLOP/s as a share of the device's FP32 FMA peak"});
    }
    return out;
}

} // namespace wb::profiling
