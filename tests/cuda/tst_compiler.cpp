// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/cuda/Compiler.h"
#include "core/cuda/detail/DiagnosticParser.h"
#include "core/cuda/detail/NvrtcApi.h"
#include "tests/support/SuiteMain.h"

#include <QTest>

#include <future>
#include <sstream>

using wb::CompileOptions;
using wb::CompileResult;
using wb::Diagnostic;
using wb::Severity;
using wb::cuda::Compiler;

namespace {

/// 1-based line number of the first line of `source` containing `needle`.
int lineOf(const std::string& source, const std::string& needle)
{
    std::istringstream in(source);
    std::string line;
    for (int n = 1; std::getline(in, line); ++n)
        if (line.find(needle) != std::string::npos) return n;
    return 0;
}

/// 1-based column of `needle` within its line.
int columnOf(const std::string& source, const std::string& needle)
{
    const std::size_t at = source.find(needle);
    const std::size_t lineStart = source.rfind('\n', at);
    return static_cast<int>(at - (lineStart == std::string::npos ? 0 : lineStart + 1)) + 1;
}

const Diagnostic* firstOf(const CompileResult& r, Severity severity)
{
    for (const Diagnostic& d : r.diagnostics)
        if (d.severity == severity) return &d;
    return nullptr;
}

CompileResult compile(const std::string& src, const CompileOptions& options = {},
                      const std::string& name = "kernel.cu")
{
    return Compiler::instance().compile(src, name, options, "sm_90");
}

} // namespace

