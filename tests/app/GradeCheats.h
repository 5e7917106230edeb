// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The cheating submissions of tests/app/data/cheats graded by `warpbench-cli grade` on one
// backend: shared by tst_grade_cheats (CPU emulator, CI) and tst_grade_gpu (CUDA, label gpu).

#include "CliProcess.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMap>
#include <QTemporaryDir>
#include <QTest>

namespace cheats {

inline QString data(const QString& rel)
{
    return QStringLiteral(WB_TEST_DATA_DIR "/cheats/") + rel;
}

/// Rows of a `grade --json` document by file name.
inline QMap<QString, QJsonObject> rowsOf(const CliRun& r)
{
    QMap<QString, QJsonObject> m;
    for (const QJsonValue& v :
         QJsonDocument::fromJson(r.out.toUtf8()).object()["results"].toArray())
        m.insert(v.toObject()["file"].toString(), v.toObject());
    return m;
}

#define WB_EXPECT_ROW(row, res, text)                                                              \
    do {                                                                                           \
        QVERIFY2((row)["result"].toString() == QLatin1String(res),                                 \
                 qPrintable((row)["file"].toString() + ": " + (row)["result"].toString() + ": " +  \
                            (row)["message"].toString()));                                         \
        QVERIFY2((row)["message"].toString().contains(QLatin1String(text)),                        \
                 qPrintable((row)["file"].toString() + ": " + (row)["message"].toString()));       \
    } while (0)

/// Writes nothing, caches across launches (a __device__ flag; a replayed answer), NaN output,
/// skips the timed launches: each fails for its own reason; the honest solution passes; every
/// failing one gets a bundle that reproduces the verdict.
inline void gradeVectorCheats(const QString& backend)
{
    QTemporaryDir out;
    const CliRun r =
        runCli({"grade", data("vector/vector.wbproj"), data("vector/subs"), "--json",
                "--fresh-inputs", "--backend", backend, "--out", out.path(), "--timeout", "240"});
    QVERIFY2(r.exitCode == 0,
             qPrintable(QString("exit %1\n%2%3").arg(r.exitCode).arg(r.out, r.err)));
    const auto rows = rowsOf(r);
    QCOMPARE(rows.size(), 6);
    const QJsonObject honest = rows["honest.cu"];
    WB_EXPECT_ROW(honest, "pass", "");
    QVERIFY(honest["bundle"].isNull());
    QCOMPARE(honest["unwritten"].toInt(), 0);
    QVERIFY(!honest["seed"].toString().isEmpty());

    WB_EXPECT_ROW(rows["writes_nothing.cu"], "fail", "1,048,576 never written");
    QCOMPARE(rows["writes_nothing.cu"]["unwritten"].toInt(), 1048576);
    // Correct in the result launch, then nothing: the checks after it find the poison.
    WB_EXPECT_ROW(rows["caches_flag.cu"], "fail", "launch after timing");
    QVERIFY(rows["caches_flag.cu"]["message"].toString().contains("never written"));
    QVERIFY(!rows["caches_flag.cu"]["message"].toString().contains("result launch"));
    QCOMPARE(rows["caches_flag.cu"]["unwritten"].toInt(), 1048576);
    // Writes every element every time, from a cache: only inputs from new seeds show it.
    WB_EXPECT_ROW(rows["caches_replay.cu"], "fail", "launch after timing (fresh inputs: a, b)");
    QVERIFY(rows["caches_replay.cu"]["message"].toString().contains("mismatches"));
    WB_EXPECT_ROW(rows["nan_output.cu"], "fail", "1,048,576 NaN where the reference is finite");
    QCOMPARE(rows["nan_output.cu"]["maxAbsError"].toString(), QStringLiteral("nan"));
    // Works in the launches it expects to be checked (result, after timing) and skips the
    // timed ones: the randomly chosen timed launch is checked too.
    WB_EXPECT_ROW(rows["skips_timed.cu"], "fail", "timed launch");
    QVERIFY(rows["skips_timed.cu"]["message"].toString().contains("never written"));
    QVERIFY(!rows["skips_timed.cu"]["message"].toString().contains("launch after timing"));

    // The table and the bundles.
    QFile csv(QDir(out.path()).filePath("grades.csv"));
    QVERIFY(csv.open(QIODevice::ReadOnly));
    const QStringList lines = QString::fromUtf8(csv.readAll()).split('\n', Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), 7);
    QVERIFY(
        lines[0].startsWith("file,result,max_abs_error,unwritten,kernel_ms,gb_s,speed_of_light"));
    QFile json(QDir(out.path()).filePath("grades.json"));
    QVERIFY(json.open(QIODevice::ReadOnly));
    QCOMPARE(QJsonDocument::fromJson(json.readAll()).object()["passed"].toInt(), 1);
    QVERIFY(!QDir(out.path()).exists("failed/honest"));
    for (const char* stem :
         {"writes_nothing", "caches_flag", "caches_replay", "nan_output", "skips_timed"}) {
        const QDir b(QDir(out.path()).filePath(QStringLiteral("failed/") + stem));
        QVERIFY2(b.exists("README.txt") && b.exists("report.json") && b.exists("vector.wbproj") &&
                     b.exists("honest.cu") &&
                     b.exists(QStringLiteral("submission/") + stem + ".cu"),
                 stem);
        QCOMPARE(rows[QString(stem) + ".cu"]["bundle"].toString(), b.path());
    }
    // The bundle's README command reproduces the verdict (same seed: same checked launch).
    const QDir skip(QDir(out.path()).filePath("failed/skips_timed"));
    QFile readme(skip.filePath("README.txt"));
    QVERIFY(readme.open(QIODevice::ReadOnly));
    QString command;
    for (const QString& line : QString::fromUtf8(readme.readAll()).split('\n'))
        if (line.trimmed().startsWith("warpbench-cli run")) command = line.trimmed();
    QStringList args = command.split(' ', Qt::SkipEmptyParts).mid(1);
    QVERIFY2(args.contains("--grade-seed"), qPrintable(command));
    for (QString& a : args)
        if (a == "vector.wbproj" || a.startsWith("submission/")) a = skip.filePath(a);
    const CliRun again = runCli(args << "--json");
    QCOMPARE(again.exitCode, 1);
    const QJsonObject rep = QJsonDocument::fromJson(again.out.toUtf8()).object();
    QCOMPARE(rep["grade"].toObject()["seed"].toString(), rows["skips_timed.cu"]["seed"].toString());
    QVERIFY2(rep["message"].toString().contains(
                 rows["skips_timed.cu"]["message"].toString().section(':', 0, 0)),
             qPrintable(rep["message"].toString()));
}

