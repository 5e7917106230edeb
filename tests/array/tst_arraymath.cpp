// SPDX-License-Identifier: GPL-3.0-or-later
// Generated kernels on CUDA (label gpu): ElementwiseKernel and ReductionKernel on DeviceArrays,
// DeviceArray arithmetic (one kernel per fused expression) and reductions, each compared with a
// reference computed here; the device memory pool's reuse and its counts in the registry.
// Skips with the reason where no GPU is usable.
#include "core/array/ArrayMath.h"
#include "core/backend/Backend.h"
#include "core/common/Error.h"
#include "core/cuda/Context.h"
#include "core/cuda/DevicePool.h"
#include "core/cuda/HandleRegistry.h"
#include "tests/support/SuiteMain.h"

#include <QtTest/QtTest>

#include <cmath>
#include <random>

using namespace wb;
using namespace wb::cuda;

namespace {

std::vector<float> randomFloats(std::size_t n, unsigned seed)
{
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> d(-1, 1);
    std::vector<float> v(n);
    for (float& x : v)
        x = d(rng);
    return v;
}

/// The GPU contracts a*x + y into one FMA (one rounding) where the host rounds twice: compare
/// with a tolerance of a few float ULPs of the terms, not exactly.
bool close(float got, float expected)
{
    return std::fabs(got - expected) <= 4e-6f + 4e-6f * std::fabs(expected);
}

#define CHECK_CLOSE(got, expected)                                                                 \
    if (!close((got), (expected)))                                                                 \
    QFAIL(qPrintable(QStringLiteral("%1 vs %2").arg(double(got)).arg(double(expected))))

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

class TstArrayMath : public QObject {
    Q_OBJECT

    std::optional<Context> m_ctx;

private Q_SLOTS:
    void initTestCase()
    {
        if (const auto reason = cudaUnavailableReason())
            QSKIP(qPrintable("no usable GPU: " + QString::fromStdString(*reason)));
        m_ctx = Context::primary(0);
    }

    void elementwiseKernelOnDeviceArrays()
    {
        ElementwiseKernel axpy("float a, float *x, float *y, float *z", "z[i] = a*x[i] + y[i]",
                               "axpy_gpu");
        for (std::size_t n : {std::size_t{1}, std::size_t{1000}, std::size_t{5000011}}) {
            const auto x = randomFloats(n, 1), y = randomFloats(n, 2);
            auto dx = DeviceArray<float>::fromHost(*m_ctx, x),
                 dy = DeviceArray<float>::fromHost(*m_ctx, y);
            DeviceArray<float> dz(*m_ctx, {n});
            axpy(2.5f, dx, dy, dz);
            const auto z = dz.download();
            for (std::size_t i = 0; i < n; ++i)
                CHECK_CLOSE(z[i], 2.5f * x[i] + y[i]);
            // In place (x written and read): the aliasing entry point.
            axpy(2.0, dx, dy, dx); // a double converts to the declared float
            const auto x2 = dx.download();
            for (std::size_t i = 0; i < n; ++i)
                CHECK_CLOSE(x2[i], 2.0f * x[i] + y[i]);
        }
    }

    void elementwiseArgumentErrorsNameTheArgument()
    {
        ElementwiseKernel k("float a, float *x", "x[i] = a", "fill_gpu");
        DeviceArray<double> wrong(*m_ctx, {10});
        DeviceArray<float> x(*m_ctx, {10});
        QVERIFY(errorOf([&] { k(1.0f, wrong); })
                    .contains("argument 2 'float* x' expects a DeviceArray<float>, got a "
                              "DeviceArray<double>"));
        QVERIFY(errorOf([&] {
                    k(x, x);
                }).contains("argument 1 'float a' expects a scalar, got a DeviceArray"));
        QVERIFY(errorOf([&] { k(1.0f); }).contains("takes 2 argument(s), got 1"));
        ElementwiseKernel two("float *x, float *y", "y[i] = x[i]", "copy_gpu");
        DeviceArray<float> y(*m_ctx, {11});
        QVERIFY(errorOf([&] { two(x, y); }).contains("has 11 elements"));
    }

    void reductionKernelOnDeviceArrays()
    {
        ReductionKernel<float> dot("0", "a+b", "x[i]*y[i]", "const float *x, const float *y",
                                   "dot_gpu");
        for (std::size_t n :
             {std::size_t{0}, std::size_t{100}, std::size_t{4097}, std::size_t{3000017}}) {
            const auto x = randomFloats(n + 1, 3), y = randomFloats(n + 1, 4);
            auto dx = DeviceArray<float>::fromHost(*m_ctx,
                                                   std::span(x).first(std::max<std::size_t>(n, 1)));
            auto dy = DeviceArray<float>::fromHost(*m_ctx,
                                                   std::span(y).first(std::max<std::size_t>(n, 1)));
            double expected = 0;
            for (std::size_t i = 0; i < dx.size(); ++i)
                expected += static_cast<double>(x[i]) * y[i];
            const float got = dot(dx, dy);
            QVERIFY2(
                std::fabs(got - expected) <= 1e-3 * std::max(1.0, std::fabs(expected)),
                qPrintable(QStringLiteral("got %1, expected %2").arg(double(got)).arg(expected)));
        }
    }

