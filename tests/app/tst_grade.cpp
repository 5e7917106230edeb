// SPDX-License-Identifier: GPL-3.0-or-later
// `warpbench-cli grade`: a folder of submissions against one project on the CPU backend —
// passing, failing (an unwritten element), non-compiling and hanging (stopped by --timeout).
#include "CliProcess.h"
#include "tests/support/SuiteMain.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

namespace {
const char* kProject = R"json({
    "schemaVersion": 1,
    "name": "lab1",
    "kernel": {"file": "solution.cu"},
    "scalars": [{"name": "n", "type": "i32", "value": 1000}],
    "buffers": [
        {"name": "a", "type": "f32", "shape": ["n"], "init": {"kind": "iota"}},
        {"name": "c", "type": "f32", "shape": ["n"], "role": "out"}
    ],
    "launch": {"kernel": "twice", "grid": ["ceil(n/128)"], "block": [128], "warmup": 0, "iterations": 1, "backend": "cpu"},
    "reference": {"kind": "cpp", "source": "void reference(const float* a, float* c, int n) { for (int i = 0; i < n; ++i) c[i] = 2 * a[i]; }"},
    "tolerance": {"atol": 0, "rtol": 0}
})json";

const char* kPass =
    "__global__ void twice(const float* a, float* c, int n)\n"
    "{ int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) c[i] = 2 * a[i]; }\n";
const char* kFail =
    "__global__ void twice(const float* a, float* c, int n)\n"
    "{ int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n - 1) c[i] = 2 * a[i]; }\n";
const char* kBroken = "__global__ void twice(const float* a, float* c, int n)\n"
                      "{ int i = blockIdx.x * blockDim.x + threadIdx.x;\n  c[i] = 2 * b[i]; }\n";
const char* kHang = "__global__ void twice(const float* a, float* c, int n)\n"
                    "{ volatile int spin = 1; while (spin) {} c[0] = a[0]; }\n";
} // namespace

