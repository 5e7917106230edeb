// SPDX-License-Identifier: GPL-3.0-or-later
// Multi-launch pipelines (Session::launches): the project file's launches and repeats, their
// errors, and pipelines run end to end on the CPU emulator (a bitonic sort over loop variables,
// a three-kernel scan), with per-launch timing in the report and through the runner's codec.
#include "PipelineProjects.h"

#include "core/backend/Backend.h"
#include "core/common/Error.h"
#include "core/session/Pipeline.h"
#include "core/session/ProjectFile.h"
#include "core/session/ReportJson.h"
#include "core/session/SessionRunner.h"
#include "tests/support/SuiteMain.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

using namespace wb::session;

namespace {

QString cpuUnavailable()
{
    try {
        wb::createBackend(wb::BackendKind::Cpu, 0);
    } catch (const wb::Error& e) {
        return QString::fromStdString(e.what());
    }
    return {};
}

/// The message ProjectFile::fromJson throws for `json`, or "" when it loads.
std::string loadError(const std::string& json)
{
    try {
        ProjectFile::fromJson(json, "/base");
    } catch (const wb::Error& e) {
        return e.what();
    }
    return {};
}

/// kBitonicProject with `from` replaced by `to` (once).
std::string bitonicWith(const std::string& from, const std::string& to)
{
    std::string json = wb::test::kBitonicProject;
    const auto at = json.find(from);
    if (at == std::string::npos) qFatal("bitonicWith: '%s' not in the project", from.c_str());
    return json.replace(at, from.size(), to);
}

bool contains(const std::string& text, const std::string& part)
{
    return text.find(part) != std::string::npos;
}

} // namespace

