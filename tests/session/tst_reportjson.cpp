// SPDX-License-Identifier: GPL-3.0-or-later
// core/session/ReportJson: the one JSON encoding of a run's results, shared by --json and the
// runner protocol, and its decoder.
#include "core/common/Error.h"
#include "core/session/ReportJson.h"
#include "core/session/RunReport.h"
#include "tests/support/SuiteMain.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>

using namespace wb;
using namespace wb::session;

namespace {

/// The text the runner sends and the client parses: compact JSON, as Protocol::encode writes.
QJsonObject throughText(const QJsonObject& o)
{
    return QJsonDocument::fromJson(QJsonDocument(o).toJson(QJsonDocument::Compact)).object();
}

QJsonObject cliJson(const RunReport& r)
{
    return QJsonDocument::fromJson(QByteArray::fromStdString(r.toJson())).object();
}

constexpr std::uint64_t kBig = 18446744073709551557ull; // above 2^63: a decimal string
constexpr std::uint64_t kOdd = 9007199254740993ull;     // 2^53 + 1: no double holds it

RaceFinding sampleRace()
{
    RaceFinding f;
    f.kernel = "block_sum";
    f.shared = true;
    f.location = "cache[67]";
    f.address = 0x7ffd12345678ull;
    f.accessSize = 4;
    f.first = RaceAccess{"k.cu", 11, {0, 0, 0}, {3, 0, 0}, false, false};
    f.second = RaceAccess{"k.cu", 12, {1, 2, 3}, {67, 1, 0}, true, true};
    f.occurrences = kOdd;
    return f;
}

MemoryFinding sampleFinding(bool located)
{
    MemoryFinding f;
    f.kind = located ? MemoryFinding::Kind::UseAfterFree : MemoryFinding::Kind::Other;
    f.kernel = "stencil";
    f.file = located ? "k.cu" : "";
    f.line = located ? 9 : 0;
    if (located) {
        f.block = {1, 2, 3};
        f.thread = {4, 5, 6};
    }
    f.located = located;
    f.address = 0xffffffffffffff01ull;
    f.isWrite = located;
    f.accessSize = 16;
    f.message = "write of 16 bytes, 0 bytes past a 4096-byte buffer";
    return f;
}

/// A report with every kind of result, each with values a double or a default would lose.
RunReport everyKind()
{
    RunReport r;
    r.status = RunReport::Status::Mismatch;
    r.message = "outputs differ from the reference";
    r.project = "every kind";
    r.backend = BackendKind::Cuda;
    r.device = DeviceDescription{"NVIDIA H200", 1,        "sm_90",  132,      kOdd,
                                 4800.5,        66908.25, 50331648, "580.95", 0};
    // Compile
    r.compiled = true;
    r.compilerVersion = "NVRTC 13.0";
    r.target = "sm_90";
    r.compileMs = 12.345678901234567;
    r.diagnostics.push_back(Diagnostic{"k.cu",
                                       3,
                                       7,
                                       Severity::Warning,
                                       "177-D",
                                       "declared but never referenced",
                                       {"detected during instantiation of \"k<float>\""}});
    r.diagnostics.push_back(Diagnostic{"k.cu", 0, 0, Severity::Fatal, "", "gave up", {}});
    r.compileLog = "k.cu(3): warning #177-D\n";
    r.kernel.name = "scale<float, 128>";
    r.kernel.loweredName = "_Z5scaleIfLi128EEvPT_S1_";
    r.kernel.signature = "void scale<float, 128>(float*, float*)";
    r.kernel.isTemplateInstance = true;
    r.kernel.params.push_back(KernelParam{"a", "float*", 8, 0, 8, true, "float", true});
    r.kernel.params.push_back(KernelParam{"n", "int", 4, 8, 4, false, "", false});
    r.kernel.resources = ResourceUsage{40, 8, 4, 16, 1024, 64, 1, true};
    // Timing
    r.launch.grid = {4294967295u, 2, 1};
    r.launch.block = {128, 1, 1};
    r.launch.sharedBytes = 49152;
    r.launch.cluster = {2, 1, 1};
    r.launch.cooperative = true;
    r.warmup = 3;
    r.iterations = 5;
    r.timing = TimingStats::of({0.1, 0.2, 0.30000000000000004, 1.0 / 3.0, 0.25});
    PipelineLaunchTiming p;
    p.entry = 1;
    p.kernel = "step";
    p.vars = {{"z", 2}, {"a", -7}}; // outermost first: not alphabetical
    p.config.grid = {8, 1, 1};
    p.config.block = {256, 1, 1};
    p.config.sharedBytes = 16;
    p.timing = TimingStats::of({0.5, 0.7});
    r.pipeline.push_back(p);
    r.bytesMoved = kOdd;
    r.bandwidthGBs = 3210.123456789;
    r.peakPercent = 66.87;
    r.flopsPerLaunch = 2e9;
    r.gflops = 70000.125;
    r.speedOfLight = SpeedOfLight{4800,  "driver", 6900,  true, true, "impossible",
                                  66908, "FP32",   70000, true, true};
    r.conditionsBefore = DeviceConditions{1980, 3201, 33, "nvml"};
    r.conditionsAfter.source = "libnvidia-ml.so.1 not found";
    // Transfers
    r.h2dMs = 0.125;
    r.d2hMs = 1e-300;
    r.h2dBytes = kOdd;
    r.d2hBytes = 4096;
    // Grade mode's checks
    r.graded = true;
    r.coldSamples = true;
    r.freshInputs = true;
    r.freshTimedInputs = true;
    r.pinnedInputs = "the image is fixed";
    r.checkSeed = kBig;
    r.checks.push_back(
        LaunchCheck{"timed launch 3 of 5", 4, false, kOdd, 1000, 2, "out: 1,000 never written"});
    r.checks.push_back(LaunchCheck{"launch after timing (fresh inputs)", 9, true, 0, 0, 0, ""});
    // Reference and diffs
    r.referenceKind = ReferenceSpec::Kind::Cpp;
    r.referenceCompiler = "g++ 13.2";
    r.referenceDiagnostics.push_back(
        Diagnostic{"reference.cpp", 4, 2, Severity::Note, "", "declared here", {}});
    OutputResult compared;
    compared.buffer = "out";
    compared.compared = true;
    compared.tolerance = Tolerance{Tolerance::Mode::Ulp, 1e-7, 3e-5, kBig, true};
    compared.stats.count = kOdd;
    compared.stats.compared = 1000;
    compared.stats.maxAbs = 0.1 + 0.2;
    compared.stats.maxRel = std::numeric_limits<double>::infinity();
    compared.stats.maxUlp = kBig;
    compared.stats.meanAbs = std::numeric_limits<double>::quiet_NaN();
    compared.stats.rms = -std::numeric_limits<double>::infinity();
    compared.stats.mismatches = 3;
    compared.stats.mismatchFraction = 3e-3;
    compared.stats.nanActual = 1;
    compared.stats.nanExpected = 2;
    compared.stats.infActual = 3;
    compared.stats.infExpected = 4;
    compared.stats.firstMismatches.push_back(Mismatch{3, {0, 3}, 1.5, 2.5, 1.0, 99});
    compared.stats.firstMismatches.push_back(
        Mismatch{kOdd, {1, 2}, 9.2e18, 9.2e18, 0, kBig, "9223372036854775807", "-3"});
    compared.stats.histogram.assign(DiffStats::kHistogramBins, 0);
    compared.stats.histogram[0] = 990;
    compared.stats.histogram[63] = kOdd;
    compared.coverage = CoverageStats{true, 4096, 24, 2, 4072, 4095, true, "tail?"};
    compared.nan = 5;
    compared.inf = 6;
    r.outputs.push_back(compared);
    OutputResult unchecked;
    unchecked.buffer = "scratch";
    unchecked.compared = false;
    unchecked.tolerance = Tolerance{};
    unchecked.nan = 7;
    unchecked.inf = kOdd;
    r.outputs.push_back(unchecked);
    r.sandbox = "device-code check: NVRTC 13.0, sm_90; seccomp-bpf filter";
    // Checks and output
    r.check = CheckMode::Races;
    r.memoryFindings.push_back(sampleFinding(true));
    r.memoryFindings.push_back(sampleFinding(false));
    r.races.push_back(sampleRace());
    r.raceCrowding.push_back(RaceCrowding{"data", false, kOdd});
    r.raceCrowding.push_back(RaceCrowding{"cache", true, 3});
    r.sanitizerLog = "========= COMPUTE-SANITIZER\n========= Invalid __global__ write\n";
    r.kernelOutput = "thread 0 says hi\n… 3 more lines\n";
    return r;
}

bool sameReal(double a, double b)
{
    return (std::isnan(a) && std::isnan(b)) || a == b;
}

} // namespace

