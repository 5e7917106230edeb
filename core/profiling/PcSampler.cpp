// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/profiling/PcSampler.h"

#include "core/backend/Backend.h"
#include "core/common/Error.h"
#include "core/cuda/Stream.h"
#include "core/profiling/detail/Cupti.h"
#include "core/profiling/detail/Driver.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>

namespace wb::profiling {

namespace {

using State = ProfilerStatus::State;
using Clock = std::chrono::steady_clock;

/// How many PC records one cuptiPCSamplingGetData call may return (more are fetched in turns).
constexpr std::size_t kPcsPerFetch = 4096;
/// How long to wait after a stop for records CUPTI has counted but not handed over yet.
constexpr int kRecordWaitMs = 250;

struct PcSamplingFailure {
    ProfilerStatus status;
};

void call(CUptiResult result, const char* step)
{
    if (result != CUPTI_SUCCESS)
        throw PcSamplingFailure{detail::classifyCuptiResult(
            result, step, "PC sampling is not available on this GPU or configuration.")};
}

std::mutex& samplingMutex()
{
    static std::mutex m;
    return m;
}

/// A CUpti_PCSamplingData with room for `pcs` records of `reasons` stall reasons each.
class SamplingBuffer {
public:
    SamplingBuffer(std::size_t pcs, std::size_t reasons)
        : m_pcs(pcs)
        , m_reasons(pcs * reasons)
    {
        for (std::size_t i = 0; i < pcs; ++i) {
            m_pcs[i].size = sizeof(CUpti_PCSamplingPCData);
            m_pcs[i].stallReason = m_reasons.data() + i * reasons;
        }
        m_data.size = sizeof(CUpti_PCSamplingData);
        m_data.collectNumPcs = pcs;
        m_data.pPcData = m_pcs.data();
    }
    CUpti_PCSamplingData* data() noexcept { return &m_data; }

private:
    std::vector<CUpti_PCSamplingPCData> m_pcs;
    std::vector<CUpti_PCSamplingStallReason> m_reasons;
    CUpti_PCSamplingData m_data{};
};

struct StallNames {
    std::vector<std::uint32_t> indices;
    std::vector<std::string> names;              // CUPTI's, parallel to indices
    std::map<std::uint32_t, std::string> labels; // index → label, "_not_issued" left out
};

StallNames stallNames(const detail::Cupti& api, CUcontext ctx)
{
    StallNames s;
    std::size_t count = 0;
    CUpti_PCSamplingGetNumStallReasonsParams np{};
    np.size = CUpti_PCSamplingGetNumStallReasonsParamsSize;
    np.ctx = ctx;
    np.numStallReasons = &count;
    call(api.cuptiPCSamplingGetNumStallReasons(&np), "cuptiPCSamplingGetNumStallReasons");
    std::vector<std::vector<char>> storage(count,
                                           std::vector<char>(CUPTI_STALL_REASON_STRING_SIZE));
    std::vector<char*> pointers(count);
    for (std::size_t i = 0; i < count; ++i)
        pointers[i] = storage[i].data();
    s.indices.assign(count, 0);
    CUpti_PCSamplingGetStallReasonsParams sp{};
    sp.size = CUpti_PCSamplingGetStallReasonsParamsSize;
    sp.ctx = ctx;
    sp.numStallReasons = count;
    sp.stallReasonIndex = s.indices.data();
    sp.stallReasons = pointers.data();
    call(api.cuptiPCSamplingGetStallReasons(&sp), "cuptiPCSamplingGetStallReasons");
    for (std::size_t i = 0; i < count; ++i) {
        storage[i].back() = '\0';
        s.names.emplace_back(storage[i].data());
        if (!isNotIssuedStallReason(s.names.back()))
            s.labels[s.indices[i]] = stallReasonLabel(s.names.back());
    }
    return s;
}

void configure(const detail::Cupti& api, CUcontext ctx, StallNames& names, int period,
               SamplingBuffer& buffer)
{
    std::vector<CUpti_PCSamplingConfigurationInfo> info(8);
    info[0].attributeType = CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_COLLECTION_MODE;
    info[0].attributeData.collectionModeData.collectionMode =
        CUPTI_PC_SAMPLING_COLLECTION_MODE_KERNEL_SERIALIZED;
    info[1].attributeType = CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_SAMPLING_PERIOD;
    info[1].attributeData.samplingPeriodData.samplingPeriod = static_cast<std::uint32_t>(period);
    info[2].attributeType = CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_STALL_REASON;
    info[2].attributeData.stallReasonData.stallReasonCount = names.indices.size();
    info[2].attributeData.stallReasonData.pStallReasonIndex = names.indices.data();
    info[3].attributeType = CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_SAMPLING_DATA_BUFFER;
    info[3].attributeData.samplingDataBufferData.samplingDataBuffer = buffer.data();
    info[4].attributeType = CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_ENABLE_START_STOP_CONTROL;
    info[4].attributeData.enableStartStopControlData.enableStartStopControl = 1;
    info[5].attributeType = CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_OUTPUT_DATA_FORMAT;
    info[5].attributeData.outputDataFormatData.outputDataFormat =
        CUPTI_PC_SAMPLING_OUTPUT_DATA_FORMAT_PARSED;
    info[6].attributeType = CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_SCRATCH_BUFFER_SIZE;
    info[6].attributeData.scratchBufferSizeData.scratchBufferSize = std::size_t(4) << 20;
    info[7].attributeType = CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_HARDWARE_BUFFER_SIZE;
    info[7].attributeData.hardwareBufferSizeData.hardwareBufferSize = std::size_t(64) << 20;
    CUpti_PCSamplingConfigurationInfoParams p{};
    p.size = CUpti_PCSamplingConfigurationInfoParamsSize;
    p.ctx = ctx;
    p.numAttributes = info.size();
    p.pPCSamplingConfigurationInfo = info.data();
    call(api.cuptiPCSamplingSetConfigurationAttribute(&p),
         "cuptiPCSamplingSetConfigurationAttribute");
}

/// Source line of (function, offset) in the CUBIN, by CUPTI; {"", 0} when there is none.
std::pair<std::string, int> sourceOf(const detail::Cupti& api,
                                     const std::vector<std::uint8_t>& cubin,
                                     const std::string& function, std::uint64_t offset)
{
    if (cubin.empty()) return {};
    CUpti_GetSassToSourceCorrelationParams c{};
    c.size = CUpti_GetSassToSourceCorrelationParamsSize;
    c.cubin = cubin.data();
    c.cubinSize = cubin.size();
    c.functionName = function.c_str();
    c.pcOffset = offset;
    if (api.cuptiGetSassToSourceCorrelation(&c) != CUPTI_SUCCESS) return {};
    std::pair<std::string, int> out{c.fileName ? c.fileName : "", static_cast<int>(c.lineNumber)};
    std::free(c.fileName); // CUPTI allocates them; the caller frees (cupti_pcsampling.h)
    std::free(c.dirName);
    return out;
}

} // namespace

PcSamplingEnable::PcSamplingEnable(const cuda::Context& context)
    : m_context(context)
{
    m_status = PcSampler::availability();
    if (!m_status.ok()) return;
    if (!samplingMutex().try_lock()) {
        m_status = {State::ProfilerBusy,
                    "another PC-sampling collection is running in this process"};
        return;
    }
    m_locked = true;
    const auto start = Clock::now();
    try {
        context.makeCurrent();
        CUpti_PCSamplingEnableParams e{};
        e.size = CUpti_PCSamplingEnableParamsSize;
        e.ctx = context.handle();
        call(detail::cupti().cuptiPCSamplingEnable(&e), "cuptiPCSamplingEnable");
        m_enabled = true;
    } catch (const PcSamplingFailure& failure) {
        m_status = failure.status;
    } catch (const Error& e) {
        m_status = {State::Failed, std::string("cuptiPCSamplingEnable: ") + e.what()};
    }
    m_enableMs = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
    if (!m_enabled) disable();
}

PcSamplingEnable::~PcSamplingEnable()
{
    disable();
}

void PcSamplingEnable::disable() noexcept
{
    if (m_enabled) {
        m_enabled = false;
        CUpti_PCSamplingDisableParams d{};
        d.size = CUpti_PCSamplingDisableParamsSize;
        d.ctx = m_context.handle();
        detail::cupti().cuptiPCSamplingDisable(&d);
    }
    if (m_locked) {
        m_locked = false;
        samplingMutex().unlock();
    }
}

ProfilerStatus PcSampler::availability()
{
    if (const std::optional<std::string> why = cudaUnavailableReason())
        return {State::NoDriver, *why};
    if (const std::string& why = detail::driverUnavailableReason(); !why.empty())
        return {State::NoDriver, why};
    if (const std::string& why = detail::cuptiLoadError(); !why.empty())
        return {State::NoCupti, why};
    return ProfilerStatus::success();
}

PcSamplingResult PcSampler::sample(const cuda::Context& context, const StreamLaunch& launch,
                                   const std::vector<std::uint8_t>& cubin,
                                   const std::string& function, const PcSamplingOptions& options,
                                   PcSamplingEnable* enabled)
{
    PcSamplingResult result;
    result.status = availability();
    if (!result.status.ok()) return result;
    if (options.samplingPeriodLog2 < 5 || options.samplingPeriodLog2 > 31)
        throw Error(Error::Kind::InvalidArgument,
                    "PC sampling period must be 2^5 .. 2^31 cycles, not 2^" +
                        std::to_string(options.samplingPeriodLog2));
    if (enabled && enabled->context().handle() != context.handle())
        throw Error(Error::Kind::InvalidArgument,
                    "PC sampling was enabled on another context than the one sampled");
    const auto start = Clock::now();
    // Sampling enabled before the program was loaded, or enabled here.
    std::optional<PcSamplingEnable> own;
    if (!enabled) enabled = &own.emplace(context);
    if (!enabled->enabled()) {
        result.status = enabled->status();
        if (result.status.ok())
            result.status = {State::Failed, "PC sampling was disabled before the collection"};
        return result;
    }
    const detail::Cupti& api = detail::cupti();
    context.makeCurrent();
    const CUcontext ctx = context.handle();
    cuda::Stream stream(context, false);
    auto disable = [&] { enabled->disable(); };
    struct Guard {
        PcSamplingEnable* e;
        ~Guard() { e->disable(); } // also when a launch throws
    } guard{enabled};
    // An Enable made before the program was loaded counts as part of the collection.
    const double earlierEnableMs = own ? 0.0 : enabled->enableMs();

    std::vector<SampledPc> pcs;
    std::map<std::pair<std::string, std::uint64_t>, std::pair<std::string, int>> lineCache;
    HotspotReport& report = result.report;
    try {
        StallNames names = stallNames(api, ctx);
        SamplingBuffer configured(kPcsPerFetch, names.indices.size());
        configure(api, ctx, names, options.samplingPeriodLog2, configured);
        SamplingBuffer fetched(kPcsPerFetch, names.indices.size());
        bool bufferFull = false;
        std::uint64_t nonUser = 0;
        // Appends the PC records of `d`; true when it held any.
        auto take = [&](const CUpti_PCSamplingData& d) {
            if (d.hardwareBufferFull) bufferFull = true;
            for (std::size_t i = 0; i < d.totalNumPcs; ++i) {
                const CUpti_PCSamplingPCData& pc = d.pPcData[i];
                SampledPc s;
                s.function = pc.functionName ? pc.functionName : function;
                s.pcOffset = pc.pcOffset;
                auto key = std::make_pair(s.function, s.pcOffset);
                auto it = lineCache.find(key);
                if (it == lineCache.end())
                    it = lineCache.emplace(key, sourceOf(api, cubin, s.function, s.pcOffset)).first;
                s.file = it->second.first;
                s.line = it->second.second;
                for (std::size_t k = 0; k < pc.stallReasonCount; ++k) {
                    auto label = names.labels.find(pc.stallReason[k].pcSamplingStallReasonIndex);
                    if (label == names.labels.end()) continue;
                    s.stalls.push_back({label->second, pc.stallReason[k].samples});
                }
                pcs.push_back(std::move(s));
            }
            return d.totalNumPcs > 0;
        };
        // A launch's totals come with the first answer that has any (CUPTI's worker threads
        // may hand the records over a little later than the counts).
        bool totalsPending = false;
        std::uint64_t launchKept = 0; // samples of this launch CUPTI should have records for
        bool patient = true; // false once a wait came to nothing: later launches do not wait
        auto count = [&](const CUpti_PCSamplingData& d) {
            if (!totalsPending || d.totalSamples == 0) return;
            report.totalSamples += d.totalSamples;
            report.droppedSamples += d.droppedSamples;
            nonUser += d.nonUsrKernelsTotalSamples;
            const std::uint64_t off = d.droppedSamples + d.nonUsrKernelsTotalSamples;
            launchKept = d.totalSamples > off ? d.totalSamples - off : 0;
            totalsPending = false;
        };
        for (int n = 0; n < std::max(1, options.maxLaunches); ++n) {
            if (options.beforeLaunch) options.beforeLaunch();
            CUpti_PCSamplingStartParams sp{};
            sp.size = CUpti_PCSamplingStartParamsSize;
            sp.ctx = ctx;
            call(api.cuptiPCSamplingStart(&sp), "cuptiPCSamplingStart");
            launch(stream.handle());
            stream.synchronize();
            CUpti_PCSamplingStopParams st{};
            st.size = CUpti_PCSamplingStopParamsSize;
            st.ctx = ctx;
            call(api.cuptiPCSamplingStop(&st), "cuptiPCSamplingStop");
            ++report.launches;
            totalsPending = true;
            launchKept = 0;
            bool records = false;
            const auto stopped = Clock::now();
            for (int turn = 0; turn < 4096; ++turn) {
                CUpti_PCSamplingData* d = fetched.data();
                d->totalNumPcs = 0;
                d->remainingNumPcs = 0;
                d->totalSamples = 0;
                d->droppedSamples = 0;
                d->nonUsrKernelsTotalSamples = 0;
                CUpti_PCSamplingGetDataParams g{};
                g.size = CUpti_PCSamplingGetDataParamsSize;
                g.ctx = ctx;
                g.pcSamplingData = d;
                const CUptiResult got = api.cuptiPCSamplingGetData(&g);
                if (got == CUPTI_ERROR_OUT_OF_MEMORY)
                    bufferFull = true;
                else
                    call(got, "cuptiPCSamplingGetData");
                count(*d);
                records = take(*d) || records;
                if (d->remainingNumPcs > 0) continue;
                // Samples counted but no records yet: give CUPTI a moment (bounded).
                const bool waiting = patient && !records && (totalsPending || launchKept > 0);
                if (!waiting) break;
                if (Clock::now() - stopped > std::chrono::milliseconds(kRecordWaitMs)) {
                    patient = false;
                    break;
                }
                std::this_thread::sleep_for(std::chrono::milliseconds(2));
            }
            const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
            if (report.totalSamples - report.droppedSamples >= options.targetSamples ||
                seconds >= options.maxSeconds)
                break;
        }
        disable();
        // Disabling hands the records still held to the configured buffer.
        count(*configured.data());
        take(*configured.data());
        std::uint64_t total = report.totalSamples, dropped = report.droppedSamples;
        const int launches = report.launches;
        report = HotspotReport::aggregate(pcs);
        const std::uint64_t attributed = report.attributedSamples();
        if (attributed > total - dropped) {
            report.warnings.push_back("CUPTI counted " + std::to_string(total - dropped) +
                                      " samples but its PC records hold " +
                                      std::to_string(attributed) + "; the records' count is used");
            total = attributed + dropped;
        } else if (attributed == 0 && total > dropped) {
            report.warnings.push_back("CUPTI counted " + std::to_string(total - dropped) +
                                      " samples but returned no PC records for them");
        }
        if (nonUser > 0)
            report.warnings.push_back(std::to_string(nonUser) +
                                      " samples were taken in kernels CUPTI does not attribute "
                                      "(not the user's module)");
        report.totalSamples = total;
        report.droppedSamples = dropped;
        report.launches = launches;
        if (bufferFull)
            report.warnings.push_back(
                "the PC-sampling hardware buffer filled up: samples were lost; a longer sampling "
                "period would lose fewer");
        if (dropped > 0)
            report.warnings.push_back(std::to_string(dropped) + " of " + std::to_string(total) +
                                      " samples were dropped by the hardware (buffer "
                                      "back-pressure); the shares are of the samples kept");
        const bool anyLine = std::any_of(report.lines.begin(), report.lines.end(),
                                         [](const HotspotLine& l) { return l.line > 0; });
        if (!report.lines.empty() && !anyLine)
            report.warnings.push_back("the CUBIN has no line information (compile with "
                                      "-lineinfo): samples are shown per instruction only");
    } catch (const PcSamplingFailure& failure) {
        disable();
        result.status = failure.status;
        result.report = HotspotReport{};
    }
    result.report.kernel = function;
    result.report.samplingPeriodLog2 = options.samplingPeriodLog2;
    result.report.collectMs =
        earlierEnableMs + std::chrono::duration<double, std::milli>(Clock::now() - start).count();
    return result;
}

} // namespace wb::profiling
