// SPDX-License-Identifier: GPL-3.0-or-later
// One run, one value: what a run found travels in session::RunReport (filled through the
// Backend interface), run modes are a typed CheckMode, and the report is encoded, formatted and
// turned into problems in one place (core/session/ReportFormat.h). Also SessionRunner as the
// one owner of input resolution (makeInputs).
#include "core/common/CheckMode.h"
#include "core/common/Error.h"
#include "core/cpu/CpuBackend.h"
#include "core/session/ReportFormat.h"
#include "core/session/RunReport.h"
#include "core/session/SessionRunner.h"
#include "tests/support/SuiteMain.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest/QtTest>

using namespace wb;
using namespace wb::session;

namespace {

RaceFinding sharedRace(int firstLine, int secondLine)
{
    RaceFinding f;
    f.kernel = "block_sum";
    f.shared = true;
    f.location = "cache[67]";
    f.address = 0x1234;
    f.accessSize = 4;
    f.first = {"k.cu", firstLine, {0, 0, 0}, {3, 0, 0}, false, false};
    f.second = {"k.cu", secondLine, {0, 0, 0}, {67, 0, 0}, true, false};
    f.occurrences = 124;
    return f;
}

MemoryFinding outOfBounds()
{
    MemoryFinding f;
    f.kind = MemoryFinding::Kind::OutOfBounds;
    f.kernel = "k";
    f.line = 7;
    f.block = {1, 0, 0};
    f.thread = {4, 0, 0};
    f.located = true;
    f.address = 0xff;
    f.isWrite = true;
    f.accessSize = 4;
    f.message = "write of 4 bytes";
    return f;
}

/// A block-sum kernel whose tree reduction lacks its barrier: a shared-memory race between
/// warps (at s = 32, threads 0-31 read what threads 32-63 wrote at s = 64).
const char* kRacySource = R"(
__global__ void block_sum(const float* in, float* out)
{
    __shared__ float cache[128];
    cache[threadIdx.x] = in[blockIdx.x * 128 + threadIdx.x];
    __syncthreads();
    for (int s = 64; s > 0; s /= 2) {
        if (threadIdx.x < s) cache[threadIdx.x] += cache[threadIdx.x + s];
    }
    if (threadIdx.x == 0) out[blockIdx.x] = cache[0];
}
)";

Session racySession()
{
    Session s;
    s.name = "racy";
    s.kernelSource = kRacySource;
    s.buffers = {BufferSpec{"in", ElementType::F32, {"256"}, BufferRole::In, {}, {}, {}, {}},
                 BufferSpec{"out", ElementType::F32, {"2"}, BufferRole::Out, {}, {}, {}, {}}};
    s.launch.kernel = "block_sum";
    s.launch.grid = {"2"};
    s.launch.block = {"128"};
    s.iterations = 1;
    s.warmup = 0;
    s.backend = BackendKind::Cpu;
    return s;
}

} // namespace

