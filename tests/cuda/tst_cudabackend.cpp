// SPDX-License-Identifier: GPL-3.0-or-later
// wb::Backend on the GPU: compile, load, allocate, copy, constants, timed launches.
#include "core/common/Error.h"
#include "core/cuda/CudaBackend.h"
#include "core/cuda/HandleRegistry.h"
#include "core/profiling/KernelProfiler.h"
#include "tests/support/SuiteMain.h"

#include <QTest>

#include <cmath>
#include <vector>

using wb::Error;
using wb::KernelArgValue;

namespace {
const char* const kSource = R"(
__constant__ float offset;
extern "C" __global__ void axpb(float* y, const float* x, float a, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + offset;
}
)";
} // namespace

class TestCudaBackend : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        if (const auto reason = wb::cudaUnavailableReason()) QSKIP(reason->c_str());
    }

    void describesTheDevice()
    {
        const auto backend = wb::cuda::makeCudaBackend(0);
        QCOMPARE(backend->kind(), wb::BackendKind::Cuda);
        const wb::DeviceDescription d = backend->device();
        QVERIFY(!d.name.empty());
        QVERIFY(d.arch.rfind("sm_", 0) == 0);
        QVERIFY(d.multiprocessors > 0);
        QVERIFY(d.totalMemoryBytes > 0);
        QVERIFY(d.peakBandwidthGBs > 0);
        QVERIFY(!d.driverVersion.empty());
    }

    void runsAKernel()
    {
        const auto backend = wb::cuda::makeCudaBackend(0);
        const wb::CompileResult compiled = backend->compile(kSource, "axpb.cu", {});
        QVERIFY2(compiled.ok, compiled.log.c_str());
        QCOMPARE(compiled.target, backend->device().arch);
        auto program = backend->load(compiled);
        QCOMPARE(program->compiled().sourceName, std::string("axpb.cu"));

        const int n = 1000;
        std::vector<float> x(n), y(n);
        for (int i = 0; i < n; ++i)
            x[static_cast<std::size_t>(i)] = static_cast<float>(i);
        auto xs = backend->allocate(n * sizeof(float), "x");
        auto ys = backend->allocate(n * sizeof(float), "y");
        QCOMPARE(xs->size(), n * sizeof(float));
        backend->upload(*xs, x.data(), n * sizeof(float));
        const float offset = 0.5f;
        backend->setConstant(*program, "offset", &offset, sizeof offset);

        const std::uint64_t yAddr = ys->address(), xAddr = xs->address();
        const float a = 2.0f;
        const KernelArgValue args[] = {
            {&yAddr, 8, true}, {&xAddr, 8, true}, {&a, 4, false}, {&n, 4, false}};
        const double ms = backend->launch(*program, "axpb", {{4, 1, 1}, {256, 1, 1}}, args);
        QVERIFY(ms >= 0 && std::isfinite(ms));
        backend->download(*ys, y.data(), n * sizeof(float));
        for (int i = 0; i < n; ++i)
            QCOMPARE(y[static_cast<std::size_t>(i)], 2.0f * static_cast<float>(i) + 0.5f);

        const float wrong = 1;
        const KernelArgValue bad[] = {
            {&wrong, 4, false}, {&xAddr, 8, true}, {&a, 4, false}, {&n, 4, false}};
        try {
            backend->launch(*program, "axpb", {{4, 1, 1}, {256, 1, 1}}, bad);
            QFAIL("a float was accepted for float* y");
        } catch (const Error& e) {
            QCOMPARE(e.kind(), Error::Kind::InvalidArgument);
            QVERIFY2(std::string(e.what()).find("'y'") != std::string::npos, e.what());
        }
    }

    void submitsForTheProfiler()
    {
        wb::cuda::CudaBackend backend(0);
        const wb::CompileResult compiled = backend.compile(kSource, "axpb.cu", {});
        QVERIFY2(compiled.ok, compiled.log.c_str());
        auto program = backend.load(compiled);
        const int n = 1 << 20;
        std::vector<float> x(static_cast<std::size_t>(n), 3.0f), y(x.size());
        auto xs = backend.allocate(x.size() * sizeof(float), "x");
        auto ys = backend.allocate(y.size() * sizeof(float), "y");
        backend.upload(*xs, x.data(), x.size() * sizeof(float));
        const float offset = 1.0f;
        backend.setConstant(*program, "offset", &offset, sizeof offset);
        const std::uint64_t yAddr = ys->address(), xAddr = xs->address();
        const float a = 2.0f;
        const KernelArgValue args[] = {
            {&yAddr, 8, true}, {&xAddr, 8, true}, {&a, 4, false}, {&n, 4, false}};
        wb::profiling::ProfileOptions options;
        options.collectCounters = false;
        std::size_t launches = 0;
        const auto r = wb::profiling::profileLaunch(
            backend.context(),
            [&](CUstream s) {
                backend.submit(*program, "axpb",
                               {{static_cast<unsigned>(n / 256), 1, 1}, {256, 1, 1}}, args, s);
                ++launches;
            },
            options);
        QVERIFY(r.timing.samplesMs.size() >= 10);
        QVERIFY(launches >= r.timing.samplesMs.size());
        QVERIFY(r.timing.statsMs.median > 0);
        backend.download(*ys, y.data(), y.size() * sizeof(float));
        QCOMPARE(y.front(), 7.0f);
        QCOMPARE(y.back(), 7.0f);
    }

    void failuresAreClear()
    {
        const auto backend = wb::cuda::makeCudaBackend(0);
        const wb::CompileResult broken = backend->compile("__global__ void k( {", "broken.cu", {});
        QVERIFY(!broken.ok);
        QVERIFY_THROWS_EXCEPTION(Error, (void)backend->load(broken));
        try {
            (void)backend->allocate(std::size_t{1'000'000'000'000'000}, "dest");
            QFAIL("1 PB was allocated");
        } catch (const Error& e) {
            QCOMPARE(e.kind(), Error::Kind::OutOfMemory);
            QVERIFY2(std::string(e.what()).find("'dest' (1.0 PB)") != std::string::npos, e.what());
        }
    }

    void cleanupTestCase()
    {
        if (wb::cudaUnavailableReason()) return;
        QCOMPARE(wb::cuda::HandleRegistry::instance().totalCount(), std::int64_t{0});
    }
};

WB_QTEST_GUILESS_MAIN(TestCudaBackend)
#include "tst_cudabackend.moc"
