// SPDX-License-Identifier: GPL-3.0-or-later
// compute-sanitizer reports (memcheck, racecheck) → wb::MemoryFinding.
// The samples in data/ follow the format of the Compute Sanitizer manual (CUDA 12/13); set
// WB_SANITIZER_REPORT=<file> to parse and print a report captured on a GPU machine.
#include "core/runner/SanitizerReport.h"
#include "tests/support/SuiteMain.h"

#include <QFile>
#include <QTest>

#include <cstdio>

using namespace wb;
using namespace wb::runner;

namespace {

std::string readData(const char* name)
{
    QFile f(QStringLiteral(WB_TEST_DATA_DIR "/") + QLatin1String(name));
    if (!f.open(QIODevice::ReadOnly)) qFatal("cannot read %s", name);
    return f.readAll().toStdString();
}

} // namespace

class TstSanitizerReport : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void memcheck()
    {
        const SanitizerReport r = SanitizerReport::parse(readData("memcheck_sample.txt"));
        QCOMPARE(r.errorCount, 3);
        QCOMPARE(r.findings.size(), std::size_t{3}); // the host API error is not a finding
        const MemoryFinding& a = r.findings[0];
        QCOMPARE(a.kind, MemoryFinding::Kind::OutOfBounds);
        QCOMPARE(a.kernel, std::string("oob_write"));
        QCOMPARE(a.file, std::string("/tmp/warpbench-session/faults.cu"));
        QCOMPARE(a.line, 7);
        QVERIFY(a.located);
        QCOMPARE(a.thread, (Dim3{127, 0, 0}));
        QCOMPARE(a.block, (Dim3{3, 0, 0}));
        QCOMPARE(a.address, std::uint64_t{0x7f3a5c000800});
        QVERIFY(a.isWrite);
        QCOMPARE(a.accessSize, 4u);
        QVERIFY2(a.message.find("1 bytes after the nearest allocation") != std::string::npos,
                 a.message.c_str());

        const MemoryFinding& b = r.findings[1]; // no -lineinfo: no file:line
        QCOMPARE(b.kind, MemoryFinding::Kind::OutOfBounds);
        QCOMPARE(b.kernel, std::string("ns::gather<double>"));
        QVERIFY(b.file.empty());
        QCOMPARE(b.line, 0);
        QVERIFY(!b.isWrite);
        QCOMPARE(b.accessSize, 8u);
        QCOMPARE(b.block, (Dim3{0, 0, 2}));
        QCOMPARE(b.thread, (Dim3{0, 1, 0}));
        QCOMPARE(b.address, std::uint64_t{0});

        const MemoryFinding& c = r.findings[2];
        QCOMPARE(c.kind, MemoryFinding::Kind::Misaligned);
        QCOMPARE(c.file, std::string("faults.cu"));
        QCOMPARE(c.line, 21);
        QVERIFY(c.message.rfind("__shared__ write of 4 bytes", 0) == 0);
    }

    void racecheck()
    {
        const SanitizerReport r = SanitizerReport::parse(readData("racecheck_sample.txt"));
        QCOMPARE(r.findings.size(), std::size_t{1});
        const MemoryFinding& f = r.findings[0];
        QCOMPARE(f.kind, MemoryFinding::Kind::Other);
        QCOMPARE(f.kernel, std::string("block_sum"));
        QCOMPARE(f.line, 12);
        QVERIFY2(f.message.find("race.cu:15") != std::string::npos, f.message.c_str());
        QCOMPARE(r.tool, std::string("racecheck"));
    }

    /// racecheck --racecheck-report all writes a hazard record per byte and pair of threads:
    /// one finding per (type, line pair), located at the first record's block and thread.
    void racecheckHazardsAreCollapsed()
    {
        const std::string report =
            "========= COMPUTE-SANITIZER\n"
            "========= Error: Potential RAW hazard detected at __shared__ 0x500 in block "
            "(131,0,0) :\n"
            "=========     Write Thread (3,0,0) at block_sum(const float *, float *, int)+0x1d0 "
            "in /p/missing_syncthreads.cu:11\n"
            "=========     Read Thread (1,0,0) at block_sum(const float *, float *, int)+0x1f0 "
            "in /p/missing_syncthreads.cu:11\n"
            "=========     Current Value : 0\n"
            "=========     Saved host backtrace up to driver entry point at kernel launch time\n"
            "=========         Host Frame: cuLaunchKernel [0x39fb94] in libcuda.so.1\n"
            "=========\n"
            "========= Error: Potential RAW hazard detected at __shared__ 0x501 in block "
            "(131,0,0) :\n"
            "=========     Write Thread (3,0,0) at block_sum(const float *, float *, int)+0x1d0 "
            "in /p/missing_syncthreads.cu:11\n"
            "=========     Read Thread (1,0,0) at block_sum(const float *, float *, int)+0x1f0 "
            "in /p/missing_syncthreads.cu:11\n"
            "=========\n"
            "========= Warning: Potential WAR hazard detected at __shared__ 0x8 in block (2, 0, "
            "0) :\n"
            "=========     Read Thread (4, 0, 0) at 0x00000748 in /p/other.cu:14:k(int*)\n"
            "=========     Write Thread (2, 0, 0) at 0x00001078 in /p/other.cu:16:k(int*)\n"
            "=========\n"
            "========= RACECHECK SUMMARY: 3 hazards displayed (2 errors, 1 warning)\n";
        const SanitizerReport r = SanitizerReport::parse(report);
        QCOMPARE(r.tool, std::string("racecheck"));
        QCOMPARE(r.findings.size(), std::size_t{2});
        const MemoryFinding& f = r.findings[0];
        QCOMPARE(f.kernel, std::string("block_sum"));
        QCOMPARE(f.file, std::string("/p/missing_syncthreads.cu"));
        QCOMPARE(f.line, 11);
        QVERIFY(f.located);
        QCOMPARE(f.block, (Dim3{131, 0, 0}));
        QCOMPARE(f.thread, (Dim3{3, 0, 0}));
        QCOMPARE(f.address, std::uint64_t{0x500});
        QVERIFY(f.isWrite);
        QCOMPARE(f.message, std::string("shared-memory RAW hazard at __shared__ 0x500: Write by "
                                        "thread (3,0,0) at "
                                        "/p/missing_syncthreads.cu:11 and Read by thread (1,0,0) "
                                        "at /p/missing_syncthreads.cu:11 [2 hazards like it]"));
        const MemoryFinding& g = r.findings[1];
        QCOMPARE(g.kernel, std::string("k"));
        QCOMPARE(g.line, 14);
        QCOMPARE(g.block, (Dim3{2, 0, 0}));
        QCOMPARE(g.thread, (Dim3{4, 0, 0}));
        QVERIFY(!g.isWrite);
        QVERIFY2(
            g.message.find(
                "WAR hazard at __shared__ 0x8: Read by thread (4,0,0) at /p/other.cu:14 and Write "
                "by thread (2,0,0) at /p/other.cu:16") != std::string::npos,
            g.message.c_str());
    }

    /// `--racecheck-report all` also prints each hazard (the issue 25 run said "Potential RAW
    /// hazard" with no place): block from the title, thread and file:line from its first
    /// access, the other access in the message; both location styles, both dim spellings.
    void racecheckHazards()
    {
        const SanitizerReport r = SanitizerReport::parse(readData("racecheck_hazards.txt"));
        QCOMPARE(r.tool, std::string("racecheck"));
        QCOMPARE(r.findings.size(), std::size_t{3});
        const MemoryFinding& raw = r.findings[0];
        QCOMPARE(raw.kind, MemoryFinding::Kind::Other);
        QCOMPARE(raw.kernel, std::string("block_sum"));
        QCOMPARE(raw.file, std::string("/tmp/warpbench-session/race.cu"));
        QCOMPARE(raw.line, 12);
        QVERIFY(raw.located);
        QCOMPARE(raw.block, (Dim3{3, 0, 0}));
        QCOMPARE(raw.thread, (Dim3{31, 0, 0}));
        QVERIFY(raw.isWrite);
        QCOMPARE(raw.address, std::uint64_t{8});
        QCOMPARE(raw.message,
                 std::string("shared-memory RAW hazard at __shared__ 0x8: Write by thread "
                             "(31,0,0) at /tmp/warpbench-session/race.cu:12 and Read by thread "
                             "(0,1,0) at /tmp/warpbench-session/race.cu:15"));
        const MemoryFinding& war = r.findings[1];
        QCOMPARE(war.kernel, std::string("block_sum"));
        QCOMPARE(war.file, std::string("race.cu"));
        QCOMPARE(war.line, 15);
        QCOMPARE(war.block, (Dim3{0, 0, 0}));
        QCOMPARE(war.thread, (Dim3{2, 0, 0}));
        QVERIFY(!war.isWrite);
        QVERIFY2(war.message.find("Write by thread (33,0,0) at race.cu:12") != std::string::npos,
                 war.message.c_str());
        // The analysis summary stays as before: lines, no thread.
        QCOMPARE(r.findings[2].line, 12);
        QVERIFY(!r.findings[2].located);
    }

    void emptyAndCleanReports()
    {
        QVERIFY(SanitizerReport::parse("").findings.empty());
        const SanitizerReport r = SanitizerReport::parse(
            "========= COMPUTE-SANITIZER\n========= ERROR SUMMARY: 0 errors\n");
        QVERIFY(r.findings.empty());
        QCOMPARE(r.errorCount, 0);
    }

    // Issue 15: compute-sanitizer quotes kernel names and paths; std::regex overflowed the
    // stack on a 50,000-character one.
    void longNamesDoNotCrash()
    {
        const std::string k(50'000, 'k');
        const std::string path = "/tmp/" + std::string(50'000, 'd') + "/faults.cu";
        const std::string report = "========= COMPUTE-SANITIZER\n"
                                   "=========   Running " +
                                   std::string(50'000, 'x') +
                                   " racecheck\n"
                                   "========= Invalid __global__ write of size 4 bytes\n"
                                   "=========     at " +
                                   k + "(float *, int)+0x70 in " + path +
                                   ":7\n"
                                   "=========     by thread (1,2,3) in block (4,5,6)\n"
                                   "=========     Address 0x7f00 is out of bounds\n"
                                   "=========     and is 1 bytes after the nearest allocation\n"
                                   "=========\n"
                                   "========= Error: Race reported between Write access at " +
                                   k + "(int *)+0x2e0 in " + path +
                                   ":12\n"
                                   "=========     and Read access at " +
                                   k + "(int *)+0x300 in " + path +
                                   ":15 [248 hazards]\n"
                                   "=========\n"
                                   "========= Invalid __global__ read of size 8 bytes\n"
                                   "=========     at 0x70 in " +
                                   path + ":21:" + k +
                                   "(double *)\n"
                                   "=========\n"
                                   "========= ERROR SUMMARY: 3 errors\n";
        const SanitizerReport r = SanitizerReport::parse(report);
        QCOMPARE(r.errorCount, 3);
        QCOMPARE(r.findings.size(), std::size_t{3});
        QCOMPARE(r.findings[0].kernel, k);
        QCOMPARE(r.findings[0].file, path);
        QCOMPARE(r.findings[0].line, 7);
        QCOMPARE(r.findings[0].block, (Dim3{4, 5, 6}));
        QCOMPARE(r.findings[0].address, std::uint64_t{0x7f00});
        QCOMPARE(r.findings[0].kind, MemoryFinding::Kind::OutOfBounds);
        QCOMPARE(r.findings[1].kernel, k);
        QCOMPARE(r.findings[1].line, 12);
        QVERIFY(r.findings[1].message.find(path + ":15") != std::string::npos);
        QCOMPARE(r.findings[2].kernel, k);
        QCOMPARE(r.findings[2].line, 21);
        QCOMPARE(r.tool, std::string("racecheck"));
    }

    void capturedReport()
    {
        const QByteArray path = qgetenv("WB_SANITIZER_REPORT");
        if (path.isEmpty())
            QSKIP("set WB_SANITIZER_REPORT=<file> to parse a report captured on the GPU");
        QFile f(QString::fromLocal8Bit(path));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const SanitizerReport r = SanitizerReport::parse(f.readAll().toStdString());
        std::printf("errors reported: %d, findings: %zu\n", r.errorCount, r.findings.size());
        for (const MemoryFinding& m : r.findings)
            std::printf(
                "  %s | kernel %s | %s:%d | block (%u,%u,%u) thread (%u,%u,%u) | 0x%llx | %s\n",
                memoryFindingKindName(m.kind), m.kernel.c_str(), m.file.c_str(), m.line, m.block.x,
                m.block.y, m.block.z, m.thread.x, m.thread.y, m.thread.z,
                static_cast<unsigned long long>(m.address), m.message.c_str());
        QVERIFY(!r.findings.empty());
    }
};

WB_QTEST_GUILESS_MAIN(TstSanitizerReport)
#include "tst_sanitizerreport.moc"
