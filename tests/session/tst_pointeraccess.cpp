// SPDX-License-Identifier: GPL-3.0-or-later
// session::PointerAccess: what a kernel body does through its pointer parameters, read from its
// source (issue 29: Create Buffers from Signature made saxpy's `y` an `out` although it is read).
#include "core/session/PointerAccess.h"
#include "tests/support/SuiteMain.h"

#include <QTest>

using namespace wb::session;
using Kind = PointerAccess::Kind;

Q_DECLARE_METATYPE(PointerAccess::Kind)

namespace {

Kind kindOf(const std::string& source, const std::string& kernel, const std::string& p,
            std::string* why = nullptr)
{
    bool found = false;
    const auto a = PointerAccess::analyse(source, kernel, {p}, &found);
    if (!found || !a.count(p)) return Kind::Unknown;
    if (why) *why = a.at(p).why;
    return a.at(p).kind;
}

} // namespace

class TestPointerAccess : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void saxpyReadsAndWritesY()
    {
        const std::string src = "// y = a*x + y\n"
                                "__global__ void saxpy(int n, float a, const float* x, float* y)\n"
                                "{\n"
                                "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                                "    if (i < n) y[i] = a * x[i] + y[i];\n"
                                "}\n";
        bool found = false;
        const auto a = PointerAccess::analyse(src, "saxpy", {"x", "y"}, &found);
        QVERIFY(found);
        QCOMPARE(a.at("y").kind, Kind::ReadWritten);
        QCOMPARE(a.at("y").line, 5);
        QCOMPARE(a.at("x").kind, Kind::Read);
    }

    void kinds_data()
    {
        QTest::addColumn<QString>("body");
        QTest::addColumn<Kind>("kind");
        QTest::newRow("store") << "p[i] = 1.0f;" << Kind::Written;
        QTest::newRow("load") << "float v = p[i] * 2;" << Kind::Read;
        QTest::newRow("compare is a load") << "if (p[i] == 0) return;" << Kind::Read;
        QTest::newRow("compound") << "p[i] += 1;" << Kind::ReadWritten;
        QTest::newRow("shift-assign") << "p[i] <<= 1;" << Kind::ReadWritten;
        QTest::newRow("less-equal is a load") << "if (p[i] <= 0) return;" << Kind::Read;
        QTest::newRow("post-increment") << "p[i]++;" << Kind::ReadWritten;
        QTest::newRow("pre-increment") << "++p[i];" << Kind::ReadWritten;
        QTest::newRow("deref store") << "*p = 3;" << Kind::Written;
        QTest::newRow("deref offset store") << "*(p + i) = 3;" << Kind::Written;
        QTest::newRow("deref load") << "float v = *(p + i);" << Kind::Read;
        QTest::newRow("2d store") << "p[i * n + j] = q;" << Kind::Written;
        QTest::newRow("atomic element") << "atomicAdd(&p[0], 1.0f);" << Kind::ReadWritten;
        QTest::newRow("atomic pointer") << "atomicAdd(p + i, 1.0f);" << Kind::ReadWritten;
        QTest::newRow("atomic value arg is a load") << "atomicAdd(&q[0], p[i]);" << Kind::Read;
        QTest::newRow("alias row store")
            << "float* row = p + i * n;\n row[j] = 0;" << Kind::Written;
        QTest::newRow("alias row both")
            << "float* row = p + i * n;\n row[j] += row[j - 1];" << Kind::ReadWritten;
        QTest::newRow("comment and string ignored")
            << "// p[i] = 0;\n const char* s = \"p[i] = 1\";\n float v = p[i];" << Kind::Read;
        QTest::newRow("member of another") << "s.p[i] = 1; float v = p[0];" << Kind::Read;
        QTest::newRow("unused") << "int k = 0;" << Kind::Unused;
        QTest::newRow("null check is no access") << "if (p != nullptr) p[i] = 1;" << Kind::Written;
        QTest::newRow("passed to a helper") << "helper(p, i);" << Kind::Unknown;
        QTest::newRow("pointer walked") << "for (; i < n; ++i) *p++ = 0;" << Kind::ReadWritten;
    }
    void kinds()
    {
        QFETCH(QString, body);
        QFETCH(Kind, kind);
        const std::string src = "__device__ void helper(float*, int);\n"
                                "__global__ void k(float* p, float* q, int n, float qq)\n{\n"
                                "    int i = threadIdx.x, j = 1; (void)j; (void)qq;\n    " +
                                body.toStdString() + "\n}\n";
        std::string why;
        const Kind got = kindOf(src, "k", "p", &why);
        QVERIFY2(got == kind, qPrintable(QString("%1: got %2 (%3)")
                                             .arg(body, pointerAccessKindName(got),
                                                  QString::fromStdString(why))));
    }

    void unknownSaysWhy()
    {
        const std::string src = "__device__ void scale_row(float* r, int n);\n"
                                "__global__ void k(float* p, int n)\n{\n"
                                "    scale_row(p, n);\n}\n";
        std::string why;
        QCOMPARE(kindOf(src, "k", "p", &why), Kind::Unknown);
        QCOMPARE(why, std::string("the pointer is passed to scale_row() at line 4"));
    }

    void findsTheRightKernel()
    {
        // A declaration, another kernel using the same name for a parameter, then the kernel.
        const std::string src = "__global__ void k(float* out);\n"
                                "__global__ void other(float* out) { out[0] = out[1]; }\n"
                                "template <int B> __global__ void k2(float* out) { out[0] = 1; }\n"
                                "__global__ void k(float* out)\n{\n    out[threadIdx.x] = 1;\n}\n";
        QCOMPARE(kindOf(src, "k", "out"), Kind::Written);
        QCOMPARE(kindOf(src, "other", "out"), Kind::ReadWritten);
        QCOMPARE(kindOf(src, "k2<128>", "out"), Kind::Written);
        bool found = true;
        QVERIFY(PointerAccess::analyse(src, "missing", {"out"}, &found).empty());
        QVERIFY(!found);
    }
};

WB_QTEST_GUILESS_MAIN(TestPointerAccess)
#include "tst_pointeraccess.moc"
