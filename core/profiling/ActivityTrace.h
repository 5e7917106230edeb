// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/common/LaunchConfig.h"
#include "core/profiling/ProfilerStatus.h"
#include "core/profiling/Summary.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace wb::profiling {

/// One kernel execution as CUPTI recorded it (CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL or
/// _KERNEL): GPU start and end timestamps, no launch gaps.
struct KernelActivity {
    std::string name; ///< mangled symbol
    std::uint64_t startNs = 0;
    std::uint64_t endNs = 0;
    std::uint32_t deviceId = 0;
    std::uint32_t streamId = 0;
    std::uint32_t correlationId = 0;
    Dim3 grid;
    Dim3 block;
    int registersPerThread = 0;
    int dynamicSharedBytes = 0;
    int staticSharedBytes = 0;
    double durationMs() const noexcept { return static_cast<double>(endNs - startNs) * 1e-6; }
};

/// One memory copy as CUPTI recorded it (CUPTI_ACTIVITY_KIND_MEMCPY).
struct MemcpyActivity {
    enum class Direction { HostToDevice, DeviceToHost, DeviceToDevice, Other };
    Direction direction = Direction::Other;
    std::uint64_t bytes = 0;
    std::uint64_t startNs = 0;
    std::uint64_t endNs = 0;
    std::uint32_t streamId = 0;
    double durationMs() const noexcept { return static_cast<double>(endNs - startNs) * 1e-6; }
};

/// Summaries of the copies: "wb/transfer/{h2d,d2h}_{time,bytes,bandwidth}" for the directions
/// present (time = sum of the copies' durations).
std::vector<Summary> transferSummaries(const std::vector<MemcpyActivity>& copies);

/// Records kernel and copy executions with the CUPTI activity API while it lives. CUPTI's
/// activity callbacks are process-wide: only one trace can exist at a time.
class ActivityTrace {
public:
    /// Whether a trace can start here; checks the driver first (CUPTI must not be touched
    /// without one), then loads CUPTI. Calls nothing device-side.
    static ProfilerStatus availability();

    /// Kernel records: CONCURRENT_KERNEL (default; kernels run as the application launches
    /// them) or KERNEL (CUPTI serialises all kernels of the process while it traces).
    enum class KernelRecords { Concurrent, Serialized };

    /// Starts tracing kernels and/or copies. Throws wb::Error: Unavailable with the reason
    /// (no driver, no CUPTI, another trace running, CUPTI refused), never crashes.
    explicit ActivityTrace(bool kernels = true, bool copies = true,
                           KernelRecords records = KernelRecords::Concurrent);
    ~ActivityTrace();
    ActivityTrace(const ActivityTrace&) = delete;
    ActivityTrace& operator=(const ActivityTrace&) = delete;

    /// Forces CUPTI to hand over every completed record (call after synchronising).
    void flush();
    /// Records gathered since the start or the previous take; flushes first.
    std::vector<KernelActivity> takeKernels();
    std::vector<MemcpyActivity> takeCopies();
    /// Records CUPTI dropped because its buffers were full (0 normally).
    std::size_t droppedRecords() const noexcept;

private:
    bool m_kernels;
    bool m_copies;
    KernelRecords m_records;
};

} // namespace wb::profiling
