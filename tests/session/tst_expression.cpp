// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/common/Error.h"
#include "core/session/Expression.h"
#include "tests/support/SuiteMain.h"

#include <QTest>

using wb::session::ElementType;
using wb::session::Expression;
using wb::session::ScalarSpec;

namespace {
ScalarSpec scalar(const char* name, ElementType type, const char* value)
{
    ScalarSpec s;
    s.name = name;
    s.type = type;
    s.value = value;
    return s;
}
std::uint64_t bitsOf(const Expression::ScalarBytes& b)
{
    std::uint64_t v = 0;
    for (std::size_t i = 0; i < b.size(); ++i)
        v |= std::uint64_t{b[i]} << (8 * i);
    return v;
}
QString errorOf(Expression& e, const ScalarSpec& s)
{
    try {
        e.defineScalar(s, "scalars[0].value");
    } catch (const wb::Error& err) {
        return QString::fromStdString(err.what());
    }
    return {};
}
} // namespace

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
    void integerScalarsAreExact()
    {
        Expression e;
        // Through double, 0xDEADBEEFCAFEBABE reached the kernel 702 too small.
        QCOMPARE(
            bitsOf(e.defineScalar(scalar("seed", ElementType::U64, "0xDEADBEEFCAFEBABE"), "f")),
            0xDEADBEEFCAFEBABEull);
        QCOMPARE(
            bitsOf(e.defineScalar(scalar("dec", ElementType::U64, "16045690984503098046"), "f")),
            16045690984503098046ull);
        QCOMPARE(
            bitsOf(e.defineScalar(scalar("lo", ElementType::I64, "-9223372036854775807 - 1"), "f")),
            0x8000000000000000ull);
        QCOMPARE(bitsOf(e.defineScalar(scalar("mix", ElementType::U64,
                                              "(seed & 0xFFFF0000 | 0xff) + (1 << 40) * 3 "
                                              "- dec % 1000 + 3^5 + 1'000"),
                                       "f")),
                 ((0xDEADBEEFCAFEBABEull & 0xFFFF0000ull) | 0xFFull) + (1ull << 40) * 3ull -
                     16045690984503098046ull % 1000ull + 243ull + 1000ull);
        QCOMPARE(bitsOf(e.defineScalar(scalar("top", ElementType::U64, "2^64 - 1"), "f")),
                 ~std::uint64_t{0});
        QCOMPARE(bitsOf(e.defineScalar(scalar("m", ElementType::I32, "-1"), "f")), 0xffffffffull);
        // Later expressions see the value (as a double for muparser).
        QCOMPARE(e.evaluate("m * 2", "f"), -2.0);
        // Not exact integer arithmetic but exact in double: accepted, truncated like C.
        QCOMPARE(bitsOf(e.defineScalar(scalar("c", ElementType::I32, "ceil(10 / 4)"), "f")), 3u);
        QCOMPARE(bitsOf(e.defineScalar(scalar("h", ElementType::I32, "7 / 2 * 2"), "f")), 7u);
        // bool: non-zero is true; true and false spelled out.
        QCOMPARE(bitsOf(e.defineScalar(scalar("b", ElementType::Bool, "-3"), "f")), 1u);
        QCOMPARE(bitsOf(e.defineScalar(scalar("b", ElementType::Bool, " false "), "f")), 0u);
        QCOMPARE(bitsOf(e.defineScalar(scalar("b", ElementType::Bool, "true"), "f")), 1u);
    }
    void integerScalarsAreRefusedWhenInexactOrOutOfRange()
    {
        Expression e;
        QCOMPARE(errorOf(e, scalar("v", ElementType::U8, "255 + 1")),
                 QString("scalars[0].value: scalar 'v' of type u8: \"255 + 1\" = 256 is out of "
                         "range (0 to 255)"));
        QCOMPARE(errorOf(e, scalar("v", ElementType::U64, "-1")),
                 QString("scalars[0].value: scalar 'v' of type u64: \"-1\" = -1 is out of range "
                         "(0 to 18446744073709551615)"));
        QCOMPARE(errorOf(e, scalar("v", ElementType::I64, "2^63")),
                 QString("scalars[0].value: scalar 'v' of type i64: \"2^63\" = "
                         "9223372036854775808 is out of range (-9223372036854775808 to "
                         "9223372036854775807)"));
        QVERIFY(errorOf(e, scalar("v", ElementType::U64, "2^64"))
                    .contains("\"2^64\" does not fit in 64 bits"));
        QVERIFY(errorOf(e, scalar("v", ElementType::U64, "floor(2^64 / 3)"))
                    .startsWith("scalars[0].value: scalar 'v' of type u64: \"floor(2^64 / 3)\" "
                                "cannot be evaluated exactly"));
        // A JSON number above 2^63 arrives as a double's text: refused, not rounded.
        QVERIFY(errorOf(e, scalar("v", ElementType::U64, "1.6045690984503098e+19"))
                    .contains("cannot be evaluated exactly"));
        QVERIFY(errorOf(e, scalar("v", ElementType::I32, "5 % 0")).contains("divides by zero"));
        QVERIFY(errorOf(e, scalar("v", ElementType::I32, "0x")).contains("without digits"));
        // A failed scalar is not defined.
        QVERIFY(!e.hasVariable("v"));
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
