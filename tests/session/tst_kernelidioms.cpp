// SPDX-License-Identifier: GPL-3.0-or-later
// Course and sample-code idioms, end to end through SessionRunner (issue 24, parts 5 and 8):
// module globals (a __constant__ filter, a __device__ counter read back), a buffer bound at an
// element offset (`d_in + RADIUS`), a struct by value holding a device pointer (the CUDA
// Programming Guide's `Matrix`), and `const double* const` parameters. Runs on the CPU
// emulator; WB_TEST_BACKEND=cuda runs the same sessions on the GPU (label gpu, skipped without
// one), where the verdicts must be the same.
#include "core/backend/Backend.h"
#include "core/common/Error.h"
#include "core/cpu/CpuBackend.h"
#include "core/session/ModuleGlobals.h"
#include "core/session/Npy.h"
#include "core/session/ProjectFile.h"
#include "core/session/SessionRunner.h"
#include "tests/support/SuiteMain.h"

#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <string>

using namespace wb;
using namespace wb::session;

namespace {

// A 1-D convolution whose taps live in a __constant__ table, as convolutionSeparable's do.
const char* kConvolution = R"cu(#define RADIUS 4
#define TAPS (2 * RADIUS + 1)
__constant__ float c_filter[TAPS];

__global__ void convolveRow(float* out, const float* in, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float sum = 0.0f;
    for (int k = -RADIUS; k <= RADIUS; ++k) {
        int j = i + k;
        j = j < 0 ? 0 : (j >= n ? n - 1 : j);
        sum += c_filter[RADIUS - k] * in[j];
    }
    out[i] = sum;
}
)cu";

// The reference takes the filter from the project, like a buffer.
const char* kConvolutionReference = R"cpp(
void reference(float* out, const float* in, const float* c_filter, int n)
{
    const int R = 4;
    for (int i = 0; i < n; ++i) {
        float sum = 0.0f;
        for (int k = -R; k <= R; ++k) {
            int j = i + k;
            j = j < 0 ? 0 : (j >= n ? n - 1 : j);
            sum += c_filter[R - k] * in[j];
        }
        out[i] = sum;
    }
}
)cpp";

// The same filter written out (tap t is t + 1): right whatever the project sets.
const char* kConvolutionFixedReference = R"cpp(
void reference(float* out, const float* in, int n)
{
    const int R = 4;
    for (int i = 0; i < n; ++i) {
        float sum = 0.0f;
        for (int k = -R; k <= R; ++k) {
            int j = i + k;
            j = j < 0 ? 0 : (j >= n ? n - 1 : j);
            sum += static_cast<float>(R - k + 1) * in[j];
        }
        out[i] = sum;
    }
}
)cpp";

// A __device__ counter the kernel bumps, read back as the output.
const char* kCounter = R"cu(
__device__ unsigned int g_count = 0;

__global__ void countAbove(const float* in, float threshold, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && in[i] > threshold) atomicAdd(&g_count, 1u);
}
)cu";

const char* kCounterReference = R"cpp(
void reference(const float* in, float threshold, int n, unsigned* g_count)
{
    for (int i = 0; i < n; ++i)
        if (in[i] > threshold) ++*g_count;
}
)cpp";

// A stencil that reads RADIUS elements either side of its own: launched on `d_in + RADIUS`.
const char* kStencil = R"cu(
#define RADIUS 3
__global__ void stencil1d(float* out, const float* in, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float sum = 0.0f;
    for (int k = -RADIUS; k <= RADIUS; ++k)
        sum += in[i + k];
    out[i] = sum;
}
)cu";

const char* kStencilReference = R"cpp(
void reference(float* out, const float* d_in, int n, int RADIUS)
{
    for (int i = 0; i < n; ++i) {
        float sum = 0.0f;
        for (int k = -RADIUS; k <= RADIUS; ++k)
            sum += d_in[i + RADIUS + k];
        out[i] = sum;
    }
}
)cpp";

