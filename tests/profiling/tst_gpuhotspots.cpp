// SPDX-License-Identifier: GPL-3.0-or-later
// GPU: PC-sampling hotspots (core/profiling/PcSampler.*, SessionProfiler with hotspots) on a
// kernel with a known hot loop (tests/profiling/data/hotloop: line 9 runs 2000 times per thread,
// every other line once). Skips where there is no CUDA device or PC sampling is not permitted.
#include "core/backend/Backend.h"
#include "core/common/Error.h"
#include "core/profiling/SessionProfiler.h"
#include "core/session/ProjectFile.h"
#include "core/session/SessionRunner.h"
#include "tests/support/SuiteMain.h"

#include <QTest>

#include <memory>

using namespace wb::profiling;
using wb::session::RunReport;

namespace {

wb::session::Session hotloop()
{
    return wb::session::ProjectFile::load(WB_TEST_DATA_DIR "/hotloop/hotloop.wbproj");
}

} // namespace

class TestGpuHotspots : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        try {
            wb::createBackend(wb::BackendKind::Cuda, 0);
        } catch (const wb::Error& e) {
            QSKIP((std::string("no CUDA device: ") + e.what()).c_str());
        }
    }

    void hotLoopIsTheTopLine()
    {
        wb::session::Session s = hotloop();
        s.compileOptions.lineInfo = true;
        SessionProfileOptions options; // counters on, as the window and the CLI profile
        options.hotspots = true;
        SessionProfiler profiler(options);
        wb::session::SessionRunner::Options opt;
        profiler.install(opt);
        const RunReport rep = wb::session::SessionRunner::run(s, opt);
        QVERIFY2(rep.status == RunReport::Status::Unchecked, rep.message.c_str());
        const ProfileReport& r = profiler.report();
        QVERIFY2(r.profiled(), r.status.message.c_str());
        QVERIFY(r.hotspotStatus.has_value());
        if (r.hotspotStatus->state == ProfilerStatus::State::InsufficientPrivileges)
            QSKIP(r.hotspotStatus->message.c_str());
        QVERIFY2(r.hotspotStatus->ok(), r.hotspotStatus->message.c_str());
        QVERIFY(r.hotspots.has_value());
        const HotspotReport& h = *r.hotspots;
        qInfo("%s", h.toText(5, s.loadKernelSource()).c_str());
        QVERIFY(h.launches >= 1);
        QVERIFY(h.totalSamples > 1000);
        // The samples add up: every sample CUPTI kept is on an instruction of the kernel, and
        // the lines hold exactly the instructions' samples.
        QCOMPARE(h.attributedSamples(), h.totalSamples - h.droppedSamples);
        std::uint64_t lineSum = 0;
        for (const HotspotLine& l : h.lines)
            lineSum += l.samples;
        QCOMPARE(lineSum, h.attributedSamples());
        // The hot loop's body is the top line, with most of the samples.
        QVERIFY(!h.lines.empty());
        QCOMPARE(h.lines.front().line, 9);
        QVERIFY2(h.lines.front().file.ends_with("hotloop.cu"), h.lines.front().file.c_str());
        QVERIFY2(h.share(h.lines.front()) > 0.5, QByteArray::number(h.share(h.lines.front())));
        QVERIFY(!h.lines.front().topStall().empty());
        for (const HotspotInstruction& i : h.instructions) {
            QVERIFY(i.function == h.kernel);
            QVERIFY(i.line >= 1 && i.line <= 11);
        }
        QVERIFY(h.kernel.find("hotloop") != std::string::npos);
    }

    void withoutLineInfoSaysSo()
    {
        wb::session::Session s = hotloop();
        s.compileOptions.lineInfo = false;
        SessionProfileOptions options;
        options.counters = false;
        options.hotspots = true;
        SessionProfiler profiler(options);
        wb::session::SessionRunner::Options opt;
        profiler.install(opt);
        const RunReport rep = wb::session::SessionRunner::run(s, opt);
        QVERIFY2(rep.status == RunReport::Status::Unchecked, rep.message.c_str());
        const ProfileReport& r = profiler.report();
        if (r.hotspotStatus &&
            r.hotspotStatus->state == ProfilerStatus::State::InsufficientPrivileges)
            QSKIP(r.hotspotStatus->message.c_str());
        QVERIFY(r.hotspots.has_value());
        QVERIFY(!r.hotspots->instructions.empty());
        bool warned = false;
        for (const std::string& w : r.hotspots->warnings)
            warned = warned || w.find("-lineinfo") != std::string::npos;
        QVERIFY(warned);
    }

    /// The warm runner's case: one context, a profile with counters first, then a profile with
    /// hotspots of a program loaded after them. CUPTI returned no PC records for it when
    /// sampling was enabled after the load (H200, CUDA 13.0); enabled before the load
    /// (SessionProfiler::install), every sample is on the kernel's instructions.
    void aWarmContextSamplesAfterTheCounters()
    {
        const std::unique_ptr<wb::Backend> backend = wb::createBackend(wb::BackendKind::Cuda, 0);
        wb::session::Session s = hotloop();
        s.compileOptions.lineInfo = true;
        {
            SessionProfiler counters; // counters on, no hotspots
            wb::session::SessionRunner::Options opt;
            opt.reuseBackend = backend.get();
            counters.install(opt);
            const RunReport rep = wb::session::SessionRunner::run(s, opt);
            QVERIFY2(rep.status == RunReport::Status::Unchecked, rep.message.c_str());
            QVERIFY2(counters.report().profiled(), counters.report().status.message.c_str());
        }
        SessionProfileOptions options;
        options.counters = false;
        options.hotspots = true;
        SessionProfiler profiler(options);
        wb::session::SessionRunner::Options opt;
        opt.reuseBackend = backend.get();
        profiler.install(opt);
        const RunReport rep = wb::session::SessionRunner::run(s, opt);
        QVERIFY2(rep.status == RunReport::Status::Unchecked, rep.message.c_str());
        const ProfileReport& r = profiler.report();
        QVERIFY(r.hotspotStatus.has_value());
        if (r.hotspotStatus->state == ProfilerStatus::State::InsufficientPrivileges)
            QSKIP(r.hotspotStatus->message.c_str());
        QVERIFY2(r.hotspotStatus->ok(), r.hotspotStatus->message.c_str());
        const HotspotReport& h = *r.hotspots;
        for (const std::string& w : h.warnings)
            qInfo("warning: %s", w.c_str());
        QVERIFY(h.totalSamples > 1000);
        QCOMPARE(h.attributedSamples(), h.totalSamples - h.droppedSamples);
        QVERIFY(!h.lines.empty());
        QCOMPARE(h.lines.front().line, 9);
    }
};

WB_QTEST_GUILESS_MAIN(TestGpuHotspots)
#include "tst_gpuhotspots.moc"
