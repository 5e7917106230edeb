// SPDX-License-Identifier: GPL-3.0-or-later
// The suites' main() (SuiteMain.h): a suite that tested nothing exits 77 (CTest: Skipped) with
// its reasons; one that passed something or failed keeps Qt Test's exit code.
#include "tests/support/SuiteMain.h"

#include <QProcess>
#include <QProcessEnvironment>

class TestSuiteMain : public QObject {
    Q_OBJECT

    struct Child {
        int exitCode = -1;
        QString out;
    };

    static Child run(const QString& mode)
    {
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("WB_CHILD_MODE"), mode);
        p.setProcessEnvironment(env);
        p.start(QStringLiteral(WB_SUITEMAIN_CHILD), {});
        if (!p.waitForFinished(30000)) return {};
        return {p.exitCode(), QString::fromLocal8Bit(p.readAllStandardOutput())};
    }

private Q_SLOTS:
    void everyFunctionSkippedIsSkipped()
    {
        const Child c = run(QStringLiteral("skip-all"));
        QCOMPARE(c.exitCode, wb::test::kSkippedExitCode);
        // Qt Test itself counted the set-up functions as passes; the suite still reads Skipped.
        QVERIFY2(c.out.contains(QStringLiteral("Totals: 2 passed, 0 failed, 2 skipped")),
                 qPrintable(c.out));
        QVERIFY2(c.out.contains(QStringLiteral("WB-SUITE-SKIPPED:")), qPrintable(c.out));
        QVERIFY(c.out.contains(QStringLiteral("no device here (first)")));
        QVERIFY(c.out.contains(QStringLiteral("no device here (second)")));
    }
    void skipInInitTestCaseIsSkipped()
    {
        const Child c = run(QStringLiteral("skip-in-init"));
        QCOMPARE(c.exitCode, wb::test::kSkippedExitCode);
        QVERIFY2(c.out.contains(QStringLiteral("no device here (initTestCase)")),
                 qPrintable(c.out));
    }
    void onePassMakesItPassed()
    {
        const Child c = run(QStringLiteral("pass-and-skip"));
        QCOMPARE(c.exitCode, 0);
        QVERIFY(!c.out.contains(QStringLiteral("WB-SUITE-SKIPPED:")));
    }
    void aFailureStaysAFailure()
    {
        const Child c = run(QStringLiteral("fail"));
        QCOMPARE(c.exitCode, 1);
        QVERIFY(!c.out.contains(QStringLiteral("WB-SUITE-SKIPPED:")));
    }
};

WB_QTEST_GUILESS_MAIN(TestSuiteMain)
#include "tst_suitemain.moc"
