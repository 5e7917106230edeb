// SPDX-License-Identifier: GPL-3.0-or-later
// ElementwiseKernel and ReductionKernel on the CPU emulator: the argument parser's errors, and
// every generated kernel (and the sources DeviceArray expressions generate) run and compared
// with a reference computed here.
#include "core/array/ArrayMath.h"
#include "core/array/ElementwiseKernel.h"
#include "core/array/ReductionKernel.h"
#include "core/array/detail/Generator.h"
#include "core/common/Error.h"
#include "core/cpu/CpuBackend.h"
#include "core/cuda/CompileError.h"
#include "core/host/HostCompiler.h"
#include "tests/support/SuiteMain.h"

#include <QtTest/QtTest>

#include <cmath>
#include <cstring>
#include <deque>
#include <random>

using namespace wb;

namespace {

/// Launch arguments with stable storage.
class Args {
public:
    template <typename T> Args& val(T v)
    {
        auto& bytes = m_storage.emplace_back(sizeof(T));
        std::memcpy(bytes.data(), &v, sizeof(T));
        m_args.push_back({bytes.data(), sizeof(T), false});
        return *this;
    }
    /// A pointer `offset` bytes into `b` (a misaligned view when not a multiple of 16).
    Args& ptr(const BackendBuffer& b, std::size_t offset = 0)
    {
        const std::uint64_t a = b.address() + offset;
        auto& bytes = m_storage.emplace_back(8);
        std::memcpy(bytes.data(), &a, 8);
        m_args.push_back({bytes.data(), 8, true});
        return *this;
    }
    std::span<const KernelArgValue> span() const { return m_args; }

private:
    std::deque<std::vector<unsigned char>> m_storage;
    std::vector<KernelArgValue> m_args;
};

template <typename T> std::vector<T> randomVector(std::size_t n, unsigned seed)
{
    std::mt19937 rng(seed);
    std::vector<T> v(n);
    if constexpr (std::is_floating_point_v<T>) {
        std::uniform_real_distribution<T> d(-1, 1);
        for (T& x : v)
            x = d(rng);
    } else {
        std::uniform_int_distribution<int> d(-1000, 1000);
        for (T& x : v)
            x = static_cast<T>(d(rng));
    }
    return v;
}

QString errorOf(const std::function<void()>& fn)
{
    try {
        fn();
    } catch (const Error& e) {
        return QString::fromStdString(e.what());
    }
    return {};
}

} // namespace

class TstGeneratedKernels : public QObject {
    Q_OBJECT

    std::unique_ptr<cpu::CpuBackend> m_cpu;

    template <typename T> std::unique_ptr<BackendBuffer> upload(const std::vector<T>& v)
    {
        auto b = m_cpu->allocate(v.size() * sizeof(T), "data");
        m_cpu->upload(*b, v.data(), v.size() * sizeof(T));
        return b;
    }
    template <typename T> std::vector<T> download(const BackendBuffer& b, std::size_t n)
    {
        std::vector<T> v(n);
        m_cpu->download(b, v.data(), n * sizeof(T));
        return v;
    }

private Q_SLOTS:
    void initTestCase()
    {
        if (!HostCompiler::find())
            QSKIP(qPrintable("no host C++ compiler for the CPU emulator: " +
                             QString::fromStdString(HostCompiler::unavailableReason())));
        m_cpu = std::make_unique<cpu::CpuBackend>(2);
    }

    void parsesArgumentStrings()
    {
        const auto args = parseKernelArguments(
            " float a, const float *x, double* __restrict__ y , unsigned  long long int k, "
            "const int* const z");
        QCOMPARE(args.size(), std::size_t{5});
        QCOMPARE(args[0].declaration(), std::string("float a"));
        QCOMPARE(args[1].declaration(), std::string("const float* x"));
        QVERIFY(args[1].isConst && args[1].pointer);
        QCOMPARE(args[2].declaration(true), std::string("double* __restrict__ y"));
        QCOMPARE(args[3].type, ScalarType::UnsignedLongLong);
        QVERIFY(!args[3].pointer);
        QCOMPARE(args[4].declaration(), std::string("const int* z"));
    }

