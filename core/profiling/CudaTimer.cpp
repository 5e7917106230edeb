// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/profiling/CudaTimer.h"

#include "core/common/Error.h"
#include "core/profiling/ActivityTrace.h"
#include "core/profiling/detail/Driver.h"

#include <chrono>
#include <optional>
#include <thread>

namespace wb::profiling {

namespace {

using detail::check;
using detail::driver;

/// Makes a context current for a scope and restores the previous one.
class ScopedContext {
public:
    explicit ScopedContext(CUcontext context)
    {
        check(driver().cuCtxGetCurrent(&m_previous), "cuCtxGetCurrent", "timing");
        if (m_previous != context)
            check(driver().cuCtxSetCurrent(context), "cuCtxSetCurrent", "timing");
    }
    ~ScopedContext() { driver().cuCtxSetCurrent(m_previous); }
    ScopedContext(const ScopedContext&) = delete;
    ScopedContext& operator=(const ScopedContext&) = delete;

private:
    CUcontext m_previous = nullptr;
};

int attribute(CUdevice device, CUdevice_attribute which, const char* what)
{
    int value = 0;
    check(driver().cuDeviceGetAttribute(&value, which, device), "cuDeviceGetAttribute", what);
    return value;
}

} // namespace

std::vector<Summary> CudaDeviceProperties::summaries() const
{
    return {
        {"wb/device/sm_clock_nominal", "SM clock (nominal)", "frequency", nominalSmClockHz,
         "CU_DEVICE_ATTRIBUTE_CLOCK_RATE: the device's typical SM clock, not the observed one"},
        {"wb/device/l2_bytes", "L2 size", "bytes", static_cast<double>(l2Bytes), "L2 cache size"},
        {"wb/device/peak_bandwidth", "Peak bandwidth", "bandwidth", peaks.bandwidthBytesPerS,
         "Theoretical DRAM bandwidth: 2 x memory clock x bus width"},
        {"wb/device/peak_flops", "Peak FP32", "flops", peaks.flopsPerS,
         "Theoretical FP32 FMA rate: SMs x lanes x 2 x nominal SM clock"},
    };
}

CudaDeviceProperties queryDeviceProperties(int ordinal)
{
    CudaDeviceProperties p;
    p.ordinal = ordinal;
    CUdevice device = 0;
    check(driver().cuDeviceGet(&device, ordinal), "cuDeviceGet", "reading device properties");
    char name[256] = {};
    check(driver().cuDeviceGetName(name, sizeof name, device), "cuDeviceGetName",
          "reading device properties");
    p.name = name;
    const char* what = "reading device properties";
    p.ccMajor = attribute(device, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, what);
    p.ccMinor = attribute(device, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, what);
    p.multiprocessors = attribute(device, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, what);
    p.nominalSmClockHz = attribute(device, CU_DEVICE_ATTRIBUTE_CLOCK_RATE, what) * 1e3;
    p.memoryClockHz = attribute(device, CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE, what) * 1e3;
    p.busWidthBits = attribute(device, CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH, what);
    p.l2Bytes =
        static_cast<std::size_t>(attribute(device, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, what));
    p.peaks = devicePeaks(p.ccMajor, p.ccMinor, p.multiprocessors, p.nominalSmClockHz,
                          p.memoryClockHz, p.busWidthBits);
    return p;
}

const char* timingMethodName(TimingMethod method) noexcept
{
    return method == TimingMethod::CuptiActivity ? "cupti-activity" : "cuda-event";
}

CudaTimer::CudaTimer(CUcontext context, CUstream stream)
    : m_context(context)
    , m_stream(stream)
{
    ScopedContext scope(m_context);
    check(driver().cuEventCreate(&m_start, CU_EVENT_DEFAULT), "cuEventCreate",
          "creating timing events");
    if (driver().cuEventCreate(&m_stop, CU_EVENT_DEFAULT) != CUDA_SUCCESS) {
        driver().cuEventDestroy(m_start);
        throw Error(Error::Kind::Runtime, "creating timing events: cuEventCreate failed");
    }
}

CudaTimer::~CudaTimer()
{
    const detail::Driver& d = driver();
    CUcontext previous = nullptr;
    d.cuCtxGetCurrent(&previous);
    d.cuCtxSetCurrent(m_context);
    if (m_flushBuffer) d.cuMemFree(m_flushBuffer);
    if (m_start) d.cuEventDestroy(m_start);
    if (m_stop) d.cuEventDestroy(m_stop);
    d.cuCtxSetCurrent(previous);
}

void CudaTimer::flushL2()
{
    ScopedContext scope(m_context);
    if (!m_flushBuffer) {
        CUdevice device = 0;
        check(driver().cuCtxGetDevice(&device), "cuCtxGetDevice", "L2 flush");
        m_flushBytes = static_cast<std::size_t>(
            attribute(device, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, "L2 flush"));
        if (m_flushBytes == 0) return;
        m_flushBytes = (m_flushBytes + 3) / 4 * 4;
        check(driver().cuMemAlloc(&m_flushBuffer, m_flushBytes), "cuMemAlloc",
              "allocating the L2 flush buffer (" + std::to_string(m_flushBytes) + " bytes)");
    }
    check(driver().cuMemsetD32Async(m_flushBuffer, 0, m_flushBytes / 4, m_stream),
          "cuMemsetD32Async", "L2 flush");
}

MeasurementResult CudaTimer::measure(const StreamLaunch& launch, const CudaTimingOptions& options,
                                     const MeasurementHooks& hooks)
{
    ScopedContext scope(m_context);
    std::optional<ActivityTrace> trace;
    if (options.method == TimingMethod::CuptiActivity)
        trace.emplace(true, false,
                      options.concurrentKernelRecords ? ActivityTrace::KernelRecords::Concurrent
                                                      : ActivityTrace::KernelRecords::Serialized);

    MeasurementHooks wrapped = hooks;
    const bool cupti = options.method == TimingMethod::CuptiActivity;
    wrapped.beforeSample = [&] {
        if (options.flushL2) {
            flushL2();
            // CUPTI times the kernel alone: start it on an idle stream, as nvbench's cold
            // measurement does. Events keep the flush queued in front of the kernel, where it
            // hides the launch latency from the start event (docs/profiling.md).
            if (cupti)
                check(driver().cuStreamSynchronize(m_stream), "cuStreamSynchronize", "L2 flush");
        }
        if (hooks.beforeSample) hooks.beforeSample();
    };

    std::function<double()> sample;
    if (options.method == TimingMethod::CudaEvents) {
        sample = [&] {
            check(driver().cuEventRecord(m_start, m_stream), "cuEventRecord", "timing");
            launch(m_stream);
            check(driver().cuEventRecord(m_stop, m_stream), "cuEventRecord", "timing");
            check(driver().cuEventSynchronize(m_stop), "cuEventSynchronize", "timing the launch");
            float ms = 0;
            check(driver().cuEventElapsedTime(&ms, m_start, m_stop), "cuEventElapsedTime",
                  "timing");
            return static_cast<double>(ms);
        };
    } else {
        // Drop records of anything that ran before (warm-up allocations, the first flush).
        check(driver().cuStreamSynchronize(m_stream), "cuStreamSynchronize", "timing");
        (void)trace->takeKernels();
        sample = [&] {
            launch(m_stream);
            check(driver().cuStreamSynchronize(m_stream), "cuStreamSynchronize",
                  "timing the launch");
            std::vector<KernelActivity> kernels = trace->takeKernels();
            // The stream is idle, so the records exist; give CUPTI's buffer hand-over a moment
            // should the forced flush not have carried them yet.
            for (int retry = 0; kernels.empty() && retry < 20; ++retry) {
                std::this_thread::sleep_for(std::chrono::milliseconds(1));
                kernels = trace->takeKernels();
            }
            if (kernels.empty())
                throw Error(Error::Kind::Runtime,
                            "CUPTI recorded no kernel for the launch (did it launch one?)");
            double ms = 0;
            for (const KernelActivity& k : kernels)
                ms += k.durationMs();
            return ms;
        };
    }
    MeasurementResult result = Measurement(options.measurement).run(sample, wrapped);
    result.method = timingMethodName(options.method);
    return result;
}

} // namespace wb::profiling
