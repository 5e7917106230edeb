// SPDX-License-Identifier: GPL-3.0-or-later
// Modules, kernels and launches: the PyCUDA-like call, In/Out/InOut, checks before launch.
#include "core/backend/Backend.h"
#include "core/cuda/CompileError.h"
#include "core/cuda/Context.h"
#include "core/cuda/CudaError.h"
#include "core/cuda/HandleRegistry.h"
#include "core/cuda/SourceModule.h"
#include "tests/support/SuiteMain.h"

#include <QTest>

#include <atomic>
#include <cmath>
#include <mutex>
#include <numeric>
#include <random>
#include <thread>
#include <vector>

using wb::Error;
using namespace wb::cuda;

namespace {

const char* const kSource = R"(
__global__ void multiply_them(float *dest, float *a, float *b)
{
  const int i = threadIdx.x;
  dest[i] = a[i] * b[i];
}

extern "C" __global__ void scale(float* x, float s, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= s;
}

extern "C" __global__ void iota(int* out, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = i;
}

extern "C" __global__ void reverse_shared(float* out)
{
    extern __shared__ float s[];
    s[threadIdx.x] = (float)threadIdx.x;
    __syncthreads();
    out[threadIdx.x] = s[blockDim.x - 1 - threadIdx.x];
}

__constant__ float factor;
extern "C" __global__ void times_factor(float* x) { x[threadIdx.x] *= factor; }

extern "C" __global__ void multiply_n(float* dest, const float* a, const float* b, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        dest[i] = a[i] * b[i];
}

extern "C" __global__ void axpy(float* y, const float* x, float alpha, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        y[i] = alpha * x[i] + y[i];
}

// Writes into its In argument: the caller's data must stay as it was (PyCUDA's drv.In).
extern "C" __global__ void twice_and_clobber(float* out, float* in, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        out[i] = 2.0f * in[i];
        in[i] = -1.0f;
    }
}

extern "C" __global__ void spin(float* x, int iterations)
{
    float v = x[threadIdx.x];
    for (int k = 0; k < iterations; ++k) v = v * 0.999f + 0.001f;
    x[threadIdx.x] = v;
}
)";

const char* const kClusterSource = R"(
extern "C" __global__ void cluster_rank(unsigned* out)
{
    unsigned rank;
    asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));
    if (threadIdx.x == 0) out[blockIdx.x] = rank;
}
)";

std::vector<float> randn(std::size_t n, unsigned seed)
{
    std::mt19937 rng(seed);
    std::normal_distribution<float> normal;
    std::vector<float> v(n);
    for (float& x : v)
        x = normal(rng);
    return v;
}

template <typename F> std::string errorOf(F&& f, Error::Kind expected)
{
    try {
        f();
    } catch (const Error& e) {
        if (e.kind() != expected) return std::string("wrong kind: ") + e.what();
        return e.what();
    }
    return "no error";
}

bool contains(const std::string& text, const std::string& part)
{
    return text.find(part) != std::string::npos;
}

} // namespace

