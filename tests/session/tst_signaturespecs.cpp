// SPDX-License-Identifier: GPL-3.0-or-later
// session::SignatureSpecs: the buffers and scalars a kernel's parameters need (issue 17).
#include "core/session/Binding.h"
#include "core/session/SignatureSpecs.h"
#include "tests/support/SuiteMain.h"

#include <QTest>

using namespace wb;
using namespace wb::session;

namespace {

KernelParam pointer(const char* name, const char* pointee, bool isConst)
{
    KernelParam p;
    p.name = name;
    p.pointee = pointee;
    p.type = std::string(isConst ? "const " : "") + pointee + "*";
    p.isPointer = true;
    p.isConst = isConst;
    p.size = 8;
    return p;
}

KernelParam value(const char* name, const char* type, std::size_t size)
{
    KernelParam p;
    p.name = name;
    p.type = type;
    p.size = size;
    return p;
}

} // namespace

class TestSignatureSpecs : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void saxpyGetsBuffersScalarsAndALaunch()
    {
        KernelInfo k;
        k.name = "saxpy";
        k.params = {value("n", "int", 4), value("a", "float", 4), pointer("x", "float", true),
                    pointer("y", "float", false)};
        Session s;
        s.launch.block = {"128"};
        const SignatureSpecs added = SignatureSpecs::apply(s, k);
        QCOMPARE(added.addedBuffers, (std::vector<std::string>{"x", "y"}));
        QCOMPARE(added.addedScalars, (std::vector<std::string>{"n", "a"}));
        QVERIFY(added.skipped.empty());
        QCOMPARE(s.launch.kernel, std::string("saxpy"));
        QCOMPARE(s.scalars.size(), std::size_t{2});
        QCOMPARE(s.scalars[0].name, std::string("n"));
        QCOMPARE(s.scalars[0].type, ElementType::I32);
        QCOMPARE(s.scalars[0].value, std::string("1024"));
        QCOMPARE(s.scalars[1].type, ElementType::F32);
        const BufferSpec* x = s.findBuffer("x");
        const BufferSpec* y = s.findBuffer("y");
        QVERIFY(x && y);
        QCOMPARE(x->role, BufferRole::In);
        QCOMPARE(x->init.kind, Initialiser::Kind::Uniform);
        QCOMPARE(y->role, BufferRole::Out);
        QCOMPARE(x->shape, std::vector<std::string>{"n"});
        QCOMPARE(s.launch.grid, std::vector<std::string>{"ceil(n/128)"});
        // And it binds: every parameter finds its buffer or scalar of the right type.
        QCOMPARE(Binding::bind(k.params, s, {}, "kernel saxpy").size(), k.params.size());
    }

    void inPlaceKernelGetsAnInoutBufferAndN()
    {
        KernelInfo k;
        k.name = "twice";
        k.params = {pointer("data", "double", false)};
        Session s;
        const SignatureSpecs added = SignatureSpecs::apply(s, k);
        const BufferSpec* data = s.findBuffer("data");
        QVERIFY(data);
        QCOMPARE(data->role, BufferRole::InOut); // it reads what it writes
        QCOMPARE(data->type, ElementType::F64);
        QVERIFY(s.findScalar("N"));
        QCOMPARE(data->shape, std::vector<std::string>{"N"});
        QCOMPARE(added.addedScalars, std::vector<std::string>{"N"});
    }

    void existingNamesAndStructsAreLeftAlone()
    {
        KernelInfo k;
        k.name = "k";
        KernelParam params = value("p", "Params", 12);
        k.params = {pointer("out", "float", false), params, pointer("raw", "void", false)};
        Session s;
        BufferSpec mine;
        mine.name = "out";
        mine.shape = {"7"};
        mine.role = BufferRole::InOut;
        s.buffers = {mine};
        s.launch.grid = {"3"};
        const SignatureSpecs added = SignatureSpecs::apply(s, k);
        QVERIFY(!added.changed());
        QCOMPARE(s.buffers.size(), std::size_t{1});
        QVERIFY(s.buffers[0] == mine);
        QCOMPARE(added.skipped.size(), std::size_t{2}); // the struct and void*
        QVERIFY(QString::fromStdString(added.skipped[0]).startsWith(QStringLiteral("p: Params")));
        QCOMPARE(s.launch.grid, std::vector<std::string>{"3"}); // nothing added: launch kept
    }
};

WB_QTEST_GUILESS_MAIN(TestSignatureSpecs)
#include "tst_signaturespecs.moc"