class TestGrade : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void gradesAFolder()
    {
        const QString why = cpuUnavailable();
        if (!why.isEmpty()) QSKIP(qPrintable(why));
        QTemporaryDir dir;
        writeFile(dir.filePath("lab1.wbproj"), kProject);
        writeFile(dir.filePath("solution.cu"), kPass);
        QDir().mkpath(dir.filePath("subs"));
        writeFile(dir.filePath("subs/alice.cu"), kPass);
        writeFile(dir.filePath("subs/bob.cu"), kFail);
        writeFile(dir.filePath("subs/carol.cu"), kBroken);
        writeFile(dir.filePath("subs/notes.txt"), "not a submission");
        const QString csv = dir.filePath("grades.csv");
        // A generous timeout: compiles on a loaded machine take seconds. The runaway kernel has
        // its own test below.
        const CliRun r = runCli({"grade", dir.filePath("lab1.wbproj"), dir.filePath("subs"),
                                 "--json", "--csv", csv, "--timeout", "240"});
        QVERIFY2(r.exitCode == 0,
                 qPrintable(QString("exit %1\n%2%3").arg(r.exitCode).arg(r.out, r.err)));
        const QJsonObject doc = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QCOMPARE(doc["submissions"].toInt(), 3);
        QCOMPARE(doc["passed"].toInt(), 1);
        const QJsonArray rows = doc["results"].toArray();
        QCOMPARE(rows.size(), 3);
        const auto row = [&](int i) { return rows[i].toObject(); };

        QCOMPARE(row(0)["file"].toString(), QStringLiteral("alice.cu"));
        QCOMPARE(row(0)["result"].toString(), QStringLiteral("pass"));
        QCOMPARE(row(0)["maxAbsError"].toDouble(), 0.0);
        QCOMPARE(row(0)["unwritten"].toInt(), 0);
        QVERIFY(row(0)["kernelMs"].toDouble() > 0);

        QCOMPARE(row(1)["file"].toString(), QStringLiteral("bob.cu"));
        QCOMPARE(row(1)["result"].toString(), QStringLiteral("fail"));
        QCOMPARE(row(1)["unwritten"].toInt(), 1);
        QCOMPARE(row(1)["maxAbsError"].toString(),
                 QStringLiteral("nan")); // unwritten: error unknown
        QVERIFY2(
            row(1)["message"].toString().contains("1 of 1,000 elements of 'c' was never written"),
            qPrintable(row(1)["message"].toString()));

        QCOMPARE(row(2)["file"].toString(), QStringLiteral("carol.cu"));
        QCOMPARE(row(2)["result"].toString(), QStringLiteral("compile-error"));
        QVERIFY2(row(2)["message"].toString().contains("carol.cu:3"),
                 qPrintable(row(2)["message"].toString()));
        QVERIFY(row(2)["unwritten"].isNull());

        QFile f(csv);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QStringList lines = QString::fromUtf8(f.readAll()).split('\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 4);
        QVERIFY(lines[0].startsWith(
            "file,result,max_abs_error,unwritten,kernel_ms,gb_s,speed_of_light,"));
        QVERIFY(lines[1].startsWith("alice.cu,pass,0,0,"));
        QVERIFY(lines[2].startsWith("bob.cu,fail,nan,1,"));
        QVERIFY(lines[3].startsWith("carol.cu,compile-error,nan,,"));
    }

    void runawayKernelIsStopped()
    {
        const QString why = cpuUnavailable();
        if (!why.isEmpty()) QSKIP(qPrintable(why));
        QTemporaryDir dir;
        writeFile(dir.filePath("lab1.wbproj"), kProject);
        writeFile(dir.filePath("solution.cu"), kPass);
        QDir().mkpath(dir.filePath("subs"));
        writeFile(dir.filePath("subs/dave.cu"), kHang);
        writeFile(dir.filePath("subs/erin.cu"), kPass);
        // Compile both first (same options, so the graded runs hit the compile cache and the
        // short timeout below is spent running, not compiling).
        QCOMPARE(
            runCli({"run", dir.filePath("lab1.wbproj"), "--kernel", dir.filePath("subs/erin.cu")})
                .exitCode,
            0);
        const CliRun warm =
            runCli({"list-kernels", dir.filePath("subs/dave.cu"), "--backend", "cpu"});
        QCOMPARE(warm.exitCode, 0);
        const CliRun r = runCli({"grade", dir.filePath("lab1.wbproj"), dir.filePath("subs"),
                                 "--json", "--timeout", "6"});
        QVERIFY2(r.exitCode == 0,
                 qPrintable(QString("exit %1\n%2%3").arg(r.exitCode).arg(r.out, r.err)));
        const QJsonArray rows =
            QJsonDocument::fromJson(r.out.toUtf8()).object()["results"].toArray();
        QCOMPARE(rows.size(), 2);
        QCOMPARE(rows[0].toObject()["file"].toString(), QStringLiteral("dave.cu"));
        QCOMPARE(rows[0].toObject()["result"].toString(), QStringLiteral("timeout"));
        QVERIFY(rows[0].toObject()["wallS"].toDouble() >= 6.0);
        QVERIFY(rows[0].toObject()["message"].toString().contains("stopped after 6 s"));
        // Grading went on after the runaway.
        QCOMPARE(rows[1].toObject()["result"].toString(), QStringLiteral("pass"));
    }

    void textTableByDefault()
    {
        const QString why = cpuUnavailable();
        if (!why.isEmpty()) QSKIP(qPrintable(why));
        QTemporaryDir dir;
        writeFile(dir.filePath("lab1.wbproj"), kProject);
        writeFile(dir.filePath("solution.cu"), kPass);
        QDir().mkpath(dir.filePath("subs"));
        writeFile(dir.filePath("subs/alice.cu"), kPass);
        const CliRun r = runCli({"grade", dir.filePath("lab1.wbproj"), dir.filePath("subs")});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains("alice.cu") && r.out.contains("1 of 1 submissions pass"),
                 qPrintable(r.out));
    }

    /// --shard K/N slices the folder by name; --merge joins the slices' --out folders into the
    /// table a whole grading gives, and refuses a missing, repeated or foreign slice.
    void gradesInShardsAndMerges()
    {
        const QString why = cpuUnavailable();
        if (!why.isEmpty()) QSKIP(qPrintable(why));
        QTemporaryDir dir;
        writeFile(dir.filePath("lab1.wbproj"), kProject);
        writeFile(dir.filePath("solution.cu"), kPass);
        QDir().mkpath(dir.filePath("subs"));
        for (const char* name : {"a.cu", "b.cu", "c.cu", "d.cu"})
            writeFile(dir.filePath(QStringLiteral("subs/") + name), kPass);
        writeFile(dir.filePath("subs/e.cu"), kFail);
        QStringList outs;
        for (int k = 1; k <= 3; ++k) {
            const QString out = dir.filePath(QStringLiteral("shard-%1").arg(k));
            const CliRun r = runCli({"grade", dir.filePath("lab1.wbproj"), dir.filePath("subs"),
                                     "--json", "--shard", QStringLiteral("%1/3").arg(k), "--out",
                                     out, "--timeout", "240"});
            QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
            const QJsonObject doc = QJsonDocument::fromJson(r.out.toUtf8()).object();
            QCOMPARE(doc["shard"].toString(), QStringLiteral("%1/3").arg(k));
            QStringList files;
            for (const QJsonValue& v : doc["results"].toArray())
                files << v.toObject()["file"].toString();
            // Every third file in name order, from the k-th.
            const QStringList expected[] = {{"a.cu", "d.cu"}, {"b.cu", "e.cu"}, {"c.cu"}};
            QCOMPARE(files, expected[k - 1]);
            outs << out;
        }
        const CliRun merged = runCli(QStringList{"grade", "--merge"} + outs +
                                     QStringList{"--json", "--out", dir.filePath("all")});
        QVERIFY2(merged.exitCode == 0, qPrintable(merged.out + merged.err));
        const QJsonObject doc = QJsonDocument::fromJson(merged.out.toUtf8()).object();
        QCOMPARE(doc["submissions"].toInt(), 5);
        QCOMPARE(doc["passed"].toInt(), 4);
        QVERIFY(!doc.contains("shard"));
        const QJsonArray rows = doc["results"].toArray();
        QCOMPARE(rows[4].toObject()["file"].toString(), QStringLiteral("e.cu"));
        QCOMPARE(rows[4].toObject()["result"].toString(), QStringLiteral("fail"));
        QVERIFY(QFile::exists(dir.filePath("all/grades.csv")));
        QVERIFY(!rows[4].toObject()["bundle"].toString().isEmpty());

        const CliRun missing = runCli({"grade", "--merge", outs[0], outs[2]});
        QCOMPARE(missing.exitCode, 4);
        QVERIFY2(missing.err.contains("shards missing: 2/3"), qPrintable(missing.err));
        const CliRun twice = runCli({"grade", "--merge", outs[0], outs[1], outs[2], outs[0]});
        QCOMPARE(twice.exitCode, 4);
        QVERIFY2(twice.err.contains("given twice"), qPrintable(twice.err));
        QCOMPARE(runCli({"grade", "--merge", dir.filePath("subs")}).exitCode, 4);
        QCOMPARE(
            runCli({"grade", dir.filePath("lab1.wbproj"), dir.filePath("subs"), "--shard", "4/3"})
                .exitCode,
            4);
    }

    void invalidArguments()
    {
        QTemporaryDir dir;
        writeFile(dir.filePath("lab1.wbproj"), kProject);
        QCOMPARE(runCli({"grade", dir.filePath("lab1.wbproj")}).exitCode, 4);
        QCOMPARE(runCli({"grade", dir.filePath("lab1.wbproj"), dir.filePath("missing")}).exitCode,
                 4);
        QCOMPARE(runCli({"grade", dir.filePath("nope.wbproj"), dir.path()}).exitCode, 4);
        QDir().mkpath(dir.filePath("empty"));
        QCOMPARE(runCli({"grade", dir.filePath("lab1.wbproj"), dir.filePath("empty")}).exitCode, 4);
        writeFile(dir.filePath("empty/x.cu"), kPass);
        QCOMPARE(
            runCli({"grade", dir.filePath("lab1.wbproj"), dir.filePath("empty"), "--timeout", "0"})
                .exitCode,
            4);
        writeFile(dir.filePath("bad.wbproj"), "{\"schemaVersion\": 1}");
        const CliRun bad = runCli({"grade", dir.filePath("bad.wbproj"), dir.filePath("empty")});
        QCOMPARE(bad.exitCode, 4);
        QVERIFY(bad.err.contains("invalid project"));
    }
};

WB_QTEST_GUILESS_MAIN(TestGrade)
#include "tst_grade.moc"
