// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/profiling/RangeProfiler.h"

#include "core/backend/Backend.h"
#include "core/common/Error.h"
#include "core/profiling/detail/Cupti.h"
#include "core/profiling/detail/Driver.h"

#include <cstdint>
#include <memory>
#include <mutex>
#include <utility>

namespace wb::profiling {

namespace {

using State = ProfilerStatus::State;

constexpr std::size_t kMaxRanges = 16;

/// A CUPTI parameter struct, zeroed, with its size set.
template <typename P> P params(std::size_t size) noexcept
{
    P p{};
    p.structSize = size;
    return p;
}
#define WB_CUPTI_PARAMS(Type) params<Type>(Type##_STRUCT_SIZE)

/// Runs a cleanup at scope exit (teardown of CUPTI objects in reverse order of creation).
template <typename F> class ScopeExit {
public:
    explicit ScopeExit(F f)
        : m_f(std::move(f))
    {
    }
    ~ScopeExit() { m_f(); }
    ScopeExit(const ScopeExit&) = delete;
    ScopeExit& operator=(const ScopeExit&) = delete;

private:
    F m_f;
};

/// A CUPTI failure, classified for the user.
struct CuptiFailure {
    ProfilerStatus status;
};

void call(CUptiResult result, const char* step)
{
    if (result != CUPTI_SUCCESS) throw CuptiFailure{detail::classifyCuptiResult(result, step)};
}

const char* supportLevelName(CUpti_Profiler_Support_Level level)
{
    switch (level) {
    case CUPTI_PROFILER_CONFIGURATION_UNSUPPORTED:
        return "unsupported";
    case CUPTI_PROFILER_CONFIGURATION_DISABLED:
        return "disabled";
    case CUPTI_PROFILER_CONFIGURATION_SUPPORTED:
        return "supported";
    default:
        return "unknown";
    }
}

/// The profiler host object for one chip (host-side only: metric parsing and evaluation).
class HostObject {
public:
    HostObject(const detail::Cupti& api, const std::string& chip,
               const std::vector<std::uint8_t>& availability)
        : m_api(api)
    {
        auto p = WB_CUPTI_PARAMS(CUpti_Profiler_Host_Initialize_Params);
        p.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
        p.pChipName = chip.c_str();
        p.pCounterAvailabilityImage = availability.empty() ? nullptr : availability.data();
        call(api.cuptiProfilerHostInitialize(&p), "cuptiProfilerHostInitialize");
        m_object = p.pHostObject;
    }
    ~HostObject()
    {
        auto p = WB_CUPTI_PARAMS(CUpti_Profiler_Host_Deinitialize_Params);
        p.pHostObject = m_object;
        m_api.cuptiProfilerHostDeinitialize(&p);
    }
    HostObject(const HostObject&) = delete;
    HostObject& operator=(const HostObject&) = delete;