class TestReportJson : public QObject {
    Q_OBJECT

private Q_SLOTS:
    /// Every kind of result, encoded as the runner sends it (through compact JSON text) and
    /// decoded as the client reads it, comes back equal.
    void everyResultKindRoundTrips()
    {
        const RunReport r = everyKind();
        const QJsonObject wire = reportToJson(r, ReportSections::All);
        const RunReport b = reportFromJson(throughText(wire));

        QCOMPARE(b.status, r.status);
        QCOMPARE(b.message, r.message);
        QCOMPARE(b.project, r.project);
        QCOMPARE(b.backend, r.backend);
        QCOMPARE(b.device.name, r.device.name);
        QCOMPARE(b.device.index, r.device.index);
        QCOMPARE(b.device.multiprocessors, r.device.multiprocessors);
        QCOMPARE(b.device.totalMemoryBytes, kOdd);
        QCOMPARE(b.device.peakBandwidthGBs, r.device.peakBandwidthGBs);
        QCOMPARE(b.device.peakFp32Gflops, r.device.peakFp32Gflops);
        QCOMPARE(b.device.l2CacheBytes, r.device.l2CacheBytes);
        QCOMPARE(b.device.driverVersion, r.device.driverVersion);
        // Compile
        QCOMPARE(b.compiled, true);
        QCOMPARE(b.compilerVersion, r.compilerVersion);
        QCOMPARE(b.target, r.target);
        QCOMPARE(b.compileMs, r.compileMs);
        QCOMPARE(b.diagnostics, r.diagnostics);
        QCOMPARE(b.compileLog, r.compileLog);
        QCOMPARE(b.kernel, r.kernel);
        // Timing
        QCOMPARE(b.launch, r.launch);
        QCOMPARE(b.warmup, r.warmup);
        QCOMPARE(b.iterations, r.iterations);
        QCOMPARE(b.timing.samplesMs, r.timing.samplesMs);
        QCOMPARE(b.timing.medianMs, r.timing.medianMs);
        QCOMPARE(b.timing.minMs, r.timing.minMs);
        QCOMPARE(b.timing.meanMs, r.timing.meanMs);
        QCOMPARE(b.timing.stdevMs, r.timing.stdevMs);
        QCOMPARE(b.pipeline.size(), std::size_t{1});
        QCOMPARE(b.pipeline[0].entry, p0(r).entry);
        QCOMPARE(b.pipeline[0].kernel, p0(r).kernel);
        QCOMPARE(b.pipeline[0].vars, p0(r).vars);
        QCOMPARE(b.pipeline[0].config, p0(r).config);
        QCOMPARE(b.pipeline[0].timing.samplesMs, p0(r).timing.samplesMs);
        QCOMPARE(b.pipeline[0].timing.stdevMs, p0(r).timing.stdevMs);
        QCOMPARE(b.bytesMoved, kOdd);
        QCOMPARE(b.bandwidthGBs, r.bandwidthGBs);
        QCOMPARE(b.peakPercent, r.peakPercent);
        // Speed of light and clocks
        QCOMPARE(b.flopsPerLaunch, r.flopsPerLaunch);
        QCOMPARE(b.gflops, r.gflops);
        const SpeedOfLight &s = b.speedOfLight, &t = r.speedOfLight;
        QCOMPARE(s.peakGBs, t.peakGBs);
        QCOMPARE(s.peakSource, t.peakSource);
        QCOMPARE(s.achievedGBs, t.achievedGBs);
        QCOMPARE(s.checked, t.checked);
        QCOMPARE(s.impossible, t.impossible);
        QCOMPARE(s.message, t.message);
        QCOMPARE(s.peakGflops, t.peakGflops);
        QCOMPARE(s.flopsPeakSource, t.flopsPeakSource);
        QCOMPARE(s.achievedGflops, t.achievedGflops);
        QCOMPARE(s.flopsChecked, t.flopsChecked);
        QCOMPARE(s.flopsImpossible, t.flopsImpossible);
        QCOMPARE(b.conditionsBefore.smClockMHz, 1980);
        QCOMPARE(b.conditionsBefore.memoryClockMHz, 3201);
        QCOMPARE(b.conditionsBefore.temperatureC, 33);
        QCOMPARE(b.conditionsBefore.source, std::string("nvml"));
        QCOMPARE(b.conditionsAfter.smClockMHz, -1);
        QCOMPARE(b.conditionsAfter.temperatureC, -1);
        QCOMPARE(b.conditionsAfter.source, r.conditionsAfter.source);
        // Transfers
        QCOMPARE(b.h2dMs, r.h2dMs);
        QCOMPARE(b.d2hMs, r.d2hMs);
        QCOMPARE(b.h2dBytes, kOdd);
        QCOMPARE(b.d2hBytes, r.d2hBytes);
        // Grade mode's checks
        QCOMPARE(b.graded, true);
        QCOMPARE(b.coldSamples, true);
        QCOMPARE(b.freshInputs, true);
        QCOMPARE(b.freshTimedInputs, true);
        QCOMPARE(b.pinnedInputs, r.pinnedInputs);
        QCOMPARE(b.checkSeed, kBig);
        QCOMPARE(b.checks.size(), r.checks.size());
        for (std::size_t i = 0; i < r.checks.size(); ++i) {
            QCOMPARE(b.checks[i].label, r.checks[i].label);
            QCOMPARE(b.checks[i].launch, r.checks[i].launch);
            QCOMPARE(b.checks[i].passed, r.checks[i].passed);
            QCOMPARE(b.checks[i].mismatches, r.checks[i].mismatches);
            QCOMPARE(b.checks[i].unwritten, r.checks[i].unwritten);
            QCOMPARE(b.checks[i].nanWhereFinite, r.checks[i].nanWhereFinite);
            QCOMPARE(b.checks[i].message, r.checks[i].message);
        }
        // Reference and diffs
        QCOMPARE(b.referenceKind, r.referenceKind);
        QCOMPARE(b.referenceCompiler, r.referenceCompiler);
        QCOMPARE(b.referenceDiagnostics, r.referenceDiagnostics);
        QCOMPARE(b.outputs.size(), r.outputs.size());
        for (std::size_t i = 0; i < r.outputs.size(); ++i) {
            const OutputResult &x = b.outputs[i], &y = r.outputs[i];
            QCOMPARE(x.buffer, y.buffer);
            QCOMPARE(x.compared, y.compared);
            QCOMPARE(x.tolerance, y.tolerance);
            QCOMPARE(x.nan, y.nan);
            QCOMPARE(x.inf, y.inf);
            QCOMPARE(x.coverage.checked, y.coverage.checked);
            QCOMPARE(x.coverage.total, y.coverage.total);
            QCOMPARE(x.coverage.unwritten, y.coverage.unwritten);
            QCOMPARE(x.coverage.ambiguous, y.coverage.ambiguous);
            QCOMPARE(x.coverage.firstUnwritten, y.coverage.firstUnwritten);
            QCOMPARE(x.coverage.lastUnwritten, y.coverage.lastUnwritten);
            QCOMPARE(x.coverage.tailOnly, y.coverage.tailOnly);
            QCOMPARE(x.coverage.hint, y.coverage.hint);
            const DiffStats &d = x.stats, &e = y.stats;
            QCOMPARE(d.count, e.count);
            QCOMPARE(d.compared, e.compared);
            QCOMPARE(d.maxAbs, e.maxAbs);
            QVERIFY(sameReal(d.maxRel, e.maxRel));
            QCOMPARE(d.maxUlp, e.maxUlp);
            QVERIFY(sameReal(d.meanAbs, e.meanAbs));
            QVERIFY(sameReal(d.rms, e.rms));
            QCOMPARE(d.mismatches, e.mismatches);
            QCOMPARE(d.mismatchFraction, e.mismatchFraction);
            QCOMPARE(d.nanActual, e.nanActual);
            QCOMPARE(d.nanExpected, e.nanExpected);
            QCOMPARE(d.infActual, e.infActual);
            QCOMPARE(d.infExpected, e.infExpected);
            QCOMPARE(d.histogram, e.histogram);
            QCOMPARE(d.firstMismatches.size(), e.firstMismatches.size());
            for (std::size_t k = 0; k < e.firstMismatches.size(); ++k) {
                const Mismatch &m = d.firstMismatches[k], &n = e.firstMismatches[k];
                QCOMPARE(m.index, n.index);
                QCOMPARE(m.coordinates, n.coordinates);
                QCOMPARE(m.actual, n.actual);
                QCOMPARE(m.expected, n.expected);
                QCOMPARE(m.absError, n.absError);
                QCOMPARE(m.ulp, n.ulp);
                QCOMPARE(m.actualText, n.actualText);
                QCOMPARE(m.expectedText, n.expectedText);
            }
        }
        QCOMPARE(b.sandbox, r.sandbox);
        // Checks, sanitizer and kernel output
        QCOMPARE(b.check, CheckMode::Races);
        QCOMPARE(b.memoryFindings.size(), std::size_t{2});
        for (std::size_t i = 0; i < 2; ++i) {
            const MemoryFinding &f = b.memoryFindings[i], &g = r.memoryFindings[i];
            QCOMPARE(f.kind, g.kind);
            QCOMPARE(f.kernel, g.kernel);
            QCOMPARE(f.file, g.file);
            QCOMPARE(f.line, g.line);
            QCOMPARE(f.block, g.block);
            QCOMPARE(f.thread, g.thread);
            QCOMPARE(f.located, g.located);
            QCOMPARE(f.address, g.address);
            QCOMPARE(f.isWrite, g.isWrite);
            QCOMPARE(f.accessSize, g.accessSize);
            QCOMPARE(f.message, g.message);
        }
        QCOMPARE(b.races.size(), std::size_t{1});
        const RaceFinding &x = b.races[0], &y = r.races[0];
        QCOMPARE(x.kernel, y.kernel);
        QCOMPARE(x.shared, y.shared);
        QCOMPARE(x.location, y.location);
        QCOMPARE(x.address, y.address);
        QCOMPARE(x.accessSize, y.accessSize);
        QCOMPARE(x.occurrences, kOdd);
        for (const auto& [u, v] :
             {std::pair{&x.first, &y.first}, std::pair{&x.second, &y.second}}) {
            QCOMPARE(u->file, v->file);
            QCOMPARE(u->line, v->line);
            QCOMPARE(u->block, v->block);
            QCOMPARE(u->thread, v->thread);
            QCOMPARE(u->isWrite, v->isWrite);
            QCOMPARE(u->isAtomic, v->isAtomic);
        }
        QCOMPARE(b.raceCrowding.size(), std::size_t{2});
        QCOMPARE(b.raceCrowding[0].words, kOdd);
        QCOMPARE(b.raceCrowding[1].location, std::string("cache"));
        QCOMPARE(b.raceCrowding[1].shared, true);
        QCOMPARE(b.sanitizerLog, r.sanitizerLog);
        QCOMPARE(b.kernelOutput, r.kernelOutput);

        // Whatever the fields above miss: encoding the decoded report gives the same object,
        // and every reader (text, --json) sees the same report.
        QCOMPARE(reportToJson(b, ReportSections::All), wire);
        QCOMPARE(b.toJson(), r.toJson());
        QCOMPARE(b.toText(), r.toText());
        QCOMPARE(b.findingsText(), r.findingsText());
    }

