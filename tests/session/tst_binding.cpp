// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/common/Error.h"
#include "core/session/Binding.h"
#include "tests/support/SuiteMain.h"

#include <QTest>

using namespace wb::session;

namespace {
wb::KernelParam ptr(const std::string& name, const std::string& pointee)
{
    wb::KernelParam p;
    p.name = name;
    p.type = pointee + "*";
    p.pointee = pointee;
    p.isPointer = true;
    p.size = 8;
    return p;
}
wb::KernelParam val(const std::string& name, const std::string& type, std::size_t size)
{
    wb::KernelParam p;
    p.name = name;
    p.type = type;
    p.size = size;
    return p;
}
Session session()
{
    Session s;
    BufferSpec a;
    a.name = std::string("a");
    a.type = ElementType::F32;
    BufferSpec d = a;
    d.name = "dest";
    d.role = BufferRole::Out;
    s.buffers = {a, d};
    ScalarSpec n;
    n.name = std::string("n");
    n.type = ElementType::I32;
    s.scalars = {n};
    return s;
}
QString errorOf(const std::vector<wb::KernelParam>& params,
                std::map<std::string, std::string> b = {})
{
    try {
        Binding::bind(params, session(), b, "kernel k");
    } catch (const wb::Error& e) {
        return QString::fromStdString(e.what());
    }
    return {};
}
} // namespace

class TestBinding : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void bindsByNameAndExplicitly()
    {
        const auto b =
            Binding::bind({ptr("dest", "float"), ptr("x", "const float"), val("count", "int", 4)},
                          session(), {{"x", "a"}, {"count", "n"}}, "kernel k");
        QCOMPARE(b.size(), 3u);
        QVERIFY(b[0].isBuffer);
        QCOMPARE(b[0].index, 1u);
        QCOMPARE(b[1].index, 0u);
        QVERIFY(!b[2].isBuffer);
    }
    /// `buffer + offset` keeps the offset's expression for the runner; scalars and globals
    /// cannot be offset, and only a reference may take a global.
    void offsetsAndGlobals()
    {
        const auto b = Binding::bind({ptr("dest", "float"), ptr("x", "const float")}, session(),
                                     {{"x", "a+ 2*n"}}, "kernel k");
        QCOMPARE(b[1].index, 0u);
        QCOMPARE(b[1].offset, std::string("2*n"));
        QVERIFY(b[0].offset.empty());
        QVERIFY(!Binding::parseTarget("a +"));
        QVERIFY(!Binding::parseTarget("2 + a"));
        QCOMPARE(Binding::parseTarget(" a ")->name, std::string("a"));
        QVERIFY(errorOf({ptr("dest", "float"), val("n", "int", 4)}, {{"n", "n + 1"}})
                    .contains("only a buffer can be bound at an offset"));
        QVERIFY(errorOf({ptr("dest", "float")}, {{"dest", "+"}}).contains("neither a buffer"));

        Session s = session();
        BufferSpec g;
        g.name = "c_taps";
        s.globals = {g};
        try {
            Binding::bind({ptr("taps", "const float")}, s, {{"taps", "c_taps"}}, "kernel k");
            QFAIL("a kernel parameter took a global");
        } catch (const wb::Error& e) {
            QVERIFY2(std::string(e.what()).find("module global") != std::string::npos, e.what());
        }
        const auto r = Binding::bind({ptr("c_taps", "const float")}, s, {}, "reference", true);
        QVERIFY(r[0].isGlobal);
        QCOMPARE(r[0].index, 0u);
    }

    void mismatchesAreReported()
    {
        QVERIFY(errorOf({ptr("a", "double")})
                    .contains("kernel k: parameter 'a' is double* but buffer 'a' is f32"));
        QVERIFY(errorOf({val("n", "float", 4)})
                    .contains("parameter 'n' is float but scalar 'n' is i32"));
        QVERIFY(errorOf({val("n", "Foo", 8)})
                    .contains("takes 8 bytes but scalar 'n' is i32 (4 bytes)"));
        QVERIFY(errorOf({ptr("b", "float")})
                    .contains("parameter 'b' is not bound: no buffer or scalar named 'b'"));
        QVERIFY(errorOf({ptr("a", "float")}, {{"zz", "a"}})
                    .contains("binding for 'zz', but there is no parameter"));
        QVERIFY(errorOf({ptr("a", "unsigned short")})
                    .contains("is unsigned short* but buffer 'a' is f32"));
        // Unknown pointee types (structs, vector types) are accepted.
        QVERIFY(errorOf({ptr("a", "float4")}).isEmpty());
    }
    void bindingErrorsNameBothTypes()
    {
        QCOMPARE(errorOf({ptr("n", "int")}),
                 QString("kernel k: parameter 'n' is int* but 'n' is a scalar of type i32: bind "
                         "the pointer to a buffer"));
        QCOMPARE(errorOf({val("a", "float", 4)}),
                 QString("kernel k: parameter 'a' is float but 'a' is a buffer of type f32: bind "
                         "the value to a scalar"));
    }
    void boolIsATypeOfItsOwn()
    {
        QCOMPARE(elementTypeOfCType("bool"), ElementType::Bool);
        QCOMPARE(elementTypeOfCType("const bool"), ElementType::Bool);
        QCOMPARE(parseElementType("bool"), ElementType::Bool);
        QCOMPARE(elementSize(ElementType::Bool), 1u);
        QVERIFY(!isSigned(ElementType::Bool));
        QCOMPARE(npyDescr(ElementType::Bool), std::string("|b1"));
        Session s = session();
        ScalarSpec flag;
        flag.name = "flag";
        flag.type = ElementType::Bool;
        s.scalars.push_back(flag);
        QCOMPARE(Binding::bind({val("flag", "bool", 1)}, s, {}, "kernel k").at(0).index, 1u);
        // A u8 has bool's size but is not a bool: the size check alone accepted it.
        s.scalars.back().type = ElementType::U8;
        try {
            Binding::bind({val("flag", "bool", 1)}, s, {}, "kernel k");
            QFAIL("a u8 scalar was bound to a bool parameter");
        } catch (const wb::Error& e) {
            QCOMPARE(QString(e.what()),
                     QString("kernel k: parameter 'flag' is bool but scalar 'flag' is u8"));
        }
        // Stored as C++ converts to bool.
        unsigned char b = 7;
        storeFromDouble(ElementType::Bool, &b, 0, -2.5);
        QCOMPARE(int(b), 1);
        storeFromDouble(ElementType::Bool, &b, 0, 0.0);
        QCOMPARE(int(b), 0);
    }
    void cTypeSpellings()
    {
        QCOMPARE(elementTypeOfCType("const float"), ElementType::F32);
        QCOMPARE(elementTypeOfCType("unsigned int"), ElementType::U32);
        QCOMPARE(elementTypeOfCType("std::int64_t"), ElementType::I64);
        QCOMPARE(elementTypeOfCType("const __half"), ElementType::F16);
        QCOMPARE(elementTypeOfCType("unsigned char"), ElementType::U8);
        QVERIFY(!elementTypeOfCType("float4").has_value());
    }
};

WB_QTEST_GUILESS_MAIN(TestBinding)
#include "tst_binding.moc"
