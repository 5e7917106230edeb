// SPDX-License-Identifier: GPL-3.0-or-later
// Tests core/profiling/KernelProfiler.*: the measurement loop over any backend's launch (here
// the CPU emulator, so it runs in CI), and profileLaunch's no-driver behaviour.
#include "core/backend/Backend.h"
#include "core/common/Error.h"
#include "core/cuda/Context.h"
#include "core/profiling/KernelProfiler.h"
#include "tests/support/SuiteMain.h"

#include <QTest>

#include <cstdint>
#include <vector>

using namespace wb::profiling;

namespace {
const char* kScale = R"cu(
__global__ void scale(float* x, float factor, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= factor;
}
)cu";
} // namespace

class TestKernelProfiler : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void measuresACpuBackendLaunch()
    {
        std::unique_ptr<wb::Backend> backend;
        try {
            backend = wb::createBackend(wb::BackendKind::Cpu, 0);
        } catch (const wb::Error& e) {
            QSKIP((std::string("CPU backend unavailable: ") + e.what()).c_str());
        }
        const wb::CompileResult compiled = backend->compile(kScale, "scale.cu", {});
        QVERIFY2(compiled.ok, compiled.log.c_str());
        auto program = backend->load(compiled);
        const int n = 4096;
        auto buffer = backend->allocate(n * sizeof(float), "x");
        const std::vector<float> ones(n, 1.0f);
        backend->upload(*buffer, ones.data(), n * sizeof(float));
        const std::uint64_t address = buffer->address();
        const float factor = 1.0f;
        const wb::KernelArgValue args[] = {{&address, sizeof address, true},
                                           {&factor, sizeof factor, false},
                                           {&n, sizeof n, false}};
        wb::LaunchConfig config;
        config.grid = {n / 128, 1, 1};
        config.block = {128, 1, 1};
        MeasurementOptions o;
        o.minTimeS = 0.01;
        o.maxTimeS = 10;
        o.minSamples = 5;
        o.maxSamples = 50;
        std::size_t progress = 0;
        MeasurementHooks hooks;
        hooks.progress = [&](const MeasurementProgress& p) { progress = p.samples; };
        const MeasurementResult r =
            measureBackendLaunch(*backend, *program, "scale", config, args, o, hooks);
        QCOMPARE(r.method, std::string("backend-cpu"));
        QVERIFY(r.samplesMs.size() >= 5 && r.samplesMs.size() <= 50);
        QCOMPARE(progress, r.samplesMs.size());
        QVERIFY(r.statsMs.min > 0);
        QVERIFY(r.statsMs.p25 <= r.statsMs.median && r.statsMs.median <= r.statsMs.p75);
        std::vector<float> after(n);
        backend->download(*buffer, after.data(), n * sizeof(float));
        QCOMPARE(after[n - 1], 1.0f); // factor 1: every launch left the data as it was

        const wb::KernelArgValue wrong[] = {{&address, sizeof address, true}};
        QVERIFY_THROWS_EXCEPTION(
            wb::Error, measureBackendLaunch(*backend, *program, "scale", config, wrong, o));
    }

    void profileLaunchNeedsADriver()
    {
        if (!wb::cudaUnavailableReason())
            QSKIP("a CUDA driver is present here: the no-driver path cannot be exercised");
        bool launched = false;
        try {
            // profileLaunch takes the context as a handle: making it is what fails.
            profileLaunch(wb::cuda::Context::primary(0), [&](CUstream) { launched = true; });
            QFAIL("profileLaunch ran without a driver");
        } catch (const wb::Error& e) {
            QCOMPARE(e.kind(), wb::Error::Kind::Unavailable);
        }
        QVERIFY(!launched);
    }
};

WB_QTEST_GUILESS_MAIN(TestKernelProfiler)
#include "tst_kernelprofiler.moc"
