// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/profiling/SessionProfiler.h"

#include "core/common/Error.h"
#include "core/cuda/Context.h"
#include "core/profiling/PcSampler.h"
#include "core/profiling/Roofline.h"

namespace wb::profiling {

SessionProfiler::SessionProfiler(SessionProfileOptions options)
    : m_options(std::move(options))
    , m_report(ProfileReport::notProfiled(
          {ProfilerStatus::State::Failed, "the run stopped before the kernel was profiled"}))
{
}

const char* SessionProfiler::needsCudaMessage() noexcept
{
    return "hardware counters and cold-cache timing need the CUDA backend; the CPU emulator has "
           "none";
}

std::function<void(const session::ProfileContext&)> SessionProfiler::hook()
{
    return [this](const session::ProfileContext& context) { profile(context); };
}

std::shared_ptr<void> SessionProfiler::prepare(Backend& backend)
{
    m_enabled = nullptr;
    ProfilingTarget* target = backend.profilingTarget();
    if (!m_options.hotspots || !target || !PcSampler::availability().ok()) return nullptr;
    // Kept by the run until its program is unloaded; forgets itself here when released.
    struct Hold {
        Hold(SessionProfiler* p, const cuda::Context& context)
            : profiler(p)
            , enable(context)
        {
        }
        ~Hold() { profiler->m_enabled = nullptr; }
        SessionProfiler* profiler;
        PcSamplingEnable enable;
    };
    auto hold = std::make_shared<Hold>(this, target->context());
    m_enabled = &hold->enable;
    return hold;
}

void SessionProfiler::install(session::SessionRunner::Options& options)
{
    options.profile = hook();
    options.beforeLoad = [this](Backend& backend) { return prepare(backend); };
}

void SessionProfiler::profile(const session::ProfileContext& c)
{
    m_result.reset();
    ProfilingTarget* target = c.backend.profilingTarget();
    if (!target) {
        m_report = ProfileReport::notProfiled(
            {ProfilerStatus::State::UnsupportedDevice, needsCudaMessage()});
        m_report.device = c.backend.device().name;
        m_report.warnings.push_back(needsCudaMessage());
        return;
    }
    ProfileOptions options;
    options.timing.method = m_options.timing;
    options.timing.flushL2 = m_options.flushL2;
    options.timing.measurement = m_options.measurement;
    options.collectCounters = m_options.counters;
    options.counters.replay = m_options.replay;
    // Speed of Light plus the roofline's FLOP and byte counters (one more pass on GH100).
    for (std::string& name : rooflineMetricNames())
        options.counters.metrics.push_back(std::move(name));
    // User replay: before every pass; kernel replay: only if CUPTI wants a second launch.
    options.counters.beforePass = c.restore;
    // Between timing and counters too: timing relaunches in place, so an inout buffer drifts;
    // the counters must see the data the result launch saw.
    options.beforeCounters = c.restore;
    options.workload.bytes = static_cast<double>(c.bytesMoved);
    // profileLaunch's stream is blocking: Backend::upload (restore) copies on the legacy default
    // stream, so a restored buffer is complete before the next launch reads it.
    const StreamLaunch launch = [&](CUstream s) {
        target->submit(c.program, c.kernel, c.config, c.args, s);
    };
    try {
        target->context().makeCurrent();
        // PC sampling first, on the sampling prepare() enabled before the program was loaded
        // (CUPTI attributes samples only to modules it saw loaded: docs/profiling.md); the
        // collection disables it, so the timing and counters run without it.
        std::optional<PcSamplingResult> sampled;
        if (m_options.hotspots) sampled = sampleHotspots(c, launch);
        // Timing starts from the data the result launch started from, not from what the run's
        // warm-up and timed launches left in inout buffers.
        c.restore();
        m_result = profileLaunch(target->context(), launch, options);
        m_report = ProfileReport::fromResult(*m_result, m_options.flushL2);
        if (sampled) {
            m_report.hotspotStatus = sampled->status;
            if (sampled->status.ok())
                m_report.hotspots = std::move(sampled->report);
            else
                m_report.warnings.push_back("hotspots (PC sampling): " + sampled->status.message);
        }
    } catch (const Error& e) {
        m_result.reset();
        m_report = ProfileReport::notProfiled(
            {ProfilerStatus::State::Failed, std::string("profiling failed: ") + e.what()});
        m_report.device = c.backend.device().name;
        if (e.kind() == Error::Kind::ContextLost) throw;
    } catch (const std::exception& e) {
        m_result.reset();
        m_report = ProfileReport::notProfiled(
            {ProfilerStatus::State::Failed, std::string("profiling failed: ") + e.what()});
    }
}

PcSamplingResult SessionProfiler::sampleHotspots(const session::ProfileContext& c,
                                                 const StreamLaunch& launch)
{
    ProfilingTarget& target = *c.backend.profilingTarget();
    const CompileResult& compiled = c.program.compiled();
    const KernelInfo* info = compiled.findKernel(c.kernel);
    PcSamplingOptions options;
    // Every sampled launch starts from the run's data and, as the timed samples do (and as
    // ncu's default cache control), from a cold L2: the instruction fetches of the kernel's
    // first instructions then stall as they would in a cold launch (docs/BENCHMARKS.md).
    options.beforeLaunch = [&] {
        c.restore();
        if (m_options.flushL2) c.backend.prepareColdLaunch();
    };
    return PcSampler::sample(target.context(), launch, compiled.binary,
                             info ? info->loweredName : c.kernel, options, m_enabled);
}

} // namespace wb::profiling