class TestCompiler : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        Compiler& c = Compiler::instance();
        if (!c.available()) QFAIL(c.unavailableReason().c_str());
        QVERIFY(c.unavailableReason().empty());
        QVERIFY(c.version().rfind("NVRTC ", 0) == 0);
        // These tests look at fresh compiles; the cache has its own test.
        c.setCacheEnabled(false);
    }

    void validSource()
    {
        const std::string src =
            "extern \"C\" __global__ void add(float* a, const float* b, int n)\n"
            "{ int i = threadIdx.x; if (i < n) a[i] += b[i]; }\n";
        const CompileResult r = compile(src);
        QVERIFY2(r.ok, r.log.c_str());
        QCOMPARE(r.sourceName, std::string("kernel.cu"));
        QCOMPARE(r.target, std::string("sm_90"));
        QCOMPARE(r.compilerVersion, Compiler::instance().version());
        QCOMPARE(r.cache, CompileResult::Cache::Disabled);
        QVERIFY(r.compileMs > 0);
        QVERIFY(r.ptx.find(".entry add") != std::string::npos);
        QVERIFY(r.ptx.find(".target sm_90") != std::string::npos);
        // An ELF CUBIN.
        QVERIFY(r.binary.size() > 4);
        QCOMPARE(r.binary[0], std::uint8_t(0x7f));
        QCOMPARE(r.binary[1], std::uint8_t('E'));
        QVERIFY(r.diagnostics.empty());
        QVERIFY(r.log.find("ptxas info") != std::string::npos); // -v report is in the log
        QCOMPARE(r.kernels.size(), std::size_t(1));
        QCOMPARE(r.kernels[0].name, std::string("add"));
        QVERIFY(r.kernels[0].resources.known);
        QVERIFY(r.kernels[0].resources.registers > 0);
    }

    void defaultArchitecture()
    {
        const std::string src = "__global__ void k(int* p) { *p = 1; }\n";
        const CompileResult r = Compiler::instance().compile(src, "kernel.cu", {});
        QVERIFY2(r.ok, r.log.c_str());
        QCOMPARE(r.target, std::string("sm_75"));
        QVERIFY(r.ptx.find(".target sm_75") != std::string::npos);
        CompileOptions o;
        o.arch = "sm_80";
        const CompileResult r2 = Compiler::instance().compile(src, "kernel.cu", o, "sm_90");
        QCOMPARE(r2.target, std::string("sm_80")); // options win over the caller's default
        QVERIFY(r2.ptx.find(".target sm_80") != std::string::npos);
    }

    void errorLineAndColumn()
    {
        const std::string src = "__global__ void k(float* a)\n"
                                "{\n"
                                "    float v = undefinedThing + 1.0f;\n"
                                "    a[0] = v;\n"
                                "}\n";
        const CompileResult r = compile(src);
        QVERIFY(!r.ok);
        QVERIFY(r.ptx.empty());
        QVERIFY(r.binary.empty());
        QVERIFY(r.log.find("undefinedThing") != std::string::npos);
        QCOMPARE(r.diagnostics.size(), std::size_t(1)); // the "1 error detected" line is not one
        const Diagnostic& d = r.diagnostics[0];
        QCOMPARE(d.severity, Severity::Error);
        QCOMPARE(d.file, std::string("kernel.cu"));
        QCOMPARE(d.line, lineOf(src, "undefinedThing"));
        QCOMPARE(d.column, columnOf(src, "undefinedThing"));
        QVERIFY(d.message.find("identifier \"undefinedThing\" is undefined") != std::string::npos);
    }

    /// A host function the file declares itself and a kernel calls: NVRTC compiles the call,
    /// ptxas refuses it without a place ("Unresolved extern function 'system'"); the
    /// diagnostic is put at the first call (not the declaration), with a note (issue 25).
    void unresolvedExternIsPlacedAtItsCall()
    {
        const std::string src = "// system(\"in a comment\") is no call\n"
                                "extern \"C\" int system(const char*);\n"
                                "__global__ void k(int* out)\n"
                                "{\n"
                                "    out[0] = 1 + system(\"touch /tmp/x\");\n"
                                "}\n";
        const CompileResult r = compile(src);
        QVERIFY(!r.ok);
        const Diagnostic* d = firstOf(r, Severity::Fatal);
        QVERIFY2(d, r.log.c_str());
        QCOMPARE(d->message, std::string("Unresolved extern function 'system'"));
        QCOMPARE(d->file, std::string("kernel.cu"));
        QCOMPARE(d->line, 5);
        QCOMPARE(d->column, columnOf(src, "system(\"touch"));
        QVERIFY(!d->context.empty() &&
                d->context.back().find("host function") != std::string::npos);
        // Called only after `return`: still a call.
        const CompileResult r2 = compile("extern \"C\" int getpid();\n"
                                         "__device__ int f() { return getpid(); }\n"
                                         "__global__ void k(int* o) { o[0] = f(); }\n");
        const Diagnostic* d2 = firstOf(r2, Severity::Fatal);
        QVERIFY2(d2 && d2->line == 2, r2.log.c_str());
        // After && (not a declarator &): a call.
        const CompileResult r3 = compile("extern \"C\" int fork();\n"
                                         "__global__ void k(int* o)\n"
                                         "{\n"
                                         "    if (o[0] == 0 && fork() == 0) o[1] = 1;\n"
                                         "}\n");
        const Diagnostic* d3 = firstOf(r3, Severity::Fatal);
        QVERIFY2(d3 && d3->line == 4, r3.log.c_str());
    }

    void errorColumnWithTabs()
    {
        // NVRTC copies the tabs into the caret line, so the caret's index is the column.
        const std::string src = "__global__ void k(int* a)\n{\n\t\tint y = zz;\n\ta[0] = y;\n}\n";
        const CompileResult r = compile(src);
        QVERIFY(!r.ok);
        const Diagnostic* d = firstOf(r, Severity::Error);
        QVERIFY(d);
        QCOMPARE(d->line, lineOf(src, "zz;"));
        QCOMPARE(d->column, columnOf(src, "zz;"));
    }

    void severalErrors()
    {
        const std::string src = "__global__ void k(int* a)\n{\n  a[0] = x1;\n  a[1] = x2;\n}\n";
        const CompileResult r = compile(src);
        QVERIFY(!r.ok);
        QCOMPARE(r.diagnostics.size(), std::size_t(2));
        QCOMPARE(r.diagnostics[0].line, lineOf(src, "x1"));
        QCOMPARE(r.diagnostics[0].column, columnOf(src, "x1"));
        QCOMPARE(r.diagnostics[1].line, lineOf(src, "x2"));
        QCOMPARE(r.diagnostics[1].column, columnOf(src, "x2"));
        QVERIFY(r.log.find("2 errors detected in the compilation of \"kernel.cu\"") !=
                std::string::npos);
        for (const Diagnostic& d : r.diagnostics)
            QVERIFY(d.message.find("detected in the compilation") == std::string::npos);
    }

    void warningWithCode()
    {
        const std::string src = "__global__ void k()\n{\n    int unusedVar;\n}\n";
        const CompileResult r = compile(src, {}, "warn.cu");
        QVERIFY2(r.ok, r.log.c_str()); // warnings do not fail a compile
        const Diagnostic* d = firstOf(r, Severity::Warning);
        QVERIFY(d);
        QCOMPARE(d->file, std::string("warn.cu"));
        QCOMPARE(d->code, std::string("177-D"));
        QCOMPARE(d->line, lineOf(src, "unusedVar"));
        QCOMPARE(d->column, columnOf(src, "unusedVar"));
        QVERIFY(d->message.find("\"unusedVar\" was declared but never referenced") !=
                std::string::npos);
        QVERIFY(!firstOf(r, Severity::Error));
    }

    void templateInstantiationContext()
    {
        const std::string src = "template <typename T> __global__ void bad(T x) { x.foo(); }\n"
                                "template __global__ void bad<int>(int);\n";
        const CompileResult r = compile(src);
        QVERIFY(!r.ok);
        QCOMPARE(r.diagnostics.size(), std::size_t(1));
        const Diagnostic& d = r.diagnostics[0];
        QCOMPARE(d.line, 1);
        QCOMPARE(d.column, columnOf(src, "x.foo"));
        QVERIFY(!d.context.empty());
        QVERIFY(d.context[0].find("detected during instantiation of") != std::string::npos);
        QVERIFY(d.context[0].find("T=int") != std::string::npos);
        QVERIFY(d.context[0].find("at line 2") != std::string::npos);
    }

    void nestedInstantiationContext()
    {
        const std::string src = "template <typename T> __device__ void inner(T x) { x.foo(); }\n"
                                "template <typename T> __global__ void outer(T x) { inner(x); }\n"
                                "template __global__ void outer<int>(int);\n";
        const CompileResult r = compile(src);
        QVERIFY(!r.ok);
        QCOMPARE(r.diagnostics.size(), std::size_t(1));
        const Diagnostic& d = r.diagnostics[0];
        QCOMPARE(d.line, 1);
        QCOMPARE(d.column, columnOf(src, "x.foo"));
        // "detected during:" followed by one line per instantiation step.
        QCOMPARE(d.context.size(), std::size_t(3));
        QVERIFY(d.context[1].find("void inner(T) [with T=int]") != std::string::npos);
        QVERIFY(d.context[1].find("at line 2") != std::string::npos);
        QVERIFY(d.context[2].find("void outer(T) [with T=int]") != std::string::npos);
        QVERIFY(d.context[2].find("at line 3") != std::string::npos);
    }

    void errorInUserHeaderNamesTheHeader()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::string headerText = "__device__ int helper() { return notDeclared; }\n";
        QFile header(dir.filePath("helper.cuh"));
        QVERIFY(header.open(QIODevice::WriteOnly));
        header.write(headerText.c_str());
        header.close();
        CompileOptions o;
        o.includeDirs = {dir.path().toStdString()};
        const CompileResult r =
            compile("#include \"helper.cuh\"\n__global__ void k(int* a) { a[0] = helper(); }\n", o);
        QVERIFY(!r.ok);
        QCOMPARE(r.diagnostics.size(), std::size_t(1));
        QVERIFY(r.diagnostics[0].file.find("helper.cuh") != std::string::npos);
        QCOMPARE(r.diagnostics[0].line, 1);
        QCOMPARE(r.diagnostics[0].column, columnOf(headerText, "notDeclared"));
    }

    void missingHeaderIsFatal()
    {
        const std::string src = "#include \"does_not_exist.cuh\"\n__global__ void k() {}\n";
        const CompileResult r = compile(src);
        QVERIFY(!r.ok);
        const Diagnostic* d = firstOf(r, Severity::Fatal);
        QVERIFY2(d, r.log.c_str());
        QCOMPARE(d->line, 1);
        QVERIFY(d->message.find("cannot open source file \"does_not_exist.cuh\"") !=
                std::string::npos);
    }

    void toolkitHeaderFound()
    {
        const std::string src = "#include <cuda_fp16.h>\n"
                                "__global__ void h(__half* a, const __half* b)\n"
                                "{ a[threadIdx.x] = __hadd(a[threadIdx.x], b[threadIdx.x]); }\n";
        const CompileResult r = compile(src);
        QVERIFY2(r.ok, r.log.c_str());
        QCOMPARE(r.kernels.size(), std::size_t(1));
        QCOMPARE(r.kernels[0].params[0].type, std::string("__half*"));
    }

    void userIncludeDirAndDefines()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QFile header(dir.filePath("scale.cuh"));
        QVERIFY(header.open(QIODevice::WriteOnly));
        header.write("#define SCALE_FACTOR 3\n");
        header.close();
        const std::string src =
            "#include \"scale.cuh\"\n"
            "#if !defined(FROM_OPTIONS) || FROM_OPTIONS != 7\n#error no define\n#endif\n"
            "__global__ void k(int* a) { a[0] = SCALE_FACTOR * FROM_OPTIONS; }\n";
        CompileOptions o;
        const CompileResult without = compile(src, o);
        QVERIFY(!without.ok);
        o.includeDirs.push_back(dir.path().toStdString());
        o.defines.emplace_back("FROM_OPTIONS", "7");
        const CompileResult r = compile(src, o);
        QVERIFY2(r.ok, r.log.c_str());
        // 3 * 7 folded into the kernel.
        QVERIFY(r.ptx.find("21") != std::string::npos);
    }

    void nameExpressions()
    {
        const std::string src =
            "namespace ns {\n"
            "template <typename T, int N> __global__ void scale(T* out, const T* in)\n"
            "{ out[threadIdx.x] = in[threadIdx.x] * N; }\n"
            "}\n";
        CompileOptions o;
        o.nameExpressions = {"ns::scale<float, 128>", "ns::scale<double,4>"};
        const CompileResult r = compile(src, o);
        QVERIFY2(r.ok, r.log.c_str());
        QCOMPARE(r.kernels.size(), std::size_t(2));
        const wb::KernelInfo* f = r.findKernel("ns::scale<float, 128>");
        QVERIFY(f);
        QCOMPARE(f->loweredName, std::string("_ZN2ns5scaleIfLi128EEEvPT_PKS1_"));
        QVERIFY(f->isTemplateInstance);
        QVERIFY(!f->externC);
        QCOMPARE(f->signature, std::string("void ns::scale<float, 128>(float*, float const*)"));
        QCOMPARE(r.findKernel(f->loweredName), f);
        const wb::KernelInfo* d = r.findKernel("ns::scale<double,4>"); // spelled as added
        QVERIFY(d);
        QCOMPARE(d->params.size(), std::size_t(2));
        QCOMPARE(d->params[0].type, std::string("double*"));
        QCOMPARE(d->params[1].name, std::string("in"));
        QVERIFY(d->params[1].isConst);
        QVERIFY(!r.findKernel("ns::scale<double, 4>")); // the lookup must match exactly
    }

    void badNameExpression()
    {
        CompileOptions o;
        o.nameExpressions = {"nosuch<int>"};
        const CompileResult r = compile("__global__ void k() {}\n", o);
        QVERIFY(!r.ok);
        QVERIFY(firstOf(r, Severity::Error));
    }

    void resourceUsage()
    {
        const std::string src =
            "extern \"C\" __global__ void smem(float* out)\n"
            "{ __shared__ float tile[64]; tile[threadIdx.x] = out[threadIdx.x];\n"
            "  __syncthreads(); out[threadIdx.x] = tile[63 - threadIdx.x]; }\n";
        CompileOptions o;
        o.arch = "sm_90";
        const CompileResult sm = compile(src, o);
        QVERIFY2(sm.ok, sm.log.c_str());
        QCOMPARE(sm.kernels.size(), std::size_t(1));
        const wb::ResourceUsage& u = sm.kernels[0].resources;
        QVERIFY(u.known);
        QVERIFY(u.registers > 0);
        QCOMPARE(u.sharedBytes, 64 * 4);
        QCOMPARE(u.barriers, 1);
        QCOMPARE(u.spillStoreBytes, 0);
        QVERIFY(!sm.binary.empty());

        o.arch = "compute_90";
        const CompileResult ptxOnly = compile(src, o);
        QVERIFY2(ptxOnly.ok, ptxOnly.log.c_str());
        QCOMPARE(ptxOnly.target, std::string("compute_90"));
        QVERIFY(ptxOnly.binary.empty());
        QVERIFY(!ptxOnly.ptx.empty());
        QCOMPARE(ptxOnly.kernels.size(), std::size_t(1));
        QVERIFY(!ptxOnly.kernels[0].resources.known);
        QCOMPARE(ptxOnly.kernels[0].resources.registers, 0);
    }

    void spillsWithRegisterLimit()
    {
        // Many live values and a low register cap force spills (reported by ptxas -v).
        std::string src = "extern \"C\" __global__ void heavy(float* a)\n{\n  float v[48];\n"
                          "  #pragma unroll\n  for (int i = 0; i < 48; ++i) v[i] = a[i * "
                          "blockDim.x + threadIdx.x];\n"
                          "  float s = 0;\n  #pragma unroll\n  for (int i = 0; i < 48; ++i) s += "
                          "v[i] * v[47 - i] / (v[(i * 7) % 48] + 1.0f);\n"
                          "  #pragma unroll\n  for (int i = 0; i < 48; ++i) a[i * blockDim.x + "
                          "threadIdx.x] = v[i] * s;\n}\n";
        CompileOptions o;
        o.maxRegCount = 24; // sm_90 raises lower caps to 24 (with a ptxas warning)
        const CompileResult r = compile(src, o);
        QVERIFY2(r.ok, r.log.c_str());
        const wb::ResourceUsage& u = r.kernels.at(0).resources;
        QVERIFY(u.known);
        QVERIFY(u.registers <= 24);
        QVERIFY2(u.spillStoreBytes > 0 && u.spillLoadBytes > 0, r.log.c_str());
    }

    void optionsReachNvrtc()
    {
        const std::string src = "__global__ void k(float* a) { a[threadIdx.x] = __fdividef(a[0], "
                                "3.0f) + sinf(a[1]); }\n";
        CompileOptions o;
        o.lineInfo = true;
        const CompileResult li = compile(src, o);
        QVERIFY2(li.ok, li.log.c_str());
        QVERIFY(li.ptx.find("\t.loc\t") != std::string::npos);
        const CompileResult plain = compile(src);
        QVERIFY(plain.ptx.find("\t.loc\t") == std::string::npos);

        o = {};
        o.deviceDebug = true; // -G: must not be combined with ptxas -O3
        const CompileResult g = compile(src, o);
        QVERIFY2(g.ok, g.log.c_str());
        QVERIFY(g.ptx.find("\t.loc\t") != std::string::npos);

        o = {};
        o.fastMath = true;
        const CompileResult fm = compile(src, o);
        QVERIFY2(fm.ok, fm.log.c_str());
        QVERIFY(fm.ptx.find("sin.approx") != std::string::npos);
        QVERIFY(plain.ptx.find("sin.approx") == std::string::npos);

        o = {};
        o.std = "c++20";
        const CompileResult cxx20 =
            compile("template <typename T> concept Small = sizeof(T) <= 4;\n"
                    "template <Small T> __global__ void k(T* a) { *a = 0; }\n"
                    "template __global__ void k<int>(int*);\n",
                    o);
        QVERIFY2(cxx20.ok, cxx20.log.c_str());

        o = {};
        o.optLevel = 0;
        const CompileResult o0 = compile(src, o);
        QVERIFY2(o0.ok, o0.log.c_str());
    }

    void invalidOptionIsAResult()
    {
        CompileOptions o;
        o.extraFlags = {"--no-such-flag"};
        const CompileResult r = compile("__global__ void k() {}\n", o);
        QVERIFY(!r.ok);
        QVERIFY(!r.diagnostics.empty());
        QVERIFY(wb::hasErrors(r.diagnostics));

        o = {};
        o.arch = "sm_1";
        const CompileResult badArch = compile("__global__ void k() {}\n", o);
        QVERIFY(!badArch.ok);
        QVERIFY(wb::hasErrors(badArch.diagnostics));
    }

    void concurrentCompiles()
    {
        auto job = [](int i) {
            std::string src = "__global__ void k";
            src += std::to_string(i);
            src += "(int* a) { a[threadIdx.x] = ";
            src += std::to_string(i);
            src += "; }\n";
            return compile(src);
        };
        std::vector<std::future<CompileResult>> futures;
        for (int i = 0; i < 4; ++i)
            futures.push_back(std::async(std::launch::async, job, i));
        for (int i = 0; i < 4; ++i) {
            const CompileResult r = futures[static_cast<std::size_t>(i)].get();
            QVERIFY2(r.ok, r.log.c_str());
            QCOMPARE(r.kernels.size(), std::size_t(1));
            std::string expected = "k";
            expected += std::to_string(i);
            QCOMPARE(r.kernels[0].name, expected);
        }
    }

    void missingNvrtcIsExplained()
    {
        using wb::cuda::detail::NvrtcApi;
        const NvrtcApi missing = NvrtcApi::load({"libnvrtc-not-installed.so.13"});
        QVERIFY(!missing.ok());
        QVERIFY(missing.error.find("libnvrtc.so.13 not found") != std::string::npos);
        QVERIFY(missing.error.find("install") != std::string::npos);
        QVERIFY(missing.error.find("libnvrtc-not-installed.so.13") != std::string::npos);
        // A library that loads but is not NVRTC.
        const NvrtcApi wrong = NvrtcApi::load({"libm.so.6"});
        QVERIFY(!wrong.ok());
        QVERIFY(wrong.error.find("lacks nvrtcGetErrorString") != std::string::npos);
        const NvrtcApi real =
            NvrtcApi::load({"libnvrtc.so.13", "/usr/local/cuda/lib64/libnvrtc.so.13"});
        QVERIFY2(real.ok(), real.error.c_str());
        QCOMPARE(real.versionString(), Compiler::instance().version());
        QVERIFY(!real.libraryPath.empty());
    }

    void addressOfNameExpression()
    {
        CompileOptions o;
        o.nameExpressions = {"&saxpy"};
        const CompileResult r = compile("extern \"C\" __global__ void saxpy(float a) {}\n", o);
        QVERIFY2(r.ok, r.log.c_str());
        QCOMPARE(r.kernels.size(), std::size_t(1));
        QCOMPARE(r.kernels[0].name, std::string("saxpy"));
    }

    void parserOnSyntheticLog()
    {
        // ptxas errors carry no location; summary lines are dropped.
        const std::string log = "ptxas error   : Entry function 'k' uses too much shared data\n"
                                "ptxas info    : Used 4 registers\n"
                                "1 error detected in the compilation of \"kernel.cu\".\n"
                                "Compilation terminated.\n";
        const std::vector<Diagnostic> ds = wb::cuda::detail::parseNvrtcLog(log);
        QCOMPARE(ds.size(), std::size_t(1));
        QCOMPARE(ds[0].file, std::string("ptxas"));
        QCOMPARE(ds[0].line, 0);
        QCOMPARE(ds[0].severity, Severity::Error);
        QVERIFY(ds[0].message.find("too much shared data") != std::string::npos);
    }
};

WB_QTEST_GUILESS_MAIN(TestCompiler)
#include "tst_compiler.moc"
