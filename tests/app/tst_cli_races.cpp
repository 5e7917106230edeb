// SPDX-License-Identifier: GPL-3.0-or-later
// warpbench-cli run --races / --schedule on the CPU emulator: the races of the buggy example and
// of a global-memory test kernel at their lines, none on the correct examples, reproducible
// schedules.
#include "tests/app/CliProcess.h"
#include "tests/support/SuiteMain.h"

#include <QDirIterator>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest/QtTest>

namespace {

const QString kMissingSync =
    QStringLiteral(WB_SOURCE_DIR "/resources/examples/bugs/missing_syncthreads/"
                                 "missing_syncthreads.wbproj");

QByteArray readAll(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

} // namespace

class TestCliRaces : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        if (const QString why = cpuUnavailable(); !why.isEmpty()) QSKIP(qPrintable(why));
    }

    void missingSyncthreadsIsReportedAtLineEleven()
    {
        CliRun r = runCli({"run", kMissingSync, "--races"});
        QCOMPARE(r.exitCode, 3);
        QVERIFY2(r.out.contains(QStringLiteral("race: shared cache[")), qPrintable(r.out));
        QVERIFY2(r.out.contains(QRegularExpression(
                     "missing_syncthreads.cu:11 read by block \\(\\d+,0,0\\) thread \\(\\d+,0,0\\) "
                     "vs missing_syncthreads.cu:11 write")),
                 qPrintable(r.out));

        r = runCli({"run", kMissingSync, "--races", "--json"});
        QCOMPARE(r.exitCode, 3);
        const QJsonObject j = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QCOMPARE(j["exitCode"].toInt(), 3);
        const QJsonArray races = j["races"].toArray();
        QVERIFY2(!races.isEmpty(), qPrintable(r.out));
        const QJsonObject race = races[0].toObject();
        QCOMPARE(race["memory"].toString(), QStringLiteral("shared"));
        QCOMPARE(race["kernel"].toString(), QStringLiteral("block_sum"));
        QVERIFY(race["location"].toString().startsWith(QLatin1String("cache[")));
        for (const char* side : {"first", "second"}) {
            const QJsonObject s = race[QLatin1String(side)].toObject();
            QCOMPARE(s["file"].toString(), QStringLiteral("missing_syncthreads.cu"));
            QCOMPARE(s["line"].toInt(), 11);
            QCOMPARE(s["thread"].toArray().size(), 3);
        }
        QVERIFY(race["first"].toObject()["isWrite"].toBool() !=
                race["second"].toObject()["isWrite"].toBool());
    }

    void globalRaceAcrossBlocks()
    {
        const CliRun r = runCli(
            {"run", QStringLiteral(WB_SOURCE_DIR "/tests/app/data/race_global.wbproj"), "--races"});
        QCOMPARE(r.exitCode, 3);
        QVERIFY2(
            r.out.contains(QRegularExpression(
                "race: global out\\[0\\]: race_global.cu:11 write by block \\((\\d+),0,0\\) "
                "thread \\(0,0,0\\) vs race_global.cu:11 write by block \\((?!\\1)\\d+,0,0\\)")),
            qPrintable(r.out));
    }

    // A program of several launches reports the races of every launch, each naming its
    // kernel: here a guard kernel's (not the last launch, which is race-free), and a race that
    // only a run's first launch has.
    void racesOfEveryLaunchAreReported()
    {
        const QString project = QStringLiteral(WB_SOURCE_DIR "/tests/app/data/race_guard.wbproj");
        CliRun r = runCli({"run", project, "--races"});
        QCOMPARE(r.exitCode, 3);
        QVERIFY2(r.out.contains(QRegularExpression(
                     "race: global count\\[0\\]: race_guard.cu:9 (read|write) by block "
                     "\\(\\d+,0,0\\) thread \\(\\d+,0,0\\) vs race_guard.cu:9 (read|write) .*"
                     "\\(kernel count_large, ")),
                 qPrintable(r.out));
        QVERIFY2(!r.out.contains(QStringLiteral("kernel scale,")), qPrintable(r.out));

        r = runCli({"run", project, "--races", "--json"});
        QCOMPARE(r.exitCode, 3);
        const QJsonArray races =
            QJsonDocument::fromJson(r.out.toUtf8()).object()["races"].toArray();
        QVERIFY2(!races.isEmpty(), qPrintable(r.out));
        for (const auto& race : races) {
            QCOMPARE(race.toObject()["kernel"].toString(), QStringLiteral("count_large"));
            QCOMPARE(race.toObject()["first"].toObject()["line"].toInt(), 9);
        }

        // A data-dependent race of the run's first launch only (a guarded maximum: once it
        // holds, no thread writes), as public suites' guardBug kernels have it.
        r = runCli({"run", QStringLiteral(WB_SOURCE_DIR "/tests/app/data/race_guard_max.wbproj"),
                    "--races"});
        QCOMPARE(r.exitCode, 3);
        QVERIFY2(r.out.contains(QRegularExpression("race: global best\\[0\\]: race_guard.cu:25 .*"
                                                   "\\(kernel raise_max, ")),
                 qPrintable(r.out));
    }

    // Every launch of a race-checked run starts from the project's inputs: a worklist append
    // through an atomic counter (inout) runs clean over a warm-up and three timed launches
    // instead of continuing the first launch's count past the end of its worklist.
    void everyLaunchStartsFromTheInputs()
    {
        const CliRun r =
            runCli({"run", QStringLiteral(WB_SOURCE_DIR "/tests/app/data/race_worklist.wbproj"),
                    "--races"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains(QStringLiteral("races: none found")), qPrintable(r.out));
        QVERIFY2(!r.out.contains(QStringLiteral("out of bounds")), qPrintable(r.out));
    }

    // Words with more accessors than the detector compares are a note in the text, and
    // raceCrowding / raceCrowdedWords / raceCrowdingNote in --json (not a race: exit 0).
    void crowdedWordsAreANote()
    {
        const QString project = QStringLiteral(WB_SOURCE_DIR "/tests/app/data/race_crowded.wbproj");
        CliRun r = runCli({"run", project, "--races"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
        QVERIFY2(r.out.contains(QStringLiteral("races: none found")), qPrintable(r.out));
        QVERIFY2(r.out.contains(QStringLiteral(
                     "note: 1 word (shared s: 1) had more accessors than the race check compares "
                     "(2 reads and 2 writes per word); races among them may be missed")),
                 qPrintable(r.out));

        r = runCli({"run", project, "--races", "--json"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
        const QJsonObject j = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QCOMPARE(j["raceCrowdedWords"].toInt(), 1);
        const QJsonArray crowding = j["raceCrowding"].toArray();
        QCOMPARE(crowding.size(), 1);
        QCOMPARE(crowding[0].toObject()["location"].toString(), QStringLiteral("s"));
        QCOMPARE(crowding[0].toObject()["memory"].toString(), QStringLiteral("shared"));
        QCOMPARE(crowding[0].toObject()["words"].toInt(), 1);
        QVERIFY(j["raceCrowdingNote"].toString().contains(QLatin1String("may be missed")));

        // A run without crowded words says nothing of it.
        r = runCli({"run",
                    QStringLiteral(WB_SOURCE_DIR "/resources/examples/reduction/reduction.wbproj"),
                    "--races", "--json", "--iterations", "1"});
        const QJsonObject k = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QCOMPARE(k["raceCrowdedWords"].toInt(), 0);
        QVERIFY(!k.contains(QLatin1String("raceCrowdingNote")));
    }

    void correctExamplesHaveNoRaces_data()
    {
        QTest::addColumn<QString>("project");
        QDirIterator it(QStringLiteral(WB_SOURCE_DIR "/resources/examples"), {"*.wbproj"},
                        QDir::Files, QDirIterator::Subdirectories);
        int count = 0;
        while (it.hasNext()) {
            const QString path = it.next();
            if (path.contains(QLatin1String("/bugs/"))) continue;
            QTest::newRow(qPrintable(QFileInfo(path).baseName())) << path;
            ++count;
        }
        QVERIFY(count >= 10);
    }
    void correctExamplesHaveNoRaces()
    {
        QFETCH(QString, project);
        const CliRun r = runCli({"run", project, "--races", "--json", "--iterations", "1"});
        const QJsonObject j = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QVERIFY2(j.contains(QLatin1String("races")), qPrintable(r.out + r.err));
        QVERIFY2(j["races"].toArray().isEmpty(), qPrintable(r.out));
        QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
    }

    void scheduleIsReproducibleAndVariesTheResult()
    {
        QTemporaryDir dir;
        const auto partial = [&](const QString& name, const QStringList& extra) {
            const QString out = dir.filePath(name);
            CliRun r = runCli(QStringList{"run", kMissingSync, "--output", out} + extra);
            if (r.exitCode != 1) qWarning("%s", qPrintable(r.out + r.err));
            return readAll(out + QStringLiteral("/partial.npy"));
        };
        const QByteArray fixed = partial("fixed", {});
        const QByteArray a = partial("a", {"--schedule", "7"});
        const QByteArray b = partial("b", {"--schedule", "7"});
        QVERIFY(!fixed.isEmpty());
        QCOMPARE(a, b);
        QVERIFY(a != fixed);
        // A correct kernel does not care.
        const QString reduction =
            QStringLiteral(WB_SOURCE_DIR "/resources/examples/reduction/reduction.wbproj");
        QCOMPARE(runCli({"run", reduction, "--schedule", "7"}).exitCode, 0);

        const CliRun bad = runCli({"run", kMissingSync, "--schedule", "seven"});
        QCOMPARE(bad.exitCode, 4);
        QVERIFY(bad.err.contains(QStringLiteral("--schedule")));
        const CliRun cuda = runCli({"run", kMissingSync, "--races", "--backend", "cuda"});
        QCOMPARE(cuda.exitCode, 4);
        QVERIFY(cuda.err.contains(QStringLiteral("CPU emulator")));
    }
};

WB_QTEST_GUILESS_MAIN(TestCliRaces)
#include "tst_cli_races.moc"