    void fusedExpressionCompilesOneKernel()
    {
        const std::size_t n = 1 << 20;
        const auto x = randomFloats(n, 5), y = randomFloats(n, 6), z = randomFloats(n, 7);
        auto a = DeviceArray<float>::fromHost(*m_ctx, x),
             b = DeviceArray<float>::fromHost(*m_ctx, y),
             c = DeviceArray<float>::fromHost(*m_ctx, z);
        const std::uint64_t before = ElementwiseKernel::buildCount();
        DeviceArray<float> r = a * b + c;
        QCOMPARE(ElementwiseKernel::buildCount(), before + 1); // one kernel, not two
        DeviceArray<float> r2 = a * b + c;                     // cached: none more
        QCOMPARE(ElementwiseKernel::buildCount(), before + 1);
        const auto h = r.download(), h2 = r2.download();
        for (std::size_t i = 0; i < n; ++i) {
            CHECK_CLOSE(h[i], x[i] * y[i] + z[i]);
            QCOMPARE(h2[i], h[i]);
        }
        DeviceArray<float> s = 3.0f * a - b / 2.0f + (-c);
        const auto hs = s.download();
        for (std::size_t i = 0; i < n; ++i)
            CHECK_CLOSE(hs[i], ((3.0f * x[i]) - (y[i] / 2.0f)) + (-z[i]));
    }

    void arrayReductions()
    {
        const std::size_t n = 2000003;
        auto x = randomFloats(n, 8);
        const auto y = randomFloats(n, 9);
        x[12345] = 5.5f;
        x[n - 1] = -6.25f;
        auto a = DeviceArray<float>::fromHost(*m_ctx, x),
             b = DeviceArray<float>::fromHost(*m_ctx, y);
        double s = 0, d = 0;
        for (std::size_t i = 0; i < n; ++i) {
            s += x[i];
            d += static_cast<double>(x[i]) * y[i];
        }
        QVERIFY(std::fabs(sum(a) - s) <= 1e-2);
        QVERIFY(std::fabs(dot(a, b) - d) <= 1e-2);
        QVERIFY(std::fabs(sum(a * b) - d) <= 1e-2);
        QCOMPARE(max(a), 5.5f);
        QCOMPARE(min(a), -6.25f);
        std::vector<int> ints(777, 3);
        ints[5] = 100;
        auto di = DeviceArray<int>::fromHost(*m_ctx, ints);
        QCOMPARE(sum(di), 3 * 776 + 100);
        QCOMPARE(max(di), 100);
        QCOMPARE(min(di), 3);
    }

    void poolReusesFreedMemory()
    {
        const auto before = HandleRegistry::instance().usage(HandleKind::DeviceBuffer);
        CUdeviceptr first = 0;
        {
            DeviceArray<float> a(*m_ctx, {1000000});
            first = a.ptr();
        }
        // The block went back to the pool: counted as pooled, not in use.
        QCOMPARE(HandleRegistry::instance().usage(HandleKind::DeviceBuffer).count, before.count);
        QVERIFY(HandleRegistry::instance().usage(HandleKind::PooledMemory).bytes >= 4000000);
        DeviceArray<float> again(*m_ctx, {999999}); // the same size class
        QCOMPARE(again.ptr(), first);
        const DevicePoolUsage usage = devicePoolUsage(*m_ctx);
        QVERIFY(usage.inUseBytes >= 3999996);
        QCOMPARE(static_cast<std::int64_t>(usage.idleBytes),
                 HandleRegistry::instance().usage(HandleKind::PooledMemory).bytes);
        trimDevicePool(*m_ctx);
        QCOMPARE(HandleRegistry::instance().usage(HandleKind::PooledMemory).bytes, std::int64_t{0});
        QCOMPARE(devicePoolUsage(*m_ctx).idleBytes, std::size_t{0});
    }

    void sessionBuffersComeFromThePool()
    {
        // What a session run allocates through the CUDA backend (the runner keeps its backend
        // between runs): a second run gets the same blocks back, no cuMemAlloc.
        auto backend = createBackend(BackendKind::Cuda);
        std::uint64_t first = 0;
        {
            auto b = backend->allocate(std::size_t{3} << 20, "out");
            first = b->address();
        }
        const auto idle = HandleRegistry::instance().usage(HandleKind::PooledMemory);
        QVERIFY(idle.count >= 1);
        auto again = backend->allocate(std::size_t{3} << 20, "out");
        QCOMPARE(again->address(), first);
        QCOMPARE(HandleRegistry::instance().usage(HandleKind::PooledMemory).count, idle.count - 1);
    }
};

WB_QTEST_GUILESS_MAIN(TstArrayMath)
#include "tst_arraymath.moc"
