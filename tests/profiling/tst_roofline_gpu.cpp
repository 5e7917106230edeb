// SPDX-License-Identifier: GPL-3.0-or-later
// GPU tests of the roofline (label gpu): a saxpy of known size profiled with the Speed-of-Light
// and roofline counters must count 2·N FP32 FLOPs and ≈ 12·N DRAM bytes and lie under the
// roof; a DAXPY counts 2·N FP64 FLOPs; a half2 FMA kernel shows how the FP16 counter counts.
// Every function QSKIPs with the reason where there is no GPU or no counter permission.
#include "core/backend/Backend.h"
#include "core/cuda/Context.h"
#include "core/cuda/DeviceBuffer.h"
#include "core/cuda/Kernel.h"
#include "core/cuda/SourceModule.h"
#include "core/profiling/KernelProfiler.h"
#include "core/profiling/RangeProfiler.h"
#include "core/profiling/Roofline.h"
#include "tests/profiling/kernels/Kernels.h"
#include "tests/support/SuiteMain.h"

#include <QTest>

#include <cmath>
#include <memory>
#include <optional>

using namespace wb::profiling;
using wb::cuda::KernelArg;

namespace {

constexpr const char* kDaxpy = R"(
extern "C" __global__ void wb_daxpy(double a, const double* __restrict__ x,
                                    double* __restrict__ y, unsigned long long n)
{
    const unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}
)";

/// Each thread: 64 dependent half2 FMAs on registers, one half2 store.
constexpr const char* kHfma2 = R"(
#include <cuda_fp16.h>
extern "C" __global__ void wb_hfma2(__half2* out, unsigned long long n)
{
    const unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;
    if (i >= n) return;
    __half2 v = __floats2half2_rn((float)(i & 7), 1.0f);
    const __half2 m = __floats2half2_rn(0.999f, 0.998f), c = __floats2half2_rn(0.001f, 0.002f);
    #pragma unroll
    for (int k = 0; k < 64; ++k) v = __hfma2(v, m, c);
    out[i] = v;
}
)";

KernelArg pointerArg(const wb::cuda::DeviceBuffer& b)
{
    return {b.ptrAddress(), sizeof(CUdeviceptr), KernelArg::Kind::DevicePointer, nullptr};
}

template <typename T> KernelArg valueArg(const T& v)
{
    return {&v, sizeof(T), KernelArg::Kind::Value, nullptr};
}

wb::LaunchConfig linear(unsigned long long n, unsigned block = 256)
{
    wb::LaunchConfig c;
    c.block = {block, 1, 1};
    c.grid = {static_cast<unsigned>((n + block - 1) / block), 1, 1};
    return c;
}

ProfileOptions rooflineOptions()
{
    ProfileOptions o;
    o.timing.measurement.minTimeS = 0.05;
    o.timing.measurement.maxTimeS = 3;
    for (std::string& m : rooflineMetricNames())
        o.counters.metrics.push_back(std::move(m));
    return o;
}

void printSummaries(const char* what, const std::vector<Summary>& summaries)
{
    for (const Summary& s : summaries)
        qInfo("%s %-60s %.6g  %s", what, s.tag.c_str(), s.value, s.description.c_str());
}

} // namespace

class TestRooflineGpu : public QObject {
    Q_OBJECT
private:
    std::optional<std::string> m_unavailable;
    std::unique_ptr<wb::cuda::Context> m_context;

