// SPDX-License-Identifier: GPL-3.0-or-later
// Every shipped example passes its own reference through warpbench-cli on the CPU backend.
// (The lead runs the same loop with --backend cuda on the GPU machine.)
#include "CliProcess.h"

#include <QDir>
#include <QDirIterator>
#include <QTemporaryDir>
#include <QTest>

class TestExamples : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void everyExamplePassesOnCpu_data()
    {
        QTest::addColumn<QString>("project");
        QDirIterator it(QStringLiteral(WB_SOURCE_DIR "/resources/examples"), {"*.wbproj"}, QDir::Files,
                        QDirIterator::Subdirectories);
        QStringList all;
        while (it.hasNext()) all << it.next();
        all.sort();
        for (const QString& p : all) QTest::newRow(qPrintable(QFileInfo(p).baseName())) << p;
    }
    void everyExamplePassesOnCpu()
    {
        const QString why = cpuUnavailable();
        if (!why.isEmpty()) QSKIP(qPrintable(why));
        QFETCH(QString, project);
        QTemporaryDir out;
        const CliRun r = runCli({"run", project, "--backend", "cpu", "--iterations", "1", "--output", out.path()});
        QVERIFY2(r.exitCode == 0, qPrintable(QString("exit %1\n%2%3").arg(r.exitCode).arg(r.out, r.err)));
        QVERIFY(r.out.contains("PASS"));
        if (project.endsWith("image_blur.wbproj")) QVERIFY(QFileInfo::exists(out.filePath("blurred.png")));
    }
    void thereAreTenExamples()
    {
        QDirIterator it(QStringLiteral(WB_SOURCE_DIR "/resources/examples"), {"*.wbproj"}, QDir::Files,
                        QDirIterator::Subdirectories);
        int n = 0;
        while (it.hasNext()) {
            it.next();
            ++n;
        }
        QCOMPARE(n, 10);
    }
};

QTEST_GUILESS_MAIN(TestExamples)
#include "tst_examples.moc"
