// SPDX-License-Identifier: GPL-3.0-or-later
// Tests core/profiling/SessionProfiler.* on the CPU emulator (CI): installed as a session run's
// profile hook it says, in words, that counters and cold-cache timing need the CUDA backend,
// and the run itself is unchanged; a run that stops before its launches says so. The CUDA path
// is tested through the runner on the GPU (tests/runner/tst_runnerclient_gpu profile*).
#include "core/backend/Backend.h"
#include "core/common/Error.h"
#include "core/profiling/SessionProfiler.h"
#include "core/session/ProjectFile.h"
#include "tests/support/SuiteMain.h"

#include <QTest>

using namespace wb::profiling;
using wb::session::RunReport;

class TestSessionProfiler : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        try {
            wb::createBackend(wb::BackendKind::Cpu, 0);
        } catch (const wb::Error& e) {
            QSKIP((std::string("CPU backend unavailable: ") + e.what()).c_str());
        }
    }

    void cpuBackendSaysWhy()
    {
        wb::session::Session s =
            wb::session::ProjectFile::load(WB_SOURCE_DIR "/resources/examples/saxpy/saxpy.wbproj");
        s.backend = wb::BackendKind::Cpu;
        s.iterations = 2;
        const RunReport plain = wb::session::SessionRunner::run(s, {});
        SessionProfiler profiler;
        QVERIFY(!profiler.report().profiled());
        QVERIFY(profiler.report().status.message.find("stopped before") != std::string::npos);
        wb::session::SessionRunner::Options opt;
        profiler.install(opt);
        const RunReport rep = wb::session::SessionRunner::run(s, opt);
        QCOMPARE(rep.status, RunReport::Status::Passed);
        QVERIFY(rep.results.at("y") == plain.results.at("y"));
        const ProfileReport& r = profiler.report();
        QVERIFY(!r.profiled());
        QCOMPARE(r.status.state, ProfilerStatus::State::UnsupportedDevice);
        QCOMPARE(r.status.message, std::string(SessionProfiler::needsCudaMessage()));
        QVERIFY(r.status.message.find("need the CUDA backend") != std::string::npos);
        QVERIFY(r.status.message.find("CPU emulator has none") != std::string::npos);
        QCOMPARE(r.warnings.size(), std::size_t(1));
        QVERIFY(r.summaries.empty());
        QCOMPARE(r.device, rep.device.name);
        QVERIFY(!profiler.result());
    }

    void runStoppedBeforeItsLaunches()
    {
        wb::session::Session s =
            wb::session::ProjectFile::load(WB_SOURCE_DIR "/resources/examples/saxpy/saxpy.wbproj");
        s.backend = wb::BackendKind::Cpu;
        s.kernelFile.clear();
        s.kernelSource = "__global__ void saxpy(int n, float alpha, const float* x, float* y) "
                         "{ this does not compile }";
        SessionProfiler profiler;
        wb::session::SessionRunner::Options opt;
        profiler.install(opt);
        const RunReport rep = wb::session::SessionRunner::run(s, opt);
        QCOMPARE(rep.status, RunReport::Status::CompileError);
        QVERIFY(!profiler.report().profiled());
        QCOMPARE(profiler.report().status.state, ProfilerStatus::State::Failed);
        QVERIFY(profiler.report().status.message.find("stopped before") != std::string::npos);
    }
};

WB_QTEST_MAIN(TestSessionProfiler)
#include "tst_sessionprofiler.moc"