    /// A run that did little (not compiled, not timed, not graded, no checks) comes back as it
    /// was: defaults stay defaults (-1 ms transfers, unknown clocks).
    void anEmptyReportRoundTrips()
    {
        RunReport r;
        r.status = RunReport::Status::CompileError;
        r.message = "compile failed";
        const RunReport b = reportFromJson(throughText(reportToJson(r, ReportSections::All)));
        QCOMPARE(b.status, r.status);
        QCOMPARE(b.h2dMs, -1.0);
        QCOMPARE(b.d2hMs, -1.0);
        QCOMPARE(b.graded, false);
        QCOMPARE(b.check, CheckMode::None);
        QCOMPARE(b.launch, r.launch);
        QCOMPARE(b.conditionsBefore.smClockMHz, -1);
        QVERIFY(b.timing.samplesMs.empty());
        QCOMPARE(reportToJson(b, ReportSections::All), reportToJson(r, ReportSections::All));
        QCOMPARE(b.toJson(), r.toJson());
    }

    /// --json and the runner protocol write a race, a memory finding and crowded words with
    /// the same function: the objects in `warpbench-cli run --json`'s document and in the Report
    /// frame's report are identical, and each is that function's.
    void cliJsonAndWireShareOneEncoder()
    {
        const RunReport r = everyKind();
        const QJsonObject cli = cliJson(r);
        const QJsonObject wire = throughText(reportToJson(r, ReportSections::All));

        const QJsonObject race = throughText(raceToJson(r.races[0]));
        QCOMPARE(cli["races"].toArray().at(0).toObject(), race);
        QCOMPARE(wire["races"].toArray().at(0).toObject(), race);
        for (int i = 0; i < 2; ++i) {
            const QJsonObject finding =
                throughText(findingToJson(r.memoryFindings[static_cast<std::size_t>(i)]));
            QCOMPARE(cli["findings"].toArray().at(i).toObject(), finding);
            QCOMPARE(wire["findings"].toArray().at(i).toObject(), finding);
        }
        const QJsonObject crowding = throughText(crowdingToJson(r.raceCrowding[0]));
        QCOMPARE(cli["raceCrowding"].toArray().at(0).toObject(), crowding);
        QCOMPARE(wire["raceCrowding"].toArray().at(0).toObject(), crowding);
        // Every section --json prints is the wire's, byte for byte.
        for (auto it = cli.begin(); it != cli.end(); ++it)
            QVERIFY2(wire.value(it.key()) == it.value(), qPrintable(it.key()));
        // The fields a reader of --json relies on keep their names and types.
        const QJsonObject rj = race;
        QCOMPARE(rj["memory"].toString(), QStringLiteral("shared"));
        QCOMPARE(rj["address"].toString(), QStringLiteral("0x7ffd12345678"));
        QVERIFY(rj["occurrences"].isDouble());
        QCOMPARE(rj["first"].toObject()["block"].toArray().size(), 3);
        const QJsonObject fj = cli["findings"].toArray().at(1).toObject();
        QCOMPARE(fj["kind"].toString(), QStringLiteral("memory error"));
        QVERIFY(fj["block"].isNull()); // not located
        QVERIFY(fj["thread"].isNull());
        QCOMPARE(cli["status"].toString(), QStringLiteral("mismatch"));
        QCOMPARE(cli["exitCode"].toInt(), 3);
        QCOMPARE(cli["backend"].toString(), QStringLiteral("cuda"));
        QCOMPARE(cli["grade"].toObject()["seed"].toString(), QString::number(kBig));
        QCOMPARE(cli["outputs"].toArray().at(0).toObject()["maxRel"].toString(),
                 QStringLiteral("inf"));
    }