class TestRunReport : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void checkModesAreTypedAndProjectSpellingsAreRead()
    {
        QVERIFY(checkModeOfFlag("--cpu-bounds-check") == CheckMode::Bounds);
        QVERIFY(checkModeOfFlag("--cpu-race-check") == CheckMode::Races);
        QVERIFY(checkModeOfFlag("--cpu-trace") == CheckMode::Trace);
        QVERIFY(!checkModeOfFlag("-O2"));
        QVERIFY(requestedCheckModes(CheckMode::None, {"-DX", "--cpu-bounds-check"}) ==
                std::vector{CheckMode::Bounds});
        // The typed mode first, each mode once: two modes are the backend's error to report.
        QVERIFY(requestedCheckModes(CheckMode::Trace, {"--cpu-race-check", "--cpu-trace"}) ==
                (std::vector{CheckMode::Trace, CheckMode::Races}));
        QVERIFY(requestedCheckModes(CheckMode::None, {}).empty());
        // The CPU emulator does every mode; it is the interface that says so.
        cpu::CpuBackend cpu(1);
        const Backend& b = cpu;
        for (CheckMode m : {CheckMode::None, CheckMode::Trace, CheckMode::Bounds, CheckMode::Races})
            QVERIFY(b.supports(m));
        QVERIFY(b.lastLaunchFindings().memory.empty() && b.lastLaunchFindings().races.empty());
        QVERIFY(cpu.profilingTarget() == nullptr);
        QVERIFY(!cpu.memoryUse());
    }

    void twoModesAreRefusedByTheBackend()
    {
        cpu::CpuBackend cpu(1);
        CompileOptions o;
        o.check = CheckMode::Trace;
        o.extraFlags = {"--cpu-bounds-check"};
        const CompileResult r = cpu.compile("__global__ void k(float* p) { p[0] = 1; }", "k.cu", o);
        QVERIFY(!r.ok);
        QVERIFY2(r.log.find("cannot be combined") != std::string::npos, r.log.c_str());
    }

    void findingsBecomeProblemsAtKernelLines()
    {
        RunReport rep;
        MemoryFinding unknownFile = outOfBounds();
        rep.memoryFindings = {unknownFile};
        rep.races = {sharedRace(11, 11), sharedRace(9, 12)};
        const RunDiagnostics d = toDiagnostics(rep, "kernel.cu");
        QCOMPARE(d.memory.size(), std::size_t{1});
        QCOMPARE(d.memory[0].file, std::string("kernel.cu")); // the finding named no file
        QCOMPARE(d.memory[0].line, 7);
        QCOMPARE(d.memory[0].message, std::string("out of bounds in kernel 'k' at block (1, 0, 0) "
                                                  "thread (4, 0, 0): write of 4 bytes"));
        // A race whose sides share a line is one problem; one on two lines is two.
        QCOMPARE(d.races.size(), std::size_t{3});
        QCOMPARE(d.races[0].line, 11);
        QCOMPARE(d.races[1].line, 9);
        QCOMPARE(d.races[2].line, 12);
        QCOMPARE(d.races[0].severity, Severity::Error);
        QCOMPARE(d.races[0].message,
                 std::string("data race on shared cache[67] in kernel 'block_sum': read at line "
                             "11 by block (0, 0, 0) thread (3, 0, 0) vs write at line 11 by block "
                             "(0, 0, 0) thread (67, 0, 0) (124 conflicting pair(s), no barrier "
                             "between them)"));
    }

    void textAndJsonCarryTheFindings()
    {
        RunReport rep;
        rep.status = RunReport::Status::Passed;
        rep.check = CheckMode::Races;
        rep.kernelOutput = "hello\n";
        rep.memoryFindings = {outOfBounds()};
        rep.races = {sharedRace(11, 11)};
        // A race is a runtime finding: exit 3 although the results passed.
        QCOMPARE(rep.exitCode(), 0);
        QCOMPARE(rep.exitCodeWithFindings(), 3);
        const std::string text = rep.findingsText();
        QVERIFY2(text.find("memory finding: out of bounds: block (1,0,0) thread (4,0,0): kernel k: "
                           "write of 4 bytes\n") != std::string::npos,
                 text.c_str());
        QVERIFY2(text.find("Races     1 found (exit 3)\n") != std::string::npos, text.c_str());
        QVERIFY2(text.find("race: shared cache[67]: k.cu:11 read by block (0,0,0) thread (3,0,0) "
                           "vs k.cu:11 write by block (0,0,0) thread (67,0,0) (kernel block_sum, "
                           "124 conflicting pairs)\n") != std::string::npos,
                 text.c_str());

        const QJsonObject j =
            QJsonDocument::fromJson(QByteArray::fromStdString(rep.toJson())).object();
        QCOMPARE(j["exitCode"].toInt(), 3);
        QCOMPARE(j["kernelOutput"].toString(), QStringLiteral("hello\n"));
        const QJsonArray findings = j["findings"].toArray();
        QCOMPARE(findings.size(), 1);
        QCOMPARE(findings[0].toObject()["kind"].toString(), QStringLiteral("out of bounds"));
        QCOMPARE(findings[0].toObject()["address"].toString(), QStringLiteral("0xff"));
        const QJsonArray races = j["races"].toArray();
        QCOMPARE(races.size(), 1);
        QCOMPARE(races[0].toObject()["memory"].toString(), QStringLiteral("shared"));
        QCOMPARE(races[0].toObject()["occurrences"].toInt(), 124);

        // Not race-checked: no "races" key; race-checked and clean: "races: none found".
        RunReport plain;
        plain.status = RunReport::Status::Passed;
        QVERIFY(!QJsonDocument::fromJson(QByteArray::fromStdString(plain.toJson()))
                     .object()
                     .contains(QLatin1String("races")));
        QCOMPARE(plain.findingsText(), std::string());
        plain.check = CheckMode::Races;
        QCOMPARE(plain.findingsText(), std::string("races: none found\n"));
    }

    /// Issue 29: a run that compared nothing is "unchecked", never a pass: exit 0 while every
    /// output element was written, 1 once one was not; the text and JSON say so.
    void aRunThatComparedNothingIsUnchecked()
    {
        RunReport r;
        r.status = RunReport::Status::Unchecked;
        r.message = "the project has no reference";
        OutputResult y;
        y.buffer = "y";
        y.nan = 2;
        y.inf = 1;
        r.outputs.push_back(y);
        QCOMPARE(std::string(r.statusName()), std::string("unchecked"));
        QCOMPARE(r.exitCode(), 0);
        QVERIFY2(r.toText().find("NaN 2, Inf 1 in the result\n") != std::string::npos,
                 r.toText().c_str());
        QVERIFY2(r.toText().find("Result    RAN, NOT CHECKED: the project has no reference "
                                 "(exit 0)") != std::string::npos,
                 r.toText().c_str());
        r.outputs[0].coverage.checked = true;
        r.outputs[0].coverage.total = 8;
        r.outputs[0].coverage.unwritten = 3;
        QCOMPARE(r.unwrittenElements(), std::uint64_t{3});
        QCOMPARE(r.exitCode(), 1);
        QCOMPARE(r.exitCodeWithFindings(), 1);
        const QJsonObject j =
            QJsonDocument::fromJson(QByteArray::fromStdString(r.toJson())).object();
        QCOMPARE(j["status"].toString(), QString("unchecked"));
        QCOMPARE(j["exitCode"].toInt(), 1);
        const QJsonObject out = j["outputs"].toArray().at(0).toObject();
        QCOMPARE(out["nan"].toObject()["result"].toInt(), 2);
        QCOMPARE(out["inf"].toObject()["result"].toInt(), 1);
        QVERIFY(!out.contains("result"));
    }

    void aRaceCheckedRunReportsItsRaces()
    {
        SessionRunner::Options o;
        o.check = CheckMode::Races;
        const RunReport rep = SessionRunner::run(racySession(), o);
        // It ran to the end; with no reference nothing was compared ("unchecked").
        QVERIFY2(rep.status == RunReport::Status::Unchecked, rep.message.c_str());
        QCOMPARE(rep.check, CheckMode::Races);
        QVERIFY2(!rep.races.empty(), rep.toText().c_str());
        QCOMPARE(rep.races.front().kernel, std::string("block_sum"));
        QVERIFY(rep.races.front().shared);
        QCOMPARE(rep.exitCodeWithFindings(), 3);
        // The same kernel without the check: no races, no mode.
        const RunReport plain = SessionRunner::run(racySession(), {});
        QCOMPARE(plain.check, CheckMode::None);
        QVERIFY(plain.races.empty());
    }

    void makeInputsFillsBuffersAsARunDoes()
    {
        Session s = racySession();
        s.scalars = {ScalarSpec{"n", ElementType::I32, "256"}};
        s.buffers[0].shape = {"n"};
        s.buffers[0].init.kind = Initialiser::Kind::Iota;
        const auto inputs = SessionRunner::makeInputs(s);
        QCOMPARE(inputs.size(), std::size_t{2});
        const HostArray& in = inputs.at("in");
        QCOMPARE(in.count(), std::size_t{256});
        QCOMPARE(in.as<float>()[5], 5.0f);
        s.buffers[0].shape = {"n +"};
        try {
            (void)SessionRunner::makeInputs(s);
            QFAIL("a shape that does not evaluate must throw");
        } catch (const Error& e) {
            QVERIFY2(std::string(e.what()).find("buffers[0].shape[0]") != std::string::npos,
                     e.what());
        }
    }
};

WB_QTEST_GUILESS_MAIN(TestRunReport)
#include "tst_runreport.moc"