// Tiled matrix multiplication on matrices passed by value, each holding a device pointer, in
// the CUDA Programming Guide's idiom (sub-matrices are Matrix values pointing into the parent).
const char* kMatrix = R"cu(
#define BLOCK_SIZE 16
struct Matrix {
    int width;
    int height;
    int stride;
    float* elements;
};

__device__ float elementAt(const Matrix m, int row, int col)
{
    return m.elements[row * m.stride + col];
}

__device__ void storeAt(Matrix m, int row, int col, float value)
{
    m.elements[row * m.stride + col] = value;
}

__device__ Matrix tileOf(Matrix m, int tileRow, int tileCol)
{
    Matrix t;
    t.width = BLOCK_SIZE;
    t.height = BLOCK_SIZE;
    t.stride = m.stride;
    t.elements = &m.elements[m.stride * BLOCK_SIZE * tileRow + BLOCK_SIZE * tileCol];
    return t;
}

__global__ void matMulTiled(Matrix A, Matrix B, Matrix C)
{
    const int tileRow = blockIdx.y, tileCol = blockIdx.x;
    const int row = threadIdx.y, col = threadIdx.x;
    Matrix cTile = tileOf(C, tileRow, tileCol);
    float acc = 0.0f;
    for (int m = 0; m < A.width / BLOCK_SIZE; ++m) {
        const Matrix aTile = tileOf(A, tileRow, m);
        const Matrix bTile = tileOf(B, m, tileCol);
        __shared__ float as[BLOCK_SIZE][BLOCK_SIZE];
        __shared__ float bs[BLOCK_SIZE][BLOCK_SIZE];
        as[row][col] = elementAt(aTile, row, col);
        bs[row][col] = elementAt(bTile, row, col);
        __syncthreads();
        for (int e = 0; e < BLOCK_SIZE; ++e)
            acc += as[row][e] * bs[e][col];
        __syncthreads();
    }
    storeAt(cTile, row, col, acc);
}
)cu";

const char* kMatrixReference = R"cpp(
struct Matrix {
    int width;
    int height;
    int stride;
    float* elements;
};
void reference(Matrix A, Matrix B, Matrix C)
{
    for (int i = 0; i < C.height; ++i)
        for (int j = 0; j < C.width; ++j) {
            double sum = 0;
            for (int k = 0; k < A.width; ++k)
                sum += double(A.elements[i * A.stride + k]) * B.elements[k * B.stride + j];
            C.elements[i * C.stride + j] = static_cast<float>(sum);
        }
}
)cpp";

// Pointer parameters qualified the way course code qualifies them.
const char* kQualified = R"cu(
__global__ void axpy(double* __restrict__ const y, const double* const x, const double a, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}
__global__ void halve(float *__restrict__ out, const float *__restrict__ in, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i] * 0.5f;
}
)cu";

const char* kQualifiedReference = R"cpp(
void reference(double* const y, const double* const x, const double a, int n)
{
    for (int i = 0; i < n; ++i)
        y[i] = a * x[i] + y[i];
}
)cpp";

BufferSpec buffer(const std::string& name, const std::vector<std::string>& shape,
                  BufferRole role = BufferRole::In, ElementType type = ElementType::F32)
{
    BufferSpec b;
    b.name = name;
    b.type = type;
    b.shape = shape;
    b.role = role;
    return b;
}

BufferSpec uniform(const std::string& name, const std::vector<std::string>& shape,
                   std::uint64_t seed)
{
    BufferSpec b = buffer(name, shape);
    b.init.kind = Initialiser::Kind::Uniform;
    b.init.seed = seed;
    return b;
}

