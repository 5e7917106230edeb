// SPDX-License-Identifier: GPL-3.0-or-later
// GPU tests of core/profiling (label gpu): CUPTI activity timing of a copy kernel and of
// copies, events vs CUPTI, range-profiler counters of a copy kernel (DRAM bytes ≈ 2 × N × 4),
// and that kernel replay (and user replay with restore) leaves buffers as one launch would.
// Every function QSKIPs with the reason where there is no GPU or no counter permission.
#include "core/backend/Backend.h"
#include "core/cuda/Context.h"
#include "core/cuda/DeviceBuffer.h"
#include "core/cuda/Kernel.h"
#include "core/cuda/SourceModule.h"
#include "core/cuda/Stream.h"
#include "core/profiling/ActivityTrace.h"
#include "core/profiling/CudaTimer.h"
#include "core/profiling/KernelProfiler.h"
#include "core/profiling/RangeProfiler.h"
#include "tests/profiling/kernels/Kernels.h"
#include "tests/support/SuiteMain.h"

#include <QTest>

#include <cmath>
#include <memory>
#include <optional>
#include <vector>

using namespace wb::profiling;
using wb::cuda::KernelArg;

namespace {

KernelArg pointerArg(const wb::cuda::DeviceBuffer& b)
{
    return {b.ptrAddress(), sizeof(CUdeviceptr), KernelArg::Kind::DevicePointer, nullptr};
}

template <typename T> KernelArg valueArg(const T& v)
{
    return {&v, sizeof(T), KernelArg::Kind::Value, nullptr};
}

wb::LaunchConfig linear(unsigned long long n, unsigned block = 256)
{
    wb::LaunchConfig c;
    c.block = {block, 1, 1};
    c.grid = {static_cast<unsigned>((n + block - 1) / block), 1, 1};
    return c;
}

/// A copy kernel over n floats, ready to launch on any stream.
struct CopyCase {
    CopyCase(const wb::cuda::Context& ctx, unsigned long long count)
        : n(count)
        , module(ctx, testkernels::kCopy)
        , kernel(module.function("wb_copy"))
        , in(ctx, n * sizeof(float), "in")
        , out(ctx, n * sizeof(float), "out")
    {
        in.fill32(0x3f800000u); // 1.0f
        out.fill32(0);
    }
    void launch(CUstream stream) const
    {
        const KernelArg args[] = {pointerArg(in), pointerArg(out), valueArg(n)};
        kernel.submit(linear(n), args, stream);
    }
    unsigned long long n;
    wb::cuda::SourceModule module;
    wb::cuda::Kernel kernel;
    wb::cuda::DeviceBuffer in;
    wb::cuda::DeviceBuffer out;
};

} // namespace

class TestGpuProfiling : public QObject {
    Q_OBJECT
private:
    std::optional<std::string> m_unavailable;
    std::unique_ptr<wb::cuda::Context> m_context;
    std::unique_ptr<wb::cuda::Stream> m_stream;

    /// Why counters cannot be read here (the caller QSKIPs), or nullopt.
    static std::optional<std::string> counterSkipReason(const CounterReport& r)
    {
        using S = ProfilerStatus::State;
        if (r.status.state == S::InsufficientPrivileges || r.status.state == S::UnsupportedDevice ||
            r.status.state == S::ProfilerBusy)
            return std::string(profilerStateName(r.status.state)) + ": " + r.status.message;
        return std::nullopt;
    }

private Q_SLOTS:
    void initTestCase()
    {
        m_unavailable = wb::cudaUnavailableReason();
        if (m_unavailable) return;
        m_context = std::make_unique<wb::cuda::Context>(wb::cuda::Context::primary(0));
        m_stream = std::make_unique<wb::cuda::Stream>(*m_context);
        const CudaDeviceProperties p = queryDeviceProperties(0);
        qInfo("device: %s, sm_%d%d, %d SMs, nominal SM clock %.0f MHz, L2 %zu bytes",
              p.name.c_str(), p.ccMajor, p.ccMinor, p.multiprocessors, p.nominalSmClockHz * 1e-6,
              p.l2Bytes);
    }

