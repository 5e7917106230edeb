// SPDX-License-Identifier: GPL-3.0-or-later
// deviceAssertion: the CUDA driver's line for a failed device assert, turned into the run's
// message (issue 24 part 1). The GPU run itself is in tst_runnerclient_gpu.
#include "core/runner/RunnerClient.h"
#include "tests/support/SuiteMain.h"

#include <QTest>

class TestDeviceAssertion : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void parsesTheDriversLine_data()
    {
        QTest::addColumn<QString>("printed");
        QTest::addColumn<QString>("expected");
        QTest::newRow("plain")
            << "before\nkernel.cu:7: void check(const int *, int): block: [2,0,0], thread: "
               "[33,1,0] Assertion `in[i] >= 0` failed.\nafter\n"
            << "assertion `in[i] >= 0` failed at kernel.cu:7 in void check(const int *, int), "
               "block (2,0,0), thread (33,1,0)";
        QTest::newRow("first of many, template function with ::")
            << "/p/inc/a.cuh:12: void ns::f<float>(T *) [with T = float]: block: [0,0,0], "
               "thread: [1,0,0] Assertion `x` failed.\n"
               "/p/inc/a.cuh:12: void ns::f<float>(T *) [with T = float]: block: [0,0,0], "
               "thread: [2,0,0] Assertion `x` failed.\n"
            << "assertion `x` failed at /p/inc/a.cuh:12 in void ns::f<float>(T *) [with T = "
               "float], block (0,0,0), thread (1,0,0)";
        QTest::newRow("none") << "Assertion `x` failed.\nblock: [1,1,1]\n"
                              << "";
    }
    void parsesTheDriversLine()
    {
        QFETCH(QString, printed);
        QFETCH(QString, expected);
        QCOMPARE(QString::fromStdString(wb::runner::deviceAssertion(printed.toStdString())),
                 expected);
    }
};

WB_QTEST_GUILESS_MAIN(TestDeviceAssertion)
#include "tst_deviceassertion.moc"
