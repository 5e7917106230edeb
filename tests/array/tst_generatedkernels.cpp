// SPDX-License-Identifier: GPL-3.0-or-later
// ElementwiseKernel and ReductionKernel on the CPU emulator: the argument parser's errors, and
// every generated kernel (and the sources DeviceArray expressions generate) run and compared
// with a reference computed here.
#include "core/array/ArrayMath.h"
#include "core/array/ElementwiseKernel.h"
#include "core/array/ReductionKernel.h"
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
    Args& ptr(const BackendBuffer& b)
    {
        const std::uint64_t a = b.address();
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
