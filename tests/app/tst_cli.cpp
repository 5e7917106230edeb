// SPDX-License-Identifier: GPL-3.0-or-later
#include "CliProcess.h"
#include "ExactCases.h"
#include "tests/support/SuiteMain.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

namespace {
QString data(const char* name)
{
    return QStringLiteral(WB_TEST_DATA_DIR "/") + QLatin1String(name);
}
} // namespace

class TestCli : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void helpVersionAndArguments()
    {
        CliRun r = runCli({"--help"});
        QCOMPARE(r.exitCode, 0);
        for (const char* s :
             {"0  pass", "1  mismatch", "2  compile error", "3  runtime error",
              "4  invalid project or arguments", "list-kernels", "devices", "--json", "--output"})
            QVERIFY2(r.out.contains(QLatin1String(s)), s);
        r = runCli({"--version"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains(QStringLiteral(WB_PROJECT_VERSION)), qPrintable(r.out));
        QCOMPARE(runCli({}).exitCode, 4);
        QCOMPARE(runCli({"frobnicate"}).exitCode, 4);
        QCOMPARE(runCli({"run"}).exitCode, 4);
        QCOMPARE(runCli({"run", data("pass.wbproj"), "--backend", "tpu"}).exitCode, 4);
        QCOMPARE(runCli({"run", data("pass.wbproj"), "--iterations", "0"}).exitCode, 4);
        QCOMPARE(runCli({"run", data("pass.wbproj"), "--bogus"}).exitCode, 4);
        QCOMPARE(runCli({"run", "/nonexistent.wbproj"}).exitCode, 4);
    }
    void invalidProjectsExitFour_data()
    {
        QTest::addColumn<QString>("project");
        QTest::addColumn<QString>("message");
        QTest::newRow("shape") << "invalid.wbproj"
                               << "buffers[0].shape: expected 1–3 positive integers";
        QTest::newRow("binding") << "bad_binding.wbproj"
                                 << "but buffer 'b' is f64";
        QTest::newRow("expression") << "bad_expression.wbproj"
                                    << "launch.grid[0]";
    }
    void invalidProjectsExitFour()
    {
        QFETCH(QString, project);
        QFETCH(QString, message);
        if (project != "invalid.wbproj") {
            const QString why = cpuUnavailable();
            if (!why.isEmpty()) QSKIP(qPrintable(why));
        }
        const CliRun r = runCli({"run", data(project.toUtf8().constData()), "--backend", "cpu"});
        QCOMPARE(r.exitCode, 4);
        QVERIFY2((r.out + r.err).contains(message), qPrintable(r.out + r.err));
    }
    /// Item 5 and 6 of issue 15 from the shell: special files are refused at once, numbers out
    /// of range are exit 4 naming the option or field.
    void untrustedInputsAreRefusedClearly()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString fifo = dir.filePath("project.wbproj");
        QVERIFY(QProcess::execute("mkfifo", {fifo}) == 0);
        for (const QString& project : {fifo, QStringLiteral("/dev/zero"), dir.path()}) {
            const CliRun r = runCli({"run", project, "--backend", "cpu"}, 20000);
            QVERIFY2(
                r.exitCode == 4 && r.err.contains("not a regular file"),
                qPrintable(QString("%1: exit %2: %3").arg(project).arg(r.exitCode).arg(r.err)));
        }
        CliRun r = runCli({"run", data("pass.wbproj"), "--timeout", "1e10"});
        QCOMPARE(r.exitCode, 4);
        QVERIFY2(r.err.contains("--timeout: 1e10 s is out of range"), qPrintable(r.err));
        r = runCli({"grade", data("pass.wbproj"), dir.path(), "--timeout", "1e10"});
        QCOMPARE(r.exitCode, 4);
        QVERIFY2(r.err.contains("--timeout: 1e10 s is out of range"), qPrintable(r.err));

        // A block of 2048 threads: exit 4 before anything runs, whichever backend.
        QFile in(data("pass.wbproj"));
        QVERIFY(in.open(QIODevice::ReadOnly));
        QJsonObject project = QJsonDocument::fromJson(in.readAll()).object();
        project["kernel"] = QJsonObject{{"file", data("mul.cu")}};
        QJsonObject launch = project["launch"].toObject();
        launch["block"] = QJsonArray{2048};
        project["launch"] = launch;
        const QString big = dir.filePath("big_block.wbproj");
        QFile outFile(big);
        QVERIFY(outFile.open(QIODevice::WriteOnly));
        outFile.write(QJsonDocument(project).toJson());
        outFile.close();
        for (const char* backend : {"cpu", "cuda"}) {
            r = runCli({"run", big, "--backend", backend});
            QVERIFY2(
                r.exitCode == 4 && (r.out + r.err).contains("launch.block[0]"),
                qPrintable(
                    QString("%1: exit %2: %3%4").arg(backend).arg(r.exitCode).arg(r.out, r.err)));
        }
    }
    void exitCodes_data()
    {
        QTest::addColumn<QString>("project");
        QTest::addColumn<int>("code");
        QTest::addColumn<QString>("text");
        QTest::newRow("pass") << "pass.wbproj" << 0 << "PASS";
        QTest::newRow("mismatch") << "mismatch.wbproj" << 1 << "FAIL";
        QTest::newRow("compile") << "compile_error.wbproj" << 2 << "undefined_value";
        QTest::newRow("reference") << "reference_error.wbproj" << 2 << "reference.cpp:3";
        QTest::newRow("missing") << "missing_input.wbproj" << 3 << "does_not_exist.npy";
        QTest::newRow("barrier") << "divergent_barrier.wbproj" << 3 << "ERROR";
    }
    void exitCodes()
    {
        const QString why = cpuUnavailable();
        if (!why.isEmpty()) QSKIP(qPrintable(why));
        QFETCH(QString, project);
        QFETCH(int, code);
        QFETCH(QString, text);
        const CliRun r = runCli({"run", data(project.toUtf8().constData()), "--backend", "cpu"});
        QVERIFY2(r.exitCode == code,
                 qPrintable(QString("exit %1\n%2%3").arg(r.exitCode).arg(r.out, r.err)));
        QVERIFY2((r.out + r.err).contains(text), qPrintable(r.out + r.err));
    }
    void mismatchReportNamesTheElement()
    {
        const QString why = cpuUnavailable();
        if (!why.isEmpty()) QSKIP(qPrintable(why));
        const CliRun r = runCli({"run", data("mismatch.wbproj"), "--backend", "cpu", "--json"});
        QCOMPARE(r.exitCode, 1);
        const QJsonObject o = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QCOMPARE(o["status"].toString(), QString("mismatch"));
        const QJsonObject dest = o["outputs"].toArray().at(0).toObject();
        QCOMPARE(dest["buffer"].toString(), QString("dest"));
        QCOMPARE(dest["result"].toString(), QString("FAIL"));
        QCOMPARE(dest["mismatches"].toDouble(), 1.0);
        const QJsonObject first = dest["firstMismatches"].toArray().at(0).toObject();
        QCOMPARE(first["coordinates"].toArray().at(0).toDouble(), 7.0);
        QVERIFY(std::fabs(first["absError"].toDouble() - 1.0) < 1e-5);
    }
    void jsonAndOutputDirectory()
    {
        const QString why = cpuUnavailable();
        if (!why.isEmpty()) QSKIP(qPrintable(why));
        QTemporaryDir dir;
        const CliRun r = runCli({"run", data("pass.wbproj"), "--backend", "cpu", "--json",
                                 "--iterations", "4", "--output", dir.path()});
        QCOMPARE(r.exitCode, 0);
        QJsonParseError err{};
        const QJsonObject o = QJsonDocument::fromJson(r.out.toUtf8(), &err).object();
        QVERIFY2(err.error == QJsonParseError::NoError, qPrintable(r.out));
        QCOMPARE(o["status"].toString(), QString("pass"));
        QCOMPARE(o["exitCode"].toInt(), 0);
        QCOMPARE(o["backend"].toString(), QString("cpu"));
        QCOMPARE(o["timing"].toObject()["samplesMs"].toArray().size(), 4);
        QVERIFY(o["timing"].toObject()["medianMs"].toDouble() > 0);
        QCOMPARE(o["launch"].toObject()["grid"].toArray().at(0).toInt(), 8);
        QCOMPARE(o["bandwidth"].toObject()["bytesMoved"].toDouble(), 12000.0);
        QCOMPARE(o["outputs"].toArray().at(0).toObject()["result"].toString(), QString("PASS"));
        QVERIFY(QFile::exists(dir.filePath("dest.npy")));
    }
    /// Module globals from the shell: a __constant__ set from the project, a __device__ counter
    /// compared with the C++ reference and written by --output, and the unset-__constant__
    /// warning in the text report.
    void moduleGlobals()
    {
        const QString why = cpuUnavailable();
        if (!why.isEmpty()) QSKIP(qPrintable(why));
        QTemporaryDir dir;
        QFile cu(dir.filePath("globals.cu"));
        QVERIFY(cu.open(QIODevice::WriteOnly));
        cu.write("__constant__ float c_scale[2];\n"
                 "__constant__ float c_unset[1];\n"
                 "__device__ unsigned int g_hits = 0;\n"
                 "__global__ void k(float* out, int n)\n"
                 "{\n"
                 "    const int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                 "    if (i >= n) return;\n"
                 "    out[i] = c_scale[0] * i + c_scale[1] + c_unset[0];\n"
                 "    atomicAdd(&g_hits, 1u);\n"
                 "}\n");
        cu.close();
        QFile project(dir.filePath("globals.wbproj"));
        QVERIFY(project.open(QIODevice::WriteOnly));
        project.write(R"json({"schemaVersion": 1, "kernel": {"file": "globals.cu"},
            "scalars": [{"name": "n", "type": "i32", "value": 100}],
            "buffers": [{"name": "out", "type": "f32", "shape": ["n"], "role": "out"}],
            "globals": [{"name": "c_scale", "type": "f32", "shape": [2],
                         "init": {"kind": "iota", "start": 2}},
                        {"name": "g_hits", "type": "u32", "role": "out"}],
            "launch": {"kernel": "k", "grid": ["ceil(n/32)"], "block": [32], "iterations": 2},
            "reference": {"kind": "cpp", "source": "void reference(float* out, int n, const float* c_scale, unsigned* g_hits) { for (int i = 0; i < n; ++i) { out[i] = c_scale[0] * i + c_scale[1]; ++*g_hits; } }"}})json");
        project.close();
        const QString outDir = dir.filePath("out");
        const CliRun r =
            runCli({"run", project.fileName(), "--backend", "cpu", "--output", outDir});
        QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
        QVERIFY2(r.out.contains("__constant__ 'c_unset' is read by the kernel but the project "
                                "never sets it"),
                 qPrintable(r.out));
        QVERIFY2(r.out.contains("g_hits"), qPrintable(r.out));
        QVERIFY(QFile::exists(outDir + "/g_hits.npy"));
        QVERIFY(QFile::exists(outDir + "/out.npy"));
    }
    /// Issue 29 item 1 from the shell: a run that compared nothing is "RAN, NOT CHECKED"
    /// (status `unchecked`), never PASS; it exits 1 when an output was left unwritten (a
    /// student's saxpy whose `y` is an `out` it also reads: the poison flows through), 0 when
    /// everything was written, and says how many NaN/Inf the result holds.
    void runWithoutReferenceIsNotAPass_data()
    {
        QTest::addColumn<QString>("role");
        QTest::addColumn<int>("code");
        QTest::addColumn<double>("unwritten");
        QTest::newRow("y out: read poison, never written") << "out" << 1 << 1000.0;
        QTest::newRow("y inout: written") << "inout" << 0 << 0.0;
    }
    void runWithoutReferenceIsNotAPass()
    {
        const QString why = cpuUnavailable();
        if (!why.isEmpty()) QSKIP(qPrintable(why));
        QFETCH(QString, role);
        QFETCH(int, code);
        QFETCH(double, unwritten);
        QTemporaryDir dir;
        writeFile(dir.filePath("saxpy.cu"),
                  "__global__ void saxpy(int n, float a, const float* x, float* y)\n"
                  "{\n"
                  "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                  "    if (i < n) y[i] = a * x[i] + y[i];\n"
                  "}\n");
        const QString project = dir.filePath("saxpy.wbproj");
        writeFile(project, QString::fromUtf8(R"x({"schemaVersion": 1, "name": "student",
            "kernel": {"file": "saxpy.cu"},
            "scalars": [{"name": "n", "type": "i32", "value": 1000},
                        {"name": "a", "type": "f32", "value": 2}],
            "buffers": [{"name": "x", "type": "f32", "shape": ["n"], "role": "in",
                         "init": {"kind": "uniform", "seed": 1}},
                        {"name": "y", "type": "f32", "shape": ["n"], "role": "%1",
                         "init": {"kind": "uniform", "seed": 2}}],
            "launch": {"kernel": "saxpy", "grid": ["ceil(n/128)"], "block": [128],
                       "iterations": 2}})x")
                               .arg(role)
                               .toUtf8());
        CliRun r = runCli({"run", project, "--backend", "cpu"});
        QVERIFY2(r.exitCode == code,
                 qPrintable(QString("exit %1\n%2%3").arg(r.exitCode).arg(r.out, r.err)));
        QVERIFY2(
            r.out.contains(QString("Result    RAN, NOT CHECKED: the project has no reference")),
            qPrintable(r.out));
        QVERIFY2(!r.out.contains("PASS"), qPrintable(r.out));
        QVERIFY2(r.out.contains(QString("(exit %1)").arg(code)), qPrintable(r.out));
        if (unwritten > 0)
            QVERIFY2(r.out.contains("1,000 of 1,000 elements of 'y' were never written"),
                     qPrintable(r.out));

        r = runCli({"run", project, "--backend", "cpu", "--json"});
        QCOMPARE(r.exitCode, code);
        const QJsonObject o = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QCOMPARE(o["status"].toString(), QString("unchecked"));
        QCOMPARE(o["exitCode"].toInt(), code);
        QCOMPARE(o["reference"].toObject()["kind"].toString(), QString("none"));
        const QJsonObject y = o["outputs"].toArray().at(0).toObject();
        QCOMPARE(y["buffer"].toString(), QString("y"));
        QVERIFY(!y["compared"].toBool());
        QVERIFY(!y.contains("result")); // no PASS/FAIL for an output that was not compared
        QCOMPARE(y["nan"].toObject()["result"].toDouble(), 0.0); // the unwritten are not counted
        QCOMPARE(y["inf"].toObject()["result"].toDouble(), 0.0);
        if (role == QLatin1String("out"))
            QCOMPARE(y["coverage"].toObject()["unwritten"].toDouble(), unwritten);
        else
            QVERIFY(!y.contains("coverage")); // an inout buffer is not poisoned
    }
    /// NaN and Inf a kernel wrote are counted for an output with no reference.
    void runWithoutReferenceCountsNanAndInf()
    {
        const QString why = cpuUnavailable();
        if (!why.isEmpty()) QSKIP(qPrintable(why));
        QTemporaryDir dir;
        writeFile(dir.filePath("k.cu"),
                  "__global__ void k(float* out, float z, int n)\n"
                  "{\n"
                  "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                  "    if (i < n) out[i] = i < 3 ? 0.0f / z : (i < 5 ? 1.0f / z : 1.0f);\n"
                  "}\n");
        const QString project = dir.filePath("k.wbproj");
        writeFile(project, R"x({"schemaVersion": 1, "name": "nonfinite", "kernel": {"file": "k.cu"},
            "scalars": [{"name": "z", "type": "f32", "value": 0},
                        {"name": "n", "type": "i32", "value": 64}],
            "buffers": [{"name": "out", "type": "f32", "shape": ["n"], "role": "out"}],
            "launch": {"kernel": "k", "grid": [1], "block": [64], "iterations": 1}})x");
        CliRun r = runCli({"run", project, "--backend", "cpu", "--json"});
        QCOMPARE(r.exitCode, 0); // everything written: nothing known to be wrong
        const QJsonObject o = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QCOMPARE(o["status"].toString(), QString("unchecked"));
        const QJsonObject out = o["outputs"].toArray().at(0).toObject();
        QCOMPARE(out["nan"].toObject()["result"].toDouble(), 3.0);
        QCOMPARE(out["inf"].toObject()["result"].toDouble(), 2.0);
        QCOMPARE(out["coverage"].toObject()["unwritten"].toDouble(), 0.0);
        r = runCli({"run", project, "--backend", "cpu"});
        QVERIFY2(r.out.contains("NaN 3, Inf 2 in the result"), qPrintable(r.out));
        QVERIFY2(r.out.contains("RAN, NOT CHECKED"), qPrintable(r.out));
    }
    /// Issue 17 item 8 from the shell: `sweep` marks the points of a kernel correct only at
    /// block 256 invalid — 512 for its never-written elements, 128 (with --bounds-check) for
    /// its out-of-bounds access, named by file:line — and recommends only 256; with no valid
    /// point it says so and exits 1.
    void sweepNeverRecommendsAnInvalidPoint()
    {
        const QString why = cpuUnavailable();
        if (!why.isEmpty()) QSKIP(qPrintable(why));
        const QString project = data("sweep_block256.wbproj");
        CliRun r = runCli({"sweep", project, "block", "128,256,512", "--bounds-check", "--json"});
        QJsonParseError err{};
        QJsonObject o = QJsonDocument::fromJson(r.out.toUtf8(), &err).object();
        QVERIFY2(err.error == QJsonParseError::NoError, qPrintable(r.out + r.err));
        const QJsonArray points = o["points"].toArray();
        QCOMPARE(points.size(), 3);
        const QJsonObject oob = points.at(0).toObject();
        if (oob["verdict"].toString().contains("unavailable"))
            QSKIP("bounds-checked mode is unavailable here (needs AddressSanitizer)");
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(o["bestValue"].toString(), QString("256"));
        QCOMPARE(o["best"].toInt(), 1);
        QCOMPARE(o["invalid"].toInt(), 2);
        QVERIFY(!oob["valid"].toBool());
        QVERIFY(oob["boundsChecked"].toBool());
        QVERIFY2(oob["verdict"].toString().startsWith("invalid: out of bounds at block256.cu:6 "),
                 qPrintable(oob["verdict"].toString()));
        QCOMPARE(oob["findings"].toArray().at(0).toObject()["line"].toInt(), 6);
        QVERIFY(oob["medianMs"].isNull());
        QVERIFY(points.at(1).toObject()["valid"].toBool());
        const QJsonObject gap = points.at(2).toObject();
        QVERIFY(!gap["valid"].toBool());
        QCOMPARE(gap["unwritten"].toInt(), 256);
        QCOMPARE(gap["problems"].toArray().at(0).toString(),
                 QString("256 never-written elements in 'out'"));
        QVERIFY(gap["medianMs"].toDouble() > 0); // it ran and was timed, but is never best

        // Text: the table, the invalid points in full, the conclusion.
        r = runCli({"sweep", project, "block", "256..512 x2"});
        QCOMPARE(r.exitCode, 0);
        // No reference: the valid point ran unchecked, never "pass".
        QVERIFY2(r.out.contains("block size = 256  (best)  [unchecked]"), qPrintable(r.out));
        QVERIFY2(r.out.contains("block size = 512: 256 never-written elements in 'out'"),
                 qPrintable(r.out));
        QVERIFY2(r.out.contains("best: block size = 256 ("), qPrintable(r.out));
        QVERIFY2(r.out.contains("1 of 2 points invalid (never recommended)"), qPrintable(r.out));

        // No valid point: said, exit 1.
        r = runCli({"sweep", project, "block", "512"});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.out.contains("no valid point: the only point is invalid"), qPrintable(r.out));

        // Bad arguments: exit 4 with the reason.
        r = runCli({"sweep", project, "blocks", "1,2"});
        QCOMPARE(r.exitCode, 4);
        QVERIFY2(r.err.contains("PARAMETER is block, define:NAME or scalar:NAME"),
                 qPrintable(r.err));
        r = runCli({"sweep", project, "scalar:m", "1,2"});
        QCOMPARE(r.exitCode, 4);
        QVERIFY2(r.err.contains("no scalar 'm'"), qPrintable(r.err));
        r = runCli({"sweep", project, "block", "1..x"});
        QCOMPARE(r.exitCode, 4);
        QVERIFY2(r.err.contains("VALUES"), qPrintable(r.err));
        QCOMPARE(runCli({"sweep", project, "block"}).exitCode, 4);
    }
    void textReport()
    {
        const QString why = cpuUnavailable();
        if (!why.isEmpty()) QSKIP(qPrintable(why));
        const CliRun r = runCli({"run", data("pass.wbproj"), "--backend", "cpu"});
        QCOMPARE(r.exitCode, 0);
        for (const char* s :
             {"Compile", "Kernel    mul", "Launch    grid (8, 1, 1) block (128, 1, 1)",
              "Timing    median", "Bandwidth", "dest", "PASS"})
            QVERIFY2(r.out.contains(QLatin1String(s)), qPrintable(QString(s) + "\n" + r.out));
    }
    void integerMismatchJsonIsExact()
    {
        const QString why = cpuUnavailable();
        if (!why.isEmpty()) QSKIP(qPrintable(why));
        const CliRun r =
            runCli({"run", data("exact/u64_diff.wbproj"), "--backend", "cpu", "--json"});
        QCOMPARE(r.exitCode, 1);
        const QJsonObject out =
            QJsonDocument::fromJson(r.out.toUtf8()).object()["outputs"].toArray().at(0).toObject();
        QCOMPARE(out["mismatches"].toDouble(), 1.0);
        const QJsonObject first = out["firstMismatches"].toArray().at(0).toObject();
        QCOMPARE(first["actualExact"].toString(), QString("501427843000000001"));
        QCOMPARE(first["expectedExact"].toString(), QString("501427843000000000"));
        QCOMPARE(first["absErrorExact"].toString(), QString("1"));
    }
    void exactValues_data() { addExactCases(); }
    void exactValues()
    {
        const QString why = cpuUnavailable();
        if (!why.isEmpty()) QSKIP(qPrintable(why));
        runExactCase("cpu");
    }
    void listKernelsAndDevices()
    {
        const QString why = cpuUnavailable();
        if (!why.isEmpty()) QSKIP(qPrintable(why));
        CliRun r = runCli({"list-kernels", data("mul.cu"), "--backend", "cpu"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains("mul(") && r.out.contains("dest"), qPrintable(r.out));
        r = runCli({"list-kernels", data("broken.cu"), "--backend", "cpu"});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("broken.cu:4"), qPrintable(r.err));
        QCOMPARE(runCli({"list-kernels", data("nothing.cu")}).exitCode, 4);
        // A template kernel: a hint without --instantiate, the instance with it.
        const QString tmpl =
            QStringLiteral(WB_SOURCE_DIR) + "/resources/examples/template_scale/template_scale.cu";
        r = runCli({"list-kernels", tmpl, "--backend", "cpu"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains("--instantiate"), qPrintable(r.out));
        r = runCli({"list-kernels", tmpl, "--backend", "cpu", "--instantiate", "scale<float, 3>"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains("scale<float, 3>("), qPrintable(r.out));
        r = runCli({"devices", "--json"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(QJsonDocument::fromJson(r.out.toUtf8()).object()["devices"].isArray());
    }
    // Issue 15: a project file must not run commands through compiler flags.
    void refusesUntrustedFlags_data()
    {
        QTest::addColumn<QString>("fields"); // JSON members added to the project
        QTest::addColumn<QString>("message");
        QTest::newRow("wrapper") << R"("reference": {"kind": "cpp", "file": "reference.cpp",
            "flags": ["-O2", "-wrapper", "/bin/sh,-c,touch PWNED"]})"
                                 << "reference.flags: '-wrapper /bin/sh,-c,touch";
        QTest::newRow("plugin via host flag")
            << R"("compileOptions": {"extraFlags": ["--host-flag=-fplugin=./evil.so"]})"
            << "compileOptions.extraFlags: '--host-flag=-fplugin=./evil.so'";
        QTest::newRow("include outside") << R"("compileOptions": {"includeDirs": ["../.."]})"
                                         << "compileOptions.includeDirs: '../..'";
    }
    void refusesUntrustedFlags()
    {
        QFETCH(QString, fields);
        QFETCH(QString, message);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QVERIFY(QFile::copy(data("mul.cu"), dir.filePath("mul.cu")));
        QFile ref(dir.filePath("reference.cpp"));
        QVERIFY(ref.open(QIODevice::WriteOnly));
        ref.write("void reference(float* dest, const float* a, const float* b, int n) { for "
                  "(int i = 0; i < n; ++i) dest[i] = a[i] * b[i]; }\n");
        ref.close();
        QString project = QStringLiteral(R"({"schemaVersion": 1, "name": "t",
            "kernel": {"file": "mul.cu"},
            "scalars": [{"name": "n", "type": "i32", "value": 100}],
            "buffers": [{"name": "dest", "type": "f32", "shape": ["n"], "role": "out"},
                        {"name": "a", "type": "f32", "shape": ["n"]},
                        {"name": "b", "type": "f32", "shape": ["n"]}],
            "launch": {"kernel": "mul", "grid": [1], "block": [128]}, %1})")
                              .arg(fields.replace("PWNED", dir.filePath("pwned")));
        QFile f(dir.filePath("t.wbproj"));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(project.toUtf8());
        f.close();
        for (const char* command : {"run", "profile"}) {
            const CliRun r = runCli({command, dir.filePath("t.wbproj"), "--backend", "cpu"});
            QCOMPARE(r.exitCode, 4);
            QVERIFY2(r.err.contains(message), qPrintable(r.err));
            QVERIFY2(r.err.contains("--trust-project"), qPrintable(r.err));
        }
        QVERIFY(QDir(dir.path()).mkdir("subs"));
        QVERIFY(QFile::copy(data("mul.cu"), dir.filePath("subs/mul.cu")));
        const CliRun g = runCli({"grade", dir.filePath("t.wbproj"), dir.filePath("subs")});
        QCOMPARE(g.exitCode, 4);
        QVERIFY2(g.err.contains(message), qPrintable(g.err));
        QVERIFY(!QFile::exists(dir.filePath("pwned")));
    }
    void trustProjectRunsTheFlags()
    {
        const QString why = cpuUnavailable();
        if (!why.isEmpty()) QSKIP(qPrintable(why));
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QVERIFY(QFile::copy(data("mul.cu"), dir.filePath("mul.cu")));
        QFile in(data("pass.wbproj"));
        QVERIFY(in.open(QIODevice::ReadOnly));
        QString project = QString::fromUtf8(in.readAll());
        // A harmless flag outside the set: refused, then run once trusted.
        project.replace(R"("kind": "cpp",)",
                        R"("kind": "cpp", "flags": ["-frecord-gcc-switches"],)");
        QFile f(dir.filePath("p.wbproj"));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(project.toUtf8());
        f.close();
        CliRun r = runCli({"run", dir.filePath("p.wbproj"), "--backend", "cpu"});
        QCOMPARE(r.exitCode, 4);
        QVERIFY2(r.err.contains("reference.flags: '-frecord-gcc-switches'"), qPrintable(r.err));
        r = runCli({"run", dir.filePath("p.wbproj"), "--backend", "cpu", "--trust-project"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
        QVERIFY2(r.out.contains("PASS"), qPrintable(r.out));
    }

    // Issue 15: a 50,000-character identifier made list-kernels die with SIGSEGV (std::regex).
    void listKernelsSurvivesLongIdentifiers()
    {
        const QString why = cpuUnavailable();
        if (!why.isEmpty()) QSKIP(qPrintable(why));
        const QString name(50'000, QLatin1Char('k'));
        const QString param(50'000, QLatin1Char('p'));
        const QString shared(50'000, QLatin1Char('s'));
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QFile f(dir.filePath("long.cu"));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QStringLiteral("__global__ void %1(float* %2, int n)\n{\n"
                               "    extern __shared__ float %3[];\n"
                               "    %3[threadIdx.x] = n;\n    __syncthreads();\n"
                               "    %2[threadIdx.x] = %3[threadIdx.x];\n}\n")
                    .arg(name, param, shared)
                    .toUtf8());
        f.close();
        CliRun r = runCli({"list-kernels", dir.filePath("long.cu"), "--backend", "cpu"});
        QVERIFY2(r.exitCode == 0, qPrintable(QString::number(r.exitCode) + r.err.left(2000)));
        QVERIFY(r.out.contains(name + "(") && r.out.contains(param));
        // And the compiler's diagnostics about such a name.
        QFile g(dir.filePath("broken_long.cu"));
        QVERIFY(g.open(QIODevice::WriteOnly));
        g.write(QStringLiteral("__global__ void k(float* o)\n{\n    o[0] = %1;\n}\n")
                    .arg(name)
                    .toUtf8());
        g.close();
        r = runCli({"list-kernels", dir.filePath("broken_long.cu"), "--backend", "cpu"});
        QVERIFY2(r.exitCode == 2, qPrintable(QString::number(r.exitCode) + r.err.left(2000)));
        QVERIFY2(r.err.contains("broken_long.cu:3"), qPrintable(r.err.left(2000)));
    }
};

WB_QTEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"
