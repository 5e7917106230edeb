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

    void emptyAndCleanReports()
    {
        QVERIFY(SanitizerReport::parse("").findings.empty());
        const SanitizerReport r = SanitizerReport::parse(
            "========= COMPUTE-SANITIZER\n========= ERROR SUMMARY: 0 errors\n");
        QVERIFY(r.findings.empty());
        QCOMPARE(r.errorCount, 0);
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
