// SPDX-License-Identifier: GPL-3.0-or-later
// File → New from Expression's core: the project made from `z = a*x + y` runs on the CPU
// emulator and matches its reference; bad input is an error naming the field.
#include "core/common/Error.h"
#include "core/host/HostCompiler.h"
#include "core/session/ExpressionProject.h"
#include "core/session/ProjectFile.h"
#include "core/session/SessionRunner.h"
#include "tests/support/SuiteMain.h"

#include <QTest>

using namespace wb;
using namespace wb::session;

namespace {
QString errorOf(const ExpressionSpec& spec)
{
    try {
        projectFromExpression(spec);
    } catch (const Error& e) {
        return QString::fromStdString(e.what());
    }
    return {};
}
} // namespace

class TstExpressionProject : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void buildsTheProject()
    {
        const ExpressionProject p =
            projectFromExpression({"z = a*x + y", ElementType::F32, "a=2.5", "1000"});
        QCOMPARE(p.arguments, std::string("float a, const float *x, const float *y, float *z"));
        QCOMPARE(p.operation, std::string("z[i] = a*x[i] + y[i]"));
        QVERIFY(p.kernelSource.find("extern \"C\" __global__ void compute_z(float a, const "
                                    "float* x, const float* y, float* z, unsigned long long n)") !=
                std::string::npos);
        QVERIFY(p.referenceSource.find("z[i] = a*x[i] + y[i];") != std::string::npos);
        const Session& s = p.session;
        QCOMPARE(s.kernelSource, p.kernelSource);
        QCOMPARE(s.launch.kernel, std::string("compute_z"));
        QCOMPARE(s.reference.kind, ReferenceSpec::Kind::Cpp);
        QVERIFY(s.findScalar("n") && s.findScalar("a"));
        QCOMPARE(s.findScalar("a")->value, std::string("2.5"));
        QCOMPARE(s.findBuffer("z")->role, BufferRole::Out);
        QCOMPARE(s.findBuffer("x")->role, BufferRole::In);
        // It survives a save and load (the project file format takes it).
        const Session again = ProjectFile::fromJson(ProjectFile::toJson(s), ".", "expr");
        QCOMPARE(again.kernelSource, s.kernelSource);
    }

    void runsOnTheEmulatorAndMatchesItsReference_data()
    {
        QTest::addColumn<QString>("expression");
        QTest::addColumn<int>("type");
        QTest::addColumn<QString>("scalars");
        QTest::newRow("axpy f32") << "z = a*x + y" << int(ElementType::F32) << "a=2.5";
        QTest::newRow("functions f64")
            << "out = sqrt(x*x + y*y) * 0.5 + exp(-x)" << int(ElementType::F64) << "";
        QTest::newRow("in place i32") << "acc = acc + 3*k - b" << int(ElementType::I32) << "b=7";
    }
    void runsOnTheEmulatorAndMatchesItsReference()
    {
        if (!HostCompiler::find()) QSKIP("no host C++ compiler: the CPU emulator cannot build");
        QFETCH(QString, expression);
        QFETCH(int, type);
        QFETCH(QString, scalars);
        ExpressionProject p = projectFromExpression(
            {expression.toStdString(), ElementType(type), scalars.toStdString(), "100003"});
        p.session.backend = BackendKind::Cpu;
        const RunReport report = SessionRunner::run(p.session, {});
        QVERIFY2(report.status == RunReport::Status::Passed, report.toText().c_str());
    }

    void rejectsBadInput_data()
    {
        QTest::addColumn<QString>("expression");
        QTest::addColumn<int>("type");
        QTest::addColumn<QString>("scalars");
        QTest::addColumn<QString>("message");
        QTest::newRow("no =") << "a*x + y" << int(ElementType::F32) << ""
                              << "expression: write it as '<output> = <expression>'";
        QTest::newRow("comparison only") << "z == x" << int(ElementType::F32) << ""
                                         << "expression: write it as";
        QTest::newRow("bad output") << "z[0] = x" << int(ElementType::F32) << ""
                                    << "expression: the output 'z[0]' (left of '=') is not a name";
        QTest::newRow("empty rhs") << "z = " << int(ElementType::F32) << ""
                                   << "expression: nothing right of '='";
        QTest::newRow("reserved") << "z = x[i] + n" << int(ElementType::F32) << ""
                                  << "expression: 'i' is reserved";
        QTest::newRow("unused scalar") << "z = x" << int(ElementType::F32) << "a"
                                       << "scalars: 'a' does not appear in the expression";
        QTest::newRow("scalar twice") << "z = a*x" << int(ElementType::F32) << "a, a=2"
                                      << "scalars: 'a' is listed twice";
        QTest::newRow("stray comma") << "z = a*x" << int(ElementType::F32) << "a,"
                                     << "scalars: an empty entry";
        QTest::newRow("half") << "z = x" << int(ElementType::F16) << ""
                              << "type: 'f16' is not offered";
        QTest::newRow("unbalanced") << "z = (x + y" << int(ElementType::F32) << ""
                                    << "operation 'z[i] = (x[i] + y[i]': unclosed '('";
        QTest::newRow("reserved prefix") << "z = wb_x" << int(ElementType::F32) << ""
                                         << "names starting with 'wb_' are reserved";
    }
    void rejectsBadInput()
    {
        QFETCH(QString, expression);
        QFETCH(int, type);
        QFETCH(QString, scalars);
        QFETCH(QString, message);
        const QString error =
            errorOf({expression.toStdString(), ElementType(type), scalars.toStdString(), "10"});
        QVERIFY2(error.contains(message), qPrintable(error));
    }
};

WB_QTEST_GUILESS_MAIN(TstExpressionProject)
#include "tst_expressionproject.moc"
