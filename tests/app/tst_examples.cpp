// SPDX-License-Identifier: GPL-3.0-or-later
// Every shipped example passes its own reference through warpbench-cli on the CPU backend, and
// every deliberately buggy variant (resources/examples/bugs/) fails for its own reason.
// (The lead runs the same loop with --backend cuda on the GPU machine.)
#include "CliProcess.h"
#include "tests/support/SuiteMain.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

namespace {
QStringList projects(bool bugs)
{
    QDirIterator it(QStringLiteral(WB_SOURCE_DIR "/resources/examples"), {"*.wbproj"}, QDir::Files,
                    QDirIterator::Subdirectories);
    QStringList all;
    while (it.hasNext()) {
        const QString p = it.next();
        if (p.contains(QLatin1String("/bugs/")) == bugs) all << p;
    }
    all.sort();
    return all;
}
} // namespace

class TestExamples : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void everyExamplePassesOnCpu_data()
    {
        QTest::addColumn<QString>("project");
        for (const QString& p : projects(false))
            QTest::newRow(qPrintable(QFileInfo(p).baseName())) << p;
    }
    void everyExamplePassesOnCpu()
    {
        const QString why = cpuUnavailable();
        if (!why.isEmpty()) QSKIP(qPrintable(why));
        QFETCH(QString, project);
        QTemporaryDir out;
        const CliRun r = runCli(
            {"run", project, "--backend", "cpu", "--iterations", "1", "--output", out.path()});
        QVERIFY2(r.exitCode == 0,
                 qPrintable(QString("exit %1\n%2%3").arg(r.exitCode).arg(r.out, r.err)));
        QVERIFY(r.out.contains("PASS"));
        QVERIFY2(!r.out.contains("never written"), qPrintable(r.out));
        if (project.endsWith("image_blur.wbproj"))
            QVERIFY(QFileInfo::exists(out.filePath("blurred.png")));
    }
    void everyExampleHasAGuide()
    {
        for (const QString& p : projects(false) + projects(true)) {
            QFile g(QFileInfo(p).dir().filePath(QStringLiteral("GUIDE.md")));
            QVERIFY2(g.open(QIODevice::ReadOnly), qPrintable(p));
            const QByteArray text = g.readAll();
            QVERIFY2(text.startsWith("# ") && text.contains("**Try.**"), qPrintable(p));
        }
    }
    void thereAreElevenExamplesAndFourBugs()
    {
        QCOMPARE(projects(false).size(), 12);
        QCOMPARE(projects(true).size(), 4);
    }

    // Each buggy variant: expected exit code and what the report must say about it.
    void buggyVariantsShowTheirBug_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<qint64>("unwritten"); // -1: the output must have no unwritten elements
        QTest::addColumn<bool>("everyElementWrong");
        QTest::newRow("missing_bounds_check")
            << "missing_bounds_check" << 1 << qint64(232) << false;
        QTest::newRow("missing_syncthreads") << "missing_syncthreads" << 1 << qint64(-1) << true;
        QTest::newRow("transposed_index") << "transposed_index" << 1 << qint64(496) << false;
        QTest::newRow("uncoalesced_access") << "uncoalesced_access" << 0 << qint64(-1) << false;
    }
    void buggyVariantsShowTheirBug()
    {
        const QString why = cpuUnavailable();
        if (!why.isEmpty()) QSKIP(qPrintable(why));
        QFETCH(QString, name);
        QFETCH(int, exitCode);
        QFETCH(qint64, unwritten);
        QFETCH(bool, everyElementWrong);
        const QString project =
            QStringLiteral(WB_SOURCE_DIR "/resources/examples/bugs/%1/%1.wbproj").arg(name);
        // Twice: the CPU emulator must show the bug the same way every time.
        for (int run = 0; run < 2; ++run) {
            const CliRun r =
                runCli({"run", project, "--backend", "cpu", "--iterations", "1", "--json"});
            QVERIFY2(r.exitCode == exitCode,
                     qPrintable(QString("exit %1\n%2%3").arg(r.exitCode).arg(r.out, r.err)));
            const QJsonObject rep = QJsonDocument::fromJson(r.out.toUtf8()).object();
            const QJsonObject o = rep.value("outputs").toArray().at(0).toObject();
            const QJsonObject cov = o.value("coverage").toObject();
            QVERIFY2(!cov.isEmpty(), qPrintable(r.out));
            QCOMPARE(static_cast<qint64>(cov.value("unwritten").toDouble()),
                     std::max<qint64>(unwritten, 0));
            if (unwritten > 0) QVERIFY(cov.value("message").toString().contains("never written"));
            if (everyElementWrong)
                QCOMPARE(o.value("mismatches").toDouble(), o.value("count").toDouble());
        }
    }
};

WB_QTEST_GUILESS_MAIN(TestExamples)
#include "tst_examples.moc"
