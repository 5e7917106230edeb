// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/common/Error.h"
#include "core/session/Expression.h"
#include "tests/support/SuiteMain.h"

#include <QTest>

using wb::session::Expression;

class TestExpression : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void arithmeticOverScalars()
    {
        Expression e;
        e.setVariable("N", 1000);
        QCOMPARE(e.evaluate("N*N", "f"), 1e6);
        QCOMPARE(e.evaluateCount("ceil(N/256)", "launch.grid[0]"), 4u);
        QCOMPARE(e.evaluateCount("floor(N/256)", "f"), 3u);
        QCOMPARE(e.evaluate("mod(N, 7)", "f"), 6.0);
        QCOMPARE(e.evaluateCount("16", "f"), 16u);
    }
    void errorsNameFieldAndToken()
    {
        Expression e;
        e.setVariable("N", 10);
        try {
            e.evaluate("ceil(M/256)", "launch.grid[0]");
            QFAIL("no error");
        } catch (const wb::Error& err) {
            const QString msg = QString::fromStdString(err.what());
            QVERIFY2(msg.startsWith("launch.grid[0]: "), qPrintable(msg));
            QVERIFY2(msg.contains("\"M\""), qPrintable(msg));
            QCOMPARE(err.kind(), wb::Error::Kind::InvalidArgument);
        }
        try {
            e.evaluate("N*", "buffers[1].shape[0]");
            QFAIL("no error");
        } catch (const wb::Error& err) {
            QVERIFY2(QString(err.what()).startsWith("buffers[1].shape[0]: "), err.what());
        }
        try {
            e.evaluate("N $ 2", "scalars[0].value");
            QFAIL("no error");
        } catch (const wb::Error& err) {
            QVERIFY2(QString(err.what()).contains("$"), err.what());
        }
    }
    void countsMustBeWholeAndLargeEnough()
    {
        Expression e;
        e.setVariable("N", 10);
        QVERIFY_THROWS_EXCEPTION(wb::Error, e.evaluateCount("N/3", "block[0]"));
        QVERIFY_THROWS_EXCEPTION(wb::Error, e.evaluateCount("N-10", "block[0]"));
        QCOMPARE(e.evaluateCount("N-10", "sharedBytes", 0), 0u);
        QVERIFY_THROWS_EXCEPTION(wb::Error, e.evaluate("1/0", "x"));
        QVERIFY_THROWS_EXCEPTION(wb::Error, e.evaluate("", "x"));
        try {
            e.evaluateCount("N/3", "block[0]");
        } catch (const wb::Error& err) {
            QVERIFY2(QString(err.what()).contains("not a whole number"), err.what());
        }
    }
};

WB_QTEST_GUILESS_MAIN(TestExpression)
#include "tst_expression.moc"