    void rejectsBadArgumentStrings_data()
    {
        QTest::addColumn<QString>("arguments");
        QTest::addColumn<QString>("message");
        QTest::newRow("empty") << "  "
                               << "the argument list is empty";
        QTest::newRow("unknown type") << "float a, floot *x"
                                      << "argument 2 ('floot *x'): unknown type 'floot'";
        QTest::newRow("stray comma") << "float a,, float *x"
                                     << "argument 2 (''): empty";
        QTest::newRow("trailing comma") << "float *x,"
                                        << "argument 2 (''): empty";
        QTest::newRow("no name") << "float *"
                                 << "argument 1 ('float *'): the argument has no name";
        QTest::newRow("no type") << "const x"
                                 << "argument 1 ('const x'): the argument has no type";
        QTest::newRow("double pointer")
            << "float **x"
            << "argument 1 ('float **x'): pointers to pointers are not supported";
        QTest::newRow("reserved i") << "float *i"
                                    << "argument 1 ('float *i'): the name 'i' is reserved";
        QTest::newRow("reserved n") << "int n, float *x"
                                    << "argument 1 ('int n'): the name 'n' is reserved";
        QTest::newRow("reserved prefix") << "float *wb_x"
                                         << "argument 1 ('float *wb_x'): names starting with 'wb_'";
        QTest::newRow("duplicate") << "float *x, float *x"
                                   << "argument 2 ('float *x'): the name 'x' is used twice";
        QTest::newRow("bad character") << "float x[4]"
                                       << "argument 1 ('float x[4]'): unexpected character '['";
        QTest::newRow("template") << "vector<float> v"
                                  << "argument 1 ('vector<float> v'): unexpected character '<'";
        QTest::newRow("restrict on a value")
            << "float __restrict__ a"
            << "argument 1 ('float __restrict__ a'): __restrict__ applies to pointers only";
    }
    void rejectsBadArgumentStrings()
    {
        QFETCH(QString, arguments);
        QFETCH(QString, message);
        const QString error = errorOf([&] { parseKernelArguments(arguments.toStdString()); });
        QVERIFY2(error.contains(message), qPrintable(error));
        // The same message from the kernels' constructors.
        const QString fromKernel =
            errorOf([&] { ElementwiseKernel(arguments.toStdString(), "x[i] = 0"); });
        QVERIFY2(fromKernel.contains(message), qPrintable(fromKernel));
    }

    void rejectsBadBodiesAndNames()
    {
        QVERIFY(errorOf([] { ElementwiseKernel("float *x", "  "); }).contains("operation: empty"));
        QVERIFY(errorOf([] {
                    ElementwiseKernel("float *x", "x[i] = 0; } void f() {");
                }).contains("unmatched '}'"));
        QVERIFY(
            errorOf([] { ElementwiseKernel("float *x", "x[i] = (1"); }).contains("unclosed '('"));
        QVERIFY(errorOf([] {
                    ElementwiseKernel("float *x", "x[i] = 0", "2fast");
                }).contains("kernel name '2fast': not a C identifier"));
        QVERIFY(errorOf([] {
                    ReductionKernel<float>("0", "a+b", "", "const float *x");
                }).contains("map_expr: empty"));
    }

    void elementwiseAxpyMatchesReference()
    {
        ElementwiseKernel axpy("float a, float *x, float *y, float *z", "z[i] = a*x[i] + y[i]",
                               "axpy");
        QVERIFY(axpy.source().find("extern \"C\" __global__ void axpy(float a, float* x, float* "
                                   "y, float* z, unsigned long long n)") != std::string::npos);
        QVERIFY(axpy.source().find("axpy_noalias(float a, float* __restrict__ x") !=
                std::string::npos);
        const std::uint64_t builds = ElementwiseKernel::buildCount();
        auto program = axpy.load(*m_cpu);
        QCOMPARE(ElementwiseKernel::buildCount(), builds + 1);
        // Sizes: less than a block, not a multiple of anything, several grid-stride trips.
        for (std::size_t n : {std::size_t{1}, std::size_t{1000}, std::size_t{300001}}) {
            const auto x = randomVector<float>(n, 1), y = randomVector<float>(n, 2);
            auto dx = upload(x), dy = upload(y), dz = upload(std::vector<float>(n, -7.0f));
            axpy.launch(*m_cpu, *program, Args().val(2.5f).ptr(*dx).ptr(*dy).ptr(*dz).span(), n);
            const auto z = download<float>(*dz, n);
            for (std::size_t i = 0; i < n; ++i)
                QCOMPARE(z[i], 2.5f * x[i] + y[i]);
        }
    }