Session convolution(bool setFilter, const char* reference)
{
    Session s;
    s.name = "convolution";
    s.kernelSource = kConvolution;
    s.scalars = {ScalarSpec{"n", ElementType::I32, "1000"}};
    s.buffers = {uniform("in", {"n"}, 7), buffer("out", {"n"}, BufferRole::Out)};
    if (setFilter) {
        BufferSpec filter = buffer("c_filter", {"9"});
        filter.init.kind = Initialiser::Kind::Iota;
        filter.init.start = "1";
        s.globals = {filter};
    }
    s.launch.kernel = "convolveRow";
    s.launch.grid = {"ceil(n/128)"};
    s.launch.block = {"128"};
    s.iterations = 2;
    s.reference.kind = ReferenceSpec::Kind::Cpp;
    s.reference.source = reference;
    s.tolerance.rtol = 1e-5;
    s.tolerance.atol = 1e-4;
    return s;
}

Session counter()
{
    Session s;
    s.name = "counter";
    s.kernelSource = kCounter;
    s.scalars = {ScalarSpec{"n", ElementType::I32, "5000"},
                 ScalarSpec{"threshold", ElementType::F32, "0.25"}};
    s.buffers = {uniform("in", {"n"}, 3)};
    s.globals = {buffer("g_count", {"1"}, BufferRole::Out, ElementType::U32)};
    s.launch.kernel = "countAbove";
    s.launch.grid = {"ceil(n/256)"};
    s.launch.block = {"256"};
    s.iterations = 3; // the counter keeps counting: the result is the first launch's
    s.reference.kind = ReferenceSpec::Kind::Cpp;
    s.reference.source = kCounterReference;
    return s;
}

Session stencil(const std::string& binding)
{
    Session s;
    s.name = "stencil";
    s.kernelSource = kStencil;
    s.scalars = {ScalarSpec{"RADIUS", ElementType::I32, "3"},
                 ScalarSpec{"n", ElementType::I32, "500"}};
    BufferSpec in = buffer("d_in", {"n + 2*RADIUS"});
    in.init.kind = Initialiser::Kind::Iota;
    s.buffers = {in, buffer("out", {"n"}, BufferRole::Out)};
    s.launch.kernel = "stencil1d";
    s.launch.grid = {"ceil(n/64)"};
    s.launch.block = {"64"};
    s.launch.bindings = {{"in", binding}};
    s.iterations = 1;
    s.reference.kind = ReferenceSpec::Kind::Cpp;
    s.reference.source = kStencilReference;
    return s;
}

std::vector<StructMember> matrix(const std::string& elements)
{
    StructMember w{"width", ElementType::I32, "n", {}};
    StructMember h{"height", ElementType::I32, "n", {}};
    StructMember st{"stride", ElementType::I32, "n", {}};
    StructMember e{"elements", ElementType::F32, "0", elements};
    return {w, h, st, e};
}

Session matMul()
{
    Session s;
    s.name = "matmul";
    s.kernelSource = kMatrix;
    // A struct's own type and value are unused (the defaults a project file loads).
    s.scalars = {ScalarSpec{"n", ElementType::I32, "48"},
                 ScalarSpec{"A", ElementType::I32, "0", matrix("a")},
                 ScalarSpec{"B", ElementType::I32, "0", matrix("b")},
                 ScalarSpec{"C", ElementType::I32, "0", matrix("c")}};
    s.buffers = {uniform("a", {"n", "n"}, 11), uniform("b", {"n", "n"}, 12),
                 buffer("c", {"n", "n"}, BufferRole::Out)};
    s.launch.kernel = "matMulTiled";
    s.launch.grid = {"n/16", "n/16"};
    s.launch.block = {"16", "16"};
    s.iterations = 1;
    s.reference.kind = ReferenceSpec::Kind::Cpp;
    s.reference.source = kMatrixReference;
    s.tolerance.rtol = 1e-4;
    s.tolerance.atol = 1e-4;
    return s;
}

bool contains(const std::string& text, const std::string& part)
{
    return text.find(part) != std::string::npos;
}

