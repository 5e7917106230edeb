// SPDX-License-Identifier: GPL-3.0-or-later
// GPU fault corpus through warpbench-runner (label gpu): each fault ends in a clear message and
// the next hello_gpu run passes on a fresh runner. Also a compute-sanitizer memcheck run.
#include "../app/CliProcess.h"
#include "RunnerTestUtil.h"

#include "core/backend/Backend.h"
#include "core/runner/RunnerClient.h"
#include "core/runner/RunnerSweep.h"
#include "tests/support/SuiteMain.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <cstdio>

using namespace wb;
using namespace wb::runner;
using namespace wb::runner::test;
using session::RunReport;

Q_DECLARE_METATYPE(wb::runner::Fault)

class TstRunnerClientGpu : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        if (const auto why = cudaUnavailableReason()) QSKIP(why->c_str());
    }

    void faultCorpus_data()
    {
        QTest::addColumn<QString>("source");
        QTest::addColumn<QStringList>("scalars");
        QTest::addColumn<QString>("shape");
        QTest::addColumn<int>("timeoutMs");
        QTest::addColumn<Fault>("fault");
        QTest::addColumn<QString>("expect");
        // Address 0 (a null pointer) is never mapped; an arbitrary high address such as 1 TiB can
        // be (the H200 run wrote there without a fault).
        QTest::newRow("illegal address")
            << "__global__ void k(float* out, unsigned long long addr) {\n"
               "  reinterpret_cast<float*>(addr)[threadIdx.x] = out[threadIdx.x]; }"
            << QStringList{"addr=0"} << "64" << 10000 << Fault::ContextLost << "context lost";
        QTest::newRow("__trap()") << "__global__ void k(float* out) { if (threadIdx.x == 1) "
                                     "__trap(); out[threadIdx.x] = 1.0f; }"
                                  << QStringList{} << "64" << 10000 << Fault::ContextLost
                                  << "context lost";
        QTest::newRow("infinite loop")
            << "__global__ void k(float* out) { volatile int x = 0; while (true) x = x + 1; out[0] "
               "= float(x); }"
            << QStringList{} << "64" << 2000 << Fault::Timeout << "timeout";
        QTest::newRow("1 PB allocation")
            << "__global__ void k(float* out) { out[threadIdx.x] = 1.0f; }" << QStringList{}
            << "281474976710656" << 10000 << Fault::OutOfMemory << "out of memory";
    }

    void faultCorpus()
    {
        QFETCH(QString, source);
        QFETCH(QStringList, scalars);
        QFETCH(QString, shape);
        QFETCH(int, timeoutMs);
        QFETCH(Fault, fault);
        QFETCH(QString, expect);
        const auto sc = scalarPairs(scalars);
        RunnerClient client(localConfig());
        QCOMPARE(client.run(helloRequest(BackendKind::Cuda)).report.status,
                 RunReport::Status::Passed);
        const RunOutcome o = client.run(request(
            faultSession("fault", source.toStdString(), BackendKind::Cuda, sc, shape.toStdString()),
            timeoutMs));
        print(QTest::currentDataTag(), o);
        QCOMPARE(o.fault, fault);
        QCOMPARE(o.report.exitCode(), 3);
        QVERIFY2(o.report.message.find(expect.toStdString()) != std::string::npos,
                 o.report.message.c_str());
        const RunOutcome next = client.run(helloRequest(BackendKind::Cuda));
        print("hello_gpu after it", next);
        QCOMPARE(next.report.status, RunReport::Status::Passed);
    }

    /// Issue 24 part 1: a failing assert() in a kernel is a runtime error naming file:line,
    /// block and thread, as the emulator's is; the next run works on a fresh runner.
    void deviceAssertNamesWhere()
    {
        RunnerClient client(localConfig());
        const RunOutcome o = client.run(request(faultSession("assert",
                                                             "#include <assert.h>\n"
                                                             "__global__ void k(float* out) {\n"
                                                             "  assert(threadIdx.x != 5);\n"
                                                             "  out[threadIdx.x] = 1.0f; }",
                                                             BackendKind::Cuda, {}, "64"),
                                                10000));
        print("device assert", o);
        QCOMPARE(o.fault, Fault::ContextLost);
        QCOMPARE(o.report.exitCode(), 3);
        const std::string& m = o.report.message;
        QVERIFY2(m.rfind("assertion `threadIdx.x != 5` failed at kernel.cu:3 in ", 0) == 0,
                 m.c_str());
        QVERIFY2(m.find(", block (0,0,0), thread (5,0,0)") != std::string::npos, m.c_str());
        const RunOutcome next = client.run(helloRequest(BackendKind::Cuda));
        QCOMPARE(next.report.status, RunReport::Status::Passed);
    }

    void profileSaxpy_data()
    {
        QTest::addColumn<QString>("timing");
        QTest::addColumn<bool>("flush");
        QTest::addColumn<bool>("counters");
        QTest::addColumn<bool>("userReplay");
        QTest::newRow("events, L2 flush, counters") << "events" << true << true << false;
        QTest::newRow("cupti, counters, user replay") << "cupti" << true << true << true;
        QTest::newRow("events, warm L2, no counters") << "events" << false << false << false;
    }

    /// saxpy through the runner with a profile request: the run passes as it does without one
    /// (y is inout: the profiler's launches must not leak into the result), the profile has a
    /// timing, and the counters are there (or the status says they are not permitted).
    void profileSaxpy()
    {
        QFETCH(QString, timing);
        QFETCH(bool, flush);
        QFETCH(bool, counters);
        QFETCH(bool, userReplay);
        RunnerClient client(localConfig());
        RunnerClient::Request plainReq = request(
            session::ProjectFile::load(WB_SOURCE_DIR "/resources/examples/saxpy/saxpy.wbproj"));
        plainReq.options.backend = BackendKind::Cuda;
        const RunOutcome plain = client.run(plainReq);
        QCOMPARE(plain.report.status, RunReport::Status::Passed);

        RunnerClient::Request req = plainReq;
        profiling::SessionProfileOptions opt;
        opt.timing = timing == QLatin1String("cupti") ? profiling::TimingMethod::CuptiActivity
                                                      : profiling::TimingMethod::CudaEvents;
        opt.flushL2 = flush;
        opt.counters = counters;
        opt.replay = userReplay ? profiling::ReplayMode::User : profiling::ReplayMode::Kernel;
        req.profile = opt;
        const RunOutcome o = client.run(req);
        print(QTest::currentDataTag(), o);
        QCOMPARE(o.fault, Fault::None);
        QCOMPARE(o.report.status, RunReport::Status::Passed); // the diff still passes
        QVERIFY(o.report.results.at("y") == plain.report.results.at("y"));
        QVERIFY(o.profile);
        const profiling::ProfileReport& p = *o.profile;
        std::printf("%s", p.toText().c_str());
        QVERIFY2(p.profiled(), p.status.message.c_str());
        QCOMPARE(p.flushL2, flush);
        const profiling::Summary* median = profiling::findSummary(p.summaries, "wb/timing/median");
        QVERIFY(median && median->value > 0);
        if (!counters) {
            QVERIFY(!p.counterStatus);
            return;
        }
        QVERIFY(p.counterStatus);
        if (p.counterStatus->state == profiling::ProfilerStatus::State::InsufficientPrivileges) {
            QVERIFY(!p.counterStatus->message.empty());
            QSKIP(("counters not permitted here: " + p.counterStatus->message).c_str());
        }
        QVERIFY2(p.counterStatus->ok(), p.counterStatus->message.c_str());
        QVERIFY(p.passes >= 1);
        const profiling::Summary* duration =
            profiling::findSummary(p.summaries, "wb/counter/gpu__time_duration.sum");
        QVERIFY(duration && duration->value > 0);
        // Counter and timing agree on the order of magnitude (same kernel, cold L2 both).
        QVERIFY2(duration->value < median->value * 10 && duration->value > median->value / 10,
                 qPrintable(QStringLiteral("duration %1 s, median %2 s")
                                .arg(duration->value)
                                .arg(median->value)));
    }

    /// A kernel that traps from its third launch on: the run's own two launches (result, one
    /// timed) pass, the profiler's first launch traps. That is a lost context like any other:
    /// a ContextLost fault, and the next run gets a fresh runner and passes.
    void profileFaultIsAFault()
    {
        RunnerClient client(localConfig());
        RunnerClient::Request req =
            request(faultSession("trap-when-profiled",
                                 "__device__ int launches;\n"
                                 "__global__ void k(float* out) {\n"
                                 "  if (threadIdx.x == 0) atomicAdd(&launches, 1);\n"
                                 "  __syncthreads();\n"
                                 "  if (*(volatile int*)&launches > 2) __trap();\n"
                                 "  out[threadIdx.x] = 1.0f; }",
                                 BackendKind::Cuda));
        req.profile = profiling::SessionProfileOptions{};
        const RunOutcome o = client.run(req);
        print("trap while profiling", o);
        QCOMPARE(o.fault, Fault::ContextLost);
        QCOMPARE(o.report.exitCode(), 3);
        QVERIFY2(o.report.message.find("context lost") != std::string::npos,
                 o.report.message.c_str());
        const RunOutcome next = client.run(helloRequest(BackendKind::Cuda));
        print("hello_gpu after it", next);
        QVERIFY(next.runnerStarted);
        QCOMPARE(next.report.status, RunReport::Status::Passed);
    }

    /// The run's own copies, timed in the runner with events around them: hello_gpu's bytes,
    /// and 256 MB each way at a rate a PCIe/NVLink host link can reach (so the events saw the
    /// copies, not an empty span).
    void transfersAreTheRunsOwn()
    {
        RunnerClient client(localConfig());
        const RunOutcome hello = client.run(helloRequest(BackendKind::Cuda));
        QCOMPARE(hello.report.status, RunReport::Status::Passed);
        QVERIFY(hello.report.h2dMs > 0 && hello.report.d2hMs > 0);
        QCOMPARE(hello.report.h2dBytes, std::uint64_t{4800});
        QCOMPARE(hello.report.d2hBytes, std::uint64_t{1600});
        const RunOutcome big = client.run(request(
            faultSession("big", "__global__ void k(float* out) { out[threadIdx.x] = 1.0f; }",
                         BackendKind::Cuda, {}, "67108864"),
            60000));
        // 64 Mi floats (the kernel writes 32 of them; no reference: ran, not checked): 256 MB up,
        // 256 MB down.
        QCOMPARE(big.report.status, RunReport::Status::Unchecked);
        const double mb = 256.0 * 1024 * 1024;
        const double h2dGBs = mb / (big.report.h2dMs * 1e6), d2hGBs = mb / (big.report.d2hMs * 1e6);
        std::printf("  hello: H2D %.4f ms, D2H %.4f ms; 256 MB: H2D %.2f ms (%.1f GB/s), D2H "
                    "%.2f ms (%.1f GB/s)\n",
                    hello.report.h2dMs, hello.report.d2hMs, big.report.h2dMs, h2dGBs,
                    big.report.d2hMs, d2hGBs);
        QCOMPARE(big.report.h2dBytes, std::uint64_t{256} << 20);
        QVERIFY(h2dGBs > 0.5 && h2dGBs < 500);
        QVERIFY(d2hGBs > 0.5 && d2hGBs < 500);
    }

    /// A sweep point that loses the GPU context is that point's verdict; the next point runs in
    /// a fresh runner and passes (its 32 threads write all 32 elements: a point leaving
    /// elements unwritten is invalid).
    void sweepSurvivesContextLoss()
    {
        auto client = std::make_shared<RunnerClient>(localConfig());
        profiling::SweepParameter p;
        p.kind = profiling::SweepParameter::Kind::Scalar;
        p.name = "addr";
        p.values = {"1", "0", "2"};
        const profiling::SweepResult r = profiling::runSweep(
            p, runnerSweepRunner(client,
                                 faultSession("sweep",
                                              "__global__ void k(float* out, unsigned long long "
                                              "addr) {\n"
                                              "  if (addr == 0) reinterpret_cast<float*>(addr)"
                                              "[threadIdx.x] = 1.0f;\n"
                                              "  out[threadIdx.x] = 1.0f; }",
                                              BackendKind::Cuda, {{"addr", "1"}}, "32")));
        for (const auto& point : r.points)
            std::printf("  addr = %s: %s\n", point.value.c_str(), point.outcome.verdict.c_str());
        QCOMPARE(r.points.size(), std::size_t{3});
        QVERIFY2(r.points[0].outcome.valid, r.points[0].outcome.verdict.c_str());
        QVERIFY(!r.points[1].outcome.ok);
        QVERIFY(r.points[1].outcome.verdict.find("context lost") != std::string::npos);
        QVERIFY2(r.points[2].outcome.valid, r.points[2].outcome.verdict.c_str());
    }

    void cliProfileJson()
    {
        const CliRun r = runCli({"profile", WB_SOURCE_DIR "/resources/examples/saxpy/saxpy.wbproj",
                                 "--backend", "cuda", "--json"});
        std::printf("stdout:\n%s\nstderr:\n%s\n", qPrintable(r.out), qPrintable(r.err));
        QCOMPARE(r.exitCode, 0);
        const QJsonObject j = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QCOMPARE(j.value("status").toString(), QStringLiteral("pass"));
        const QJsonObject p = j.value("profile").toObject();
        QCOMPARE(p.value("status").toObject().value("state").toString(), QStringLiteral("ok"));
        QVERIFY(!p.value("device").toString().isEmpty());
        QVERIFY(!p.value("summaries").toArray().isEmpty());
        const QString counterState = p.value("counterStatus").toObject().value("state").toString();
        if (counterState == QLatin1String("insufficient privileges"))
            QSKIP("counters not permitted here");
        QCOMPARE(counterState, QStringLiteral("ok"));
        QVERIFY(p.value("passes").toInt() >= 1);
        bool duration = false;
        for (const QJsonValue& v : p.value("counters").toArray())
            if (v.toObject().value("metric").toString() ==
                QLatin1String("gpu__time_duration.sum")) {
                duration = v.toObject().value("value").toDouble() > 0 &&
                           v.toObject().value("unit").toString() == QLatin1String("ns");
            }
        QVERIFY(duration);

        const CliRun text =
            runCli({"profile", WB_SOURCE_DIR "/resources/examples/saxpy/saxpy.wbproj", "--backend",
                    "cuda", "--no-counters", "--timing", "cupti"});
        std::printf("%s\n%s\n", qPrintable(text.out), qPrintable(text.err));
        QCOMPARE(text.exitCode, 0);
        QVERIFY(text.out.contains(QLatin1String("Profile   ")));
        QVERIFY(text.out.contains(QLatin1String("Counters  not collected")));
    }

    void memcheckFindsTheAccess()
    {
        if (!RunnerClient::sanitizerAvailable()) QSKIP("compute-sanitizer is not installed");
        RunnerClient::Config c = localConfig();
        c.memoryCheck = RunnerClient::MemoryCheck::Memcheck;
        RunnerClient client(c);
        const RunOutcome o = client.run(request(
            faultSession("oob",
                         "__global__ void k(float* out) {\n  out[threadIdx.x + 60] = 1.0f;\n}",
                         BackendKind::Cuda),
            120000));
        print("memcheck", o);
        std::printf("---- compute-sanitizer report ----\n%s\n----\n",
                    o.report.sanitizerLog.c_str());
        QVERIFY(!o.report.memoryFindings.empty());
        QCOMPARE(o.report.memoryFindings[0].kernel, std::string("k"));
        QCOMPARE(o.report.memoryFindings[0].line, 2);
        QVERIFY(o.report.memoryFindings[0].located);
        // The finding fails the run (exit 3) and names its place.
        QCOMPARE(o.report.status, RunReport::Status::RuntimeError);
        QVERIFY2(o.report.message.find("compute-sanitizer found") == 0 &&
                     o.report.message.find(":2") != std::string::npos,
                 o.report.message.c_str());
        RunnerClient plain(localConfig());
        QCOMPARE(plain.run(helloRequest(BackendKind::Cuda)).report.status,
                 RunReport::Status::Passed);
    }

    /// Device printf reaches the outcome like the CPU emulator's: the first 200 lines, then
    /// how many more (the driver flushes the device's printf buffer to the runner's stdout).
    void devicePrintfReachesTheOutcome()
    {
        session::Session s = faultSession(
            "printf",
            "__global__ void k(float* out) { printf(\"gpu thread %d\\n\", (int)threadIdx.x); "
            "out[threadIdx.x] = 1.0f; }",
            BackendKind::Cuda, {}, "256");
        s.launch.block = {"256"};
        RunnerClient client(localConfig());
        const RunOutcome o = client.run(request(s));
        print("device printf", o);
        QCOMPARE(o.fault, Fault::None);
        const QStringList lines =
            QString::fromStdString(o.report.kernelOutput).split(u'\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 201);
        QVERIFY2(lines[0].startsWith(QStringLiteral("gpu thread ")), qPrintable(lines[0]));
        QVERIFY2(lines.last().startsWith(QStringLiteral("… ")) &&
                     lines.last().endsWith(QStringLiteral(" more lines")),
                 qPrintable(lines.last()));
        const qlonglong more = lines.last().section(u' ', 1, 1).toLongLong();
        QCOMPARE((200 + more) % 256, 0); // whole launches of 256 lines each
    }
};

WB_QTEST_GUILESS_MAIN(TstRunnerClientGpu)
#include "tst_runnerclient_gpu.moc"
