// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/profiling/KernelProfiler.h"

#include "core/profiling/ActivityTrace.h"
#include "core/profiling/Roofline.h"

namespace wb::profiling {

MeasurementResult measureBackendLaunch(Backend& backend, BackendProgram& program,
                                       const std::string& kernel, const LaunchConfig& config,
                                       std::span<const KernelArgValue> args,
                                       const MeasurementOptions& options,
                                       const MeasurementHooks& hooks)
{
    MeasurementResult r = Measurement(options).run(
        [&] { return backend.launch(program, kernel, config, args); }, hooks);
    r.method = std::string("backend-") + backendName(backend.kind());
    return r;
}

std::vector<Summary> ProfileResult::summaries() const
{
    std::vector<Summary> out = timing.summaries();
    for (Summary& s : throughputSummaries(timing.statsMs.median * 1e-3, workload, device.peaks))
        out.push_back(std::move(s));
    out.push_back(device.summaries().front()); // nominal SM clock
    if (counters)
        for (Summary& s : counters->summaries())
            out.push_back(std::move(s));
    // The roofs and, when the counters have the FLOPs and bytes, the kernel's roofline point.
    for (Summary& s : device.peakSummaries())
        out.push_back(std::move(s));
    if (const auto point = rooflinePoint(out))
        for (Summary& s : rooflineSummaries(*point))
            out.push_back(std::move(s));
    return out;
}

ProfileResult profileLaunch(const cuda::Context& context, const StreamLaunch& launch,
                            const ProfileOptions& options, const MeasurementHooks& hooks)
{
    ProfileResult result;
    result.workload = options.workload;
    result.device = queryDeviceProperties(context.ordinal());

    CudaTimingOptions timing = options.timing;
    if (timing.method == TimingMethod::CuptiActivity) {
        if (const ProfilerStatus s = ActivityTrace::availability(); !s.ok()) {
            result.warnings.push_back("CUPTI timing unavailable, CUDA events used: " + s.message);
            timing.method = TimingMethod::CudaEvents;
        }
    }
    // The timer holds the context, its stream, events and L2 flush buffer (wb::cuda handles);
    // the counters run on the same stream after it.
    CudaTimer timer(context);
    result.timing = timer.measure(launch, timing, hooks);

    const bool cancelled = hooks.cancel && hooks.cancel->load();
    if (options.collectCounters && !cancelled) {
        if (options.beforeCounters) options.beforeCounters();
        // The counters see a cold L2 too, as Nsight Compute's default cache control does.
        timer.flushL2();
        timer.stream().synchronize();
        result.counters = RangeProfiler::profile(timer.stream(), launch, options.counters);
        // Why counters are missing is the counter status, said once where it is shown (CLI,
        // Profile dock); it is not repeated as a warning.
        for (const std::string& w : result.counters->warnings)
            result.warnings.push_back(w);
    }
    return result;
}

} // namespace wb::profiling
