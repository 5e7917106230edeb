// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/profiling/Summary.h"

#include <cstddef>
#include <optional>
#include <span>
#include <vector>

namespace wb::profiling {

/// The work one launch does, as the user states it. When bytes are not stated the caller
/// passes the bytes of the bound buffers (see boundBufferBytes()).
struct Workload {
    std::optional<double> bytes; ///< bytes read + written by one launch
    std::optional<double> flops; ///< floating-point operations of one launch
};

/// Theoretical peaks of the device; 0 means unknown (no "% of peak" figure then).
struct DevicePeaks {
    double bandwidthBytesPerS = 0;
    double flopsPerS = 0; ///< FP32 FMA peak (2 FLOP per FMA lane per cycle)
};

/// Sum of the sizes of the buffers bound to a launch: the default byte count.
double boundBufferBytes(std::span<const std::size_t> bufferSizes) noexcept;

/// Peaks from device attributes: DRAM = 2 (double data rate) × memory clock × bus width;
/// FP32 = SMs × FP32 lanes per SM (from the compute capability) × 2 × SM clock.
DevicePeaks devicePeaks(int ccMajor, int ccMinor, int multiprocessors, double smClockHz,
                        double memoryClockHz, int busWidthBits) noexcept;

/// "wb/throughput/bandwidth" (bandwidth), "wb/throughput/bandwidth_peak" (percentage),
/// "wb/throughput/flops" (flops), "wb/throughput/flops_peak" (percentage), for what the
/// workload states and the peaks know. `seconds` is the per-launch time (e.g. the median).
std::vector<Summary> throughputSummaries(double seconds, const Workload& workload,
                                         const DevicePeaks& peaks);

} // namespace wb::profiling