    CUptiResult addMetrics(std::vector<const char*>& names)
    {
        auto p = WB_CUPTI_PARAMS(CUpti_Profiler_Host_ConfigAddMetrics_Params);
        p.pHostObject = m_object;
        p.ppMetricNames = names.data();
        p.numMetrics = names.size();
        return m_api.cuptiProfilerHostConfigAddMetrics(&p);
    }
    std::vector<std::uint8_t> configImage()
    {
        auto s = WB_CUPTI_PARAMS(CUpti_Profiler_Host_GetConfigImageSize_Params);
        s.pHostObject = m_object;
        call(m_api.cuptiProfilerHostGetConfigImageSize(&s), "cuptiProfilerHostGetConfigImageSize");
        std::vector<std::uint8_t> image(s.configImageSize);
        auto g = WB_CUPTI_PARAMS(CUpti_Profiler_Host_GetConfigImage_Params);
        g.pHostObject = m_object;
        g.configImageSize = image.size();
        g.pConfigImage = image.data();
        call(m_api.cuptiProfilerHostGetConfigImage(&g), "cuptiProfilerHostGetConfigImage");
        return image;
    }
    std::vector<double> evaluate(std::vector<std::uint8_t>& counterData, std::size_t range,
                                 std::vector<const char*>& names)
    {
        std::vector<double> values(names.size(), 0.0);
        auto p = WB_CUPTI_PARAMS(CUpti_Profiler_Host_EvaluateToGpuValues_Params);
        p.pHostObject = m_object;
        p.pCounterDataImage = counterData.data();
        p.counterDataImageSize = counterData.size();
        p.rangeIndex = range;
        p.ppMetricNames = names.data();
        p.numMetrics = names.size();
        p.pMetricValues = values.data();
        call(m_api.cuptiProfilerHostEvaluateToGpuValues(&p),
             "cuptiProfilerHostEvaluateToGpuValues");
        return values;
    }

private:
    const detail::Cupti& m_api;
    CUpti_Profiler_Host_Object* m_object = nullptr;
};

std::mutex& profileMutex()
{
    static std::mutex m;
    return m;
}

void collect(CounterReport& report, const cuda::Stream& stream, const StreamLaunch& launch,
             const CounterOptions& options)
{
    const detail::Driver& drv = detail::driver();
    const detail::Cupti& api = detail::cupti();
    // Held for the whole collection: the context outlives every CUPTI object made in it.
    const cuda::detail::ContextRef state = stream.contextState();
    const CUcontext context = state->context;
    const CUdevice device = state->device;

    CUcontext previous = nullptr;
    detail::check(drv.cuCtxGetCurrent(&previous), "cuCtxGetCurrent", "counter collection");
    detail::check(drv.cuCtxSetCurrent(context), "cuCtxSetCurrent", "counter collection");
    ScopeExit restoreContext([&] { drv.cuCtxSetCurrent(previous); });

    auto init = WB_CUPTI_PARAMS(CUpti_Profiler_Initialize_Params);
    call(api.cuptiProfilerInitialize(&init), "cuptiProfilerInitialize");
    ScopeExit deinit([&] {
        auto p = WB_CUPTI_PARAMS(CUpti_Profiler_DeInitialize_Params);
        api.cuptiProfilerDeInitialize(&p);
    });

    auto supported = WB_CUPTI_PARAMS(CUpti_Profiler_DeviceSupported_Params);
    supported.cuDevice = device;
    supported.api = CUPTI_PROFILER_RANGE_PROFILING;
    call(api.cuptiProfilerDeviceSupported(&supported), "cuptiProfilerDeviceSupported");
    if (supported.isSupported != CUPTI_PROFILER_CONFIGURATION_SUPPORTED) {
        std::string why =
            std::string("architecture ") + supportLevelName(supported.architecture) + ", vGPU " +
            supportLevelName(supported.vGpu) + ", SLI " + supportLevelName(supported.sli) +
            ", confidential computing " + supportLevelName(supported.confidentialCompute) +
            ", CMP " + supportLevelName(supported.cmp) + ", WSL " + supportLevelName(supported.wsl);
        throw CuptiFailure{{State::UnsupportedDevice,
                            "the range profiler does not support this device (" + why + ")"}};
    }

    auto chip = WB_CUPTI_PARAMS(CUpti_Device_GetChipName_Params);
    chip.deviceIndex = static_cast<std::size_t>(device);
    call(api.cuptiDeviceGetChipName(&chip), "cuptiDeviceGetChipName");
    report.chip = chip.pChipName ? chip.pChipName : "";

    std::vector<std::uint8_t> availability;
    {
        auto p = WB_CUPTI_PARAMS(CUpti_Profiler_GetCounterAvailability_Params);
        p.ctx = context;
        call(api.cuptiProfilerGetCounterAvailability(&p), "cuptiProfilerGetCounterAvailability");
        availability.resize(p.counterAvailabilityImageSize);
        p.pCounterAvailabilityImage = availability.data();
        call(api.cuptiProfilerGetCounterAvailability(&p), "cuptiProfilerGetCounterAvailability");
    }

    // Metric names: drop (with a warning) the ones this chip does not know, so that one bad
    // row in the table does not cost the whole set.
    std::vector<std::string> metrics = options.metrics;
    std::vector<const char*> names;
    for (const std::string& m : metrics)
        names.push_back(m.c_str());
    auto host = std::make_unique<HostObject>(api, report.chip, availability);
    if (CUptiResult r = host->addMetrics(names); r != CUPTI_SUCCESS) {
        std::vector<const char*> valid;
        for (const char* name : names) {
            HostObject probe(api, report.chip, availability);
            std::vector<const char*> one{name};
            if (probe.addMetrics(one) == CUPTI_SUCCESS)
                valid.push_back(name);
            else
                report.warnings.push_back(std::string("metric '") + name + "' is not known for " +
                                          report.chip + "; left out");
        }
        if (valid.size() == names.size()) // every name is fine alone: not a naming problem
            call(r, "cuptiProfilerHostConfigAddMetrics");
        if (valid.empty())
            throw CuptiFailure{{State::InvalidMetric,
                                "none of the requested metrics is known for " + report.chip}};
        names = valid;
        host = std::make_unique<HostObject>(api, report.chip, availability);
        call(host->addMetrics(names), "cuptiProfilerHostConfigAddMetrics");
    }
    std::vector<std::uint8_t> config = host->configImage();
    {
        auto p = WB_CUPTI_PARAMS(CUpti_Profiler_Host_GetNumOfPasses_Params);
        p.configImageSize = config.size();
        p.pConfigImage = config.data();
        call(api.cuptiProfilerHostGetNumOfPasses(&p), "cuptiProfilerHostGetNumOfPasses");
        report.passes = p.numOfPasses;
    }

    auto enable = WB_CUPTI_PARAMS(CUpti_RangeProfiler_Enable_Params);
    enable.ctx = context;
    call(api.cuptiRangeProfilerEnable(&enable), "cuptiRangeProfilerEnable");
    CUpti_RangeProfiler_Object* object = enable.pRangeProfilerObject;
    ScopeExit disable([&] {
        auto p = WB_CUPTI_PARAMS(CUpti_RangeProfiler_Disable_Params);
        p.pRangeProfilerObject = object;
        api.cuptiRangeProfilerDisable(&p);
    });

    std::vector<std::uint8_t> counterData;
    {
        auto p = WB_CUPTI_PARAMS(CUpti_RangeProfiler_GetCounterDataSize_Params);
        p.pRangeProfilerObject = object;
        p.pMetricNames = names.data();
        p.numMetrics = names.size();
        p.maxNumOfRanges = kMaxRanges;
        p.maxNumRangeTreeNodes = kMaxRanges;
        call(api.cuptiRangeProfilerGetCounterDataSize(&p), "cuptiRangeProfilerGetCounterDataSize");
        counterData.resize(p.counterDataSize);
        auto i = WB_CUPTI_PARAMS(CUpti_RangeProfiler_CounterDataImage_Initialize_Params);
        i.pRangeProfilerObject = object;
        i.counterDataSize = counterData.size();
        i.pCounterData = counterData.data();
        call(api.cuptiRangeProfilerCounterDataImageInitialize(&i),
             "cuptiRangeProfilerCounterDataImageInitialize");
    }
    {
        auto p = WB_CUPTI_PARAMS(CUpti_RangeProfiler_SetConfig_Params);
        p.pRangeProfilerObject = object;
        p.configSize = config.size();
        p.pConfig = config.data();
        p.counterDataImageSize = counterData.size();
        p.pCounterDataImage = counterData.data();
        p.range = CUPTI_AutoRange;
        p.replayMode = options.replay == ReplayMode::Kernel ? CUPTI_KernelReplay : CUPTI_UserReplay;
        p.maxRangesPerPass = kMaxRanges;
        p.numNestingLevels = 1;
        p.minNestingLevel = 1;
        p.passIndex = 0;
        p.targetNestingLevel = 1;
        call(api.cuptiRangeProfilerSetConfig(&p), "cuptiRangeProfilerSetConfig");
    }

    // Kernel replay submits every pass during the one launch; user replay needs one launch per
    // pass. Both are driven by the same loop (as NVIDIA's sample does), bounded by maxPasses.
    bool allSubmitted = false;
    while (!allSubmitted) {
        if (report.launches >= options.maxPasses)
            throw CuptiFailure{{State::Failed, "the range profiler still wanted passes after " +
                                                   std::to_string(report.launches) + " launches"}};
        if (options.beforePass && (options.replay == ReplayMode::User || report.launches > 0))
            options.beforePass();
        auto start = WB_CUPTI_PARAMS(CUpti_RangeProfiler_Start_Params);
        start.pRangeProfilerObject = object;
        call(api.cuptiRangeProfilerStart(&start), "cuptiRangeProfilerStart");
        launch(stream.handle());
        ++report.launches;
        stream.synchronize();
        auto stop = WB_CUPTI_PARAMS(CUpti_RangeProfiler_Stop_Params);
        stop.pRangeProfilerObject = object;
        call(api.cuptiRangeProfilerStop(&stop), "cuptiRangeProfilerStop");
        allSubmitted = stop.isAllPassSubmitted != 0;
    }
    if (options.replay == ReplayMode::Kernel && report.launches > 1)
        report.warnings.push_back("kernel replay needed " + std::to_string(report.launches) +
                                  " launches; buffers were restored between them only if "
                                  "beforePass was given");
    {
        auto p = WB_CUPTI_PARAMS(CUpti_RangeProfiler_DecodeData_Params);
        p.pRangeProfilerObject = object;
        call(api.cuptiRangeProfilerDecodeData(&p), "cuptiRangeProfilerDecodeData");
        if (p.numOfRangeDropped)
            report.warnings.push_back(std::to_string(p.numOfRangeDropped) +
                                      " ranges were dropped (more than " +
                                      std::to_string(kMaxRanges) + " kernels in one launch)");
    }
    {
        auto p = WB_CUPTI_PARAMS(CUpti_RangeProfiler_GetCounterDataInfo_Params);
        p.pCounterDataImage = counterData.data();
        p.counterDataImageSize = counterData.size();
        call(api.cuptiRangeProfilerGetCounterDataInfo(&p), "cuptiRangeProfilerGetCounterDataInfo");
        report.ranges = p.numTotalRanges;
    }
    if (report.ranges == 0)
        throw CuptiFailure{
            {State::Failed, "the launch ran no kernel, so no counters were collected"}};
    if (report.ranges > 1)
        report.warnings.push_back("the launch ran " + std::to_string(report.ranges) +
                                  " kernels; the values are those of the first");
    const std::vector<double> values = host->evaluate(counterData, 0, names);
    for (std::size_t i = 0; i < names.size(); ++i)
        report.values.push_back({names[i], values[i], findMetric(names[i])});
}

} // namespace

std::optional<double> CounterReport::value(const std::string& name) const
{
    for (const MetricValue& v : values)
        if (v.name == name) return v.value;
    return std::nullopt;
}

std::vector<Summary> CounterReport::summaries() const
{
    std::vector<Summary> out;
    for (const MetricValue& v : values) {
        if (v.info)
            out.push_back({"wb/counter/" + v.name, v.info->displayName, v.info->hint,
                           v.value * v.info->toSummaryScale, v.info->description});
        else
            out.push_back({"wb/counter/" + v.name, v.name, "", v.value, ""});
    }
    if (status.ok())
        out.push_back({"wb/counter/passes", "Passes", "sample_size", static_cast<double>(passes),
                       "Replay passes the metric set needed"});
    return out;
}

ProfilerStatus RangeProfiler::availability()
{
    if (const std::optional<std::string> why = cudaUnavailableReason())
        return {State::NoDriver, *why};
    if (const std::string& why = detail::driverUnavailableReason(); !why.empty())
        return {ProfilerStatus::State::NoDriver, why};
    if (const std::string& why = detail::cuptiLoadError(); !why.empty())
        return {State::NoCupti, why};
    return ProfilerStatus::success();
}

CounterReport RangeProfiler::profile(const cuda::Stream& stream, const StreamLaunch& launch,
                                     const CounterOptions& options)
{
    if (!stream.valid())
        throw Error(Error::Kind::InvalidArgument,
                    "counter collection on a moved-from wb::cuda::Stream");
    CounterReport report;
    report.status = availability();
    if (!report.status.ok()) return report;
    std::unique_lock lock(profileMutex(), std::try_to_lock);
    if (!lock.owns_lock()) {
        report.status = {
            State::ProfilerBusy,
            "another counter collection is running in this process; retry when it ends"};
        return report;
    }
    try {
        collect(report, stream, launch, options);
    } catch (const CuptiFailure& failure) {
        report.status = failure.status;
        report.values.clear();
    } catch (const Error& error) {
        if (error.kind() != Error::Kind::Runtime && error.kind() != Error::Kind::Unavailable) throw;
        report.status = {State::Failed, error.what()};
        report.values.clear();
    }
    return report;
}

} // namespace wb::profiling
