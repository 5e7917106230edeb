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

    /// Issue 29: with the kernel's source, a pointer it reads and writes is `inout` (random
    /// data), one it only reads `in`, one it only writes `out`; each choice is noted.
    void sourceDecidesTheRoles()
    {
        KernelInfo k;
        k.name = "saxpy";
        k.params = {value("n", "int", 4),         value("a", "float", 4),
                    pointer("x", "float", true),  pointer("y", "float", false),
                    pointer("z", "float", false), pointer("w", "float", false)};
        const std::string src =
            "__global__ void saxpy(int n, float a, const float* x, float* y, float* z, float* w)\n"
            "{\n"
            "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
            "    if (i >= n) return;\n"
            "    y[i] = a * x[i] + y[i];\n"
            "    z[i] = w[i];\n"
            "}\n";
        Session s;
        const SignatureSpecs added = SignatureSpecs::apply(s, k, "1024", src);
        QCOMPARE(s.findBuffer("x")->role, BufferRole::In);
        QCOMPARE(s.findBuffer("y")->role, BufferRole::InOut);
        QCOMPARE(s.findBuffer("y")->init.kind, Initialiser::Kind::Uniform);
        QCOMPARE(s.findBuffer("z")->role, BufferRole::Out);
        QCOMPARE(s.findBuffer("z")->init.kind, Initialiser::Kind::Zeros);
        QCOMPARE(s.findBuffer("w")->role, BufferRole::In);
        QCOMPARE(s.findBuffer("w")->init.kind, Initialiser::Kind::Uniform);
        // Every seed differs (fresh data per input).
        QVERIFY(s.findBuffer("y")->init.seed != s.findBuffer("w")->init.seed);
        QCOMPARE(added.notes.size(), std::size_t{3});
        QCOMPARE(added.notes[0], std::string("y: read and written by the kernel (line 5) → inout, "
                                             "random data"));
        QCOMPARE(added.notes[1], std::string("z: only written by the kernel (line 6) → out "
                                             "(elements it leaves unwritten are reported)"));
        QVERIFY(added.notes[2].rfind("w: only read by the kernel (line 6) → in", 0) == 0);
    }

    /// Where the source cannot tell (the pointer goes to a helper), the old rule holds and the
    /// note says why.
    void ambiguousSourceFallsBackAndSaysWhy()
    {
        KernelInfo k;
        k.name = "k";
        k.params = {pointer("in", "float", true), pointer("p", "float", false)};
        const std::string src = "__device__ void fill(float* r, const float* in);\n"
                                "__global__ void k(const float* in, float* p)\n"
                                "{\n"
                                "    fill(p, in);\n"
                                "}\n";
        Session s;
        const SignatureSpecs added = SignatureSpecs::apply(s, k, "1024", src);
        QCOMPARE(s.findBuffer("p")->role, BufferRole::Out);
        QCOMPARE(added.notes.size(), std::size_t{1});
        QCOMPARE(added.notes[0],
                 std::string("p: cannot tell whether the kernel reads or writes it (the pointer "
                             "is passed to fill() at line 4) → out; change its role in Buffers if "
                             "that is wrong"));
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
