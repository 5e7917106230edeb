// SPDX-License-Identifier: GPL-3.0-or-later
// A pipeline project (resources/examples/bitonic_sort) through warpbench-cli and the runner
// process on the CPU emulator: the pass and each launch timed in the text and the JSON report;
// the modes that work on one launch (profile, sweep, debug, --trace) refuse it with exit 4.
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
const QString kProject =
    QStringLiteral(WB_SOURCE_DIR "/resources/examples/bitonic_sort/bitonic_sort.wbproj");
}

class TestCliPipeline : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        if (const QString why = cpuUnavailable(); !why.isEmpty()) QSKIP(qPrintable(why));
    }

    void runReportsThePassAndEachLaunch()
    {
        const CliRun j =
            runCli({"run", kProject, "--backend", "cpu", "--iterations", "2", "--json"});
        QVERIFY2(j.exitCode == 0,
                 qPrintable(QString("exit %1\n%2%3").arg(j.exitCode).arg(j.out, j.err)));
        const QJsonObject rep = QJsonDocument::fromJson(j.out.toUtf8()).object();
        QCOMPARE(rep["status"].toString(), QString("pass"));
        QCOMPARE(rep["timing"]["samplesMs"].toArray().size(), 2);
        const QJsonObject pipeline = rep["pipeline"].toObject();
        QCOMPARE(pipeline["launchesPerPass"].toInt(), 70);
        const QJsonArray launches = pipeline["launches"].toArray();
        QCOMPARE(launches.size(), 70);
        QCOMPARE(launches[0]["kernel"].toString(), QString("bitonic_sort_block"));
        QCOMPARE(launches[0]["sharedBytes"].toInt(), 1024);
        QCOMPARE(launches[1]["kernel"].toString(), QString("bitonic_step"));
        QCOMPARE(launches[1]["entry"].toInt(), 1);
        QCOMPARE(launches[1]["vars"]["k"].toInt(), 512);
        QCOMPARE(launches[1]["vars"]["j"].toInt(), 256);
        QCOMPARE(launches[69]["vars"]["k"].toInt(), 16384);
        QCOMPARE(launches[69]["vars"]["j"].toInt(), 1);
        for (const QJsonValue& l : launches)
            QVERIFY(l["timing"].toObject().contains("medianMs"));

        const CliRun t = runCli({"run", kProject, "--backend", "cpu", "--iterations", "1"});
        QVERIFY2(t.exitCode == 0, qPrintable(t.out + t.err));
        QVERIFY2(t.out.contains("Launch    pipeline of 70 launches per pass, 1 warm-up + 1 timed "
                                "passes"),
                 qPrintable(t.out));
        QVERIFY2(t.out.contains("Pipeline  launches[0] bitonic_sort_block x1  grid (64, 1, 1) "
                                "block (256, 1, 1) shared 1024 B  medians sum"),
                 qPrintable(t.out));
        QVERIFY2(t.out.contains("          launches[1] bitonic_step x69  grid (64, 1, 1)"),
                 qPrintable(t.out));
        QVERIFY(t.out.contains("PASS"));
    }

    /// grade runs each submission's pipeline in grade mode: a kernel that skips the last step
    /// of every merge fails, the example's own passes.
    void gradeGradesPipelines()
    {
        QTemporaryDir dir;
        const QString example = QStringLiteral(WB_SOURCE_DIR "/resources/examples/bitonic_sort/");
        for (const char* f : {"bitonic_sort.wbproj", "bitonic_sort.cu", "reference.cpp"})
            QVERIFY(QFile::copy(example + f, dir.filePath(f)));
        QVERIFY(QDir(dir.path()).mkdir("subs"));
        QVERIFY(QFile::copy(example + "bitonic_sort.cu", dir.filePath("subs/good.cu")));
        QFile source(example + "bitonic_sort.cu");
        QVERIFY(source.open(QIODevice::ReadOnly));
        QByteArray skips = source.readAll();
        const QByteArray swap = "    if (partner <= i) return;";
        QVERIFY(skips.contains(swap));
        skips.replace(swap, "    if (partner <= i || j == 1) return;");
        writeFile(dir.filePath("subs/skips_last_step.cu"), skips);
        const CliRun r =
            runCli({"grade", dir.filePath("bitonic_sort.wbproj"), dir.filePath("subs"), "--backend",
                    "cpu", "--iterations", "2", "--json", "--timeout", "240"});
        QVERIFY2(r.exitCode == 0,
                 qPrintable(QString("exit %1\n%2%3").arg(r.exitCode).arg(r.out, r.err)));
        const QJsonObject doc = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QCOMPARE(doc["submissions"].toInt(), 2);
        QCOMPARE(doc["passed"].toInt(), 1);
        const QJsonArray rows = doc["results"].toArray();
        QCOMPARE(rows[0]["file"].toString(), QString("good.cu"));
        QCOMPARE(rows[0]["result"].toString(), QString("pass"));
        QCOMPARE(rows[1]["file"].toString(), QString("skips_last_step.cu"));
        QVERIFY2(rows[1]["result"].toString() != QString("pass"), qPrintable(r.out));
    }

    void oneLaunchModesRefuseIt_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        QTest::newRow("profile") << QStringList{"profile", kProject}
                                 << "profile: this project is a pipeline of several launches";
        QTest::newRow("sweep") << QStringList{"sweep", kProject, "block", "64,128"}
                               << "sweep: this project is a pipeline of several launches";
        QTest::newRow("trace") << QStringList{"run", kProject, "--backend", "cpu", "--trace"}
                               << "trace mode records one launch; this project is a pipeline";
        QTest::newRow("debug") << QStringList{"debug", kProject, "--break", "20"}
                               << "the debugger runs one launch; this project is a pipeline";
    }
    void oneLaunchModesRefuseIt()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        const CliRun r = runCli(args);
        QVERIFY2(r.exitCode == 4,
                 qPrintable(QString("exit %1\n%2%3").arg(r.exitCode).arg(r.out, r.err)));
        QVERIFY2((r.out + r.err).contains(message), qPrintable(r.out + r.err));
    }
};

WB_QTEST_GUILESS_MAIN(TestCliPipeline)
#include "tst_cli_pipeline.moc"
