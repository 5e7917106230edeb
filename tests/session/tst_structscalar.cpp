// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/common/Error.h"
#include "core/session/Binding.h"
#include "core/session/Expression.h"
#include "core/session/ProjectFile.h"
#include "core/session/StructScalar.h"
#include "tests/support/SuiteMain.h"

#include <QTest>

#include <cstring>

using namespace wb::session;

namespace {
std::vector<StructMember> affine()
{
    return {
        {"a", ElementType::F32, "2"}, {"b", ElementType::F32, "0.5"}, {"n", ElementType::I32, "n"}};
}
} // namespace

class TestStructScalar : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void layoutIsCs()
    {
        const StructScalar::Layout a = StructScalar::layout(affine());
        QCOMPARE(a.offsets, (std::vector<std::size_t>{0, 4, 8}));
        QCOMPARE(a.size, 12u);
        QCOMPARE(a.alignment, 4u);
        // struct {unsigned char flag; double scale; short k;}: padding after flag and at the end.
        const StructScalar::Layout m = StructScalar::layout({{"flag", ElementType::U8, "1"},
                                                             {"scale", ElementType::F64, "1"},
                                                             {"k", ElementType::I16, "1"}});
        QCOMPARE(m.offsets, (std::vector<std::size_t>{0, 8, 16}));
        QCOMPARE(m.size, 24u);
        QCOMPARE(m.alignment, 8u);
    }
    void valuesArePackedAtTheirOffsets()
    {
        Expression e;
        ScalarSpec n{"n", ElementType::I32, "7", {}};
        e.defineScalar(n, "scalars[0].value");
        ScalarSpec p;
        // A move: GCC 12 at -O3 warns (-Wrestrict, falsely) on assigning the const char*.
        p.name = std::string("p");
        p.members = affine();
        const Expression::ScalarBytes b = e.defineScalar(p, "scalars[1].value");
        QCOMPARE(b.size(), 12u);
        float a = 0, bb = 0;
        std::int32_t nn = 0;
        std::memcpy(&a, b.data(), 4);
        std::memcpy(&bb, b.data() + 4, 4);
        std::memcpy(&nn, b.data() + 8, 4);
        QCOMPARE(a, 2.0f);
        QCOMPARE(bb, 0.5f);
        QCOMPARE(nn, 7);
        // A member out of range names the member's field.
        p.members[2].value = "2^40";
        try {
            e.defineScalar(p, "scalars[1].value");
            QFAIL("no error");
        } catch (const wb::Error& err) {
            QVERIFY2(
                QString(err.what())
                    .startsWith("scalars[1].members[2].value: scalar 'p.n' of type i32: \"2^40\" = "
                                "1099511627776 is out of range"),
                err.what());
        }
    }
    void textRoundTrips()
    {
        const std::string t = StructScalar::valueText(affine());
        QCOMPARE(t, std::string("{f32 a = 2; f32 b = 0.5; i32 n = n}"));
        QCOMPARE(StructScalar::parse(t), std::optional(affine()));
        QCOMPARE(StructScalar::parse("{ f32 a = max(1, 2), i32 n = 3 }")->at(0).value,
                 std::string("max(1, 2)"));
        std::string why;
        QVERIFY(!StructScalar::parse("{f33 a = 1}", &why));
        QCOMPARE(why, std::string("unknown element type \"f33\" of member a"));
        QVERIFY(!StructScalar::parse("{f32 a = 1; f32 a = 2}", &why));
        QVERIFY(!StructScalar::parse("f32 a = 1", &why));
        QVERIFY(!StructScalar::parse("{}", &why));
    }
    /// A pointer member (`float* elements` of the Programming Guide's Matrix) is 8 bytes,
    /// aligned to 8, and reads `f32* elements = a` in the panel's text.
    void pointerMembers()
    {
        const std::vector<StructMember> m = {{"width", ElementType::I32, "n", {}},
                                             {"height", ElementType::I32, "n", {}},
                                             {"stride", ElementType::I32, "n", {}},
                                             {"elements", ElementType::F32, "0", "a + 4"}};
        const StructScalar::Layout l = StructScalar::layout(m);
        QCOMPARE(l.offsets, (std::vector<std::size_t>{0, 4, 8, 16}));
        QCOMPARE(l.size, 24u);
        QCOMPARE(l.alignment, 8u);
        QCOMPARE(StructScalar::typeText(m),
                 std::string("struct {i32 width, i32 height, i32 stride, f32* elements}"));
        const std::string t = StructScalar::valueText(m);
        QCOMPARE(t, std::string("{i32 width = n; i32 height = n; i32 stride = n; "
                                "f32* elements = a + 4}"));
        QCOMPARE(StructScalar::parse(t), std::optional(m));
        QCOMPARE(StructScalar::parse("{f64 *p = b}")->at(0).buffer, std::string("b"));
        std::string why;
        QVERIFY(!StructScalar::parse("{f32* p = }", &why));
    }
    void bindingChecksTheKernelsSize()
    {
        Session s;
        ScalarSpec p;
        p.name = "p";
        p.members = affine();
        s.scalars = {p};
        wb::KernelParam k;
        k.name = "p";
        k.type = "Params";
        k.size = 12;
        k.alignment = 4;
        QCOMPARE(Binding::bind({k}, s, {}, "kernel affine").size(), 1u);
        k.size = 16;
        try {
            Binding::bind({k}, s, {}, "kernel affine");
            QFAIL("no error");
        } catch (const wb::Error& err) {
            QCOMPARE(QString(err.what()),
                     QString("kernel affine: parameter 'p' (Params) takes 16 bytes but scalar 'p' "
                             "is struct {f32 a, f32 b, i32 n} (12 bytes)"));
        }
        k.type = "float";
        k.size = 4;
        QVERIFY_THROWS_EXCEPTION(wb::Error, Binding::bind({k}, s, {}, "kernel affine"));
    }
    void projectFileRoundTrip()
    {
        const std::string json = R"x({"schemaVersion": 1,
            "kernel": {"source": "x"},
            "scalars": [{"name": "p", "type": "struct", "members": [
                {"name": "a", "type": "f32", "value": 2},
                {"name": "b", "type": "f32", "value": "0.5"},
                {"name": "n", "type": "i32", "value": "n"}]}],
            "launch": {"kernel": "k", "grid": [1], "block": [1]}})x";
        const Session s = ProjectFile::fromJson(json, {}, "t.wbproj");
        QVERIFY(s.scalars.at(0).isStruct());
        QCOMPARE(s.scalars[0].members, affine());
        QVERIFY(ProjectFile::fromJson(ProjectFile::toJson(s), {}, "t.wbproj") == s);
        std::string bad = json;
        const std::string b = "{\"name\": \"b\"";
        bad.replace(bad.find(b), b.size(), "{\"name\": \"a\"");
        try {
            ProjectFile::fromJson(bad, {}, "t.wbproj");
            QFAIL("no error");
        } catch (const wb::Error& err) {
            QCOMPARE(QString(err.what()),
                     QString("scalars[0].members[1].name: duplicate member \"a\""));
        }
    }
};

WB_QTEST_GUILESS_MAIN(TestStructScalar)
#include "tst_structscalar.moc"