    void cleanupTestCase()
    {
        m_stream.reset();
        m_context.reset();
    }

    void cuptiActivityTimesCopyKernel()
    {
        if (m_unavailable) QSKIP(m_unavailable->c_str());
        if (ProfilerStatus s = ActivityTrace::availability(); !s.ok()) QSKIP(s.message.c_str());
        CopyCase copy(*m_context, 16ull << 20);
        CudaTimer timer(*m_context);
        CudaTimingOptions o;
        o.method = TimingMethod::CuptiActivity;
        o.measurement.minTimeS = 0.05;
        o.measurement.maxTimeS = 5;
        const MeasurementResult r = timer.measure([&](CUstream s) { copy.launch(s); }, o);
        QCOMPARE(r.method, std::string("cupti-activity"));
        QVERIFY(r.samplesMs.size() >= 10);
        // 128 MB of traffic: at most a few TB/s, so well above 10 µs and below 100 ms.
        QVERIFY2(r.statsMs.median > 0.01 && r.statsMs.median < 100,
                 std::to_string(r.statsMs.median).c_str());
        qInfo("copy 64 MB: CUPTI median %.3f us, noise %.2f %%, %zu samples (%s)",
              r.statsMs.median * 1e3, r.statsMs.relativeNoise * 100, r.samplesMs.size(),
              stopReasonName(r.stopReason));
    }

    void cuptiRecordsCopies()
    {
        if (m_unavailable) QSKIP(m_unavailable->c_str());
        if (ProfilerStatus s = ActivityTrace::availability(); !s.ok()) QSKIP(s.message.c_str());
        const std::size_t bytes = 32u << 20;
        wb::cuda::DeviceBuffer buffer(*m_context, bytes, "copied");
        std::vector<unsigned char> host(bytes, 7);
        ActivityTrace trace(false, true);
        buffer.upload(host.data(), bytes);
        buffer.download(host.data(), bytes);
        m_context->synchronize();
        const std::vector<MemcpyActivity> copies = trace.takeCopies();
        std::uint64_t h2d = 0, d2h = 0;
        for (const MemcpyActivity& c : copies) {
            QVERIFY(c.endNs > c.startNs);
            if (c.direction == MemcpyActivity::Direction::HostToDevice) h2d += c.bytes;
            if (c.direction == MemcpyActivity::Direction::DeviceToHost) d2h += c.bytes;
        }
        QCOMPARE(h2d, std::uint64_t{bytes});
        QCOMPARE(d2h, std::uint64_t{bytes});
        const std::vector<Summary> s = transferSummaries(copies);
        QVERIFY(findSummary(s, "wb/transfer/h2d_bandwidth")->value > 1e9);
        QVERIFY(findSummary(s, "wb/transfer/d2h_bandwidth")->value > 1e9);
    }

    void eventsAgreeWithCupti()
    {
        if (m_unavailable) QSKIP(m_unavailable->c_str());
        if (ProfilerStatus s = ActivityTrace::availability(); !s.ok()) QSKIP(s.message.c_str());
        CopyCase copy(*m_context, 64ull << 20); // 512 MB of traffic: ≥ 100 µs on any current GPU
        CudaTimer timer(*m_context);
        CudaTimingOptions o;
        o.measurement.minTimeS = 0.1;
        o.measurement.maxTimeS = 5;
        const auto launch = [&](CUstream s) { copy.launch(s); };
        o.method = TimingMethod::CudaEvents;
        const MeasurementResult events = timer.measure(launch, o);
        o.method = TimingMethod::CuptiActivity;
        const MeasurementResult cupti = timer.measure(launch, o);
        const double ratio = events.statsMs.median / cupti.statsMs.median;
        qInfo("copy 256 MB: event median %.3f us, CUPTI median %.3f us, ratio %.4f",
              events.statsMs.median * 1e3, cupti.statsMs.median * 1e3, ratio);
        QVERIFY2(cupti.statsMs.median > 0.05,
                 "kernel shorter than 50 us: comparison not meaningful");
        QVERIFY2(std::fabs(ratio - 1.0) < 0.10, std::to_string(ratio).c_str());
    }

