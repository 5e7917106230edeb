// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

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
    DevicePeaks peaks;

    /// "wb/device/sm_clock_nominal" (frequency), "wb/device/l2_bytes", "wb/device/peak_bandwidth",
    /// "wb/device/peak_flops".
    std::vector<Summary> summaries() const;
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
/// metric sm__cycles_elapsed.avg.per_second).
class CudaTimer {
public:
    /// `context` is made current on the calling thread while measuring; `stream` is where the
    /// launches go (nullptr: the context's default stream). Throws wb::Error without a driver.
    CudaTimer(CUcontext context, CUstream stream);
    ~CudaTimer();
    CudaTimer(const CudaTimer&) = delete;
    CudaTimer& operator=(const CudaTimer&) = delete;

    /// Runs the measurement loop over `launch`. Throws wb::Error for driver errors, and
    /// Unavailable when CuptiActivity is asked for where CUPTI cannot trace.
    MeasurementResult measure(const StreamLaunch& launch, const CudaTimingOptions& options,
                              const MeasurementHooks& hooks = {});

    /// Enqueues the L2 flush (a memset of an L2-sized buffer, allocated on first use).
    void flushL2();

private:
    CUcontext m_context;
    CUstream m_stream;
    CUevent m_start = nullptr;
    CUevent m_stop = nullptr;
    CUdeviceptr m_flushBuffer = 0;
    std::size_t m_flushBytes = 0;
};

} // namespace wb::profiling
