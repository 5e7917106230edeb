// SPDX-License-Identifier: GPL-3.0-or-later
// Deliberately cheating submissions (tests/app/data/cheats) graded on the CPU emulator: writes
// nothing, caches across launches, NaN output, skips the timed launches, too fast to be true;
// and submissions that try to reach the machine (the device-code check, then the sandbox).
// tst_grade_gpu runs the same class on CUDA.
#include "GradeCheats.h"
#include "core/cuda/Compiler.h"
#include "tests/support/SuiteMain.h"

namespace {
/// Why the CPU emulator's device-code check cannot run here (NVRTC missing); empty when it can.
QString nvrtcUnavailable()
{
    const wb::cuda::Compiler& c = wb::cuda::Compiler::instance();
    return c.available() ? QString()
                         : QStringLiteral("NVRTC is not installed: ") +
                               QString::fromStdString(c.unavailableReason());
}

// c = a / b with a = 0 and b = 0, 1, 2, …: the reference is NaN at 0 and the project allows
// NaN == NaN. A kernel that skips element 0 leaves the poison (a NaN) there.
const char* kNanProject = R"json({
    "schemaVersion": 1,
    "name": "nan-equal",
    "kernel": {"file": "lazy.cu"},
    "scalars": [{"name": "n", "type": "i32", "value": 1000}],
    "buffers": [
        {"name": "a", "type": "f32", "shape": ["n"], "init": {"kind": "zeros"}},
        {"name": "b", "type": "f32", "shape": ["n"], "init": {"kind": "iota"}},
        {"name": "c", "type": "f32", "shape": ["n"], "role": "out"}
    ],
    "launch": {"kernel": "divide", "grid": ["ceil(n/128)"], "block": [128], "warmup": 0, "iterations": 2, "backend": "cpu"},
    "reference": {"kind": "cpp", "source": "void reference(const float* a, const float* b, float* c, int n) { for (int i = 0; i < n; ++i) c[i] = a[i] / b[i]; }"},
    "tolerance": {"atol": 0, "rtol": 0, "nanEqual": true}
})json";
const char* kLazy = "__global__ void divide(const float* a, const float* b, float* c, int n)\n"
                    "{ int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                    "  if (i > 0 && i < n) c[i] = a[i] / b[i]; }\n";
} // namespace

