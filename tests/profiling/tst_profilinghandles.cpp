// SPDX-License-Identifier: GPL-3.0-or-later
// GPU test (label gpu) of how core/profiling holds its CUDA resources: CudaTimer's stream,
// timing events and L2 flush buffer, and those of profileLaunch, are wb::cuda handles counted in
// HandleRegistry, released with their owner; a CudaTimer keeps its context alive after the
// Context it was made from is gone. No fixture holds a context, so the registry's context count
// shows who keeps it. QSKIPs with the reason where no GPU is usable.
#include "core/backend/Backend.h"
#include "core/cuda/Context.h"
#include "core/cuda/HandleRegistry.h"
#include "core/profiling/CudaTimer.h"
#include "core/profiling/KernelProfiler.h"
#include "tests/support/SuiteMain.h"

#include <QTest>

#include <cstdint>
#include <memory>

using namespace wb::profiling;
using wb::cuda::HandleKind;
using wb::cuda::HandleRegistry;

namespace {

std::int64_t live(HandleKind kind)
{
    return HandleRegistry::instance().usage(kind).count;
}

std::int64_t liveBytes(HandleKind kind)
{
    return HandleRegistry::instance().usage(kind).bytes;
}

/// Short measurements: the work under test is an empty launch (the timer's own flush only).
CudaTimingOptions quickTiming()
{
    CudaTimingOptions o;
    o.measurement.minTimeS = 0;
    o.measurement.maxTimeS = 0.2;
    o.measurement.minSamples = 5;
    o.measurement.maxSamples = 20;
    return o;
}

} // namespace

class TestProfilingHandles : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        if (const auto reason = wb::cudaUnavailableReason()) QSKIP(reason->c_str());
        QCOMPARE(HandleRegistry::instance().totalCount(), std::int64_t{0});
    }

    void timerHoldsItsResourcesAndItsContext()
    {
        if (const auto reason = wb::cudaUnavailableReason()) QSKIP(reason->c_str());
        const std::size_t l2 = queryDeviceProperties(0).l2Bytes;
        std::unique_ptr<CudaTimer> timer;
        {
            const wb::cuda::Context context = wb::cuda::Context::primary(0);
            QCOMPARE(live(HandleKind::Context), std::int64_t{1});
            timer = std::make_unique<CudaTimer>(context);
        }
        // The Context it was made from is gone; the timer's handles keep the context.
        QCOMPARE(live(HandleKind::Context), std::int64_t{1});
        QCOMPARE(live(HandleKind::Stream), std::int64_t{1});
        QCOMPARE(live(HandleKind::Event), std::int64_t{2});
        QCOMPARE(live(HandleKind::DeviceBuffer), std::int64_t{0}); // flush buffer: on first use
        QVERIFY(timer->context().valid());
        QVERIFY(timer->stream().valid());

        // ...and it still works there: cold-L2 samples of an empty launch on its stream.
        std::size_t launches = 0;
        CUstream seen = nullptr;
        const MeasurementResult r = timer->measure(
            [&](CUstream s) {
                seen = s;
                ++launches;
            },
            quickTiming());
        QVERIFY(r.samplesMs.size() >= 5);
        QVERIFY(r.statsMs.min >= 0);
        QVERIFY(launches >= r.samplesMs.size());
        QCOMPARE(seen, timer->stream().handle());
        if (l2 > 0) {
            QCOMPARE(live(HandleKind::DeviceBuffer), std::int64_t{1});
            QCOMPARE(liveBytes(HandleKind::DeviceBuffer),
                     static_cast<std::int64_t>((l2 + 3) / 4 * 4));
        }

        timer.reset();
        // Everything the timer held is released, the context with the last of it.
        QCOMPARE(HandleRegistry::instance().totalCount(), std::int64_t{0});
        QCOMPARE(liveBytes(HandleKind::DeviceBuffer), std::int64_t{0});
    }

    void profileLaunchResourcesAreHandles()
    {
        if (const auto reason = wb::cudaUnavailableReason()) QSKIP(reason->c_str());
        const wb::cuda::Context context = wb::cuda::Context::primary(0);
        ProfileOptions o;
        o.timing = quickTiming();
        o.collectCounters = false; // counters are tst_gpuprofiling's; here: what is held
        std::int64_t streams = -1, events = -1, buffers = -1;
        const ProfileResult r = profileLaunch(
            context,
            [&](CUstream) {
                streams = live(HandleKind::Stream);
                events = live(HandleKind::Event);
                buffers = live(HandleKind::DeviceBuffer);
            },
            o);
        QVERIFY(r.timing.samplesMs.size() >= 5);
        // While it measured: its stream, its two events and its flush buffer, as handles.
        QCOMPARE(streams, std::int64_t{1});
        QCOMPARE(events, std::int64_t{2});
        QCOMPARE(buffers, std::int64_t{r.device.l2Bytes > 0 ? 1 : 0});
        // After it: nothing but the caller's context.
        QCOMPARE(live(HandleKind::Context), std::int64_t{1});
        QCOMPARE(HandleRegistry::instance().totalCount(), std::int64_t{1});
    }

    void cleanupTestCase()
    {
        if (wb::cudaUnavailableReason()) return;
        QCOMPARE(HandleRegistry::instance().totalCount(), std::int64_t{0});
    }
};

WB_QTEST_GUILESS_MAIN(TestProfilingHandles)
#include "tst_profilinghandles.moc"
