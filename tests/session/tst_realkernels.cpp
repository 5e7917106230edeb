// SPDX-License-Identifier: GPL-3.0-or-later
// Kernels as people already have them (issue 24 parts 1, 4 and 7), and what #include may reach
// (issue 25, issue 26 item 3), through both compilers: NVRTC (no GPU needed) and the CPU
// emulator, and the C++ reference's host compiler.
#include "core/backend/Backend.h"
#include "core/common/Error.h"
#include "core/cpu/CpuBackend.h"
#include "core/cuda/Compiler.h"
#include "core/session/CppReference.h"
#include "core/session/ProjectFile.h"
#include "core/session/SessionRunner.h"
#include "tests/support/SuiteMain.h"

#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <sstream>

using namespace wb::session;
using wb::CompileOptions;
using wb::CompileResult;
using wb::Diagnostic;
using wb::Severity;

namespace fs = std::filesystem;

namespace {

const fs::path kData = fs::path(WB_SOURCE_DIR) / "tests/session/data/realkernels";

std::string readText(const fs::path& p)
{
    std::ifstream in(p, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

void writeText(const fs::path& p, const std::string& text)
{
    fs::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary) << text;
}

CompileResult nvrtc(const std::string& source, const std::string& name, const CompileOptions& o)
{
    return wb::cuda::Compiler::instance().compile(source, name, o, "sm_75");
}

CompileResult emulator(const std::string& source, const std::string& name, const CompileOptions& o)
{
    wb::cpu::CpuBackend backend(1);
    return backend.compile(source, name, o);
}

/// Every message and the log, for checks that nothing quotes a file.
std::string allText(const CompileResult& r)
{
    std::string s = r.log;
    for (const Diagnostic& d : r.diagnostics) {
        s += d.message;
        for (const std::string& c : d.context)
            s += c;
    }
    return s;
}

const Diagnostic* firstError(const std::vector<Diagnostic>& ds)
{
    for (const Diagnostic& d : ds)
        if (d.severity == Severity::Error || d.severity == Severity::Fatal) return &d;
    return nullptr;
}

QString cpuUnavailable()
{
    try {
        wb::createBackend(wb::BackendKind::Cpu, 0);
    } catch (const wb::Error& e) {
        return QString::fromStdString(e.what());
    }
    return {};
}

} // namespace

class TestRealKernels : public QObject {
    Q_OBJECT