class TestGradeCheats : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void init()
    {
        const QString why = cpuUnavailable();
        if (!why.isEmpty()) QSKIP(qPrintable(why));
    }

    void cheatersFailForTheirOwnReason() { cheats::gradeVectorCheats("cpu"); }

    /// Issue 25: NVRTC's device-code check refuses every escape at its host call (NVRTC is
    /// installed where CI runs; without it this says so and skips).
    void escapesAreRefusedAsDeviceCode()
    {
        const QString why = nvrtcUnavailable();
        if (!why.isEmpty()) QSKIP(qPrintable(why));
        cheats::gradeEscapes("cpu", cheats::EscapeLayer::DeviceCheck);
    }

    /// Without NVRTC the sandbox alone stops each escape when it runs ("kernel attempted").
    void escapesAreStoppedBySandbox() { cheats::gradeEscapes("cpu", cheats::EscapeLayer::Sandbox); }

    // The verdicts and the reports' wording only: the timing ratio (the cheat is fast only with
    // pinned inputs) flaked on a loaded 2-core machine (0.55 where 0.6 was required) and is a
    // speed claim, which belongs in a benchmark program, not a unit test.
    void replayCacheFindsNothing() { cheats::replayCacheFindsNothing("cpu", false); }

    void replayIsCaughtByFreshInputs() { cheats::replayNeedsFreshInputs("cpu"); }

    void tooFastToBeTrue()
    {
        // The emulator has no peak bandwidth of its own (a host figure would flag nothing: its
        // launches run far below it). The honest kernel's own measured bandwidth, times 4, is
        // the peak held to: the honest one stays under it, the one that never reads its
        // matrix (hundreds of times faster here) does not.
        const CliRun honest = runCli({"run", cheats::data("rowsum/rowsum.wbproj"), "--kernel",
                                      cheats::data("rowsum/subs/honest.cu"), "--grade", "--json",
                                      "--backend", "cpu"});
        QVERIFY2(honest.exitCode == 0, qPrintable(honest.out + honest.err));
        const QJsonObject rep = QJsonDocument::fromJson(honest.out.toUtf8()).object();
        const double gbs = rep["bandwidth"].toObject()["GBs"].toDouble();
        QVERIFY(gbs > 0);
        // Without a peak nothing is claimed either way, and the report says why.
        QCOMPARE(rep["speedOfLight"].toObject()["checked"].toBool(), false);
        QVERIFY(rep["speedOfLight"].toObject()["peakSource"].toString().contains("CPU emulator"));
        cheats::gradeTooFast("cpu", 4 * gbs);
    }

    /// The same submissions against a FLOP peak: the project states its FLOPs (one addition
    /// per matrix element), and the peak held to is four times the honest kernel's own rate.
    /// No bandwidth peak is given: the FLOP rate alone catches the closed form.
    void tooFastForItsFlops()
    {
        QTemporaryDir dir;
        QFile in(cheats::data("rowsum/rowsum.wbproj"));
        QVERIFY(in.open(QIODevice::ReadOnly));
        QJsonObject project = QJsonDocument::fromJson(in.readAll()).object();
        QJsonObject launch = project["launch"].toObject();
        launch["flops"] = QStringLiteral("rows*cols");
        project["launch"] = launch;
        QVERIFY(QFile::copy(cheats::data("rowsum/honest.cu"), dir.filePath("honest.cu")));
        const QString file = dir.filePath(QStringLiteral("rowsum.wbproj"));
        writeFile(file, QJsonDocument(project).toJson());
        const CliRun honest =
            runCli({"run", file, "--kernel", cheats::data("rowsum/subs/honest.cu"), "--grade",
                    "--json", "--backend", "cpu"});
        QVERIFY2(honest.exitCode == 0, qPrintable(honest.out + honest.err));
        const QJsonObject rep = QJsonDocument::fromJson(honest.out.toUtf8()).object();
        const QJsonObject sol = rep["speedOfLight"].toObject();
        QCOMPARE(sol["flopsPerLaunch"].toDouble(), 4096.0 * 8192.0);
        QCOMPARE(sol["flopsChecked"].toBool(), false); // no FP32 peak on the emulator
        QVERIFY(sol["flopsPeakSource"].toString().contains("--peak-gflops"));
        const double gflops =
            4096.0 * 8192.0 / (rep["timing"].toObject()["medianMs"].toDouble() * 1e6);
        QVERIFY(gflops > 0);
        const CliRun r = runCli({"grade", file, cheats::data("rowsum/subs"), "--json", "--backend",
                                 "cpu", "--timeout", "240", "--jobs", "1", "--peak-gflops",
                                 QString::number(4 * gflops, 'g', 17)});
        QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
        const auto rows = cheats::rowsOf(r);
        QCOMPARE(rows.size(), 2);
        WB_EXPECT_ROW(rows["honest.cu"], "pass", "");
        QCOMPARE(rows["honest.cu"]["speedOfLight"].toString(), QStringLiteral("ok"));
        WB_EXPECT_ROW(rows["too_fast.cu"], "impossible", "GFLOP/s");
        QVERIFY2(rows["too_fast.cu"]["message"].toString().contains("exceeds the peak of"),
                 qPrintable(rows["too_fast.cu"]["message"].toString()));
        QCOMPARE(
            runCli({"grade", file, cheats::data("rowsum/subs"), "--peak-gflops", "0"}).exitCode, 4);
    }

    void unwrittenFailsEvenWhereNanEqualsNan()
    {
        QTemporaryDir dir;
        writeFile(dir.filePath("p.wbproj"), kNanProject);
        writeFile(dir.filePath("lazy.cu"), kLazy);
        // An ordinary run lets the poison at c[0] pass as the reference's NaN (the project says
        // NaN == NaN) …
        const CliRun plain = runCli({"run", dir.filePath("p.wbproj")});
        QVERIFY2(plain.exitCode == 0, qPrintable(plain.out + plain.err));
        // … grade mode does not: an element left unwritten is never a match.
        const CliRun graded = runCli({"run", dir.filePath("p.wbproj"), "--grade"});
        QVERIFY2(graded.exitCode == 1, qPrintable(graded.out + graded.err));
        QVERIFY2(graded.out.contains("result launch: FAIL: c: 1 never written"),
                 qPrintable(graded.out));
    }

    void parallelJobsAndLimits()
    {
        QTemporaryDir dir;
        QDir().mkpath(dir.filePath("subs"));
        // Three copies of the honest one and a writer of nothing, two at a time: same rows in
        // name order whatever finishes first.
        for (const char* n : {"a.cu", "b.cu", "c.cu"})
            QVERIFY(QFile::copy(cheats::data("vector/honest.cu"), dir.filePath("subs/") + n));
        QVERIFY(
            QFile::copy(cheats::data("vector/subs/writes_nothing.cu"), dir.filePath("subs/d.cu")));
        QVERIFY(QFile::copy(cheats::data("vector/vector.wbproj"), dir.filePath("vector.wbproj")));
        QVERIFY(QFile::copy(cheats::data("vector/honest.cu"), dir.filePath("honest.cu")));
        const CliRun r =
            runCli({"grade", dir.filePath("vector.wbproj"), dir.filePath("subs"), "--json",
                    "--jobs", "2", "--memory-limit", "16384", "--timeout", "240"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
        const QJsonArray rows =
            QJsonDocument::fromJson(r.out.toUtf8()).object()["results"].toArray();
        QCOMPARE(rows.size(), 4);
        for (int i = 0; i < 3; ++i)
            QCOMPARE(rows[i].toObject()["result"].toString(), QStringLiteral("pass"));
        QCOMPARE(rows[3].toObject()["file"].toString(), QStringLiteral("d.cu"));
        QCOMPARE(rows[3].toObject()["result"].toString(), QStringLiteral("fail"));
        // --memory-limit is enforced: a kernel asking for 3 GiB (never touched, so an
        // ordinary machine grants it) is refused under a 2 GiB limit and marks c[0].
        QDir().mkpath(dir.filePath("hog"));
        writeFile(
            dir.filePath("hog/hog.cu"),
            "__global__ void fma3(const float* a, const float* b, float* c, int n)\n"
            "{ int i = blockIdx.x * blockDim.x + threadIdx.x; if (i >= n) return;\n"
            "  c[i] = a[i] * b[i] + a[i];\n"
            "  if (i == 0) { void* p = malloc((size_t)3 << 30); if (!p) c[0] = -1; free(p); } }\n");
        const CliRun granted = runCli({"grade", dir.filePath("vector.wbproj"), dir.filePath("hog"),
                                       "--json", "--timeout", "240"});
        QCOMPARE(cheats::rowsOf(granted)["hog.cu"]["result"].toString(), QStringLiteral("pass"));
        const CliRun limited = runCli({"grade", dir.filePath("vector.wbproj"), dir.filePath("hog"),
                                       "--json", "--timeout", "240", "--memory-limit", "2048"});
        QCOMPARE(cheats::rowsOf(limited)["hog.cu"]["result"].toString(), QStringLiteral("fail"));
        QVERIFY(
            cheats::rowsOf(limited)["hog.cu"]["message"].toString().contains("c: 1 mismatches"));
        QCOMPARE(
            runCli({"grade", dir.filePath("vector.wbproj"), dir.filePath("subs"), "--jobs", "0"})
                .exitCode,
            4);
        QCOMPARE(runCli({"grade", dir.filePath("vector.wbproj"), dir.filePath("subs"),
                         "--memory-limit", "lots"})
                     .exitCode,
                 4);
        QCOMPARE(runCli({"grade", dir.filePath("vector.wbproj"), dir.filePath("subs"),
                         "--peak-bandwidth", "-3"})
                     .exitCode,
                 4);
    }

    void compareTwoRuns()
    {
        // The same arithmetic, once with a barrier (the emulator then runs every block on
        // fibers, many times slower): `compare` says slower / faster / no significant
        // difference from the two distributions of 12 launches each.
        QTemporaryDir dir;
        writeFile(dir.filePath("slow.cu"),
                  "__global__ void fma3(const float* a, const float* b, float* c, int n)\n"
                  "{ int i = blockIdx.x * blockDim.x + threadIdx.x; __syncthreads();\n"
                  "  if (i < n) c[i] = a[i] * b[i] + a[i]; }\n");
        const auto report = [&](const QString& kernel, const QString& file) {
            const CliRun r = runCli({"run", cheats::data("vector/vector.wbproj"), "--kernel",
                                     kernel, "--iterations", "12", "--json"});
            QFile f(file);
            return r.exitCode == 0 && f.open(QIODevice::WriteOnly) &&
                   f.write(r.out.toUtf8()) == r.out.toUtf8().size();
        };
        QVERIFY(report(cheats::data("vector/honest.cu"), dir.filePath("fast.json")));
        QVERIFY(report(dir.filePath("slow.cu"), dir.filePath("slow.json")));
        const CliRun slower =
            runCli({"compare", dir.filePath("fast.json"), dir.filePath("slow.json")});
        QCOMPARE(slower.exitCode, 1);
        QVERIFY2(slower.out.startsWith("slower: "), qPrintable(slower.out));
        const CliRun faster =
            runCli({"compare", dir.filePath("slow.json"), dir.filePath("fast.json"), "--json"});
        QCOMPARE(faster.exitCode, 0);
        const QJsonObject j = QJsonDocument::fromJson(faster.out.toUtf8()).object();
        QCOMPARE(j["verdict"].toString(), QStringLiteral("faster"));
        QVERIFY(j["pValue"].toDouble() < 0.01);
        QCOMPARE(j["baselineSamples"].toInt(), 12);
        const CliRun same =
            runCli({"compare", dir.filePath("fast.json"), dir.filePath("fast.json")});
        QCOMPARE(same.exitCode, 0);
        QVERIFY2(same.out.startsWith("no significant difference"), qPrintable(same.out));
        writeFile(dir.filePath("none.json"), "{\"status\": \"compile-error\"}");
        const CliRun none =
            runCli({"compare", dir.filePath("none.json"), dir.filePath("fast.json")});
        QCOMPARE(none.exitCode, 4);
        QVERIFY(none.err.contains("not a report with timing samples"));
    }
};

WB_QTEST_GUILESS_MAIN(TestGradeCheats)
#include "tst_grade_cheats.moc"