    /// --json's own document reads back too: what it prints (the applicable sections) is the
    /// report's.
    void cliJsonReadsBack()
    {
        const RunReport r = everyKind();
        const RunReport b = reportFromJson(cliJson(r));
        QCOMPARE(b.toJson(), r.toJson());
        QCOMPARE(b.checkSeed, kBig);
        QCOMPARE(b.races.size(), std::size_t{1});
    }

    /// Names this build does not know are refused by name, never read as some other value.
    void unknownNamesAreErrors()
    {
        QJsonObject o = reportToJson(everyKind(), ReportSections::All);
        o["status"] = 42;
        try {
            reportFromJson(o);
            QFAIL("an unknown status was accepted");
        } catch (const Error& e) {
            QVERIFY2(QByteArray(e.what()).contains("unknown report status 42"), e.what());
        }
        QJsonObject f = findingToJson(sampleFinding(true));
        f["kind"] = "stack smash";
        QVERIFY_THROWS_EXCEPTION(Error, findingFromJson(f));
        QJsonObject race = raceToJson(sampleRace());
        race["memory"] = "texture";
        QVERIFY_THROWS_EXCEPTION(Error, raceFromJson(race));
        QJsonObject missing = reportToJson(everyKind());
        missing.remove(QStringLiteral("compile"));
        QVERIFY_THROWS_EXCEPTION(Error, reportFromJson(missing));
    }

    /// Check modes are named as checkModeName spells them, and read back by that name.
    void checkModesByName()
    {
        for (CheckMode m : {CheckMode::None, CheckMode::Trace, CheckMode::Bounds, CheckMode::Races})
            QCOMPARE(checkModeOfName(checkModeName(m)), std::optional<CheckMode>(m));
        QCOMPARE(checkModeOfName("race check"), std::optional<CheckMode>(CheckMode::Races));
        QVERIFY(!checkModeOfName("races"));
        QVERIFY(!checkModeOfName(""));
        RunReport r;
        r.check = CheckMode::Bounds;
        const QJsonObject o = reportToJson(r);
        QCOMPARE(o["check"].toString(), QStringLiteral("bounds check"));
        QCOMPARE(reportFromJson(o).check, CheckMode::Bounds);
    }

private:
    static const PipelineLaunchTiming& p0(const RunReport& r) { return r.pipeline.at(0); }
};

WB_QTEST_GUILESS_MAIN(TestReportJson)
#include "tst_reportjson.moc"