    // The vector path of the `_noalias` entry point: generated only for operations that are
    // provably elementwise.
    void vectorPathOnlyForElementwiseOperations_data()
    {
        QTest::addColumn<QString>("operation");
        QTest::addColumn<QString>("preamble");
        QTest::addColumn<bool>("vectorized");
        const QString none;
        QTest::newRow("axpy") << "z[i] = a*x[i] + y[i]" << none << true;
        QTest::newRow("spaces") << "z [ i ]=a * x[ i ]+y[i]" << none << true;
        QTest::newRow("index as value") << "z[i] = x[i] + (float)i + (float)n" << none << true;
        QTest::newRow("ternary") << "z[i] = x[i] > 0 ? x[i] : -y[i]" << none << true;
        QTest::newRow("if else") << "if (x[i] > 0) z[i] = 1; else z[i] = y[i]" << none << true;
        QTest::newRow("logical and") << "z[i] = (x[i] > 0) && y[i] < 1" << none << true;
        QTest::newRow("comment") << "z[i] = x[i] /* not x[i+1] */" << none << true;
        QTest::newRow("string") << "z[i] = sizeof(\"x[i+1]\") * x[i]" << none << true;
        QTest::newRow("scalars only") << "a = 2" << none << false;
        QTest::newRow("neighbour") << "z[i] = x[i + 1] - x[i]" << none << false;
        QTest::newRow("reversed") << "z[i] = x[n - 1 - i]" << none << false;
        QTest::newRow("constant index") << "z[i] = x[0]" << none << false;
        QTest::newRow("bare pointer") << "z[i] = *(x + i)" << none << false;
        QTest::newRow("address") << "const float *p = &x[i]; z[i] = p[0]" << none << false;
        QTest::newRow("another i") << "for (int i = 0; i < 2; ++i) z[i] = 0" << none << false;
        QTest::newRow("parenthesised i") << "int (i) = 0; z[i] = x[i]" << none << false;
        QTest::newRow("parenthesised i after const")
            << "z[i] = 0; const int (i) = 1; z[i] = x[i]" << none << false;
        QTest::newRow("call with i") << "z[i] = x[i] + fabsf((float)(i))" << none << true;
        QTest::newRow("functional cast of i") << "z[i] = x[i] + float(i)" << none << true;
        QTest::newRow("macro may declare i") << "DECLARE_I; z[i] = x[i]"
                                             << "#define DECLARE_I int i = 0" << false;
        QTest::newRow("pointer i") << "const float *i = x; z[0] = *i" << none << false;
        QTest::newRow("shadowed array") << "float x[4] = {}; z[i] = x[i]" << none << false;
        QTest::newRow("member") << "struct { float x[1]; } s{}; z[i] = s.x[i]" << none << false;
        QTest::newRow("return") << "if (x[i] < 0) return; z[i] = x[i]" << none << false;
        QTest::newRow("break") << "while (true) { z[i] = x[i]; break; }" << none << false;
        QTest::newRow("preprocessor") << "\n#define Q 1\nz[i] = x[i]" << none << false;
        QTest::newRow("preamble names an array") << "z[i] = AT_X"
                                                 << "#define AT_X x[i]" << false;
        QTest::newRow("preamble without arrays")
            << "z[i] = twice(x[i])"
            << "__device__ float twice(float v) { return 2 * v; }" << true;
    }
    void vectorPathOnlyForElementwiseOperations()
    {
        QFETCH(QString, operation);
        QFETCH(QString, preamble);
        QFETCH(bool, vectorized);
        const ElementwiseKernel k("float a, const float *x, const float *y, float *z",
                                  operation.toStdString(), "k", preamble.toStdString());
        QCOMPARE(k.vectorized(), vectorized);
        QCOMPARE(k.source().find("wb_packs") != std::string::npos, vectorized);
        const ElementwiseKernel off("float a, const float *x, const float *y, float *z",
                                    operation.toStdString(), "k", preamble.toStdString(),
                                    {.vectorize = false});
        QVERIFY(!off.vectorized());
        QVERIFY(off.source().find("wb_packs") == std::string::npos);
    }

