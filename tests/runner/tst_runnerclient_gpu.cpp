// SPDX-License-Identifier: GPL-3.0-or-later
// GPU fault corpus through warpbench-runner (label gpu): each fault ends in a clear message and
// the next hello_gpu run passes on a fresh runner. Also a compute-sanitizer memcheck run.
#include "RunnerTestUtil.h"

#include "core/backend/Backend.h"
#include "core/runner/RunnerClient.h"

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
        std::vector<std::pair<std::string, std::string>> sc;
        for (const QString& s : scalars)
            sc.emplace_back(s.section(QLatin1Char('='), 0, 0).toStdString(),
                            s.section(QLatin1Char('='), 1).toStdString());
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
        std::printf("---- compute-sanitizer report ----\n%s\n----\n", o.sanitizerLog.c_str());
        QVERIFY(!o.findings.empty());
        QCOMPARE(o.findings[0].kernel, std::string("k"));
        QCOMPARE(o.findings[0].line, 2);
        QVERIFY(o.findings[0].located);
        RunnerClient plain(localConfig());
        QCOMPARE(plain.run(helloRequest(BackendKind::Cuda)).report.status,
                 RunReport::Status::Passed);
    }
};

QTEST_GUILESS_MAIN(TstRunnerClientGpu)
#include "tst_runnerclient_gpu.moc"