    void copyKernelCounters()
    {
        if (m_unavailable) QSKIP(m_unavailable->c_str());
        // 1 GiB each way: what stays in the (≈50 MB) L2 at the end is < 5 % of the writes.
        CopyCase copy(*m_context, 256ull << 20);
        CudaTimer timer(*m_context);
        timer.flushL2();
        timer.stream().synchronize();
        const CounterReport r =
            RangeProfiler::profile(timer.stream(), [&](CUstream s) { copy.launch(s); });
        if (auto skip = counterSkipReason(r)) QSKIP(skip->c_str());
        QVERIFY2(r.status.ok(), r.status.message.c_str());
        for (const std::string& w : r.warnings)
            qWarning("%s", w.c_str());
        qInfo("chip %s, %zu passes, %zu launches", r.chip.c_str(), r.passes, r.launches);
        for (const MetricValue& v : r.values)
            qInfo("  %-66s %.6g", v.name.c_str(), v.value);
        const double expected = static_cast<double>(copy.n) * 4;
        const double read = r.value("dram__bytes_read.sum").value_or(-1);
        const double write = r.value("dram__bytes_write.sum").value_or(-1);
        QVERIFY2(std::fabs(read - expected) / expected < 0.03, std::to_string(read).c_str());
        QVERIFY2(std::fabs(read + write - 2 * expected) / (2 * expected) < 0.05,
                 std::to_string(read + write).c_str());
        QVERIFY(r.value("gpu__time_duration.sum").value_or(0) > 0);
        QVERIFY(r.passes >= 1);
        QCOMPARE(r.launches, std::size_t{1}); // kernel replay: CUPTI replays, we launch once
        const double nominal = queryDeviceProperties(0).nominalSmClockHz;
        const double observed = r.value("sm__cycles_elapsed.avg.per_second").value_or(0);
        qInfo("SM clock: nominal %.0f MHz, observed %.0f MHz", nominal * 1e-6, observed * 1e-6);
        QVERIFY(observed > 0.2 * nominal && observed < 2.0 * nominal);
        const std::vector<Summary> s = r.summaries();
        QCOMPARE(findSummary(s, "wb/counter/gpu__time_duration.sum")->hint,
                 std::string("duration"));
    }

    void kernelReplayRestoresBuffers()
    {
        if (m_unavailable) QSKIP(m_unavailable->c_str());
        const unsigned long long n = 1u << 20;
        wb::cuda::SourceModule module(*m_context, testkernels::kIncrement);
        const wb::cuda::Kernel kernel = module.function("wb_increment");
        wb::cuda::DeviceBuffer x(*m_context, n * sizeof(float), "x");
        std::vector<float> host(n);
        for (std::size_t i = 0; i < n; ++i)
            host[i] = static_cast<float>(i % 1000);
        x.upload(host.data(), n * sizeof(float));
        const auto launch = [&](CUstream s) {
            const KernelArg args[] = {pointerArg(x), valueArg(n)};
            kernel.submit(linear(n), args, s);
        };
        const CounterReport r = RangeProfiler::profile(*m_stream, launch);
        if (auto skip = counterSkipReason(r)) QSKIP(skip->c_str());
        QVERIFY2(r.status.ok(), r.status.message.c_str());
        QVERIFY2(r.passes > 1, "the metric set fits one pass: replay is not exercised");
        std::vector<float> after(n);
        x.download(after.data(), n * sizeof(float));
        for (std::size_t i = 0; i < n; ++i)
            if (after[i] != host[i] + 1.0f)
                QFAIL(("x[" + std::to_string(i) + "] = " + std::to_string(after[i]) + " after " +
                       std::to_string(r.passes) + " passes; one launch gives " +
                       std::to_string(host[i] + 1.0f))
                          .c_str());
    }