const Diagnostic* unsetWarning(const RunReport& r, const std::string& name)
{
    for (const Diagnostic& d : r.diagnostics)
        if (d.severity == Severity::Warning && contains(d.message, "'" + name + "'") &&
            contains(d.message, "never sets it"))
            return &d;
    return nullptr;
}

} // namespace

class TestKernelIdioms : public QObject {
    Q_OBJECT

    BackendKind m_kind = BackendKind::Cpu;
    QTemporaryDir m_cache;

    RunReport run(Session s, SessionRunner::Options opt = {})
    {
        s.backend = m_kind;
        return SessionRunner::run(s, opt);
    }
    bool onCpu() const { return m_kind == BackendKind::Cpu; }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_cache.isValid());
        qputenv("WARPBENCH_CACHE_DIR", m_cache.path().toUtf8());
        const QString kind = qEnvironmentVariable("WB_TEST_BACKEND", QStringLiteral("cpu"));
        if (kind == QStringLiteral("cuda")) {
            m_kind = BackendKind::Cuda;
            if (const auto why = cudaUnavailableReason())
                QSKIP(qPrintable(QStringLiteral("no usable GPU: ") + QString::fromStdString(*why)));
        } else if (kind != QStringLiteral("cpu")) {
            QFAIL("WB_TEST_BACKEND must be cpu or cuda");
        }
        try {
            createBackend(m_kind, 0);
        } catch (const Error& e) {
            QSKIP(e.what());
        }
    }

    /// Part 5: the __constant__ filter set from an initialiser gives the right output; left
    /// unset it holds zeros (every output 0, a mismatch) and the run warns at its declaration.
    void constantFilterIsSetFromTheProject()
    {
        const RunReport set = run(convolution(true, kConvolutionFixedReference));
        QVERIFY2(set.status == RunReport::Status::Passed, set.message.c_str());
        QVERIFY(!unsetWarning(set, "c_filter"));

        const RunReport unset = run(convolution(false, kConvolutionFixedReference));
        QCOMPARE(unset.status, RunReport::Status::Mismatch);
        const HostArray& out = unset.results.at("out");
        for (std::size_t i = 0; i < out.count(); ++i)
            QCOMPARE(out.at(i), 0.0);
        const Diagnostic* w = unsetWarning(unset, "c_filter");
        QVERIFY(w);
        QCOMPARE(w->line, 3);
        QCOMPARE(w->file, std::string("kernel.cu"));
    }

    /// What the unset-__constant__ warning reads: declarations at namespace scope, with or
    /// without an initialiser, used or not; comments and functions do not count.
    void scanFindsModuleGlobals()
    {
        const std::string src = "// __constant__ float commented[4];\n"
                                "__constant__ float taps[9];\n"
                                "__constant__ int table[2] = {1, 2};\n"
                                "__constant__ float unused[3];\n"
                                "namespace ns { __device__ int counter; }\n"
                                "__device__ float twice(float x) { return 2 * x; }\n"
                                "__global__ void k(float* o) { o[0] = taps[0] + table[1] + "
                                "ns::counter; }\n";
        const auto g = ModuleGlobals::scan(src);
        QCOMPARE(g.size(), std::size_t{4});
        QCOMPARE(g[0].name, std::string("taps"));
        QCOMPARE(g[0].line, 2);
        QVERIFY(g[0].isConstant && !g[0].initialised && g[0].used);
        QVERIFY(g[1].initialised);
        QVERIFY(!g[2].used);
        QVERIFY(!g[3].isConstant && g[3].used);
        Session s;
        const auto w = ModuleGlobals::unsetConstantWarnings(src, "k.cu", s);
        QCOMPARE(w.size(), std::size_t{1});
        QCOMPARE(w[0].line, 2);
        s.globals = {buffer("taps", {"9"})};
        QVERIFY(ModuleGlobals::unsetConstantWarnings(src, "k.cu", s).empty());
    }

    /// A global from a .npy file (beside the project) and a scalar __constant__ from "value".
    void globalsFromNpyAndValue()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        HostArray taps(ElementType::F32, {9});
        for (std::size_t t = 0; t < 9; ++t)
            taps.set(t, static_cast<double>(t + 1));
        Npy::write(std::filesystem::path(dir.path().toStdString()) / "taps.npy", taps);

        Session s = convolution(true, kConvolutionFixedReference);
        s.baseDir = dir.path().toStdString();
        s.globals[0].init = Initialiser{};
        s.globals[0].init.kind = Initialiser::Kind::Npy;
        s.globals[0].init.path = "taps.npy";
        const RunReport r = run(s);
        QVERIFY2(r.status == RunReport::Status::Passed, r.message.c_str());

        // `__constant__ float c_gain;` set from a value, read back unchanged as an inout.
        Session g = convolution(true, kConvolutionFixedReference);
        g.kernelSource = std::string(kConvolution) + "__constant__ float c_gain;\n"
                                                     "__global__ void gain(float* out, int n)\n"
                                                     "{\n"
                                                     "    const int i = threadIdx.x;\n"
                                                     "    if (i < n) out[i] = c_gain * i;\n"
                                                     "}\n";
        g.scalars[0].value = "64";
        g.launch.kernel = "gain";
        g.launch.grid = {"1"};
        g.launch.block = {"64"};
        BufferSpec gain = buffer("c_gain", {"1"}, BufferRole::InOut);
        gain.init.kind = Initialiser::Kind::Constant;
        gain.init.value = "n / 32";
        g.globals.push_back(gain);
        g.reference = ReferenceSpec{};
        const RunReport gr = run(g);
        QVERIFY2(gr.status == RunReport::Status::Unchecked, gr.message.c_str()); // no reference
        QCOMPARE(gr.results.at("out").at(10), 20.0);
        QCOMPARE(gr.results.at("c_gain").at(0), 2.0);
    }

    /// The C++ reference receives a global by name, like a buffer.
    void referenceReceivesTheGlobal()
    {
        Session s = convolution(true, kConvolutionReference);
        s.globals[0].init.kind = Initialiser::Kind::Uniform;
        s.globals[0].init.seed = 42;
        const RunReport r = run(s);
        QVERIFY2(r.status == RunReport::Status::Passed, r.message.c_str());
    }

    /// A __device__ counter read back as an output: the first launch's count (not the sum of
    /// every launch), compared with the reference's, in grade mode too (each checked launch
    /// starts from the value the source gives it).
    void deviceCounterIsReadBack()
    {
        const RunReport r = run(counter());
        QVERIFY2(r.status == RunReport::Status::Passed, r.message.c_str());
        const HostArray& count = r.results.at("g_count");
        QCOMPARE(count.count(), std::size_t{1});
        QVERIFY(count.at(0) > 3000 && count.at(0) < 4500); // about 3/4 of 5000 above 0.25
        QCOMPARE(count.at(0), r.expected.at("g_count").at(0));
        const auto out = std::find_if(r.outputs.begin(), r.outputs.end(),
                                      [](const OutputResult& o) { return o.buffer == "g_count"; });
        QVERIFY(out != r.outputs.end());
        QVERIFY(out->compared);

        SessionRunner::Options grade;
        grade.grade.enabled = true;
        grade.grade.seed = 5;
        const RunReport g = run(counter(), grade);
        QVERIFY2(g.status == RunReport::Status::Passed, g.message.c_str());
    }

    /// On the CPU emulator's bounds-checked build the kernel runs in a sandbox process: the
    /// counter it leaves comes back from there.
    void deviceCounterInTheSandbox()
    {
        if (!onCpu()) QSKIP("bounds-checked builds belong to the CPU emulator");
        Session s = counter();
        s.compileOptions.extraFlags = {cpu::CpuBackend::kBoundsCheckFlag};
        s.flagsTrusted = true;
        const RunReport r = run(s);
        QVERIFY2(r.status == RunReport::Status::Passed, r.message.c_str());
        QVERIFY(r.results.at("g_count").at(0) > 3000);
    }

    /// The project's size of a global must be the module's; a global the source lacks is named.
    void globalSizeMismatchIsAnError()
    {
        Session s = convolution(true, kConvolutionReference);
        s.globals[0].shape = {"8"};
        const RunReport r = run(s);
        QCOMPARE(r.status, RunReport::Status::Invalid);
        QVERIFY2(contains(r.message, "globals[0].shape") && contains(r.message, "36 bytes") &&
                     contains(r.message, "32 bytes"),
                 r.message.c_str());

        Session missing = convolution(true, kConvolutionFixedReference);
        missing.globals[0].name = "c_taps";
        const RunReport m = run(missing);
        QCOMPARE(m.status, RunReport::Status::Invalid);
        QVERIFY2(contains(m.message, "globals[0].name") && contains(m.message, "c_taps"),
                 m.message.c_str());
    }

    /// A kernel parameter cannot take a global: the kernel reads it by name.
    void kernelParameterCannotTakeAGlobal()
    {
        Session s = convolution(true, kConvolutionFixedReference);
        s.launch.bindings = {{"in", "c_filter"}};
        const RunReport r = run(s);
        QCOMPARE(r.status, RunReport::Status::Invalid);
        QVERIFY2(contains(r.message, "module global"), r.message.c_str());
    }

    /// Part 8a: `d_in + RADIUS` binds the parameter RADIUS elements into the buffer.
    void offsetBinding()
    {
        const RunReport r = run(stencil("d_in + RADIUS"));
        QVERIFY2(r.status == RunReport::Status::Passed, r.message.c_str());

        const RunReport past = run(stencil("d_in + n + 2*RADIUS"));
        QCOMPARE(past.status, RunReport::Status::Invalid);
        QVERIFY2(contains(past.message, "launch.bindings.in") &&
                     contains(past.message, "past the end of buffer 'd_in' (506 elements)"),
                 past.message.c_str());

        Session scalar = stencil("d_in + RADIUS");
        scalar.launch.bindings["n"] = "n + 1";
        const RunReport s = run(scalar);
        QCOMPARE(s.status, RunReport::Status::Invalid);
        QVERIFY2(contains(s.message, "only a buffer can be bound at an offset"), s.message.c_str());
    }

    /// The bounds check sees the buffer an offset pointer points into: in range it passes,
    /// RADIUS elements too far it reports the access past the buffer's end.
    void offsetBindingIsBoundsChecked()
    {
        if (!onCpu()) QSKIP("bounds-checked builds belong to the CPU emulator");
        Session s = stencil("d_in + RADIUS");
        s.compileOptions.extraFlags = {cpu::CpuBackend::kBoundsCheckFlag};
        s.flagsTrusted = true;
        const RunReport ok = run(s);
        QVERIFY2(ok.status == RunReport::Status::Passed, ok.message.c_str());

        s.launch.bindings["in"] = "d_in + 2*RADIUS";
        const RunReport past = run(s);
        QCOMPARE(past.status, RunReport::Status::RuntimeError);
        QVERIFY2(contains(past.message, "stencil1d") && contains(past.message, "kernel.cu:9"),
                 past.message.c_str());
    }

    /// Part 8b: structs by value holding device pointers (the Programming Guide's Matrix).
    void structWithPointerMember()
    {
        const RunReport r = run(matMul());
        QVERIFY2(r.status == RunReport::Status::Passed, r.message.c_str());

        Session wrong = matMul();
        wrong.scalars[3].members[3].buffer = "d";
        const RunReport w = run(wrong);
        QCOMPARE(w.status, RunReport::Status::Invalid);
        QVERIFY2(contains(w.message, "scalars[3].members[3].buffer") &&
                     contains(w.message, "\"d\""),
                 w.message.c_str());

        Session typed = matMul();
        typed.scalars[1].members[3].type = ElementType::F64;
        const RunReport t = run(typed);
        QCOMPARE(t.status, RunReport::Status::Invalid);
        QVERIFY2(contains(t.message, "f64* but buffer 'a' is f32"), t.message.c_str());
    }

    /// A struct's pointer member may point into its buffer at an offset, checked like one.
    void structPointerMemberAtAnOffset()
    {
        Session s = matMul();
        s.scalars[1].members[3].buffer = "a + n*n";
        const RunReport r = run(s);
        QCOMPARE(r.status, RunReport::Status::Invalid);
        QVERIFY2(contains(r.message, "scalars[1].members[3].buffer") &&
                     contains(r.message, "past the end of buffer 'a'"),
                 r.message.c_str());
    }

    /// The sandbox of a bounds-checked run cannot relocate a pointer inside a struct: refused
    /// with the reason instead of reading the wrong memory.
    void structPointerInTheSandboxIsRefused()
    {
        if (!onCpu()) QSKIP("bounds-checked builds belong to the CPU emulator");
        Session s = matMul();
        s.compileOptions.extraFlags = {cpu::CpuBackend::kBoundsCheckFlag};
        s.flagsTrusted = true;
        const RunReport r = run(s);
        QCOMPARE(r.status, RunReport::Status::Invalid);
        QVERIFY2(contains(r.message, "scalar 'A'") && contains(r.message, "pointer member"),
                 r.message.c_str());
    }

    /// Part 8c: `const double* const`, `double* __restrict__ const` and
    /// `const float *__restrict__` are pointers, on the kernel and in the C++ reference.
    void qualifiedPointerParameters()
    {
        Session s;
        s.kernelSource = kQualified;
        s.scalars = {ScalarSpec{"n", ElementType::I32, "300"},
                     ScalarSpec{"a", ElementType::F64, "2.5"}};
        BufferSpec x = buffer("x", {"n"}, BufferRole::In, ElementType::F64);
        x.init.kind = Initialiser::Kind::Iota;
        BufferSpec y = buffer("y", {"n"}, BufferRole::InOut, ElementType::F64);
        y.init.kind = Initialiser::Kind::Constant;
        y.init.value = "1";
        s.buffers = {x, y};
        s.launch.kernel = "axpy";
        s.launch.grid = {"ceil(n/128)"};
        s.launch.block = {"128"};
        s.iterations = 1;
        s.reference.kind = ReferenceSpec::Kind::Cpp;
        s.reference.source = kQualifiedReference;
        const RunReport r = run(s);
        QVERIFY2(r.status == RunReport::Status::Passed, r.message.c_str());
        for (const KernelParam& p : r.kernel.params)
            if (p.name == "x" || p.name == "y") QVERIFY2(p.isPointer, p.type.c_str());

        Session h;
        h.kernelSource = kQualified;
        h.scalars = {ScalarSpec{"n", ElementType::I32, "300"}};
        BufferSpec in = buffer("in", {"n"});
        in.init.kind = Initialiser::Kind::Iota;
        h.buffers = {in, buffer("out", {"n"}, BufferRole::Out)};
        h.launch.kernel = "halve";
        h.launch.grid = {"ceil(n/128)"};
        h.launch.block = {"128"};
        h.iterations = 1;
        h.reference.kind = ReferenceSpec::Kind::Kernel;
        h.reference.launch = h.launch;
        const RunReport hr = run(h);
        QVERIFY2(hr.status == RunReport::Status::Passed, hr.message.c_str());
    }

    /// Globals, offset bindings and pointer members survive a save and a load, and a project
    /// file gives them as docs/sessions.md says.
    void projectFileRoundTrip()
    {
        Session s = matMul();
        s.globals = convolution(true, kConvolutionReference).globals;
        BufferSpec counterOut = buffer("g_count", {"1"}, BufferRole::Out, ElementType::U32);
        counterOut.tolerance = Tolerance{};
        counterOut.tolerance->atol = 0;
        s.globals.push_back(counterOut);
        s.launch.bindings = {{"A", "A"}, {"in", "d_in + RADIUS"}};
        const Session back = ProjectFile::fromJson(ProjectFile::toJson(s), {}, "round trip");
        QCOMPARE(ProjectFile::toJson(back), ProjectFile::toJson(s));
        QVERIFY(back == s);
        QCOMPARE(back.globals.size(), std::size_t{2});
        QVERIFY(back.scalars[1].members[3].isPointer());
        QCOMPARE(back.scalars[1].members[3].buffer, std::string("a"));

        const Session loaded = ProjectFile::fromJson(R"({
            "schemaVersion": 1,
            "kernel": {"source": "__constant__ float k[3]; __device__ int seen;"},
            "buffers": [{"name": "a", "type": "f32", "shape": [4]}],
            "scalars": [{"name": "M", "type": "struct", "members": [
                {"name": "n", "type": "i32", "value": 4},
                {"name": "p", "type": "f32", "buffer": "a + 1"}]}],
            "globals": [
                {"name": "k", "type": "f32", "shape": [3], "init": {"kind": "iota"}},
                {"name": "scale", "type": "f32", "value": "2.5"},
                {"name": "seen", "type": "i32", "role": "out"}],
            "launch": {"kernel": "f", "grid": [1], "block": [1], "bindings": {"x": "a + 2"}}
        })",
                                                     {}, "inline");
        QCOMPARE(loaded.globals.size(), std::size_t{3});
        QCOMPARE(loaded.globals[1].shape, std::vector<std::string>{"1"});
        QCOMPARE(loaded.globals[1].init.kind, Initialiser::Kind::Constant);
        QCOMPARE(loaded.globals[1].init.value, std::string("2.5"));
        QCOMPARE(loaded.globals[2].role, BufferRole::Out);
        QCOMPARE(loaded.scalars[0].members[1].buffer, std::string("a + 1"));
        QCOMPARE(loaded.launch.bindings.at("x"), std::string("a + 2"));
    }

    void projectFileErrors_data()
    {
        QTest::addColumn<QString>("json");
        QTest::addColumn<QString>("expected");
        const QString head =
            R"({"schemaVersion": 1, "kernel": {"source": ""}, "launch": {"kernel": "f"}, )";
        QTest::newRow("global poisoned")
            << head + R"("globals": [{"name": "g", "type": "f32", "role": "out", "poison": true}]})"
            << "globals[0].poison";
        QTest::newRow("global value and init")
            << head + R"("globals": [{"name": "g", "type": "f32", "value": 1,)" +
                   R"( "init": {"kind": "zeros"}}]})"
            << "globals[0]: give at most one";
        QTest::newRow("global named like a buffer")
            << head + R"("buffers": [{"name": "g", "type": "f32", "shape": [1]}],)" +
                   R"( "globals": [{"name": "g", "type": "f32"}]})"
            << "globals[0].name: duplicate name";
        QTest::newRow("global unknown key")
            << head + R"("globals": [{"name": "g", "type": "f32", "symbol": "x"}]})"
            << "globals[0].symbol";
        QTest::newRow("pointer member with a value")
            << head + R"("scalars": [{"name": "M", "type": "struct", "members": [)" +
                   R"({"name": "p", "type": "f32", "buffer": "a", "value": 1}]}]})"
            << "scalars[0].members[0]: give one of";
    }
    void projectFileErrors()
    {
        QFETCH(QString, json);
        QFETCH(QString, expected);
        try {
            ProjectFile::fromJson(json.toStdString(), {}, "bad");
            QFAIL("accepted");
        } catch (const Error& e) {
            QVERIFY2(contains(e.what(), expected.toStdString()), e.what());
        }
    }
};

WB_QTEST_GUILESS_MAIN(TestKernelIdioms)
#include "tst_kernelidioms.moc"
