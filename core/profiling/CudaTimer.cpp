// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/profiling/CudaTimer.h"

#include "core/common/Error.h"
#include "core/cuda/Device.h"
#include "core/profiling/ActivityTrace.h"
#include "core/profiling/Roofline.h"
#include "core/profiling/detail/Driver.h"

#include <chrono>
#include <cstdio>
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

std::vector<Summary> CudaDeviceProperties::peakSummaries() const
{
    char b[256];
    const double ghz = nominalSmClockHz * 1e-9;
    const int lanes = cuda::fp32LanesPerSm(ccMajor, ccMinor);
    std::vector<Summary> out;
    std::snprintf(b, sizeof b,
                  "%d SMs x %d FP32 lanes (sm_%d%d) x 2 FLOP per FMA x %.3f GHz nominal SM "
                  "clock (device attributes)",
                  multiprocessors, lanes, ccMajor, ccMinor, ghz);
    out.push_back({"wb/device/peak_flops", "Peak FP32", "flops", peaks.flopsPerS, b});
    if (singleToDoubleRatio > 0) {
        std::snprintf(b, sizeof b,
                      "FP32 peak / %d (CU_DEVICE_ATTRIBUTE_SINGLE_TO_DOUBLE_PRECISION_PERF_RATIO)",
                      singleToDoubleRatio);
        out.push_back({"wb/device/peak_fp64_flops", "Peak FP64", "flops",
                       peaks.flopsPerS / singleToDoubleRatio, b});
    }
    if (const double r = fp16RateToFp32(ccMajor, ccMinor); r > 0) {
        // The FP16 counters count a packed HFMA2 as one thread instruction (2 FLOPs, as Nsight
        // Compute counts it), so the roof is in the same unit: half2 instructions per cycle.
        std::snprintf(b, sizeof b,
                      "FP32 peak x %g / 2 for sm_%d%d: non-tensor half2 rate (CUDA programming "
                      "guide's throughput table), one HFMA2 counted as 2 FLOPs as the counters do",
                      r, ccMajor, ccMinor);
        out.push_back(
            {"wb/device/peak_fp16_flops", "Peak FP16", "flops", peaks.flopsPerS * r / 2, b});
    }
    std::snprintf(b, sizeof b,
                  "2 x %.0f MHz memory clock x %d-bit bus / 8 (device attributes; the vendor's "
                  "figure for the H200's HBM3e is 4.8 TB/s)",
                  memoryClockHz * 1e-6, busWidthBits);
    out.push_back(
        {"wb/device/peak_bandwidth", "Peak bandwidth", "bandwidth", peaks.bandwidthBytesPerS, b});
    return out;
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
    p.singleToDoubleRatio =
        attribute(device, CU_DEVICE_ATTRIBUTE_SINGLE_TO_DOUBLE_PRECISION_PERF_RATIO, what);
    p.peaks = devicePeaks(p.ccMajor, p.ccMinor, p.multiprocessors, p.nominalSmClockHz,
                          p.memoryClockHz, p.busWidthBits);
    return p;
}

const char* timingMethodName(TimingMethod method) noexcept
{
    return method == TimingMethod::CuptiActivity ? "cupti-activity" : "cuda-event";
}

CudaTimer::CudaTimer(const cuda::Context& context)
    : m_context(context.share())
    , m_stream(m_context, /*nonBlocking=*/false)
    , m_start(m_context)
    , m_stop(m_context)
{
}

void CudaTimer::flushL2()
{
    ScopedContext scope(m_context.handle());
    // Lines a kernel pinned with an access policy window would survive the fill below.
    m_context.resetPersistingL2Cache();
    if (!m_flushBuffer.valid()) {
        std::size_t bytes = static_cast<std::size_t>(
            attribute(m_context.state()->device, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, "L2 flush"));
        if (bytes == 0) return;
        bytes = (bytes + 3) / 4 * 4;
        m_flushBuffer = cuda::DeviceBuffer(m_context, bytes, "L2 flush");
    }
    m_flushBuffer.fill32Async(0, m_stream);
}

MeasurementResult CudaTimer::measure(const StreamLaunch& launch, const CudaTimingOptions& options,
                                     const MeasurementHooks& hooks)
{
    ScopedContext scope(m_context.handle());
    const CUstream stream = m_stream.handle();
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
            if (cupti) m_stream.synchronize();
        }
        if (hooks.beforeSample) hooks.beforeSample();
    };

    std::function<double()> sample;
    if (options.method == TimingMethod::CudaEvents) {
        sample = [&] {
            m_start.recordOn(stream);
            launch(stream);
            m_stop.recordOn(stream);
            return cuda::Event::elapsedMs(m_start, m_stop); // waits for m_stop
        };
    } else {
        // Drop records of anything that ran before (warm-up allocations, the first flush).
        m_stream.synchronize();
        (void)trace->takeKernels();
        sample = [&] {
            launch(stream);
            m_stream.synchronize();
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