/// The replaying cache passes every check on restored inputs: it is --fresh-inputs that
/// catches it (so the option, not chance, is what the test above relies on).
inline void replayNeedsFreshInputs(const QString& backend)
{
    const QStringList base{"run",      data("vector/vector.wbproj"),
                           "--kernel", data("vector/subs/caches_replay.cu"),
                           "--grade",  "--backend",
                           backend};
    const CliRun same = runCli(base);
    QVERIFY2(same.exitCode == 0, qPrintable(same.out + same.err));
    const CliRun fresh = runCli(QStringList(base) << "--fresh-inputs");
    QVERIFY2(fresh.exitCode == 1, qPrintable(fresh.out + fresh.err));
    QVERIFY(fresh.out.contains("launch after timing (fresh inputs: a, b): FAIL"));
}

/// The speed-of-light check: a row-sum kernel that knows its input is iota and never reads the
/// 128 MiB matrix is right in every launch and flagged impossible; the honest one is not.
/// `peakGBs` > 0 is passed as --peak-bandwidth (the CPU emulator has no peak of its own).
inline void gradeTooFast(const QString& backend, double peakGBs)
{
    QStringList args{"grade",
                     data("rowsum/rowsum.wbproj"),
                     data("rowsum/subs"),
                     "--json",
                     "--backend",
                     backend,
                     "--timeout",
                     "240",
                     "--jobs",
                     "1"};
    if (peakGBs > 0) args << "--peak-bandwidth" << QString::number(peakGBs, 'g', 17);
    const CliRun r = runCli(args);
    QVERIFY2(r.exitCode == 0,
             qPrintable(QString("exit %1\n%2%3").arg(r.exitCode).arg(r.out, r.err)));
    const auto rows = rowsOf(r);
    QCOMPARE(rows.size(), 2);
    WB_EXPECT_ROW(rows["honest.cu"], "pass", "");
    QCOMPARE(rows["honest.cu"]["speedOfLight"].toString(), QStringLiteral("ok"));
    WB_EXPECT_ROW(rows["too_fast.cu"], "impossible", "exceeds the peak");
    QCOMPARE(rows["too_fast.cu"]["speedOfLight"].toString(), QStringLiteral("impossible"));
    QCOMPARE(rows["too_fast.cu"]["maxAbsError"].toDouble(), 0.0); // right answers all the same
    QVERIFY(rows["too_fast.cu"]["bandwidthGBs"].toDouble() >
            rows["too_fast.cu"]["peakGBs"].toDouble());
    if (peakGBs > 0) QCOMPARE(rows["too_fast.cu"]["peakGBs"].toDouble(), peakGBs);
}

} // namespace cheats