class TestPipeline : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void loadsAndSavesLaunchesAndRepeats()
    {
        const Session a = ProjectFile::fromJson(wb::test::kBitonicProject, "/base");
        QVERIFY(a.isPipeline());
        QVERIFY(a.launch.kernel.empty());
        QCOMPARE(a.launches.size(), std::size_t(1));
        const PipelineLaunch& p = a.launches[0];
        QCOMPARE(p.launch.kernel, std::string("bitonic_step"));
        QCOMPARE(p.launch.grid, std::vector<std::string>{"n/64"});
        QCOMPARE(p.repeat.size(), std::size_t(2));
        QCOMPARE(p.repeat[0].var, std::string("k"));
        QCOMPARE(p.repeat[0].type, ElementType::U32);
        QCOMPARE(p.repeat[0].from, std::string("2"));
        QCOMPARE(p.repeat[0].to, std::string("n"));
        QCOMPARE(p.repeat[0].step, LoopSpec::Step::Multiply);
        QCOMPARE(p.repeat[0].by, std::string("2"));
        QCOMPARE(p.repeat[1].from, std::string("k/2"));
        QCOMPARE(p.repeat[1].step, LoopSpec::Step::Divide);
        QCOMPARE(a.iterations, 2);
        QCOMPARE(a.backend, wb::BackendKind::Cpu);

        // Save → load gives the same session; the file keeps "launches" and a "launch" object
        // with only the run settings.
        const std::string saved = ProjectFile::toJson(a);
        const Session b = ProjectFile::fromJson(saved, "/base");
        QVERIFY(a == b);
        const QJsonObject root = QJsonDocument::fromJson(QByteArray::fromStdString(saved)).object();
        QCOMPARE(root["launches"].toArray().size(), 1);
        QVERIFY(!root["launch"].toObject().contains("kernel"));
        QCOMPARE(root["launch"].toObject()["iterations"].toInt(), 2);
        const QJsonArray repeat = root["launches"][0]["repeat"].toArray();
        QCOMPARE(repeat[0]["times"].toInt(), 2);
        QCOMPARE(repeat[1]["divide"].toInt(), 2);
        QCOMPARE(repeat[1]["type"].toString(), QString("u32"));

        // Three kernels with bindings and an additive loop round-trip as well.
        Session c = ProjectFile::fromJson(wb::test::kScanProject, "/base");
        QCOMPARE(c.launches.size(), std::size_t(3));
        QCOMPARE(c.launches[1].launch.bindings.at("count"), std::string("blocks"));
        c.launches[2].repeat.push_back(
            LoopSpec{"r", ElementType::I64, "0", "blocks - 1", LoopSpec::Step::Add, "3"});
        const Session d = ProjectFile::fromJson(ProjectFile::toJson(c), "/base");
        QVERIFY(c == d);
        QCOMPARE(d.launches[2].repeat[0].by, std::string("3"));

        // A one-launch project is written as before: no "launches".
        Session one = c;
        one.launches.clear();
        one.launch.kernel = "add_sums";
        QVERIFY(!contains(ProjectFile::toJson(one), "launches"));
    }

    void loadErrorsNameTheField_data()
    {
        QTest::addColumn<QString>("from");
        QTest::addColumn<QString>("to");
        QTest::addColumn<QString>("message");
        QTest::newRow("var is a scalar")
            << R"("var": "k")"
            << R"("var": "n")"
            << R"(launches[0].repeat[0].var: loop variable "n" has the name of a scalar or buffer)";
        QTest::newRow("var twice") << R"("var": "j")"
                                   << R"("var": "k")"
                                   << R"(launches[0].repeat[1].var: loop variable "k" is already)";
        QTest::newRow("two steps") << R"("times": 2)"
                                   << R"("times": 2, "step": 1)"
                                   << R"(launches[0].repeat[0]: give at most one of "step")";
        QTest::newRow("float var")
            << R"("type": "u32", "from": 2)"
            << R"("type": "f32", "from": 2)"
            << "launches[0].repeat[0].type: a loop variable is an integer, not f32";
        QTest::newRow("unknown field") << R"("divide": 2)"
                                       << R"("divide": 2, "until": 3)"
                                       << "launches[0].repeat[1].until: unknown field";
        QTest::newRow("kernel in launch")
            << R"("launch": {"warmup": 1)"
            << R"("launch": {"kernel": "bitonic_step", "warmup": 1)"
            << R"(launch.kernel: a pipeline project states its kernels in "launches")";
        QTest::newRow("no launches") << R"("launches": [)"
                                     << R"("launches": [], "unused": [)"
                                     << "launches: expected at least one launch";
        QTest::newRow("missing kernel") << R"({"kernel": "bitonic_step", )"
                                        << "{"
                                        << "launches[0].kernel: required field is missing";
    }
    void loadErrorsNameTheField()
    {
        QFETCH(QString, from);
        QFETCH(QString, to);
        QFETCH(QString, message);
        const std::string why = loadError(bitonicWith(from.toStdString(), to.toStdString()));
        QVERIFY2(contains(why, message.toStdString()), why.c_str());
    }

    /// The expansion: order, loop values, and the launch counts of nested repeats.
    void expandsLoopsInOrder()
    {
        const Session s = ProjectFile::fromJson(wb::test::kBitonicProject, "/base");
        Expression e;
        e.defineScalar(s.scalars[0], "scalars[0].value");
        std::vector<std::string> grids;
        const auto steps =
            expandPipeline(s, e, [&](const LaunchSpec& l, const Expression& x, const std::string&) {
                grids.push_back(std::to_string(x.evaluateCount(l.grid[0], "grid")));
                return wb::LaunchConfig{};
            });
        QCOMPARE(steps.size(), std::size_t(36)); // 1 + 2 + ... + 8
        QCOMPARE(loopValuesText(steps[0].vars), std::string("k=2 j=1"));
        QCOMPARE(loopValuesText(steps[1].vars), std::string("k=4 j=2"));
        QCOMPARE(loopValuesText(steps[2].vars), std::string("k=4 j=1"));
        QCOMPARE(loopValuesText(steps[35].vars), std::string("k=256 j=1"));
        QCOMPARE(steps[1].varBytes[1].size(), std::size_t(4)); // j as u32
        std::uint32_t j = 0;
        std::memcpy(&j, steps[1].varBytes[1].data(), 4);
        QCOMPARE(j, 2u);
        QCOMPARE(grids.front(), std::string("4"));
    }

    void runErrorsAreInvalid_data()
    {
        QTest::addColumn<QString>("from");
        QTest::addColumn<QString>("to");
        QTest::addColumn<QString>("message");
        QTest::newRow("unknown kernel")
            << R"("kernel": "bitonic_step")"
            << R"("kernel": "bitonic_stpe")"
            << "launches[0].kernel: kernel 'bitonic_stpe' not found in the source (kernels: "
               "bitonic_step)";
        QTest::newRow("too many launches")
            << R"("from": "k/2", "to": 1, "divide": 2)"
            << R"("from": 1, "to": 100000)"
            << "launches[0]: the pipeline expands to more than 10000 launches in one pass";
        QTest::newRow("step 0") << R"("from": "k/2", "to": 1, "divide": 2)"
                                << R"("from": 1, "to": 4, "step": "n - n")"
                                << R"(launches[0].repeat[1].step: "n - n" = 0: the loop would)";
        QTest::newRow("divide 1")
            << R"("divide": 2)"
            << R"("divide": 1)"
            << R"(launches[0].repeat[1].divide: "1" = 1; expected at least 2)";
        QTest::newRow("stuck at 0") << R"("from": 2, "to": "n", "times": 2)"
                                    << R"("from": 0, "to": "n", "times": 2)"
                                    << R"(loop variable "k" stays at 0: the loop would never end)";
        QTest::newRow("out of type") << R"("from": "k/2", "to": 1, "divide": 2)"
                                     << R"("from": -1, "to": 1, "step": 1)"
                                     << "scalar 'j' of type u32: \"-1\" = -1 is out of range";
        QTest::newRow("binding type") << R"("type": "u32", "from": 2)"
                                      << R"("type": "i64", "from": 2)"
                                      << "launches[0]: kernel bitonic_step: parameter 'k'";
        QTest::newRow("empty") << R"("from": 2, "to": "n")"
                               << R"("from": "n+1", "to": "n")"
                               << "launches: the pipeline expands to no launch";
        QTest::newRow("grid per launch") << R"("grid": ["n/64"])"
                                         << R"x("grid": ["n/(k-2)"])x"
                                         << "launches[0].grid[0]";
    }
    /// Pipeline errors end the run as invalid (exit 4) before anything is launched.
    void runErrorsAreInvalid()
    {
        if (const QString why = cpuUnavailable(); !why.isEmpty()) QSKIP(qPrintable(why));
        QFETCH(QString, from);
        QFETCH(QString, to);
        QFETCH(QString, message);
        const Session s =
            ProjectFile::fromJson(bitonicWith(from.toStdString(), to.toStdString()), "/base");
        const RunReport r = SessionRunner::run(s, {});
        QCOMPARE(r.status, RunReport::Status::Invalid);
        QCOMPARE(r.exitCode(), 4);
        QVERIFY2(contains(r.message, message.toStdString()), r.message.c_str());
        QVERIFY(r.timing.samplesMs.empty());
    }

    /// A session built in code is checked as a loaded one is: a loop variable may not shadow a
    /// scalar, a buffer or an outer loop.
    void loopVariableClashesAtRun()
    {
        if (const QString why = cpuUnavailable(); !why.isEmpty()) QSKIP(qPrintable(why));
        const Session base = ProjectFile::fromJson(wb::test::kBitonicProject, "/base");
        for (const auto& [var, what] : {std::pair{"n", "a scalar"}, std::pair{"keys", "a buffer"},
                                        std::pair{"k", "already a loop of this launch"}}) {
            Session s = base;
            s.launches[0].repeat[1].var = var;
            const RunReport r = SessionRunner::run(s, {});
            QCOMPARE(r.status, RunReport::Status::Invalid);
            QVERIFY2(
                contains(r.message,
                         std::string("launches[0].repeat[1].var: loop variable \"") + var + "\"") &&
                    contains(r.message, what),
                r.message.c_str());
        }
    }

    void bitonicSortPipelinePasses()
    {
        if (const QString why = cpuUnavailable(); !why.isEmpty()) QSKIP(qPrintable(why));
        const Session s = ProjectFile::fromJson(wb::test::kBitonicProject, "/base");
        const RunReport r = SessionRunner::run(s, {});
        QVERIFY2(r.status == RunReport::Status::Passed, (r.message + "\n" + r.toText()).c_str());
        QCOMPARE(r.outputs.size(), std::size_t(1));
        QVERIFY(r.outputs[0].compared);
        QCOMPARE(r.outputs[0].stats.mismatches, std::uint64_t(0));
        const HostArray& keys = r.results.at("keys");
        const auto* k = keys.as<float>();
        QVERIFY(std::is_sorted(k, k + keys.count()));
        QVERIFY(k[0] < k[keys.count() - 1]); // sorted data, not a constant

        // Timing: two timed passes of 36 launches each; every launch has its own samples.
        QCOMPARE(r.iterations, 2);
        QCOMPARE(r.timing.samplesMs.size(), std::size_t(2));
        QCOMPARE(r.pipeline.size(), std::size_t(36));
        double sum0 = 0;
        for (const PipelineLaunchTiming& l : r.pipeline) {
            QCOMPARE(l.kernel, std::string("bitonic_step"));
            QCOMPARE(l.entry, std::size_t(0));
            QCOMPARE(l.timing.samplesMs.size(), std::size_t(2));
            QCOMPARE(l.config.grid.x, 4u);
            QCOMPARE(l.config.block.x, 64u);
            sum0 += l.timing.samplesMs[0];
        }
        // A pass's time is the sum of its launches' times.
        QVERIFY(std::abs(sum0 - r.timing.samplesMs[0]) <= 1e-9 * std::max(1.0, sum0));
        QCOMPARE(r.pipeline[3].vars,
                 (std::vector<std::pair<std::string, std::int64_t>>{{"k", 8}, {"j", 4}}));

        // Text: the pipeline line and each launch (36 <= 32? no: the count instead).
        const std::string text = r.toText();
        QVERIFY2(contains(text, "Launch    pipeline of 36 launches per pass, 1 warm-up + 2 timed "
                                "passes"),
                 text.c_str());
        QVERIFY2(contains(text, "Pipeline  launches[0] bitonic_step x36  grid (4, 1, 1) block "
                                "(64, 1, 1) shared 0 B  medians sum"),
                 text.c_str());
        QVERIFY2(contains(text, "(36 launches per pass; --json lists each)"), text.c_str());

        // JSON: every launch with its loop values, geometry and timing.
        const QJsonObject json =
            QJsonDocument::fromJson(QByteArray::fromStdString(r.toJson())).object();
        const QJsonObject pipeline = json["pipeline"].toObject();
        QCOMPARE(pipeline["launchesPerPass"].toInt(), 36);
        const QJsonArray launches = pipeline["launches"].toArray();
        QCOMPARE(launches.size(), 36);
        const QJsonObject third = launches[3].toObject();
        QCOMPARE(third["kernel"].toString(), QString("bitonic_step"));
        QCOMPARE(third["vars"]["k"].toInt(), 8);
        QCOMPARE(third["vars"]["j"].toInt(), 4);
        QCOMPARE(third["grid"][0].toInt(), 4);
        for (const QJsonValue& l : launches) {
            const QJsonObject t = l["timing"].toObject();
            QVERIFY(t.contains("medianMs") && t.contains("minMs") && t.contains("meanMs") &&
                    t.contains("stdevMs"));
            QVERIFY(t["medianMs"].toDouble() >= 0);
        }
        QCOMPARE(json["timing"]["samplesMs"].toArray().size(), 2);

        // The runner's codec carries the pipeline (and its samples) across the process.
        const RunReport back = wb::session::reportFromJson(
            wb::session::reportToJson(r, wb::session::ReportSections::All));
        QCOMPARE(back.pipeline.size(), r.pipeline.size());
        for (std::size_t i = 0; i < r.pipeline.size(); ++i) {
            QCOMPARE(back.pipeline[i].kernel, r.pipeline[i].kernel);
            QCOMPARE(back.pipeline[i].entry, r.pipeline[i].entry);
            QCOMPARE(back.pipeline[i].vars, r.pipeline[i].vars);
            QCOMPARE(back.pipeline[i].config.grid, r.pipeline[i].config.grid);
            QCOMPARE(back.pipeline[i].timing.samplesMs, r.pipeline[i].timing.samplesMs);
            QCOMPARE(back.pipeline[i].timing.medianMs, r.pipeline[i].timing.medianMs);
        }
        QCOMPARE(back.toText(), r.toText());
    }

    void scanPipelinePasses()
    {
        if (const QString why = cpuUnavailable(); !why.isEmpty()) QSKIP(qPrintable(why));
        const Session s = ProjectFile::fromJson(wb::test::kScanProject, "/base");
        const RunReport r = SessionRunner::run(s, {});
        QVERIFY2(r.status == RunReport::Status::Passed, (r.message + "\n" + r.toText()).c_str());
        // Only `out` is an output; the scratch `sums` (an `in` buffer) is neither compared nor
        // downloaded.
        QCOMPARE(r.outputs.size(), std::size_t(1));
        QCOMPARE(r.outputs[0].buffer, std::string("out"));
        QCOMPARE(r.outputs[0].stats.mismatches, std::uint64_t(0));
        QCOMPARE(r.outputs[0].coverage.unwritten, std::uint64_t(0));
        QVERIFY(!r.results.count("sums"));
        const auto* out = r.results.at("out").as<std::int32_t>();
        QVERIFY(out[999] != 0);

        QCOMPARE(r.pipeline.size(), std::size_t(3));
        QCOMPARE(r.pipeline[0].kernel, std::string("scan_block"));
        QCOMPARE(r.pipeline[1].kernel, std::string("scan_sums"));
        QCOMPARE(r.pipeline[1].config.grid.x, 1u);
        QCOMPARE(r.pipeline[1].config.block.x, 16u);
        QCOMPARE(r.pipeline[1].config.sharedBytes, 64u);
        QCOMPARE(r.pipeline[2].kernel, std::string("add_sums"));
        QCOMPARE(r.pipeline[2].entry, std::size_t(2));
        for (const PipelineLaunchTiming& l : r.pipeline)
            QCOMPARE(l.timing.samplesMs.size(), std::size_t(3));
        // The report's kernel and launch are the last launch's.
        QCOMPARE(r.kernel.name, std::string("add_sums"));
        QCOMPARE(r.launch.grid.x, 16u);
        // Few launches: the text lists each one.
        const std::string text = r.toText();
        QVERIFY2(contains(text, "#2 scan_sums  grid (1, 1, 1) block (16, 1, 1) shared 64 B  "
                                "median"),
                 text.c_str());

        // Grade mode runs whole passes from restored inputs and checks them.
        SessionRunner::Options opt;
        opt.grade.enabled = true;
        opt.grade.freshInputs = true;
        opt.grade.seed = 7;
        const RunReport g = SessionRunner::run(s, opt);
        QVERIFY2(g.status == RunReport::Status::Passed, (g.message + "\n" + g.toText()).c_str());
        // The result launch, the timed launch checked whole, the other timed launches
        // (sampled: each pass had fresh inputs, issue 25) and the launch after timing.
        QVERIFY(g.freshTimedInputs);
        QCOMPARE(g.checks.size(), std::size_t(4));
        for (const LaunchCheck& c : g.checks)
            QVERIFY2(c.passed, c.message.c_str());
        QVERIFY(g.freshInputs);
    }

    /// A `kernel` reference is one launch, as in a one-launch project: here a serial scan in
    /// one thread (its grid and block default to 1) checks the three-kernel pipeline.
    void kernelReferenceChecksAPipeline()
    {
        if (const QString why = cpuUnavailable(); !why.isEmpty()) QSKIP(qPrintable(why));
        Session s = ProjectFile::fromJson(wb::test::kScanProject, "/base");
        s.kernelSource += "__global__ void scan_serial(const int* in, int* out, int n)\n"
                          "{\n    int acc = 0;\n"
                          "    for (int i = 0; i < n; ++i) out[i] = acc += in[i];\n}\n";
        s.reference = ReferenceSpec{};
        s.reference.kind = ReferenceSpec::Kind::Kernel;
        s.reference.launch.kernel = "scan_serial";
        const RunReport r = SessionRunner::run(s, {});
        QVERIFY2(r.status == RunReport::Status::Passed, (r.message + "\n" + r.toText()).c_str());
        QVERIFY(r.outputs[0].compared);
        QCOMPARE(r.referenceKind, ReferenceSpec::Kind::Kernel);
        const Session again = ProjectFile::fromJson(ProjectFile::toJson(s), "/base");
        QVERIFY(again == s);
        QCOMPARE(again.reference.launch.grid, std::vector<std::string>{"1"});

        // A kernel that gets the scan wrong fails against it.
        Session wrong = s;
        const std::string add = "out[i] += sums[blockIdx.x - 1]";
        const auto at = wrong.kernelSource.find(add);
        QVERIFY(at != std::string::npos);
        wrong.kernelSource.replace(at, add.size(), "out[i] += sums[blockIdx.x]");
        const RunReport f = SessionRunner::run(wrong, {});
        QCOMPARE(f.status, RunReport::Status::Mismatch);
        QVERIFY(f.outputs[0].stats.mismatches > 0);
    }

    /// Trace mode and profiling record one launch: a pipeline is refused with a clear message.
    void traceAndProfileRefusePipelines()
    {
        if (const QString why = cpuUnavailable(); !why.isEmpty()) QSKIP(qPrintable(why));
        const Session s = ProjectFile::fromJson(wb::test::kScanProject, "/base");
        SessionRunner::Options trace;
        trace.check = wb::CheckMode::Trace;
        const RunReport t = SessionRunner::run(s, trace);
        QCOMPARE(t.status, RunReport::Status::Invalid);
        QVERIFY2(contains(t.message, "trace mode records one launch; this project is a pipeline"),
                 t.message.c_str());
        SessionRunner::Options profile;
        profile.profile = [](const ProfileContext&) {};
        const RunReport p = SessionRunner::run(s, profile);
        QCOMPARE(p.status, RunReport::Status::Invalid);
        QVERIFY2(contains(p.message, "profiling a pipeline (\"launches\") is not supported"),
                 p.message.c_str());
    }

    /// A one-launch project's report has no pipeline section, as before.
    void oneLaunchReportUnchanged()
    {
        if (const QString why = cpuUnavailable(); !why.isEmpty()) QSKIP(qPrintable(why));
        Session s = ProjectFile::load(WB_SOURCE_DIR "/resources/examples/saxpy/saxpy.wbproj");
        s.backend = wb::BackendKind::Cpu;
        s.iterations = 1;
        const RunReport r = SessionRunner::run(s, {});
        QCOMPARE(r.status, RunReport::Status::Passed);
        QVERIFY(r.pipeline.empty());
        QVERIFY(!contains(r.toJson(), "\"pipeline\""));
        QVERIFY(!contains(r.toText(), "Pipeline"));
        QVERIFY(contains(r.toText(), "Launch    grid (64, 1, 1) block (256, 1, 1)"));
    }
};

WB_QTEST_GUILESS_MAIN(TestPipeline)
#include "tst_pipeline.moc"