    /// Profiles `launch`; QSKIPs-worthy reason (counters not permitted here) or nullopt.
    static std::optional<std::string> skipReason(const ProfileResult& r)
    {
        using S = ProfilerStatus::State;
        if (!r.counters) return std::string("no counters collected");
        const ProfilerStatus& s = r.counters->status;
        if (s.state == S::InsufficientPrivileges || s.state == S::UnsupportedDevice ||
            s.state == S::ProfilerBusy)
            return std::string(profilerStateName(s.state)) + ": " + s.message;
        return std::nullopt;
    }

private Q_SLOTS:
    void initTestCase()
    {
        m_unavailable = wb::cudaUnavailableReason();
        if (m_unavailable) return;
        m_context = std::make_unique<wb::cuda::Context>(wb::cuda::Context::primary(0));
        const CudaDeviceProperties p = queryDeviceProperties(0);
        qInfo("device: %s, sm_%d%d, %d SMs, SM clock %.0f MHz, memory clock %.0f MHz, bus %d "
              "bit, L2 %zu bytes, single/double ratio %d",
              p.name.c_str(), p.ccMajor, p.ccMinor, p.multiprocessors, p.nominalSmClockHz * 1e-6,
              p.memoryClockHz * 1e-6, p.busWidthBits, p.l2Bytes, p.singleToDoubleRatio);
    }

    void cleanupTestCase() { m_context.reset(); }

    /// y = a·x + y over N floats: one FFMA per element (2·N FLOPs), 12·N DRAM bytes, far below
    /// the ridge point, so DRAM-bound and under the DRAM roof.
    void saxpyLiesUnderTheRoof()
    {
        if (m_unavailable) QSKIP(m_unavailable->c_str());
        const unsigned long long n = 1ull << 24;
        wb::cuda::SourceModule module(*m_context, testkernels::kSaxpy);
        wb::cuda::Kernel kernel = module.function("wb_saxpy");
        wb::cuda::DeviceBuffer x(*m_context, n * 4, "x"), y(*m_context, n * 4, "y");
        x.fill32(0x3f800000u);
        y.fill32(0x40000000u);
        const float a = 2.0f;
        const KernelArg args[] = {valueArg(a), pointerArg(x), pointerArg(y), valueArg(n)};
        ProfileOptions o = rooflineOptions();
        o.workload.bytes = 12.0 * static_cast<double>(n);
        const ProfileResult r = profileLaunch(
            *m_context, [&](CUstream s) { kernel.submit(linear(n), args, s); }, o);
        if (const auto why = skipReason(r)) QSKIP(why->c_str());
        QVERIFY2(r.counters->status.ok(), r.counters->status.message.c_str());
        const std::vector<Summary> summaries = r.summaries();
        printSummaries("saxpy", summaries);
        qInfo("%s", rooflineText(summaries).c_str());

        const auto counts = rooflineCounts(summaries);
        QVERIFY(counts);
        const double N = static_cast<double>(n);
        QVERIFY2(std::fabs(counts->fp32Flops - 2 * N) <= 0.001 * 2 * N,
                 std::to_string(counts->fp32Flops).c_str());
        QCOMPARE(counts->fp64Flops, 0.0);
        QVERIFY2(std::fabs(counts->dramBytes - 12 * N) <= 0.05 * 12 * N,
                 std::to_string(counts->dramBytes).c_str());
        QVERIFY(counts->l2Bytes >= 0.95 * 12 * N);

        const RooflinePeaks peaks = rooflinePeaks(summaries);
        QVERIFY(peaks.fp32.known() && peaks.fp64.known() && peaks.fp16.known());
        QVERIFY(peaks.dram.known() && peaks.l2.known());
        QVERIFY(peaks.l2.value > peaks.dram.value);
        const auto p = rooflinePoint(*counts, peaks);
        QVERIFY(p);
        QCOMPARE(p->precision, Precision::Fp32);
        QVERIFY2(std::fabs(p->dramIntensity - 1.0 / 6.0) < 0.01,
                 std::to_string(p->dramIntensity).c_str());
        QVERIFY(p->memoryBound);
        QCOMPARE(p->bound, std::string("DRAM bandwidth"));
        QVERIFY2(p->achieved <= p->attainable,
                 (std::to_string(p->achieved) + " > " + std::to_string(p->attainable)).c_str());
        QVERIFY(p->percentOfRoof > 20 && p->percentOfRoof <= 100);
        // The point travels with the figures (CLI, Profile dock, history).
        QVERIFY(findSummary(summaries, "wb/roofline/percent_of_roof"));
    }

