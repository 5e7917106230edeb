// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/cuda/Compiler.h"
#include "core/cuda/detail/KernelDiscovery.h"
#include "core/cuda/detail/PtxParser.h"
#include "tests/support/SuiteMain.h"

#include <QElapsedTimer>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using wb::CompileOptions;
using wb::CompileResult;
using wb::KernelInfo;
using wb::KernelParam;
using wb::cuda::Compiler;

namespace {

CompileResult compile(const std::string& src, const CompileOptions& options = {})
{
    return Compiler::instance().compile(src, "kernel.cu", options, "sm_90");
}

const KernelInfo& kernel(const CompileResult& r, const std::string& name)
{
    const KernelInfo* k = r.findKernel(name);
    if (!k) throw std::runtime_error("kernel " + name + " not found in:\n" + r.ptx);
    return *k;
}

} // namespace

class TestKernelDiscovery : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        if (!Compiler::instance().available())
            QFAIL(Compiler::instance().unavailableReason().c_str());
        Compiler::instance().setCacheEnabled(false);
    }

    void typedefsAreResolved()
    {
        const std::string src = "typedef float real;\n"
                                "using realptr = real*;\n"
                                "__global__ void k(realptr out, real scale, size_t n)\n"
                                "{ if (threadIdx.x < n) out[threadIdx.x] *= scale; }\n";
        const CompileResult r = compile(src);
        QVERIFY2(r.ok, r.log.c_str());
        QCOMPARE(r.kernels.size(), std::size_t(1));
        const KernelInfo& k = kernel(r, "k");
        QCOMPARE(k.loweredName, std::string("_Z1kPffm"));
        QCOMPARE(k.signature, std::string("void k(float*, float, unsigned long)"));
        QVERIFY(!k.externC);
        QVERIFY(!k.isTemplateInstance);
        QCOMPARE(k.params.size(), std::size_t(3));
        const KernelParam& out = k.params[0];
        QCOMPARE(out.name, std::string("out"));
        QCOMPARE(out.type, std::string("float*"));
        QVERIFY(out.isPointer);
        QCOMPARE(out.pointee, std::string("float"));
        QVERIFY(!out.isConst);
        QCOMPARE(out.size, std::size_t(8));
        QCOMPARE(out.offset, std::size_t(0));
        const KernelParam& scale = k.params[1];
        QCOMPARE(scale.name, std::string("scale"));
        QCOMPARE(scale.type, std::string("float"));
        QVERIFY(!scale.isPointer);
        QCOMPARE(scale.size, std::size_t(4));
        QCOMPARE(scale.offset, std::size_t(8));
        const KernelParam& n = k.params[2];
        QCOMPARE(n.name, std::string("n"));
        QCOMPARE(n.type, std::string("unsigned long"));
        QCOMPARE(n.size, std::size_t(8));
        QCOMPARE(n.alignment, std::size_t(8));
        QCOMPARE(n.offset, std::size_t(16)); // 12 rounded up to the 8-byte alignment
    }

    void macroGeneratedKernels()
    {
        const std::string src = "#define KERNEL(name) __global__ void name(float* a, int n)\n"
                                "KERNEL(first) { if (threadIdx.x < n) a[threadIdx.x] = 1; }\n"
                                "KERNEL(second) { if (threadIdx.x < n) a[threadIdx.x] = 2; }\n";
        const CompileResult r = compile(src);
        QVERIFY2(r.ok, r.log.c_str());
        QCOMPARE(r.kernels.size(), std::size_t(2));
        for (const char* name : {"first", "second"}) {
            const KernelInfo& k = kernel(r, name);
            QCOMPARE(k.params.size(), std::size_t(2));
            // Names are not spelled in the source: positional names; types from the compiler.
            QCOMPARE(k.params[0].name, std::string("param0"));
            QCOMPARE(k.params[1].name, std::string("param1"));
            QCOMPARE(k.params[0].type, std::string("float*"));
            QVERIFY(k.params[0].isPointer);
            QCOMPARE(k.params[1].type, std::string("int"));
            QCOMPARE(k.params[1].size, std::size_t(4));
        }
    }

    void externCWithRestrictAndConst()
    {
        const std::string src =
            "struct Params { int count; double factor; };\n"
            "typedef float* fptr;\n"
            "extern \"C\" __global__ void ek(const float* __restrict__ in,\n"
            "                                 float* __restrict__ out,\n"
            "                                 Params p, fptr extra, int n)\n"
            "{ if (threadIdx.x < n) out[threadIdx.x] = in[threadIdx.x] * p.factor + extra[0]; }\n";
        const CompileResult r = compile(src);
        QVERIFY2(r.ok, r.log.c_str());
        const KernelInfo& k = kernel(r, "ek");
        QVERIFY(k.externC);
        QCOMPARE(k.loweredName, std::string("ek"));
        QCOMPARE(k.params.size(), std::size_t(5));
        const KernelParam& in = k.params[0];
        QCOMPARE(in.name, std::string("in"));
        QCOMPARE(in.type, std::string("const float* __restrict__"));
        QVERIFY(in.isPointer);
        QVERIFY(in.isConst);
        QCOMPARE(in.pointee, std::string("float"));
        QCOMPARE(in.size, std::size_t(8));
        const KernelParam& out = k.params[1];
        QCOMPARE(out.name, std::string("out"));
        QVERIFY(out.isPointer);
        QVERIFY(!out.isConst);
        const KernelParam& p = k.params[2];
        QCOMPARE(p.name, std::string("p"));
        QCOMPARE(p.type, std::string("Params"));
        QVERIFY(!p.isPointer);
        QCOMPARE(p.size, sizeof(int) + 4 + sizeof(double)); // padded like the host struct
        QCOMPARE(p.alignment, alignof(double));
        QCOMPARE(p.offset, std::size_t(16));
        const KernelParam& extra = k.params[3];
        QCOMPARE(extra.type, std::string("fptr"));
        QVERIFY(extra.isPointer); // through the typedef
        QCOMPARE(extra.pointee, std::string("float"));
        QCOMPARE(extra.offset, std::size_t(32));
        QCOMPARE(k.params[4].name, std::string("n"));
        QCOMPARE(k.params[4].offset, std::size_t(40));
        QCOMPARE(k.signature,
                 std::string("extern \"C\" void ek(const float* __restrict__, float* __restrict__, "
                             "Params, fptr, int)"));
    }

    /// Qualifiers after the '*' (`const double* const`, `double* __restrict__ const`) make a
    /// pointer all the same, whether the types come from the demangled name (C++ kernels) or
    /// from the declaration (extern "C").
    void constQualifiedPointers()
    {
        const std::string src =
            "__global__ void cq(double* __restrict__ const y, const double* const x,\n"
            "                   const float *__restrict__ in, const double a) { y[0] = a * x[0] + "
            "in[0]; }\n"
            "extern \"C\" __global__ void ecq(double* __restrict__ const y, const double* const "
            "x,\n"
            "                   const float *__restrict__ in, const double a) { y[0] = a * x[0] + "
            "in[0]; }\n";
        const CompileResult r = compile(src);
        QVERIFY2(r.ok, r.log.c_str());
        for (const char* name : {"cq", "ecq"}) {
            const KernelInfo& k = kernel(r, name);
            QCOMPARE(k.params.size(), std::size_t(4));
            QCOMPARE(k.params[0].name, std::string("y"));
            QVERIFY2(k.params[0].isPointer, k.params[0].type.c_str());
            QVERIFY(!k.params[0].isConst);
            QCOMPARE(k.params[0].pointee, std::string("double"));
            QCOMPARE(k.params[1].name, std::string("x"));
            QVERIFY2(k.params[1].isPointer, k.params[1].type.c_str());
            QVERIFY(k.params[1].isConst);
            QCOMPARE(k.params[1].pointee, std::string("double"));
            QVERIFY2(k.params[2].isPointer, k.params[2].type.c_str());
            QCOMPARE(k.params[2].pointee, std::string("float"));
            QVERIFY(!k.params[3].isPointer);
        }
    }

    void structByValueCpp()
    {
        const std::string src =
            "struct Vec3 { float x, y, z; };\n"
            "struct alignas(16) Big { double d[3]; int tag; };\n"
            "__global__ void sk(Vec3 v, Big b, const Vec3* __restrict__ src, Vec3* dst)\n"
            "{ dst[0] = src[0]; dst[0].x += v.x + b.d[2] + b.tag; }\n";
        const CompileResult r = compile(src);
        QVERIFY2(r.ok, r.log.c_str());
        const KernelInfo& k = kernel(r, "sk");
        QCOMPARE(k.params.size(), std::size_t(4));
        QCOMPARE(k.params[0].type, std::string("Vec3"));
        QCOMPARE(k.params[0].size, std::size_t(12));
        QCOMPARE(k.params[0].alignment, std::size_t(4));
        QCOMPARE(k.params[1].type, std::string("Big"));
        QCOMPARE(k.params[1].size, std::size_t(32));
        QCOMPARE(k.params[1].alignment, std::size_t(16));
        QCOMPARE(k.params[1].offset, std::size_t(16));
        QCOMPARE(k.params[2].name, std::string("src"));
        QCOMPARE(k.params[2].type, std::string("const Vec3*"));
        QVERIFY(k.params[2].isConst);
        QCOMPARE(k.params[2].pointee, std::string("Vec3"));
        QCOMPARE(k.params[2].offset, std::size_t(48));
        QCOMPARE(k.params[3].name, std::string("dst"));
        QCOMPARE(k.params[3].offset, std::size_t(56));
    }

    void templatesThroughNameExpressions()
    {
        const std::string src =
            "typedef float real;\n"
            "template <typename T, int BLOCK>\n"
            "__global__ void __launch_bounds__(BLOCK) scale(T* data, T factor)\n"
            "{ data[threadIdx.x] *= factor * BLOCK; }\n"
            "__global__ void plain(void) {}\n";
        CompileOptions o;
        o.nameExpressions = {"scale<real,128>", "scale<int, 64>"};
        const CompileResult r = compile(src, o);
        QVERIFY2(r.ok, r.log.c_str());
        QCOMPARE(r.kernels.size(), std::size_t(3));
        const KernelInfo& f = kernel(r, "scale<real,128>");
        QVERIFY(f.isTemplateInstance);
        QCOMPARE(f.loweredName, std::string("_Z5scaleIfLi128EEvPT_S0_"));
        QCOMPARE(f.signature, std::string("void scale<float, 128>(float*, float)"));
        QCOMPARE(f.params[0].name, std::string("data"));
        QCOMPARE(f.params[0].type, std::string("float*"));
        QCOMPARE(f.params[1].name, std::string("factor"));
        QCOMPARE(f.params[1].type, std::string("float"));
        const KernelInfo& i = kernel(r, "scale<int, 64>");
        QCOMPARE(i.params[1].type, std::string("int"));
        const KernelInfo& p = kernel(r, "plain");
        QVERIFY(p.params.empty());
        QVERIFY(!p.isTemplateInstance);
    }

    void explicitInstantiationAndNamespaces()
    {
        const std::string src =
            "namespace math { namespace detail {\n"
            "template <typename T> __global__ void axpy(T a, const T* x, T* y) { y[0] += a * x[0]; "
            "}\n"
            "template __global__ void axpy<double>(double, const double*, double*);\n"
            "__global__ void reset(int* flags) { flags[0] = 0; }\n"
            "} }\n";
        const CompileResult r = compile(src);
        QVERIFY2(r.ok, r.log.c_str());
        QCOMPARE(r.kernels.size(), std::size_t(2));
        const KernelInfo& a = kernel(r, "math::detail::axpy<double>");
        QVERIFY(a.isTemplateInstance);
        QCOMPARE(a.params.size(), std::size_t(3));
        QCOMPARE(a.params[0].name, std::string("a"));
        QCOMPARE(a.params[1].name, std::string("x"));
        QCOMPARE(a.params[1].type, std::string("const double*"));
        QCOMPARE(a.params[2].name, std::string("y"));
        const KernelInfo& reset = kernel(r, "math::detail::reset");
        QCOMPARE(reset.params.at(0).name, std::string("flags"));
    }

    void commentsAndStringsIgnored()
    {
        const std::string src =
            "// __global__ void fake(int wrong)\n"
            "/* __global__ void fake2(int wrong) */\n"
            "__device__ const char* msg = \"__global__ void fake3(int wrong)\";\n"
            "__global__ void real(int right) { if (right) printf(\"%s\", msg); }\n";
        const CompileResult r = compile(src);
        QVERIFY2(r.ok, r.log.c_str());
        QCOMPARE(r.kernels.size(), std::size_t(1));
        QCOMPARE(kernel(r, "real").params.at(0).name, std::string("right"));
    }

    // Issue 15: user text of any length is scanned in linear time and never crashes.
    void longIdentifiersAndPathologicalSource()
    {
        const std::string id(50'000, 'k');
        const std::string src = "typedef float* " + id + "_t;\n__global__ void " + id + "(" + id +
                                "_t " + id + ", const " + id + "* __restrict__ q) {}\n";
        const auto kernels = wb::cuda::detail::scanSourceKernels(src);
        QCOMPARE(kernels.size(), std::size_t(1));
        QCOMPARE(kernels[0].name, id);
        QCOMPARE(kernels[0].paramNames, (std::vector<std::string>{id, "q"}));
        QCOMPARE(wb::cuda::detail::scanTypedefs(src).at(id + "_t"), std::string("float*"));

        // Many unterminated declarations and deep nesting: bounded time.
        std::string unclosed;
        for (int i = 0; i < 20'000; ++i)
            unclosed += "__global__ void f(";
        std::string nested = "__global__ void g(" + std::string(20'000, '(') + "int x" +
                             std::string(20'000, ')') + ") {}\n";
        std::string angles = "__global__ " + std::string(50'000, '<') + " void h(int) {}\n";
        QElapsedTimer timer;
        timer.start();
        QVERIFY(wb::cuda::detail::scanSourceKernels(unclosed).empty());
        QCOMPARE(wb::cuda::detail::scanSourceKernels(nested).size(), std::size_t(1));
        wb::cuda::detail::scanSourceKernels(angles);
        std::string noLists;
        for (int i = 0; i < 20'000; ++i)
            noLists += "__global__ a ";
        QVERIFY(wb::cuda::detail::scanSourceKernels(noLists).empty());
        wb::cuda::detail::scanTypedefs("typedef " + std::string(100'000, ' ') + "int t" + unclosed);
        QVERIFY2(timer.elapsed() < 5'000, QByteArray::number(timer.elapsed()));
    }

    void unnamedParameters()
    {
        const std::string src = "__global__ void u(float*, int n, unsigned int) { }\n";
        const CompileResult r = compile(src);
        QVERIFY2(r.ok, r.log.c_str());
        const KernelInfo& k = kernel(r, "u");
        QCOMPARE(k.params.size(), std::size_t(3));
        QCOMPARE(k.params[0].name, std::string("param0"));
        QCOMPARE(k.params[1].name, std::string("n"));
        QCOMPARE(k.params[2].name, std::string("param2"));
        QCOMPARE(k.params[2].type, std::string("unsigned int"));
    }

    void externCTypedefChains()
    {
        const std::string src = "typedef float* fp;\n"
                                "typedef fp fp2;\n"
                                "typedef struct Pair { int a, b; } Pair;\n"
                                "using cfp = const float*;\n"
                                "extern \"C\" __global__ void chain(fp2 out, Pair p, cfp in)\n"
                                "{ out[0] = in[0] + p.a; }\n";
        const CompileResult r = compile(src);
        QVERIFY2(r.ok, r.log.c_str());
        const KernelInfo& k = kernel(r, "chain");
        QCOMPARE(k.params.size(), std::size_t(3));
        QVERIFY(k.params[0].isPointer);
        QCOMPARE(k.params[0].pointee, std::string("float"));
        QVERIFY(!k.params[1].isPointer);
        QCOMPARE(k.params[1].size, std::size_t(8));
        QVERIFY(k.params[2].isPointer);
        QVERIFY(k.params[2].isConst);
        QCOMPARE(k.params[2].type, std::string("cfp"));
    }

    void sameNameInTwoNamespaces()
    {
        const std::string src =
            "namespace a { __global__ void k(int* ints, int count) { ints[0] = count; } }\n"
            "namespace b { __global__ void k(const float* floats, int size) {} }\n"
            "__global__ void k(double* doubles, int n) { doubles[0] = n; }\n";
        const CompileResult r = compile(src);
        QVERIFY2(r.ok, r.log.c_str());
        QCOMPARE(r.kernels.size(), std::size_t(3));
        QCOMPARE(kernel(r, "a::k").params.at(0).name, std::string("ints"));
        QCOMPARE(kernel(r, "a::k").params.at(1).name, std::string("count"));
        QCOMPARE(kernel(r, "b::k").params.at(0).name, std::string("floats"));
        QCOMPARE(kernel(r, "b::k").params.at(0).type, std::string("const float*"));
        QCOMPARE(kernel(r, "b::k").params.at(1).name, std::string("size"));
        QCOMPARE(kernel(r, "k").params.at(0).name, std::string("doubles"));
    }

    void prototypeBeforeDefinition()
    {
        const std::string src =
            "__global__ void later(float*, int);\n"
            "__global__ void later(float* values, int count) { values[0] = count; }\n";
        const CompileResult r = compile(src);
        QVERIFY2(r.ok, r.log.c_str());
        const KernelInfo& k = kernel(r, "later");
        QCOMPARE(k.params.at(0).name, std::string("values"));
        QCOMPARE(k.params.at(1).name, std::string("count"));
    }

    /// Issue 24 part 7: a forward declaration naming the parameters otherwise (Rodinia's
    /// gaussian: `Fan1(float *m, ...)` then `Fan1(float *m_cuda, ...)`): the definition's names.
    void forwardDeclarationWithOtherNames()
    {
        const std::string src =
            "__global__ void Fan1(float *m, float *a, int Size, int t);\n"
            "__global__ void Fan1(float *m_cuda, float *a_cuda, int Size, int t)\n"
            "{ m_cuda[t] = a_cuda[Size]; }\n";
        const CompileResult r = compile(src);
        QVERIFY2(r.ok, r.log.c_str());
        const KernelInfo& k = kernel(r, "Fan1");
        QCOMPARE(k.params.at(0).name, std::string("m_cuda"));
        QCOMPARE(k.params.at(1).name, std::string("a_cuda"));
        QCOMPARE(k.params.at(2).name, std::string("Size"));
    }

    /// Issue 24 part 4: a kernel defined in an included header is discovered with its
    /// parameter names.
    void kernelInAnIncludedHeader()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QFile header(dir.filePath("scalarProd_kernel.cuh"));
        QVERIFY(header.open(QIODevice::WriteOnly));
        header.write("#pragma once\n__global__ void scalarProdGPU(float *d_C, const float *d_A, "
                     "int vectorN)\n{ d_C[threadIdx.x] = d_A[threadIdx.x] * vectorN; }\n");
        header.close();
        CompileOptions o;
        o.projectDir = dir.path().toStdString();
        const CompileResult r = compile("#include \"scalarProd_kernel.cuh\"\n", o);
        QVERIFY2(r.ok, r.log.c_str());
        const KernelInfo& k = kernel(r, "scalarProdGPU");
        QCOMPARE(k.params.at(0).name, std::string("d_C"));
        QCOMPARE(k.params.at(2).name, std::string("vectorN"));
    }

    void macroExternCKernelFallsBackToPtx()
    {
        const std::string src =
            "#define EK(name) extern \"C\" __global__ void name(double* d, char c)\n"
            "EK(viaMacro) { d[0] = c; }\n";
        const CompileResult r = compile(src);
        QVERIFY2(r.ok, r.log.c_str());
        const KernelInfo& k = kernel(r, "viaMacro");
        QVERIFY(k.externC);
        QCOMPARE(k.params.size(), std::size_t(2));
        QCOMPARE(k.params[0].name, std::string("param0"));
        QCOMPARE(k.params[0].size, std::size_t(8));
        QCOMPARE(k.params[1].size, std::size_t(1));
        QCOMPARE(k.params[1].offset, std::size_t(8));
        QVERIFY(!k.params[0].type.empty()); // the PTX type, as nothing better is known
    }

    void ptxParser()
    {
        const std::string ptx = "// .entry commented(\n"
                                ".visible .entry k(\n"
                                "\t.param .u64 .ptr .global .align 16 k_param_0,\n"
                                "\t.param .u8 k_param_1,\n"
                                "\t.param .align 8 .b8 k_param_2[24],\n"
                                "\t.param .f32 k_param_3\n"
                                ")\n{\n ret;\n}\n"
                                ".weak .entry w()\n{\n ret;\n}\n";
        const auto entries = wb::cuda::detail::parsePtxEntries(ptx);
        QCOMPARE(entries.size(), std::size_t(2));
        QCOMPARE(entries[0].symbol, std::string("k"));
        QCOMPARE(entries[0].params.size(), std::size_t(4));
        QVERIFY(entries[0].params[0].pointerAttribute);
        QCOMPARE(entries[0].params[0].size, std::size_t(8));
        QCOMPARE(entries[0].params[0].alignment, std::size_t(16));
        QCOMPARE(entries[0].params[1].size, std::size_t(1));
        QCOMPARE(entries[0].params[1].offset, std::size_t(8));
        QCOMPARE(entries[0].params[2].size, std::size_t(24));
        QCOMPARE(entries[0].params[2].offset, std::size_t(16));
        QCOMPARE(entries[0].params[3].offset, std::size_t(40));
        QCOMPARE(entries[1].symbol, std::string("w"));
        QVERIFY(entries[1].params.empty());
    }

    void ptxasReportParser()
    {
        const std::string log =
            "ptxas info    : 0 bytes gmem, 24 bytes cmem[4]\n"
            "ptxas info    : Compiling entry function '_Z1kPf' for 'sm_90'\n"
            "ptxas info    : Function properties for _Z9helperPfv\n"
            "ptxas         .     64 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
            "ptxas info    : Function properties for _Z1kPf\n"
            "ptxas         .     16 bytes stack frame, 8 bytes spill stores, 12 bytes spill loads\n"
            "ptxas info    : Used 30 registers, used 1 barriers, 1024 bytes smem, 368 bytes "
            "cmem[0], 8 bytes cmem[2]\n"
            "ptxas info    : Compiling entry function 'other' for 'sm_90'\n"
            "ptxas info    : Used 4 registers, used 0 barriers\n";
        const auto usage = wb::cuda::detail::parsePtxasReport(log);
        QCOMPARE(usage.size(), std::size_t(2));
        const wb::ResourceUsage& k = usage.at("_Z1kPf");
        QVERIFY(k.known);
        QCOMPARE(k.registers, 30);
        QCOMPARE(k.barriers, 1);
        QCOMPARE(k.sharedBytes, 1024);
        QCOMPARE(k.constBytes, 376);
        QCOMPARE(k.stackFrameBytes, 16); // not the helper's 64
        QCOMPARE(k.spillStoreBytes, 8);
        QCOMPARE(k.spillLoadBytes, 12);
        QCOMPARE(usage.at("other").registers, 4);
    }

    void demangle()
    {
        QCOMPARE(wb::cuda::detail::demangle("_Z2mkPfi"), std::string("mk(float*, int)"));
        QCOMPARE(wb::cuda::detail::demangle("plain"), std::string("plain"));
    }
};

WB_QTEST_GUILESS_MAIN(TestKernelDiscovery)
#include "tst_kerneldiscovery.moc"
