// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/profiling/MetricTable.h"

#include <array>

namespace wb::profiling {

namespace {

// clang-format off
constexpr std::array kMetrics = {
    MetricInfo{"gpu__time_duration.sum", "Duration", "ns", "duration", 1e-9,
               "GPU time of the kernel, from start to end of execution", true},
    MetricInfo{"sm__throughput.avg.pct_of_peak_sustained_elapsed", "Compute (SM) throughput", "%",
               "percentage", 1.0,
               "Highest utilisation of any SM sub-unit (pipes, issue, shared memory) relative to "
               "its peak over the elapsed time", true},
    MetricInfo{"gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed",
               "Memory throughput", "%", "percentage", 1.0,
               "Highest utilisation of any memory unit (L1, L2, DRAM) relative to its peak over "
               "the elapsed time", true},
    MetricInfo{"dram__bytes_read.sum", "DRAM read", "bytes", "bytes", 1.0,
               "Bytes read from device memory (DRAM/HBM)", true},
    MetricInfo{"dram__bytes_write.sum", "DRAM write", "bytes", "bytes", 1.0,
               "Bytes written to device memory (DRAM/HBM)", true},
    MetricInfo{"sm__warps_active.avg.pct_of_peak_sustained_active", "Achieved occupancy", "%",
               "percentage", 1.0,
               "Average active warps per SM as a share of the maximum, while the SM was active",
               true},
    MetricInfo{"lts__t_sector_hit_rate.pct", "L2 hit rate", "%", "percentage", 1.0,
               "Share of L2 sector lookups that hit", true},
    MetricInfo{"l1tex__t_sector_hit_rate.pct", "L1 hit rate", "%", "percentage", 1.0,
               "Share of L1/TEX sector lookups that hit", true},
    MetricInfo{"sm__cycles_elapsed.avg.per_second", "SM frequency", "Hz", "frequency", 1.0,
               "SM clock observed during the kernel: elapsed SM cycles per second", true},
    MetricInfo{"dram__throughput.avg.pct_of_peak_sustained_elapsed", "DRAM throughput", "%",
               "percentage", 1.0, "DRAM bandwidth used as a share of its peak", false},
    MetricInfo{"dram__bytes.sum.per_second", "DRAM bandwidth", "bytes/s", "bandwidth", 1.0,
               "Bytes moved to and from DRAM per second of kernel time", false},
    // The roofline's counters (Roofline.h): FLOPs, bytes and the memory roofs.
    MetricInfo{"sm__sass_thread_inst_executed_op_ffma_pred_on.sum", "FP32 FMA (thread inst.)", "inst",
               "", 1.0, "FP32 fused multiply-adds executed by threads (predicated on); 2 FLOPs each",
               false},
    MetricInfo{"sm__sass_thread_inst_executed_op_fadd_pred_on.sum", "FP32 add (thread inst.)", "inst",
               "", 1.0, "FP32 adds executed by threads (predicated on)", false},
    MetricInfo{"sm__sass_thread_inst_executed_op_fmul_pred_on.sum", "FP32 mul (thread inst.)", "inst",
               "", 1.0, "FP32 multiplies executed by threads (predicated on)", false},
    MetricInfo{"sm__sass_thread_inst_executed_op_dfma_pred_on.sum", "FP64 FMA (thread inst.)", "inst",
               "", 1.0, "FP64 fused multiply-adds executed by threads (predicated on); 2 FLOPs each",
               false},
    MetricInfo{"sm__sass_thread_inst_executed_op_dadd_pred_on.sum", "FP64 add (thread inst.)", "inst",
               "", 1.0, "FP64 adds executed by threads (predicated on)", false},
    MetricInfo{"sm__sass_thread_inst_executed_op_dmul_pred_on.sum", "FP64 mul (thread inst.)", "inst",
               "", 1.0, "FP64 multiplies executed by threads (predicated on)", false},
    MetricInfo{"sm__sass_thread_inst_executed_op_hfma_pred_on.sum", "FP16 FMA (thread inst.)", "inst",
               "", 1.0, "FP16 fused multiply-adds executed by threads (predicated on); 2 FLOPs each",
               false},
    MetricInfo{"sm__sass_thread_inst_executed_op_hadd_pred_on.sum", "FP16 add (thread inst.)", "inst",
               "", 1.0, "FP16 adds executed by threads (predicated on)", false},
    MetricInfo{"sm__sass_thread_inst_executed_op_hmul_pred_on.sum", "FP16 mul (thread inst.)", "inst",
               "", 1.0, "FP16 multiplies executed by threads (predicated on)", false},
    MetricInfo{"dram__bytes.sum", "DRAM bytes", "bytes", "bytes", 1.0,
               "Bytes read from and written to device memory (DRAM/HBM)", false},
    MetricInfo{"lts__t_bytes.sum", "L2 bytes", "bytes", "bytes", 1.0,
               "Bytes through the L2 cache's tag stage (all requests)", false},
    MetricInfo{"dram__bytes.sum.peak_sustained", "DRAM peak per cycle", "bytes/cycle", "", 1.0,
               "The most bytes DRAM can move per DRAM cycle (all channels)", false},
    MetricInfo{"dram__cycles_elapsed.avg.per_second", "DRAM clock", "Hz", "frequency", 1.0,
               "DRAM clock observed during the kernel", false},
    MetricInfo{"lts__t_bytes.sum.peak_sustained", "L2 peak per cycle", "bytes/cycle", "", 1.0,
               "The most bytes the L2 slices can serve per L2 cycle (all slices)", false},
    MetricInfo{"lts__cycles_elapsed.avg.per_second", "L2 clock", "Hz", "frequency", 1.0,
               "L2 clock observed during the kernel", false},
};
// clang-format on

} // namespace

std::span<const MetricInfo> metricTable() noexcept
{
    return kMetrics;
}

const MetricInfo* findMetric(const std::string& name) noexcept
{
    for (const MetricInfo& m : kMetrics)
        if (name == m.name) return &m;
    return nullptr;
}

std::vector<std::string> speedOfLightMetricNames()
{
    std::vector<std::string> names;
    for (const MetricInfo& m : kMetrics)
        if (m.speedOfLight) names.emplace_back(m.name);
    return names;
}

} // namespace wb::profiling
