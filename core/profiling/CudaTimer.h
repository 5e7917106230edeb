// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/cuda/Context.h"
#include "core/cuda/DeviceBuffer.h"
#include "core/cuda/Event.h"
#include "core/cuda/Stream.h"
#include "core/profiling/Measurement.h"
#include "core/profiling/Summary.h"
#include "core/profiling/Throughput.h"

#include <cuda.h>

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace wb::profiling {

/// What the timing report says about the device: identity, nominal clock, peaks, L2 size.
struct CudaDeviceProperties {
    std::string name;
    int ordinal = 0;
    int ccMajor = 0;
    int ccMinor = 0;
    int multiprocessors = 0;
    /// CU_DEVICE_ATTRIBUTE_CLOCK_RATE: the typical SM clock, not the observed one.
    double nominalSmClockHz = 0;
    double memoryClockHz = 0; ///< CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE
    int busWidthBits = 0;
    std::size_t l2Bytes = 0; ///< CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE
    /// CU_DEVICE_ATTRIBUTE_SINGLE_TO_DOUBLE_PRECISION_PERF_RATIO (H200: 2); 0 unknown.
    int singleToDoubleRatio = 0;
    DevicePeaks peaks;

    /// "wb/device/sm_clock_nominal" (frequency), "wb/device/l2_bytes", "wb/device/peak_bandwidth",
    /// "wb/device/peak_flops".
    std::vector<Summary> summaries() const;
    /// The roofline's roofs from device attributes: "wb/device/peak_flops" (FP32),
    /// "wb/device/peak_fp64_flops", "wb/device/peak_fp16_flops", "wb/device/peak_bandwidth"
    /// (DRAM); each description says how the figure was derived (Roofline.h reads them).
    std::vector<Summary> peakSummaries() const;
};

/// Reads the properties of device `ordinal`. Throws wb::Error(Unavailable) without a driver.
CudaDeviceProperties queryDeviceProperties(int ordinal);

/// How a CUDA sample is timed.
enum class TimingMethod {
    CudaEvents,    ///< events recorded around the launch on its stream (default)
    CuptiActivity, ///< CUPTI kernel records: GPU start..end of each kernel, no launch gaps
};
const char* timingMethodName(TimingMethod method) noexcept; ///< "cuda-event", "cupti-activity"

struct CudaTimingOptions {
    MeasurementOptions measurement;
    TimingMethod method = TimingMethod::CudaEvents;
    bool flushL2 = true; ///< write an L2-sized buffer before every sample (cold cache)
    /// CUPTI method: CONCURRENT_KERNEL records instead of KERNEL ones. Off by default: on the
    /// H200 CONCURRENT_KERNEL reads memory-bound kernels 7–8 % longer than KERNEL records, CUDA
    /// events and ncu's gpu__time_duration, which agree within 1 % (docs/BENCHMARKS.md); the
    /// samples run one kernel at a time on one stream, so KERNEL's serialisation costs nothing.
    bool concurrentKernelRecords = false;
};

/// Enqueues the work to time (one or more kernels) on the given stream; must not synchronise.
using StreamLaunch = std::function<void(CUstream)>;

/// Cold-cache timing of GPU work in one context and stream. Clocks are left as the machine has
/// them (no locking); the SM clock actually observed comes from the counters (RangeProfiler,
/// metric sm__cycles_elapsed.avg.per_second). Its stream, timing events and L2 flush buffer are
/// wb::cuda handles (counted in HandleRegistry), each keeping the context alive: the timer is
/// usable as long as it exists, whatever happens to the Context it was made from.
class CudaTimer {
public:
    /// Times on a new blocking stream of `context` (ordered with the legacy default stream, so
    /// synchronous uploads before a sample complete before it). Throws wb::Error for driver
    /// failures; `context` must be valid (a Context exists only where the driver works).
    explicit CudaTimer(const cuda::Context& context);
    CudaTimer(const CudaTimer&) = delete;
    CudaTimer& operator=(const CudaTimer&) = delete;

    /// Where the launches go: each StreamLaunch is given this stream's handle.
    const cuda::Stream& stream() const noexcept { return m_stream; }
    const cuda::Context& context() const noexcept { return m_context; }

    /// Runs the measurement loop over `launch`. Throws wb::Error for driver errors, and
    /// Unavailable when CuptiActivity is asked for where CUPTI cannot trace.
    MeasurementResult measure(const StreamLaunch& launch, const CudaTimingOptions& options,
                              const MeasurementHooks& hooks = {});

    /// Resets the persisting-L2 lines (cuCtxResetPersistingL2Cache), then enqueues the L2 flush
    /// (a memset of an L2-sized buffer, allocated on first use).
    void flushL2();

private:
    cuda::Context m_context;
    cuda::Stream m_stream;
    cuda::Event m_start;
    cuda::Event m_stop;
    cuda::DeviceBuffer m_flushBuffer; ///< invalid until the first flush
};

} // namespace wb::profiling