class TestKernel : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        if (const auto reason = wb::cudaUnavailableReason()) QSKIP(reason->c_str());
    }

    void seedCall()
    {
        SourceModule mod(kSource);
        Kernel multiply_them = mod.function("multiply_them");
        QCOMPARE(multiply_them.params().size(), std::size_t{3});
        QCOMPARE(multiply_them.params()[0].name, std::string("dest"));
        const std::vector<float> a = randn(400, 1), b = randn(400, 2);
        std::vector<float> dest(400, 0.0f);
        multiply_them(Out(dest), In(a), In(b), Block{400, 1, 1}, Grid{1, 1});
        for (std::size_t i = 0; i < dest.size(); ++i)
            QCOMPARE(dest[i] - a[i] * b[i], 0.0f);
        // Again, with arguments of another size: the pooled buffers are reused or grown.
        for (int round = 0; round < 3; ++round) {
            std::vector<float> d2(256);
            const std::vector<float> a2 = randn(256, 10u + unsigned(round)), b2 = randn(256, 20);
            multiply_them(Out(d2), In(a2), In(b2), Block{256, 1, 1}, Grid{1, 1});
            for (std::size_t i = 0; i < d2.size(); ++i)
                QCOMPARE(d2[i], a2[i] * b2[i]);
        }
    }

    // Both In/Out paths: the zero-copy one (small payloads in mapped pinned memory) and the
    // device-buffer one (large payloads, or small ones with the zero-copy limit at 0).
    void transferPaths_data()
    {
        QTest::addColumn<bool>("forceDevicePath");
        QTest::newRow("default") << false;
        QTest::newRow("device path forced") << true;
    }

    void transferPaths()
    {
        QFETCH(bool, forceDevicePath);
        const Context ctx = Context::primary(0);
        detail::ContextState& state = *ctx.state();
        struct Restore {
            detail::ContextState& s;
            ~Restore() { s.zeroCopyLimit.store(detail::kZeroCopyLimit); }
        } restore{state};
        state.zeroCopyLimit.store(forceDevicePath ? 0 : detail::kZeroCopyLimit);
        ctx.releaseScratch();
        SourceModule mod(ctx, kSource);
        const Kernel multiply = mod.function("multiply_n");
        const Kernel axpy = mod.function("axpy");
        const Kernel clobber = mod.function("twice_and_clobber");
        const Kernel iota = mod.function("iota");
        const auto mapped = [&] {
            std::lock_guard lock(state.scratchMutex);
            return state.scratch.mapped != nullptr;
        };
        const bool zeroCopySmall = !forceDevicePath && state.canMapHost;
        qInfo("device %s map host memory; small payloads take the %s path",
              state.canMapHost ? "can" : "cannot", zeroCopySmall ? "zero-copy" : "device");

        // Out/In/In, small (3 x 1.6 kB) and large (3 x 256 KiB, always the device path).
        for (const int n : {400, 65536}) {
            const auto un = static_cast<std::size_t>(n);
            for (unsigned round = 0; round < 3; ++round) {
                const std::vector<float> a = randn(un, 100 + round), b = randn(un, 200 + round);
                std::vector<float> dest(un, 0.0f);
                multiply(Out(dest), In(a), In(b), n, Block{256}, Grid{64});
                for (std::size_t i = 0; i < un; ++i)
                    QCOMPARE(dest[i], a[i] * b[i]);
            }
        }
        QCOMPARE(mapped(), zeroCopySmall);

        // InOut round trip with an In beside it, small and large.
        for (const int n : {1000, 100000}) {
            const auto un = static_cast<std::size_t>(n);
            // Small integers: every result below is exact, with or without fused multiply-add.
            std::vector<float> x(un), y0(un);
            for (std::size_t i = 0; i < un; ++i) {
                x[i] = static_cast<float>(i % 17) - 8.0f;
                y0[i] = static_cast<float>(i % 5);
            }
            std::vector<float> y = y0;
            axpy(InOut(y), In(x), 3.0f, n, Block{256}, Grid{128});
            for (std::size_t i = 0; i < un; ++i)
                QCOMPARE(y[i], 3.0f * x[i] + y0[i]);
            // Twice more: the result of one call is the input of the next.
            axpy(InOut(y), In(x), -1.5f, n, Block{256}, Grid{128});
            axpy(InOut(y), In(x), -1.5f, n, Block{256}, Grid{128});
            for (std::size_t i = 0; i < un; ++i)
                QCOMPARE(y[i], (3.0f * x[i] + y0[i]) - 1.5f * x[i] - 1.5f * x[i]);
        }

        // The limit itself: 16384 floats of InOut are exactly 64 KiB (zero-copy by default),
        // one more float is beyond it (device path). Both must compute the same.
        for (const int n : {16384, 16385}) {
            const auto un = static_cast<std::size_t>(n);
            std::vector<float> x(un);
            std::iota(x.begin(), x.end(), 0.0f);
            const Grid grid{static_cast<unsigned>((n + 255) / 256)};
            mod.function("scale")(InOut(x), 0.5f, n, Block{256}, grid);
            for (std::size_t i = 0; i < un; ++i)
                QCOMPARE(x[i], 0.5f * static_cast<float>(i));
        }

        // A kernel that writes into its In argument leaves the caller's data alone.
        for (const int n : {64, 50000}) {
            const auto un = static_cast<std::size_t>(n);
            const std::vector<float> original = randn(un, 9);
            std::vector<float> in = original, out(un);
            clobber(Out(out), In(in), n, Block{128}, Grid{32});
            QCOMPARE(in, original);
            for (std::size_t i = 0; i < un; ++i)
                QCOMPARE(out[i], 2.0f * original[i]);
            // The clobbered staging must not reach the next call's In.
            std::vector<float> out2(un);
            clobber(Out(out2), In(in), n, Block{128}, Grid{32});
            QCOMPARE(out2, out);
        }

        // Empty transfers: an Out of no elements alone, beside non-empty Ins, and an empty In
        // beside an InOut that the kernel leaves alone (its data must come back unchanged).
        std::vector<int> none;
        iota(Out(none), 0, Block{32});
        QVERIFY(none.empty());
        const std::vector<float> x = randn(32, 11);
        std::vector<float> nothing;
        multiply(Out(nothing), In(x), In(x), 0, Block{32});
        QVERIFY(nothing.empty());
        std::vector<float> y = randn(32, 12);
        const std::vector<float> y0 = y;
        axpy(InOut(y), In(nothing), 1.0f, 0, Block{32});
        QCOMPARE(y, y0);
        axpy(InOut(y), In(x), 1.0f, 32, Block{32});
        for (std::size_t i = 0; i < y.size(); ++i)
            QCOMPARE(y[i] - (x[i] + y0[i]), 0.0f);

        // Timed calls always take the device path: the kernel's time excludes the host link.
        ctx.releaseScratch();
        std::vector<float> t(128, 1.0f);
        const double ms = mod.function("scale").timedCall(InOut(t), 2.0f, 128, Block{128});
        QVERIFY(ms >= 0 && std::isfinite(ms));
        QCOMPARE(t, std::vector<float>(128, 2.0f));
        QVERIFY(!mapped());
        ctx.releaseScratch();
    }

    // Calls on one context from several threads: each sees only its own In data.
    void concurrentCallsStaySeparate()
    {
        const Context ctx = Context::primary(0);
        SourceModule mod(ctx, kSource);
        const Kernel multiply = mod.function("multiply_n");
        std::atomic<int> wrong{0};
        std::mutex messageMutex;
        std::string firstMessage;
        const auto worker = [&](unsigned seed, int n) {
            try {
                const auto un = static_cast<std::size_t>(n);
                for (unsigned round = 0; round < 100; ++round) {
                    const std::vector<float> a = randn(un, seed + round), b = randn(un, seed * 7u);
                    std::vector<float> dest(un);
                    multiply(Out(dest), In(a), In(b), n, Block{128}, Grid{16});
                    for (std::size_t i = 0; i < un; ++i)
                        if (dest[i] != a[i] * b[i]) {
                            ++wrong;
                            break;
                        }
                }
            } catch (const std::exception& e) {
                ++wrong;
                std::lock_guard lock(messageMutex);
                if (firstMessage.empty()) firstMessage = e.what();
            }
        };
        std::thread t1(worker, 1000u, 300), t2(worker, 2000u, 500), t3(worker, 3000u, 20000);
        t1.join();
        t2.join();
        t3.join();
        QVERIFY2(wrong.load() == 0, firstMessage.c_str());
    }

    void inOutAndScalars()
    {
        SourceModule mod(kSource);
        const Kernel scale = mod.function("scale");
        std::vector<float> x(1000);
        std::iota(x.begin(), x.end(), 0.0f);
        scale(InOut(x), 2.0f, 1000, Block{256}, Grid{4});
        for (std::size_t i = 0; i < x.size(); ++i)
            QCOMPARE(x[i], 2.0f * static_cast<float>(i));
    }

    void deviceArraysAndAsyncLaunch()
    {
        const Context ctx = Context::primary(0);
        SourceModule mod(ctx, kSource);
        const Kernel iota = mod.function("iota");
        DeviceArray<int> out(ctx, {1000}, "out");
        out.fill(-1);
        iota.launch(wb::LaunchConfig{{4, 1, 1}, {256, 1, 1}}, out, 1000);
        ctx.synchronize();
        std::vector<int> expected(1000);
        std::iota(expected.begin(), expected.end(), 0);
        QCOMPARE(out.download(), expected);
        // A DeviceBuffer passes its address the same way.
        DeviceBuffer raw(ctx, 64 * sizeof(int), "raw");
        const Stream stream(ctx);
        iota(raw, 64, Block{64}, stream);
        stream.synchronize();
        std::vector<int> back(64);
        raw.download(back.data(), 64 * sizeof(int));
        QCOMPARE(back, std::vector<int>(expected.begin(), expected.begin() + 64));
    }

    void timedCall()
    {
        SourceModule mod(kSource);
        const Kernel spin = mod.function("spin");
        std::vector<float> x(128, 1.0f);
        const double ms = spin.timedCall(InOut(x), 200000, Block{128});
        qInfo("spin: %.3f ms", ms);
        QVERIFY(ms > 0 && std::isfinite(ms));
        QVERIFY(x[0] > 0.0f && x[0] <= 1.0f);
        const double again = spin.timedCall(InOut(x), 1, Block{128});
        QVERIFY(again < ms);
    }

    void invalidLaunchConfiguration()
    {
        SourceModule mod(kSource);
        const Kernel multiply_them = mod.function("multiply_them");
        std::vector<float> a(2048), dest(2048);
        const std::string big = errorOf(
            [&] {
                multiply_them(Out(dest), In(a), In(a), Block{2048, 1, 1}, Grid{1, 1});
            },
            Error::Kind::InvalidArgument);
        qInfo("%s", big.c_str());
        QVERIFY2(contains(big, "2048 threads") && contains(big, "at most"), big.c_str());
        QVERIFY(contains(big, "multiply_them"));
        const std::string zero = errorOf(
            [&] {
                multiply_them(Out(dest), In(a), In(a), Block{0, 1, 1});
            },
            Error::Kind::InvalidArgument);
        QVERIFY2(contains(zero, "at least 1"), zero.c_str());
        const std::string gridY = errorOf(
            [&] {
                multiply_them(Out(dest), In(a), In(a), Block{1}, Grid{1, 70000});
            },
            Error::Kind::InvalidArgument);
        QVERIFY2(contains(gridY, "grid.y = 70000"), gridY.c_str());
        const std::string shared = errorOf(
            [&] { multiply_them(Out(dest), In(a), In(a), Block{32}, SharedBytes{1u << 30}); },
            Error::Kind::InvalidArgument);
        QVERIFY2(contains(shared, "dynamic shared memory"), shared.c_str());
        // Nothing was copied back by the refused launches.
        QCOMPARE(dest, std::vector<float>(2048, 0.0f));
    }

    void wrongArgumentTypes()
    {
        const Context ctx = Context::primary(0);
        SourceModule mod(ctx, kSource);
        const Kernel iota = mod.function("iota");
        const std::string floatForPointer =
            errorOf([&] { iota(1.5f, 10, Block{32}); }, Error::Kind::InvalidArgument);
        qInfo("%s", floatForPointer.c_str());
        QVERIFY2(contains(floatForPointer, "'out'") && contains(floatForPointer, "int*") &&
                     contains(floatForPointer, "float"),
                 floatForPointer.c_str());
        const std::string count = errorOf(
            [&] {
                DeviceArray<int> out(ctx, {10});
                iota(out, Block{32});
            },
            Error::Kind::InvalidArgument);
        QVERIFY2(contains(count, "takes 2 argument(s)") && contains(count, "got 1"), count.c_str());
        const Kernel scale = mod.function("scale");
        const std::string doubleForFloat = errorOf(
            [&] {
                std::vector<float> x(10);
                scale(InOut(x), 2.0, 10, Block{32});
            },
            Error::Kind::InvalidArgument);
        QVERIFY2(contains(doubleForFloat, "'s'") && contains(doubleForFloat, "expects 4 bytes"),
                 doubleForFloat.c_str());
        const std::string pointerForValue = errorOf(
            [&] {
                std::vector<float> x(10);
                DeviceArray<int> n(ctx, {1});
                scale(InOut(x), 2.0f, n, Block{32});
            },
            Error::Kind::InvalidArgument);
        QVERIFY2(contains(pointerForValue, "'n'"), pointerForValue.c_str());
        const std::string submitTransfers = errorOf(
            [&] {
                std::vector<float> x(10);
                const KernelArg args[] = {InOut(x).arg()};
                const Kernel one = mod.function("times_factor");
                one.submit(wb::LaunchConfig{{1, 1, 1}, {10, 1, 1}}, args);
            },
            Error::Kind::InvalidArgument);
        QVERIFY2(contains(submitTransfers, "synchronous"), submitTransfers.c_str());
    }

    void parametersFromTheDriver()
    {
        // Without the compiler's description the driver's cuFuncGetParamInfo gives sizes.
        const Context ctx = Context::primary(0);
        SourceModule mod(ctx, kSource);
        const Module bare =
            Module::loadImage(ctx, mod.compiled().binary.empty()
                                       ? static_cast<const void*>(mod.compiled().ptx.c_str())
                                       : mod.compiled().binary.data());
        const Kernel scale = bare.function("scale");
        QCOMPARE(scale.params().size(), std::size_t{3});
        QCOMPARE(scale.params()[0].size, std::size_t{8});
        QCOMPARE(scale.params()[1].size, std::size_t{4});
        QCOMPARE(scale.params()[2].offset, std::size_t{12});
        QVERIFY(!scale.params()[0].pointerKnown);
        std::vector<float> x(64, 1.0f);
        scale(InOut(x), 3.0f, 64, Block{64});
        QCOMPARE(x, std::vector<float>(64, 3.0f));
        const std::string wrong =
            errorOf([&] { scale(1.0f, 3.0f, 64, Block{64}); }, Error::Kind::InvalidArgument);
        QVERIFY2(contains(wrong, "parameter 1") && contains(wrong, "8 bytes"), wrong.c_str());
    }

    void dynamicSharedMemory()
    {
        SourceModule mod(kSource);
        const Kernel reverse = mod.function("reverse_shared");
        std::vector<float> out(256);
        reverse(Out(out), Block{256}, SharedBytes{256 * sizeof(float)});
        for (std::size_t i = 0; i < out.size(); ++i)
            QCOMPARE(out[i], static_cast<float>(255 - i));
        // Beyond the default 48 KB: the kernel opts in to the larger carve-out.
        std::vector<float> out2(64);
        reverse(Out(out2), Block{64}, SharedBytes{64 * 1024});
        QCOMPARE(out2[0], 63.0f);
    }

    void constants()
    {
        SourceModule mod(kSource);
        const float f = 4.0f;
        mod.module().setGlobal("factor", &f, sizeof f);
        QCOMPARE(mod.module().global("factor").bytes, sizeof(float));
        std::vector<float> x(32, 1.5f);
        mod.function("times_factor")(InOut(x), Block{32});
        QCOMPARE(x, std::vector<float>(32, 6.0f));
        const double d = 1;
        QVERIFY_THROWS_EXCEPTION(Error, mod.module().setGlobal("factor", &d, sizeof d));
        QVERIFY_THROWS_EXCEPTION(Error, (void)mod.module().global("nope"));
    }

    void clusters()
    {
        const Context ctx = Context::primary(0);
        if (ctx.device().computeCapability().major < 9) QSKIP("thread-block clusters need sm_90");
        SourceModule mod(ctx, kClusterSource);
        const Kernel rank = mod.function("cluster_rank");
        std::vector<unsigned> ranks(8, 99);
        rank(Out(ranks), Block{32}, Grid{8}, Cluster{2, 1, 1});
        for (std::size_t i = 0; i < ranks.size(); ++i)
            QCOMPARE(ranks[i], unsigned(i % 2));
        const std::string uneven = errorOf(
            [&] {
                rank(Out(ranks), Block{32}, Grid{3}, Cluster{2, 1, 1});
            },
            Error::Kind::InvalidArgument);
        QVERIFY2(contains(uneven, "multiple of the cluster"), uneven.c_str());
    }

    void compileErrorsAndLookups()
    {
        try {
            SourceModule bad("__global__ void k(int* p) { *p = undefined_thing; }");
            QFAIL("a broken source compiled");
        } catch (const CompileError& e) {
            QVERIFY(!e.result().ok);
            QVERIFY(!e.result().diagnostics.empty());
            QVERIFY2(contains(e.what(), "undefined_thing"), e.what());
        }
        SourceModule mod(kSource);
        const std::string missing =
            errorOf([&] { (void)mod.function("nope"); }, Error::Kind::InvalidArgument);
        QVERIFY2(contains(missing, "'nope'") && contains(missing, "multiply_them"),
                 missing.c_str());
        // The lowered (mangled) name finds the same kernel.
        QCOMPARE(mod.function("_Z13multiply_themPfS_S_").name(), std::string("multiply_them"));
        Kernel k = mod.function("scale");
        Kernel moved = std::move(k);
        QVERIFY(!k.valid() && moved.valid());
        std::vector<float> x(4);
        QVERIFY_THROWS_EXCEPTION(Error, k(InOut(x), 1.0f, 4, Block{4}));
    }

    void cleanupTestCase()
    {
        if (wb::cudaUnavailableReason()) return;
        QCOMPARE(HandleRegistry::instance().totalCount(), std::int64_t{0});
    }
};

WB_QTEST_GUILESS_MAIN(TestKernel)
#include "tst_kernel.moc"