    void vectorPathLoadsAndStoresOnlyWhatItMust()
    {
        std::vector<detail::VectorUse> uses;
        const auto args = parseKernelArguments("float a, float *x, const float *y, float *z, "
                                               "float *w, float *u, float *unused");
        const auto op = detail::vectorOperation(
            args, "z[i] = a*x[i] + y[i]; if (a > 0) w[i] = 1; u[i] += 1", {}, uses);
        QVERIFY(op);
        QCOMPARE(*op,
                 std::string("wb_a_z[wb_k].wb_e[wb_j] = a*wb_a_x[wb_k].wb_e[wb_j] + "
                             "wb_a_y[wb_k].wb_e[wb_j]; if (a > 0) wb_a_w[wb_k].wb_e[wb_j] = 1; "
                             "wb_a_u[wb_k].wb_e[wb_j] += 1"));
        QVERIFY(!uses[0].used);                                  // a: a scalar
        QVERIFY(uses[1].used && uses[1].load && uses[1].store);  // x: read, not const
        QVERIFY(uses[2].used && uses[2].load && !uses[2].store); // y: const
        QVERIFY(uses[3].used && !uses[3].load && uses[3].store); // z: only assigned
        QVERIFY(uses[4].used && uses[4].load && uses[4].store);  // w: assigned under if
        QVERIFY(uses[5].used && uses[5].load && uses[5].store);  // u: +=
        QVERIFY(!uses[6].used);

        // What the source does with that: z is stored without a load, x only where it changed.
        const ElementwiseKernel k("float a, float *x, const float *y, float *z",
                                  "z[i] = a*x[i] + y[i]", "axpy");
        QVERIFY(k.vectorized());
        QCOMPARE(k.elementsPerPack(), 4u);
        const std::string& src = k.source();
        QVERIFY(src.find("union wb_t_z { uint4 wb_raw; float wb_e[4]; };") != std::string::npos);
        QVERIFY(src.find("__ldcs(reinterpret_cast<const uint4*>(wb_p_y) + wb_at)") !=
                std::string::npos);
        QVERIFY(src.find("reinterpret_cast<const uint4*>(wb_p_z)") == std::string::npos);
        QVERIFY(src.find("__stcs(reinterpret_cast<uint4*>(wb_p_z) + wb_at") != std::string::npos);
        QVERIFY(src.find("if (((wb_a_x[wb_k].wb_raw.x ^ wb_o_x[wb_k].x)") != std::string::npos);
        QVERIFY(src.find("(unsigned long long)wb_p_x % 16ull == 0") != std::string::npos);
        // The plain entry point keeps the scalar loop only.
        const std::size_t noalias = src.find("axpy_noalias(");
        QVERIFY(noalias != std::string::npos);
        QVERIFY(src.rfind("wb_packs", noalias) == std::string::npos);

        // The widest element type sets the pack: 16 / 8 doubles, 16 / 1 chars.
        QCOMPARE(ElementwiseKernel("const double *d, const char *c, float *f",
                                   "f[i] = (float)(d[i] + c[i])")
                     .elementsPerPack(),
                 2u);
        QCOMPARE(ElementwiseKernel("const unsigned char *a, unsigned char *b", "b[i] = a[i]")
                     .elementsPerPack(),
                 16u);
        QVERIFY(errorOf([] {
                    ElementwiseKernel("float *x", "x[i] = 0", "k", {}, {.packsPerTrip = 9});
                }).contains("kernel 'k': tuning.packsPerTrip 9 is not 1 to 8"));
    }

