// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/profiling/Summary.h"

#include <optional>
#include <string>
#include <vector>

namespace wb::profiling {

/// The floating-point precisions the roofline places a kernel on (non-tensor pipes).
enum class Precision { Fp32, Fp64, Fp16 };
const char* precisionName(Precision precision) noexcept; ///< "FP32", "FP64", "FP16"

/// One roof: a peak rate and where the figure comes from, in words ("132 SMs x 128 FP32 lanes x
/// 2 FLOP x 1.98 GHz, device attributes"). value 0: unknown (that roof is not drawn).
struct Ceiling {
    double value = 0;
    std::string source;
    bool known() const noexcept { return value > 0; }
};

/// The device's roofline: compute roofs in FLOP/s, memory roofs in bytes/s.
struct RooflinePeaks {
    Ceiling fp32;
    Ceiling fp64;
    Ceiling fp16;
    Ceiling dram;
    Ceiling l2;
    const Ceiling& compute(Precision precision) const noexcept;
};

/// What one launch did, from the counters: FLOPs per precision, DRAM and L2 bytes, and the time
/// the rate is taken over.
struct RooflineCounts {
    double fp32Flops = 0;
    double fp64Flops = 0;
    double fp16Flops = 0;
    double dramBytes = 0;
    double l2Bytes = 0;
    double seconds = 0;
    double flops(Precision precision) const noexcept;
};

/// A kernel on the roofline of its main precision (the one with the most FLOPs).
struct RooflinePoint {
    Precision precision = Precision::Fp32;
    double flops = 0;         ///< FLOPs of that precision in one launch
    double seconds = 0;       ///< time of one launch
    double dramIntensity = 0; ///< FLOP per DRAM byte (0: no DRAM bytes counted)
    double l2Intensity = 0;   ///< FLOP per L2 byte (0: no L2 bytes counted)
    double achieved = 0;      ///< FLOP/s
    double attainable = 0;    ///< the lowest roof at the kernel's intensities, FLOP/s
    std::string bound;        ///< which roof that is: "DRAM bandwidth", "L2 bandwidth", "FP32 peak"
    bool memoryBound = false; ///< the bound roof is a bandwidth roof
    double percentOfRoof = 0; ///< achieved / attainable, in %
};

/// The counters the roofline needs (FP32/FP64/FP16 SASS thread instructions, DRAM and L2
/// bytes, and the L2/DRAM peak bytes per cycle with their clocks), collected with the
/// Speed-of-Light set; every one is in the metric table.
std::vector<std::string> rooflineMetricNames();

/// The roof a kernel of `intensity` FLOP/byte can reach under `computePeak` (FLOP/s) and
/// `bandwidth` (bytes/s): min(computePeak, intensity x bandwidth). An unknown roof (0) does
/// not limit.
double attainableFlops(double intensity, double computePeak, double bandwidth) noexcept;

/// FLOPs and bytes from "wb/counter/<metric>" summaries (ProfileResult::summaries(), a
/// ProfileReport, a history record): FP32 = 2 x ffma + fadd + fmul, likewise FP64 (dfma, dadd,
/// dmul) and FP16 (hfma, hadd, hmul; the counters count a packed half2 instruction once, as
/// Nsight Compute's roofline does, and the FP16 roof is in that unit); seconds from
/// "wb/timing/median", else the counters' gpu__time_duration. nullopt when the FLOP or DRAM
/// counters or the time are missing.
std::optional<RooflineCounts> rooflineCounts(const std::vector<Summary>& summaries);

/// The roofs from the summaries: FP32/FP64/FP16 from "wb/device/peak_flops",
/// "wb/device/peak_fp64_flops", "wb/device/peak_fp16_flops" (device attributes); DRAM and L2
/// from the counters' peak bytes per cycle x the observed DRAM / L2 clock when present, DRAM
/// else from "wb/device/peak_bandwidth" (memory clock x bus width).
RooflinePeaks rooflinePeaks(const std::vector<Summary>& summaries);

/// The kernel's point: nullopt when it did no floating-point work or moved no DRAM bytes, or
/// no time is known.
std::optional<RooflinePoint> rooflinePoint(const RooflineCounts& counts,
                                           const RooflinePeaks& peaks);

/// rooflinePoint(rooflineCounts(summaries), rooflinePeaks(summaries)).
std::optional<RooflinePoint> rooflinePoint(const std::vector<Summary>& summaries);

/// "wb/roofline/{flops, intensity_dram, intensity_l2, achieved, attainable, percent_of_roof}"
/// for the metric table and the history.
std::vector<Summary> rooflineSummaries(const RooflinePoint& point);

/// FP64 lanes relative to FP32 from CU_DEVICE_ATTRIBUTE_SINGLE_TO_DOUBLE_PRECISION_PERF_RATIO
/// (H100/H200: 2); FP16 (packed half2, non-tensor) relative to FP32 by compute capability:
/// 2 on sm_53, 6.0, 6.2, 7.x, 8.0, 8.7, 9.0, 10.x; 1 on 8.6, 8.9, 12.x; 1/64 on 6.1; 0 unknown.
double fp16RateToFp32(int ccMajor, int ccMinor) noexcept;

/// The CLI's roofline lines: main precision, intensity, achieved FLOP/s, bound roof and % of
/// it, and the roofs with their sources; or why there is no point.
std::string rooflineText(const std::vector<Summary>& summaries);

} // namespace wb::profiling