    /// DAXPY: 2·N FP64 FLOPs on the FP64 roof, 24·N DRAM bytes.
    void daxpyCountsFp64()
    {
        if (m_unavailable) QSKIP(m_unavailable->c_str());
        const unsigned long long n = 1ull << 23;
        wb::cuda::SourceModule module(*m_context, kDaxpy);
        wb::cuda::Kernel kernel = module.function("wb_daxpy");
        wb::cuda::DeviceBuffer x(*m_context, n * 8, "x"), y(*m_context, n * 8, "y");
        x.fill32(0);
        y.fill32(0);
        const double a = 2.0;
        const KernelArg args[] = {valueArg(a), pointerArg(x), pointerArg(y), valueArg(n)};
        const ProfileResult r = profileLaunch(
            *m_context, [&](CUstream s) { kernel.submit(linear(n), args, s); }, rooflineOptions());
        if (const auto why = skipReason(r)) QSKIP(why->c_str());
        const std::vector<Summary> summaries = r.summaries();
        qInfo("%s", rooflineText(summaries).c_str());
        const auto counts = rooflineCounts(summaries);
        QVERIFY(counts);
        const double N = static_cast<double>(n);
        QVERIFY2(std::fabs(counts->fp64Flops - 2 * N) <= 0.001 * 2 * N,
                 std::to_string(counts->fp64Flops).c_str());
        QVERIFY2(std::fabs(counts->dramBytes - 24 * N) <= 0.05 * 24 * N,
                 std::to_string(counts->dramBytes).c_str());
        const auto p = rooflinePoint(summaries);
        QVERIFY(p);
        QCOMPARE(p->precision, Precision::Fp64);
        QVERIFY(p->achieved <= p->attainable);
    }

    /// 64 half2 FMAs per thread (plus one the half2 constant setup compiles to): the FP16 FMA
    /// counter counts one per thread instruction, packed or not (Nsight Compute's unit), and
    /// the FP16 FLOPs are 2 x that; the point lies on the FP16 roof, under it.
    void halfTwoFmaCountsFp16()
    {
        if (m_unavailable) QSKIP(m_unavailable->c_str());
        const unsigned long long n = 1ull << 22;
        wb::cuda::SourceModule module(*m_context, kHfma2);
        wb::cuda::Kernel kernel = module.function("wb_hfma2");
        wb::cuda::DeviceBuffer out(*m_context, n * 4, "out");
        const KernelArg args[] = {pointerArg(out), valueArg(n)};
        const ProfileResult r = profileLaunch(
            *m_context, [&](CUstream s) { kernel.submit(linear(n), args, s); }, rooflineOptions());
        if (const auto why = skipReason(r)) QSKIP(why->c_str());
        const std::vector<Summary> summaries = r.summaries();
        qInfo("%s", rooflineText(summaries).c_str());
        const Summary* hfma =
            findSummary(summaries, "wb/counter/sm__sass_thread_inst_executed_op_hfma_pred_on.sum");
        QVERIFY(hfma);
        const double threads = static_cast<double>(n);
        qInfo("hfma counter %.0f = %.2f per thread (64 in the loop)", hfma->value,
              hfma->value / threads);
        QVERIFY2(hfma->value >= 64 * threads && hfma->value <= 66 * threads,
                 std::to_string(hfma->value).c_str());
        const auto counts = rooflineCounts(summaries);
        QVERIFY(counts);
        QCOMPARE(counts->fp16Flops, 2 * hfma->value);
        const auto p = rooflinePoint(summaries);
        QVERIFY(p);
        QCOMPARE(p->precision, Precision::Fp16);
        QVERIFY(p->achieved <= p->attainable);
    }
};

WB_QTEST_GUILESS_MAIN(TestRooflineGpu)
#include "tst_roofline_gpu.moc"