    void userReplayRestoresThroughCallback()
    {
        if (m_unavailable) QSKIP(m_unavailable->c_str());
        const unsigned long long n = 1u << 20;
        wb::cuda::SourceModule module(*m_context, testkernels::kIncrement);
        const wb::cuda::Kernel kernel = module.function("wb_increment");
        wb::cuda::DeviceBuffer x(*m_context, n * sizeof(float), "x");
        std::vector<float> host(n, 41.0f);
        CounterOptions o;
        o.replay = ReplayMode::User;
        std::size_t restores = 0;
        o.beforePass = [&] {
            x.upload(host.data(), n * sizeof(float));
            ++restores;
        };
        const CounterReport r = RangeProfiler::profile(
            *m_stream,
            [&](CUstream s) {
                const KernelArg args[] = {pointerArg(x), valueArg(n)};
                kernel.submit(linear(n), args, s);
            },
            o);
        if (auto skip = counterSkipReason(r)) QSKIP(skip->c_str());
        QVERIFY2(r.status.ok(), r.status.message.c_str());
        QCOMPARE(r.launches, r.passes);
        QCOMPARE(restores, r.launches);
        std::vector<float> after(n);
        x.download(after.data(), n * sizeof(float));
        for (float v : after)
            QCOMPARE(v, 42.0f);
    }

    void profileLaunchGivesOneReport()
    {
        if (m_unavailable) QSKIP(m_unavailable->c_str());
        CopyCase copy(*m_context, 64ull << 20);
        ProfileOptions o;
        o.timing.measurement.minTimeS = 0.1;
        o.timing.measurement.maxTimeS = 5;
        o.workload.bytes = 2.0 * static_cast<double>(copy.n) * 4;
        const ProfileResult r = profileLaunch(
            *m_context, [&](CUstream s) { copy.launch(s); }, o);
        for (const std::string& w : r.warnings)
            qWarning("%s", w.c_str());
        const std::vector<Summary> s = r.summaries();
        const Summary* median = findSummary(s, "wb/timing/median");
        const Summary* bandwidth = findSummary(s, "wb/throughput/bandwidth");
        QVERIFY(median && bandwidth && findSummary(s, "wb/device/sm_clock_nominal"));
        QCOMPARE(bandwidth->value, *o.workload.bytes / median->value);
        qInfo("copy 512 MiB: %s, %s", formatSummaryValue(*median).c_str(),
              formatSummaryValue(*bandwidth).c_str());
        QVERIFY(r.counters.has_value());
        if (auto skip = counterSkipReason(*r.counters)) QSKIP(skip->c_str());
        QVERIFY2(r.counters->status.ok(), r.counters->status.message.c_str());
        const double counterS = findSummary(s, "wb/counter/gpu__time_duration.sum")->value;
        qInfo("counter duration %.3f us vs event median %.3f us", counterS * 1e6,
              median->value * 1e6);
        QVERIFY(std::fabs(counterS / median->value - 1.0) < 0.2);
    }

    void unknownMetricIsDroppedWithWarning()
    {
        if (m_unavailable) QSKIP(m_unavailable->c_str());
        CopyCase copy(*m_context, 1u << 20);
        CounterOptions o;
        o.metrics = {"gpu__time_duration.sum", "no_such__metric.sum"};
        const CounterReport r = RangeProfiler::profile(
            *m_stream, [&](CUstream s) { copy.launch(s); }, o);
        if (auto skip = counterSkipReason(r)) QSKIP(skip->c_str());
        QVERIFY2(r.status.ok(), r.status.message.c_str());
        QCOMPARE(r.values.size(), std::size_t{1});
        QCOMPARE(r.warnings.size(), std::size_t{1});
        QVERIFY(r.warnings[0].find("no_such__metric.sum") != std::string::npos);
    }
};

WB_QTEST_GUILESS_MAIN(TestGpuProfiling)
#include "tst_gpuprofiling.moc"
