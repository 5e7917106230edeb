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