    QTemporaryDir m_tmp;
    fs::path m_project; ///< a copy of data/realkernels/multifile

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_tmp.isValid());
        if (!wb::cuda::Compiler::instance().available())
            QFAIL(wb::cuda::Compiler::instance().unavailableReason().c_str());
        if (const QString why = cpuUnavailable(); !why.isEmpty()) QFAIL(qPrintable(why));
        m_project = fs::path(m_tmp.path().toStdString()) / "multifile";
        fs::copy(kData / "multifile", m_project, fs::copy_options::recursive);
    }

    /// Part 1: the standard headers of a course kernel file compile under NVRTC and on the
    /// emulator; the kernel runs there with the values its source promises.
    void standardHeaders()
    {
        const std::string src = readText(kData / "std_headers.cu");
        const CompileResult gpu = nvrtc(src, "std_headers.cu", {});
        QVERIFY2(gpu.ok, gpu.log.c_str());
        QVERIFY(gpu.findKernel("normalise"));
        QCOMPARE(gpu.findKernel("normalise")->params.at(2).name, std::string("counts"));

        Session s;
        s.kernelSource = src;
        s.backend = wb::BackendKind::Cpu;
        s.scalars = {ScalarSpec{"n", ElementType::I32, "100"},
                     ScalarSpec{"limit", ElementType::F32, "5"}};
        BufferSpec in{};
        in.name = "in";
        in.type = ElementType::F32;
        in.shape = {"n"};
        in.init.kind = Initialiser::Kind::Iota;
        BufferSpec out{};
        out.name = "out";
        out.type = ElementType::F32;
        out.shape = {"n"};
        out.role = BufferRole::Out;
        BufferSpec counts{};
        counts.name = "counts";
        counts.type = ElementType::U32;
        counts.shape = {"1"};
        counts.role = BufferRole::InOut;
        s.buffers = {in, out, counts};
        s.launch.kernel = "normalise";
        s.launch.grid = {"ceil(n/64)"};
        s.launch.block = {"64"};
        s.warmup = 0;
        s.iterations = 1;
        const RunReport r = SessionRunner::run(s, {});
        QVERIFY2(r.status == RunReport::Status::Unchecked, r.message.c_str()); // no reference
        const auto& o = r.results.at("out");
        for (std::size_t i : {std::size_t{0}, std::size_t{9}, std::size_t{50}})
            QCOMPARE(o.at(i), std::min(std::sqrt(double(i)), 5.0) + double(i % 3));
    }

    /// Part 1: a host function from a stand-in header is an error at the line that calls it,
    /// with a note naming the header.
    void hostFunctionIsAnErrorAtItsLine()
    {
        const std::string src = "#include <stdlib.h>\n"
                                "#include <iostream>\n"
                                "__global__ void k(int* p)\n"
                                "{\n"
                                "    p[0] = rand();\n"
                                "}\n";
        const CompileResult r = nvrtc(src, "host.cu", {});
        QVERIFY(!r.ok);
        const Diagnostic* d = firstError(r.diagnostics);
        QVERIFY(d);
        QCOMPARE(d->file, std::string("host.cu"));
        QCOMPARE(d->line, 5);
        QVERIFY2(d->message.find("\"rand\"") != std::string::npos, d->message.c_str());
        QVERIFY(!d->context.empty());
        QVERIFY2(d->context.back().find("<stdlib.h>") != std::string::npos,
                 d->context.back().c_str());
    }

    /// Part 7: <cuda.h> and <cuda_runtime.h> in a kernel are the emulator's stand-ins, even when
    /// CPATH names the toolkit (which put its host headers before the prelude).
    void cudaHeadersAreTheEmulators()
    {
        const QByteArray saved = qgetenv("CPATH");
        qputenv("CPATH", "/usr/local/cuda/include");
        // NVRTC's device-code check (issue 25) sees its own headers: the probe is the host
        // compiler's.
        const std::string src = "#include <cuda.h>\n#include <cuda_runtime.h>\n"
                                "#if !defined(__CUDACC_RTC__) && (defined(CU_LAUNCH_PARAM_END) || "
                                "defined(__CUDA_RUNTIME_H__))\n"
                                "#error the toolkit's host header\n"
                                "#endif\n"
                                "__global__ void k(CUdeviceptr* p) { p[0] = CUDA_VERSION; }\n";
        const CompileResult r = emulator(src, "cudah.cu", {});
        if (saved.isNull())
            qunsetenv("CPATH");
        else
            qputenv("CPATH", saved);
        QVERIFY2(r.ok, r.log.c_str());
        QVERIFY(r.findKernel("k"));
    }

    /// The runtime's other headers that sample kernel files include for their host code
    /// (matrixMul includes <cuda_profiler_api.h>) are the emulator's too: the toolkit's copies,
    /// which /usr/local/include may link, redefine the prelude's vector types. Under NVRTC they
    /// compile as they are.
    void runtimeHeadersOfSampleFilesCompile()
    {
        const std::string src = "#include <assert.h>\n#include <stdio.h>\n"
                                "#include <cuda_profiler_api.h>\n#include <cuda_runtime.h>\n"
                                "#include <builtin_types.h>\n#include <vector_functions.h>\n"
                                "#include <driver_types.h>\n#include <sm_20_atomic_functions.h>\n"
                                "__global__ void k(float2* p) { p[0] = make_float2(1.f, 2.f); }\n";
        const CompileResult cpu = emulator(src, "runtime.cu", {});
        QVERIFY2(cpu.ok, cpu.log.c_str());
        QVERIFY(cpu.findKernel("k"));
        const CompileResult gpu = nvrtc(src, "runtime.cu", {});
        QVERIFY2(gpu.ok, gpu.log.c_str());
        QVERIFY(gpu.findKernel("k"));
    }

    /// A sample's kernel file with its host code removed still declares its host half at
    /// namespace scope: a program name, host function prototypes, a static host pointer. nvcc
    /// compiles those for the host; under NVRTC they are device entities, unused, and compile.
    void hostHalfDeclarationsCompile()
    {
        const std::string src = "#include <stdio.h>\n"
                                "const char* sSDKsample = \"sample\";\n"
                                "static unsigned* d_Buffer;\n"
                                "int SIZE_X = 1024;\n"
                                "int MAX_TILES = (SIZE_X / 512) * 2;\n"
                                "extern \"C\" void scanHost(unsigned* dst, const unsigned* src, "
                                "unsigned n);\n"
                                "__global__ void k(unsigned* p) { p[threadIdx.x] = 1; }\n";
        const CompileResult gpu = nvrtc(src, "hosthalf.cu", {});
        QVERIFY2(gpu.ok, gpu.log.c_str());
        QVERIFY(gpu.findKernel("k"));
        // MAX_TILES needs dynamic initialisation, which a __device__ variable cannot have: it is
        // left out of the device compile, with a warning at its line.
        const auto left =
            std::find_if(gpu.diagnostics.begin(), gpu.diagnostics.end(), [](const Diagnostic& d) {
                return d.severity == Severity::Warning && d.line == 5;
            });
        QVERIFY2(left != gpu.diagnostics.end() &&
                     left->message.find("left out of the device compile") != std::string::npos,
                 gpu.log.c_str());
        const CompileResult cpu = emulator(src, "hosthalf.cu", {});
        QVERIFY2(cpu.ok, cpu.log.c_str());
        QVERIFY(cpu.findKernel("k"));
    }

    /// Part 4: a kernel in an included .cuh, a helper from includeDirs (angle include) and a
    /// C++ reference including a project header: discovered, compiled and checked on the
    /// emulator; discovered under NVRTC.
    void multiFileProject()
    {
        Session s = ProjectFile::load(m_project / "multifile.wbproj");
        s.backend = wb::BackendKind::Cpu;
        const RunReport r = SessionRunner::run(s, {});
        QVERIFY2(r.status == RunReport::Status::Passed, r.message.c_str());
        QCOMPARE(r.kernel.params.at(0).name, std::string("d_C"));

        CompileOptions o = s.compileOptions;
        o.projectDir = m_project.string();
        o.sourceDir = (m_project / "src").string();
        const CompileResult gpu = nvrtc(s.loadKernelSource(), "scalarProd.cu", o);
        QVERIFY2(gpu.ok, gpu.log.c_str());
        QVERIFY(gpu.findKernel("scalarProdGPU"));
        QCOMPARE(gpu.findKernel("scalarProdGPU")->params.at(4).name, std::string("elementN"));
    }

    /// Part 4: an error in a header is reported at the header's line, named as in the project,
    /// by both compilers; editing the header rebuilds (both compile caches key it).
    void headerDiagnosticsAndCache()
    {
        const fs::path dir = fs::path(m_tmp.path().toStdString()) / "cache";
        writeText(dir / "k.cu", "");
        writeText(dir / "inc" / "value.cuh", "#pragma once\n#define VALUE 3\n");
        CompileOptions o;
        o.projectDir = dir.string();
        o.includeDirs = {"inc"};
        const std::string src = "#include <value.cuh>\n"
                                "__global__ void k(int* p) { p[0] = VALUE * 1000 + 7; }\n";
        const CompileResult a = nvrtc(src, "k.cu", o);
        QVERIFY2(a.ok, a.log.c_str());
        QVERIFY(a.ptx.find("3007") != std::string::npos);
        const CompileResult ca = emulator(src, "k.cu", o);
        QVERIFY2(ca.ok, ca.log.c_str());

        writeText(dir / "inc" / "value.cuh", "#pragma once\n#define VALUE 4\n");
        const CompileResult b = nvrtc(src, "k.cu", o);
        QVERIFY(b.ptx.find("4007") != std::string::npos);
        const CompileResult cb = emulator(src, "k.cu", o);
        QVERIFY2(cb.ok, cb.log.c_str());
        QVERIFY(cb.libraryPath != ca.libraryPath);

        writeText(dir / "inc" / "value.cuh", "#pragma once\n\n#define VALUE undeclared_name\n");
        for (const CompileResult& r : {nvrtc(src, "k.cu", o), emulator(src, "k.cu", o)}) {
            QVERIFY(!r.ok);
            const Diagnostic* d = firstError(r.diagnostics);
            QVERIFY(d);
            // NVRTC reports the use (k.cu:2) expanded from the header; g++ the header's line
            // in its note chain: either way the header is named where its text is at fault.
            const bool atUse = d->file == "k.cu" && d->line == 2;
            const bool atHeader = d->file == "inc/value.cuh" && d->line == 3;
            QVERIFY2(atUse || atHeader, (d->file + ":" + std::to_string(d->line)).c_str());
        }
        writeText(dir / "inc" / "value.cuh", "#pragma once\n\nint bad = ;\n");
        for (const CompileResult& r : {nvrtc(src, "k.cu", o), emulator(src, "k.cu", o)}) {
            QVERIFY(!r.ok);
            const Diagnostic* d = firstError(r.diagnostics);
            QVERIFY(d);
            QCOMPARE(d->file, std::string("inc/value.cuh"));
            QCOMPARE(d->line, 3);
        }
    }

    /// Part 7: a forward declaration naming the parameters otherwise binds by the definition's
    /// names on the emulator; trace mode compiles it and a struct written through a traced
    /// pointer.
    void forwardDeclarationAndTrace()
    {
        Session s;
        s.kernelSource = "struct Point { float x, y, weight; };\n"
                         "__global__ void Fan1(float *m, float *a, int Size, int t);\n"
                         "__global__ void Fan1(float *m_cuda, float *a_cuda, int Size, int t)\n"
                         "{\n"
                         "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                         "    if (i >= Size - 1 - t) return;\n"
                         "    m_cuda[Size * (i + t + 1) + t] = a_cuda[Size * (i + t + 1) + t] / "
                         "a_cuda[Size * t + t];\n"
                         "}\n"
                         "__global__ void weigh(Point* pts, int n)\n"
                         "{\n"
                         "    int i = threadIdx.x;\n"
                         "    if (i < n) pts[i].weight = pts[i].x + pts[i].y;\n"
                         "}\n";
        s.backend = wb::BackendKind::Cpu;
        s.scalars = {ScalarSpec{"Size", ElementType::I32, "8"},
                     ScalarSpec{"t", ElementType::I32, "0"}};
        BufferSpec a{};
        a.name = "a_cuda";
        a.type = ElementType::F32;
        a.shape = {"Size * Size"};
        a.init.kind = Initialiser::Kind::Iota;
        BufferSpec m{};
        m.name = "m_cuda";
        m.type = ElementType::F32;
        m.shape = {"Size * Size"};
        m.role = BufferRole::Out;
        m.poison = false;
        s.buffers = {a, m};
        s.launch.kernel = "Fan1";
        s.launch.grid = {"1"};
        s.launch.block = {"8"};
        s.warmup = 0;
        s.iterations = 1;
        const RunReport plain = SessionRunner::run(s, {});
        QVERIFY2(plain.status == RunReport::Status::Unchecked, plain.message.c_str()); // ran
        QCOMPARE(plain.kernel.params.at(0).name, std::string("m_cuda"));
        // m[8*(i+1)] = a[8*(i+1)] / a[0] would divide by 0: a[0] = 0 (iota): check one row.
        QCOMPARE(plain.results.at("m_cuda").at(8), std::numeric_limits<double>::infinity());

        SessionRunner::Options trace;
        trace.check = wb::CheckMode::Trace;
        const RunReport traced = SessionRunner::run(s, trace);
        QVERIFY2(traced.status == RunReport::Status::Unchecked, traced.message.c_str());
        QVERIFY(traced.traces.count("m_cuda"));

        CompileOptions o;
        o.extraFlags = {wb::cpu::CpuBackend::kTraceFlag};
        const CompileResult structs = emulator(s.kernelSource, "trace.cu", o);
        QVERIFY2(structs.ok, structs.log.c_str());
        QVERIFY(structs.findKernel("weigh"));
    }

    /// Part 7: a texture reference in a group that is not compiled refuses nothing; one that is
    /// refuses only the kernel using it, and launching that kernel says why (without NVRTC;
    /// with it the device-code check refuses the file as the GPU does).
    void textureInConditional()
    {
        const std::string src = "#ifdef USE_TEXTURE\n"
                                "texture<float, 1, cudaReadModeElementType> tex;\n"
                                "__global__ void k(float* out) { out[0] = tex1Dfetch(tex, 0); }\n"
                                "#else\n"
                                "__global__ void k(float* out) { out[0] = 1.0f; }\n"
                                "#endif\n"
                                "__global__ void other(float* out) { out[1] = 2.0f; }\n";
        const CompileResult plain = emulator(src, "tex.cu", {});
        QVERIFY2(plain.ok, plain.log.c_str());
        QVERIFY(plain.findKernel("k"));
        CompileOptions o;
        o.defines = {{"USE_TEXTURE", ""}};
        const CompileResult with = emulator(src, "tex.cu", o);
        if (wb::cuda::Compiler::instance().available()) {
            // Texture references are gone from CUDA 12: NVRTC refuses the file on the GPU, and
            // so does the emulator's device-code check (issue 25), at the line.
            QVERIFY(!with.ok);
            QCOMPARE(with.diagnostics.front().line, 2);
            QVERIFY2(with.diagnostics.front().message.find("texture") != std::string::npos,
                     with.log.c_str());
            return;
        }
        QVERIFY2(with.ok, with.log.c_str());
        QVERIFY(!with.findKernel("k"));
        QVERIFY(with.findKernel("other"));

        Session s;
        s.kernelSource = src;
        s.compileOptions = o;
        s.backend = wb::BackendKind::Cpu;
        BufferSpec out{};
        out.name = "out";
        out.type = ElementType::F32;
        out.shape = {"2"};
        out.role = BufferRole::Out;
        s.buffers = {out};
        s.launch.kernel = "k";
        const RunReport r = SessionRunner::run(s, {});
        QCOMPARE(r.status, RunReport::Status::Invalid);
        QVERIFY2(r.message.find("textures") != std::string::npos &&
                     r.message.find("kernel.cu:3") != std::string::npos,
                 r.message.c_str());
    }

    /// Issue 25: #include reaches nothing outside the project folder, its includeDirs, the
    /// toolkit and Warpbench's headers, on both backends and for the C++ reference; no message
    /// quotes the file.
    void includeOutsideIsRefused_data()
    {
        QTest::addColumn<QString>("directive");
        QTest::newRow("absolute") << "#include \"/etc/passwd\"";
        QTest::newRow("parents") << "#include \"../../../../../../../../../../etc/passwd\"";
        QTest::newRow("angle parents") << "#include <../../../../../../../../../etc/passwd>";
    }
    void includeOutsideIsRefused()
    {
        QFETCH(QString, directive);
        const std::string src = directive.toStdString() + "\n__global__ void k(int* p) {}\n";
        CompileOptions o;
        o.projectDir = m_project.string();
        const auto check = [](const std::vector<Diagnostic>& ds, const std::string& text) {
            const Diagnostic* d = firstError(ds);
            QVERIFY(d);
            QCOMPARE(d->line, 1);
            QVERIFY2(d->message.find("project folder") != std::string::npos, d->message.c_str());
            QVERIFY2(text.find("root:") == std::string::npos, text.c_str());
        };
        const CompileResult gpu = nvrtc(src, "k.cu", o);
        QVERIFY(!gpu.ok);
        check(gpu.diagnostics, allText(gpu));
        const CompileResult cpu = emulator(src, "k.cu", o);
        QVERIFY(!cpu.ok);
        check(cpu.diagnostics, allText(cpu));

        CppReference ref;
        wb::IncludePaths paths;
        paths.projectDir = m_project;
        const CppReference::Build b =
            ref.compile(directive.toStdString() + "\nvoid reference(int* p) {}\n", "reference.cpp",
                        "reference", {}, paths);
        QVERIFY(!b.ok);
        std::string text = b.log;
        for (const Diagnostic& d : b.diagnostics)
            text += d.message;
        check(b.diagnostics, text);
    }

    /// Issue 26 item 3: a FIFO in #include is refused at once by every compiler (it used to
    /// leave cc1plus blocked until the 300 s limit).
    void fifoIncludeIsRefusedQuickly()
    {
        const fs::path fifo = m_project / "pipe.cuh";
        if (!fs::exists(fifo)) QCOMPARE(::mkfifo(fifo.c_str(), 0600), 0);
        const std::string src = "\n#include \"pipe.cuh\"\n__global__ void k(int* p) {}\n";
        CompileOptions o;
        o.projectDir = m_project.string();
        QElapsedTimer timer;
        timer.start();
        const CompileResult gpu = nvrtc(src, "k.cu", o);
        const CompileResult cpu = emulator(src, "k.cu", o);
        CppReference ref;
        wb::IncludePaths paths;
        paths.projectDir = m_project;
        const CppReference::Build b =
            ref.compile("#include \"pipe.cuh\"\nvoid reference(int* p) {}\n", "reference.cpp",
                        "reference", {}, paths);
        QVERIFY2(timer.elapsed() < 10'000, QByteArray::number(timer.elapsed()));
        for (const std::vector<Diagnostic>* ds :
             {&gpu.diagnostics, &cpu.diagnostics, &b.diagnostics}) {
            const Diagnostic* d = firstError(*ds);
            QVERIFY(d);
            QVERIFY2(d->message.find("FIFO") != std::string::npos, d->message.c_str());
        }
        QVERIFY(!gpu.ok && !cpu.ok && !b.ok);
    }
};

WB_QTEST_GUILESS_MAIN(TestRealKernels)
#include "tst_realkernels.moc"