    // Every kernel below runs with the vector path and with the scalar loop only, over sizes
    // around a pack and a trip, on aligned arrays and on views one element in (misaligned for
    // 16-byte packs: the scalar loop at run time), and must match the reference exactly and
    // leave the elements past n alone.
    void vectorAndScalarPathsMatchReferences_data()
    {
        QTest::addColumn<std::size_t>("n");
        for (std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{3}, std::size_t{4},
                              std::size_t{5}, std::size_t{1023}, (std::size_t{1} << 20) + 3})
            QTest::newRow(qPrintable(QString::number(n))) << n;
    }
    void vectorAndScalarPathsMatchReferences()
    {
        QFETCH(std::size_t, n);
        constexpr std::size_t kPad = 20; // elements past n (and before a view) that must not change
        struct Variant {
            ElementwiseKernel kernel;
            std::unique_ptr<BackendProgram> program;
        };
        const auto variants = [&](const char* arguments, const char* operation, bool vectorizable) {
            std::vector<Variant> v;
            for (bool vectorize : {true, false}) {
                ElementwiseKernel k(arguments, operation, "k", {},
                                    {.vectorize = vectorize, .packsPerTrip = 2});
                if (k.vectorized() != (vectorize && vectorizable))
                    qFatal("%s: vectorized() is %d", operation, int(k.vectorized()));
                auto program = k.load(*m_cpu);
                v.push_back({std::move(k), std::move(program)});
            }
            return v;
        };
        const auto label = [&](const char* what, bool vectorize, std::size_t offset) {
            return QStringLiteral("%1, n=%2, %3, offset %4 bytes")
                .arg(what)
                .arg(n)
                .arg(vectorize ? "vector path" : "scalar loop only")
                .arg(offset);
        };

        // 1. axpy with const inputs and an output only assigned (not loaded).
        {
            auto ks = variants("float a, const float *x, const float *y, float *z",
                               "z[i] = a*x[i] + y[i]", true);
            const auto x = randomVector<float>(n + kPad, 21), y = randomVector<float>(n + kPad, 22);
            for (std::size_t offset : {std::size_t{0}, sizeof(float)}) {
                for (std::size_t v = 0; v < ks.size(); ++v) {
                    auto dx = upload(x), dy = upload(y),
                         dz = upload(std::vector<float>(n + kPad, -7.0f));
                    QCOMPARE(dx->address() % 16, std::uint64_t{0});
                    ks[v].kernel.launch(
                        *m_cpu, *ks[v].program,
                        Args().val(2.5f).ptr(*dx, offset).ptr(*dy, offset).ptr(*dz, offset).span(),
                        n);
                    const auto z = download<float>(*dz, n + kPad);
                    const std::size_t first = offset / sizeof(float);
                    for (std::size_t i = 0; i < n + kPad; ++i) {
                        const bool inside = i >= first && i < first + n;
                        const float want = inside ? 2.5f * x[i] + y[i] : -7.0f;
                        if (z[i] != want)
                            QFAIL(qPrintable(label("axpy", v == 0, offset) +
                                             QStringLiteral(": z[%1] = %2, want %3")
                                                 .arg(i)
                                                 .arg(double(z[i]))
                                                 .arg(double(want))));
                    }
                }
            }
        }

        // 2. Read-modify-write of a non-const array, a conditional store (the output must be
        // loaded: unassigned elements keep their value), a -0.0 written over +0.0 (a change
        // only the bits show), and a non-const input that must not be written.
        {
            auto ks = variants("float *x, float *r, float *y, float *z",
                               "x[i] = x[i] * 2 + r[i]; if (r[i] > 0) z[i] = r[i]; "
                               "y[i] = (y[i] == 0.0f) ? -0.0f : y[i]",
                               true);
            auto x0 = randomVector<float>(n + kPad, 23), r = randomVector<float>(n + kPad, 24),
                 z0 = randomVector<float>(n + kPad, 25);
            std::vector<float> y0(n + kPad);
            for (std::size_t i = 0; i < y0.size(); ++i)
                y0[i] = i % 3 == 0 ? 0.0f : float(i);
            for (std::size_t offset : {std::size_t{0}, sizeof(float)}) {
                for (std::size_t v = 0; v < ks.size(); ++v) {
                    auto dx = upload(x0), dr = upload(r), dy = upload(y0), dz = upload(z0);
                    ks[v].kernel.launch(*m_cpu, *ks[v].program,
                                        Args()
                                            .ptr(*dx, offset)
                                            .ptr(*dr, offset)
                                            .ptr(*dy, offset)
                                            .ptr(*dz, offset)
                                            .span(),
                                        n);
                    const auto x = download<float>(*dx, n + kPad),
                               rr = download<float>(*dr, n + kPad),
                               y = download<float>(*dy, n + kPad),
                               z = download<float>(*dz, n + kPad);
                    const std::size_t first = offset / sizeof(float);
                    for (std::size_t i = 0; i < n + kPad; ++i) {
                        const bool inside = i >= first && i < first + n;
                        const float wantX = inside ? x0[i] * 2 + r[i] : x0[i];
                        const float wantZ = inside && r[i] > 0 ? r[i] : z0[i];
                        const float wantY = inside && y0[i] == 0.0f ? -0.0f : y0[i];
                        if (x[i] != wantX || z[i] != wantZ || rr[i] != r[i] ||
                            std::signbit(y[i]) != std::signbit(wantY) || y[i] != wantY)
                            QFAIL(qPrintable(label("read-write", v == 0, offset) +
                                             QStringLiteral(": element %1").arg(i)));
                    }
                }
            }
        }

        // 3. Mixed element types (a pack of 2: doubles are the widest) and `i` as a value.
        {
            auto ks =
                variants("const double *d, const float *f, const char *c, int *out",
                         "out[i] = (int)(d[i] * 100) + (int)f[i] + c[i] + (int)(i % 7)", true);
            const auto d = randomVector<double>(n + kPad, 26);
            const auto f = randomVector<float>(n + kPad, 27);
            std::vector<char> c(n + kPad);
            for (std::size_t i = 0; i < c.size(); ++i)
                c[i] = static_cast<char>(i % 100);
            for (std::size_t v = 0; v < ks.size(); ++v) {
                auto dd = upload(d), df = upload(f), dc = upload(c),
                     dout = upload(std::vector<int>(n + kPad, -1));
                ks[v].kernel.launch(*m_cpu, *ks[v].program,
                                    Args().ptr(*dd).ptr(*df).ptr(*dc).ptr(*dout).span(), n);
                const auto out = download<int>(*dout, n + kPad);
                for (std::size_t i = 0; i < n + kPad; ++i) {
                    const int want = i < n ? int(d[i] * 100) + int(f[i]) + c[i] + int(i % 7) : -1;
                    if (out[i] != want)
                        QFAIL(qPrintable(label("mixed types", v == 0, 0) +
                                         QStringLiteral(": out[%1] = %2, want %3")
                                             .arg(i)
                                             .arg(out[i])
                                             .arg(want)));
                }
            }
        }

        // 4. Bytes (a pack of 16), aligned and one byte in.
        {
            auto ks =
                variants("const unsigned char *a, unsigned char *b", "b[i] = a[i] ^ 0x5a", true);
            std::vector<unsigned char> a(n + kPad);
            for (std::size_t i = 0; i < a.size(); ++i)
                a[i] = static_cast<unsigned char>(i * 7);
            for (std::size_t offset : {std::size_t{0}, std::size_t{1}}) {
                for (std::size_t v = 0; v < ks.size(); ++v) {
                    auto da = upload(a), db = upload(std::vector<unsigned char>(n + kPad, 3));
                    ks[v].kernel.launch(*m_cpu, *ks[v].program,
                                        Args().ptr(*da, offset).ptr(*db, offset).span(), n);
                    const auto b = download<unsigned char>(*db, n + kPad);
                    for (std::size_t i = 0; i < n + kPad; ++i) {
                        const bool inside = i >= offset && i < offset + n;
                        const unsigned char want =
                            inside ? static_cast<unsigned char>(a[i] ^ 0x5a) : 3;
                        if (b[i] != want)
                            QFAIL(qPrintable(label("bytes", v == 0, offset) +
                                             QStringLiteral(": b[%1]").arg(i)));
                    }
                }
            }
        }

        // 5. A neighbour: the scalar loop in both variants, still right.
        {
            auto ks = variants("const float *x, float *z", "z[i] = x[i + 1] - x[i]", false);
            const auto x = randomVector<float>(n + kPad, 28);
            for (std::size_t v = 0; v < ks.size(); ++v) {
                auto dx = upload(x), dz = upload(std::vector<float>(n + kPad, 5.0f));
                ks[v].kernel.launch(*m_cpu, *ks[v].program, Args().ptr(*dx).ptr(*dz).span(), n);
                const auto z = download<float>(*dz, n + kPad);
                for (std::size_t i = 0; i < n + kPad; ++i)
                    if (z[i] != (i < n ? x[i + 1] - x[i] : 5.0f))
                        QFAIL(qPrintable(label("neighbour", v == 0, 0) +
                                         QStringLiteral(": z[%1]").arg(i)));
            }
        }
    }

    void vectorPathNamesDoNotCollideWithArguments()
    {
        // Arrays named like the generated locals (k, j, at, p, x_p, ...) keep their own names.
        ElementwiseKernel k("int b, const int *k, const int *j, const int *at, const int *x, "
                            "const int *x_p, int *p",
                            "p[i] = p[i] + 3*k[i] - b + j[i] + at[i] + x[i] * x_p[i]", "names");
        QVERIFY(k.vectorized());
        auto program = k.load(*m_cpu);
        const std::size_t n = 1029;
        std::vector<std::vector<int>> in;
        std::vector<std::unique_ptr<BackendBuffer>> buffers;
        for (unsigned seed = 30; seed < 36; ++seed) {
            in.push_back(randomVector<int>(n, seed));
            buffers.push_back(upload(in.back()));
        }
        Args args;
        args.val(7);
        for (const auto& b : buffers)
            args.ptr(*b);
        k.launch(*m_cpu, *program, args.span(), n);
        const auto p = download<int>(*buffers.back(), n);
        for (std::size_t i = 0; i < n; ++i)
            QCOMPARE(p[i], in[5][i] + 3 * in[0][i] - 7 + in[1][i] + in[2][i] + in[3][i] * in[4][i]);
    }

    void vectorPathCompilesInTraceMode()
    {
        // The emulator's trace mode turns mutable pointer parameters into recording objects:
        // the vector path takes raw pointers from them, so the source still compiles and runs.
        ElementwiseKernel k("float a, const float *x, float *z", "z[i] = a * x[i]", "scale");
        QVERIFY(k.vectorized());
        CompileOptions options;
        options.extraFlags.push_back(cpu::CpuBackend::kTraceFlag);
        auto program = k.load(*m_cpu, options);
        const std::size_t n = 1001;
        const auto x = randomVector<float>(n, 29);
        auto dx = upload(x), dz = upload(std::vector<float>(n));
        k.launch(*m_cpu, *program, Args().val(3.0f).ptr(*dx).ptr(*dz).span(), n);
        const auto z = download<float>(*dz, n);
        for (std::size_t i = 0; i < n; ++i)
            QCOMPARE(z[i], 3.0f * x[i]);
    }

    void elementwiseInPlaceTakesTheAliasingEntry()
    {
        // x is both read and written: the plain entry point (no __restrict__) runs.
        ElementwiseKernel scale("double s, double *x, double *y", "y[i] = s * x[i]", "scale");
        auto program = scale.load(*m_cpu);
        const auto x = randomVector<double>(5000, 3);
        auto dx = upload(x);
        scale.launch(*m_cpu, *program, Args().val(3.0).ptr(*dx).ptr(*dx).span(), x.size());
        const auto y = download<double>(*dx, x.size());
        for (std::size_t i = 0; i < x.size(); ++i)
            QCOMPARE(y[i], 3.0 * x[i]);
    }

    void elementwiseChecksBackendArguments()
    {
        ElementwiseKernel k("float a, float *x", "x[i] = a", "fill");
        auto program = k.load(*m_cpu);
        auto dx = upload(std::vector<float>(10));
        QVERIFY(errorOf([&] {
                    k.launch(*m_cpu, *program, Args().val(1.0f).span(), 10);
                }).contains("kernel 'fill': takes 2 argument(s), got 1"));
        QVERIFY(errorOf([&] {
                    k.launch(*m_cpu, *program, Args().ptr(*dx).ptr(*dx).span(), 10);
                }).contains("argument 1 'float a' expects a value, got a buffer"));
        QVERIFY(errorOf([&] {
                    k.launch(*m_cpu, *program, Args().val(1.0).ptr(*dx).span(), 10);
                }).contains("argument 1 'float a' expects 4 bytes, got 8"));
    }

    void compileErrorsAreResults()
    {
        ElementwiseKernel k("float *x", "x[i] = undefined_thing", "broken");
        try {
            k.load(*m_cpu);
            QFAIL("a statement that does not compile must throw CompileError");
        } catch (const cuda::CompileError& e) {
            QVERIFY(!e.result().ok);
            QVERIFY(!e.result().diagnostics.empty());
        }
    }

    void reductionDotMatchesReference()
    {
        ReductionKernel<float> dot("0", "a+b", "x[i]*y[i]", "const float *x, const float *y",
                                   "dot");
        auto program = dot.load(*m_cpu);
        // One pass (one block's worth) and two passes.
        for (std::size_t n : {std::size_t{0}, std::size_t{200}, std::size_t{4096},
                              std::size_t{4097}, std::size_t{250001}}) {
            const auto x = randomVector<float>(n + 1, 4), y = randomVector<float>(n + 1, 5);
            auto dx = upload(x), dy = upload(y);
            const float got = dot.launch(*m_cpu, *program, Args().ptr(*dx).ptr(*dy).span(), n);
            double expected = 0;
            for (std::size_t i = 0; i < n; ++i)
                expected += static_cast<double>(x[i]) * y[i];
            QVERIFY2(std::fabs(got - expected) <= 1e-4 * std::max(1.0, std::fabs(expected)),
                     qPrintable(QStringLiteral("n=%1: got %2, expected %3")
                                    .arg(n)
                                    .arg(double(got))
                                    .arg(expected)));
        }
    }

    void reductionMaxOfIntegers()
    {
        ReductionKernel<int> maxAbs("0", "a > b ? a : b", "x[i] < 0 ? -x[i] : x[i]", "const int *x",
                                    "maxabs");
        auto program = maxAbs.load(*m_cpu);
        auto x = randomVector<int>(123457, 6);
        x[98765] = -4321;
        auto dx = upload(x);
        QCOMPARE(maxAbs.launch(*m_cpu, *program, Args().ptr(*dx).span(), x.size()), 4321);
    }

    void reductionWithScalarArgument()
    {
        // Counts elements above a threshold passed as a scalar.
        ReductionKernel<unsigned> count("0", "a+b", "x[i] > t ? 1u : 0u",
                                        "double t, const double *x", "count_above");
        auto program = count.load(*m_cpu);
        const auto x = randomVector<double>(77777, 7);
        auto dx = upload(x);
        unsigned expected = 0;
        for (double v : x)
            expected += v > 0.25 ? 1u : 0u;
        QCOMPARE(count.launch(*m_cpu, *program, Args().val(0.25).ptr(*dx).span(), x.size()),
                 expected);
    }

    // DeviceArray expressions: the source they generate, run here on host data. Empty arrays
    // suffice to build an expression (nothing runs on a GPU until it is assigned).
    void fusedExpressionIsOneKernel()
    {
        cuda::DeviceArray<float> a, b, c;
        const auto e = a * b + c;
        std::string body;
        const auto collected = e.collect(body);
        QCOMPARE(body, std::string("((x0[i] * x1[i]) + x2[i])"));
        QCOMPARE(collected.arrays.size(), std::size_t{3});
        QCOMPARE(collected.arguments("float *out"),
                 std::string("float *out, const float *x0, const float *x1, const float *x2"));
        // What eval() generates: one source, one module.
        ElementwiseKernel k(collected.arguments("float *out"), "out[i] = " + body, "array_expr");
        QVERIFY(k.vectorized()); // DeviceArray expressions take the vector path
        const std::uint64_t builds = ElementwiseKernel::buildCount();
        auto program = k.load(*m_cpu);
        QCOMPARE(ElementwiseKernel::buildCount(), builds + 1);
        const std::size_t n = 70001;
        const auto x = randomVector<float>(n, 8), y = randomVector<float>(n, 9),
                   z = randomVector<float>(n, 10);
        auto dx = upload(x), dy = upload(y), dz = upload(z), dout = upload(std::vector<float>(n));
        k.launch(*m_cpu, *program, Args().ptr(*dout).ptr(*dx).ptr(*dy).ptr(*dz).span(), n);
        const auto out = download<float>(*dout, n);
        for (std::size_t i = 0; i < n; ++i)
            QCOMPARE(out[i], x[i] * y[i] + z[i]);
    }

    void expressionWithScalarsAndRepeatedArrays()
    {
        cuda::DeviceArray<double> a, b;
        const auto e = 2.0 * a - a / 3 + (-b);
        std::string body;
        const auto collected = e.collect(body);
        QCOMPARE(body, std::string("(((s0 * x0[i]) - (x0[i] / s1)) + (-x1[i]))"));
        QCOMPARE(collected.arrays.size(), std::size_t{2}); // a appears once
        QCOMPARE(collected.scalars, (std::vector<double>{2.0, 3.0}));
        ElementwiseKernel k(collected.arguments("double *out"), "out[i] = " + body, "array_expr");
        auto program = k.load(*m_cpu);
        const std::size_t n = 4099;
        const auto x = randomVector<double>(n, 11), y = randomVector<double>(n, 12);
        auto dx = upload(x), dy = upload(y), dout = upload(std::vector<double>(n));
        k.launch(*m_cpu, *program, Args().ptr(*dout).ptr(*dx).ptr(*dy).val(2.0).val(3.0).span(), n);
        const auto out = download<double>(*dout, n);
        for (std::size_t i = 0; i < n; ++i)
            QCOMPARE(out[i], ((2.0 * x[i]) - (x[i] / 3.0)) + (-y[i]));
    }

    void arrayReductionsMatchReference()
    {
        // The kernels sum(a * b), max(a) and min(a) generate, run here.
        cuda::DeviceArray<float> a, b;
        std::string dotMap, oneMap;
        const auto dotArgs = (a * b).collect(dotMap);
        const auto oneArgs = cuda::detail::asExpr(a).collect(oneMap);
        QCOMPARE(dotMap, std::string("(x0[i] * x1[i])"));
        QCOMPARE(oneMap, std::string("x0[i]"));
        const std::size_t n = 300007;
        auto x = randomVector<float>(n, 13);
        const auto y = randomVector<float>(n, 14);
        x[4242] = 7.5f;
        x[171717] = -9.25f;
        auto dx = upload(x), dy = upload(y);
        detail::Reduction dot(ScalarType::Float, "0", cuda::detail::kSumReduce, dotMap,
                              dotArgs.arguments(), "array_reduce", {});
        float got = 0;
        auto p1 = dot.load(*m_cpu, {});
        dot.launch(*m_cpu, *p1, Args().ptr(*dx).ptr(*dy).span(), n, &got);
        double expected = 0;
        for (std::size_t i = 0; i < n; ++i)
            expected += static_cast<double>(x[i]) * y[i];
        QVERIFY2(std::fabs(got - expected) <= 1e-3, qPrintable(QString::number(double(got))));
        for (bool lowest : {true, false}) {
            detail::Reduction r(ScalarType::Float,
                                cuda::detail::extremeLiteral(ScalarType::Float, lowest),
                                lowest ? cuda::detail::kMaxReduce : cuda::detail::kMinReduce,
                                oneMap, oneArgs.arguments(), "array_reduce", {});
            auto p = r.load(*m_cpu, {});
            float v = 0;
            r.launch(*m_cpu, *p, Args().ptr(*dx).span(), n, &v);
            QCOMPARE(v, lowest ? 7.5f : -9.25f);
            // An empty array: the neutral element, +-infinity.
            r.launch(*m_cpu, *p, Args().ptr(*dx).span(), 0, &v);
            QCOMPARE(v, lowest ? -INFINITY : INFINITY);
        }
    }
};

WB_QTEST_GUILESS_MAIN(TstGeneratedKernels)
#include "tst_generatedkernels.moc"
