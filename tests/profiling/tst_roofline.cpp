// SPDX-License-Identifier: GPL-3.0-or-later
// The roofline's maths from given counter values and given roofs (intensity, bound roof,
// attainable FLOP/s, % of roof), the FP16/FP64 roofs from device properties, the CLI text, and
// the degraded path: the privilege error injected at the CUPTI boundary
// (WARPBENCH_CUPTI_FAULT) gives one clear message with how to enable counters, while the timing
// stays and the roofline says what it needs instead of printing nothing.
#include "core/profiling/KernelProfiler.h"
#include "core/profiling/ProfileReport.h"
#include "core/profiling/Roofline.h"
#include "core/profiling/detail/Cupti.h"
#include "tests/support/SuiteMain.h"

#include <QTest>

#include <cmath>

using namespace wb::profiling;

namespace {

Summary counter(const std::string& metric, double value)
{
    const MetricInfo* info = findMetric(metric);
    const double scale = info ? info->toSummaryScale : 1.0;
    return {"wb/counter/" + metric, metric, info ? info->hint : "", value * scale, ""};
}

/// A saxpy of n elements as the H200 counted it, with the H200's roofs.
std::vector<Summary> saxpySummaries(double n, double seconds)
{
    return {
        {"wb/timing/median", "Median", "duration", seconds, ""},
        counter("sm__sass_thread_inst_executed_op_ffma_pred_on.sum", n),
        counter("sm__sass_thread_inst_executed_op_fadd_pred_on.sum", 0),
        counter("sm__sass_thread_inst_executed_op_fmul_pred_on.sum", 0),
        counter("dram__bytes.sum", 12 * n),
        counter("lts__t_bytes.sum", 18 * n),
        counter("dram__bytes.sum.peak_sustained", 1504),
        counter("dram__cycles_elapsed.avg.per_second", 3.2e9),
        counter("lts__t_bytes.sum.peak_sustained", 9024),
        counter("lts__cycles_elapsed.avg.per_second", 1.7e9),
        {"wb/device/peak_flops", "Peak FP32", "flops", 66.9e12, "fp32 source"},
        {"wb/device/peak_fp64_flops", "Peak FP64", "flops", 33.45e12, "fp64 source"},
        {"wb/device/peak_fp16_flops", "Peak FP16", "flops", 66.9e12, "fp16 source"},
        {"wb/device/peak_bandwidth", "Peak bandwidth", "bandwidth", 4.8e12, "attributes"},
    };
}

} // namespace

class TestRoofline : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void attainableIsTheLowerRoof()
    {
        // Ridge point of 66.9 TFLOP/s over 4.8 TB/s: 13.94 FLOP/B.
        QCOMPARE(attainableFlops(1.0 / 6, 66.9e12, 4.8e12), 0.8e12);
        QCOMPARE(attainableFlops(100, 66.9e12, 4.8e12), 66.9e12);
        QCOMPARE(attainableFlops(66.9e12 / 4.8e12, 66.9e12, 4.8e12), 66.9e12);
        // An unknown roof does not limit.
        QCOMPARE(attainableFlops(2, 0, 4.8e12), 9.6e12);
        QCOMPARE(attainableFlops(2, 66.9e12, 0), 66.9e12);
    }

    void countsFromCounters()
    {
        std::vector<Summary> s = saxpySummaries(1 << 24, 64.8e-6);
        s.push_back(counter("sm__sass_thread_inst_executed_op_fadd_pred_on.sum", 5));
        s.erase(s.begin() + 2); // the first fadd row: the second one counts
        s.push_back(counter("sm__sass_thread_inst_executed_op_dfma_pred_on.sum", 10));
        s.push_back(counter("sm__sass_thread_inst_executed_op_dmul_pred_on.sum", 3));
        s.push_back(counter("sm__sass_thread_inst_executed_op_hfma_pred_on.sum", 7));
        s.push_back(counter("sm__sass_thread_inst_executed_op_hadd_pred_on.sum", 1));
        const auto c = rooflineCounts(s);
        QVERIFY(c);
        QCOMPARE(c->fp32Flops, 2.0 * (1 << 24) + 5);
        QCOMPARE(c->fp64Flops, 23.0);
        QCOMPARE(c->fp16Flops, 15.0);
        QCOMPARE(c->dramBytes, 12.0 * (1 << 24));
        QCOMPARE(c->l2Bytes, 18.0 * (1 << 24));
        QCOMPARE(c->seconds, 64.8e-6);
    }

    void timeFallsBackToTheCounterDuration()
    {
        std::vector<Summary> s = saxpySummaries(1000, 0);
        s.erase(s.begin());                                   // no median
        QVERIFY(!rooflineCounts(s));                          // no time at all
        s.push_back(counter("gpu__time_duration.sum", 5000)); // ns
        const auto c = rooflineCounts(s);
        QVERIFY(c);
        QCOMPARE(c->seconds, 5e-6);
    }

    void missingCountersGiveNoPoint()
    {
        std::vector<Summary> s = saxpySummaries(1000, 1e-6);
        s.erase(s.begin() + 4); // dram__bytes.sum
        QVERIFY(!rooflineCounts(s));
        QVERIFY(!rooflinePoint(s));
        QVERIFY(QString::fromStdString(rooflineText(s)).contains("needs the FLOP and DRAM"));
    }

    void peaksFromCountersAndDevice()
    {
        const RooflinePeaks p = rooflinePeaks(saxpySummaries(1000, 1e-6));
        QCOMPARE(p.fp32.value, 66.9e12);
        QCOMPARE(p.fp32.source, std::string("fp32 source"));
        QCOMPARE(p.fp64.value, 33.45e12);
        QCOMPARE(p.fp16.value, 66.9e12);
        // DRAM and L2 from the counters' peak bytes per cycle × the observed clock.
        QCOMPARE(p.dram.value, 1504 * 3.2e9);
        QVERIFY(QString::fromStdString(p.dram.source).contains("dram__bytes.sum.peak_sustained"));
        QCOMPARE(p.l2.value, 9024 * 1.7e9);
        // Without the counter peaks, DRAM comes from the device attributes; L2 is unknown.
        std::vector<Summary> s = saxpySummaries(1000, 1e-6);
        s.erase(s.begin() + 6, s.begin() + 10);
        const RooflinePeaks q = rooflinePeaks(s);
        QCOMPARE(q.dram.value, 4.8e12);
        QCOMPARE(q.dram.source, std::string("attributes"));
        QVERIFY(!q.l2.known());
    }

    void saxpyIsDramBound()
    {
        const double n = 1 << 24;
        const auto p = rooflinePoint(saxpySummaries(n, 64.8e-6));
        QVERIFY(p);
        QCOMPARE(p->precision, Precision::Fp32);
        QCOMPARE(p->flops, 2 * n);
        QCOMPARE(p->dramIntensity, 2.0 / 12.0);
        QCOMPARE(p->l2Intensity, 2.0 / 18.0);
        QCOMPARE(p->achieved, 2 * n / 64.8e-6);
        // DRAM roof 4.8128 TB/s × 1/6 FLOP/B; the L2 roof (15.3 TB/s × 1/9) is higher.
        const double dramRoof = 1504 * 3.2e9 / 6.0;
        QVERIFY(std::fabs(p->attainable - dramRoof) < 1e-6 * dramRoof);
        QCOMPARE(p->bound, std::string("DRAM bandwidth"));
        QVERIFY(p->memoryBound);
        QVERIFY(std::fabs(p->percentOfRoof - 100 * p->achieved / dramRoof) < 1e-9);
        const std::vector<Summary> rs = rooflineSummaries(*p);
        QVERIFY(findSummary(rs, "wb/roofline/intensity_dram"));
        QCOMPARE(findSummary(rs, "wb/roofline/percent_of_roof")->value, p->percentOfRoof);
        QCOMPARE(findSummary(rs, "wb/roofline/attainable")->name,
                 std::string("Roof (DRAM bandwidth)"));
    }

    void computeBoundKernelAndL2Bound()
    {
        // 1e9 FLOPs over 1 MB: 1000 FLOP/B, compute-bound at the FP32 roof.
        std::vector<Summary> s = saxpySummaries(5e8, 1e-3);
        s[4] = counter("dram__bytes.sum", 1e6);
        s[5] = counter("lts__t_bytes.sum", 2e6);
        auto p = rooflinePoint(s);
        QVERIFY(p);
        QCOMPARE(p->bound, std::string("FP32 peak"));
        QVERIFY(!p->memoryBound);
        QCOMPARE(p->attainable, 66.9e12);
        QCOMPARE(p->percentOfRoof, 100 * 1e12 / 66.9e12);
        // Much L2 traffic, little DRAM: the L2 roof binds (1e9 / 1e11 = 0.01 FLOP/B).
        s[5] = counter("lts__t_bytes.sum", 1e11);
        p = rooflinePoint(s);
        QVERIFY(p);
        QCOMPARE(p->bound, std::string("L2 bandwidth"));
        QCOMPARE(p->attainable, 0.01 * 9024 * 1.7e9);
    }

    void mainPrecisionIsTheOneWithMostFlops()
    {
        std::vector<Summary> s = saxpySummaries(100, 1e-6);
        s.push_back(counter("sm__sass_thread_inst_executed_op_dfma_pred_on.sum", 1000));
        auto p = rooflinePoint(s);
        QVERIFY(p);
        QCOMPARE(p->precision, Precision::Fp64);
        QCOMPARE(p->flops, 2000.0);
        QCOMPARE(p->bound, std::string("DRAM bandwidth"));
        // No FLOPs at all: no point, and the text says why.
        std::vector<Summary> none = saxpySummaries(0, 1e-6);
        none[4] = counter("dram__bytes.sum", 100);
        QVERIFY(!rooflinePoint(none));
        QVERIFY(QString::fromStdString(rooflineText(none)).contains("no floating-point work"));
    }

    void fp16RateByComputeCapability()
    {
        QCOMPARE(fp16RateToFp32(9, 0), 2.0);
        QCOMPARE(fp16RateToFp32(8, 0), 2.0);
        QCOMPARE(fp16RateToFp32(8, 6), 1.0);
        QCOMPARE(fp16RateToFp32(8, 9), 1.0);
        QCOMPARE(fp16RateToFp32(6, 1), 1.0 / 64);
        QCOMPARE(fp16RateToFp32(3, 5), 0.0);
    }

    void devicePeakSummariesSayWhereTheyComeFrom()
    {
        CudaDeviceProperties d;
        d.name = "NVIDIA H200";
        d.ccMajor = 9;
        d.multiprocessors = 132;
        d.nominalSmClockHz = 1.98e9;
        d.memoryClockHz = 3.201e9;
        d.busWidthBits = 6016;
        d.singleToDoubleRatio = 2;
        d.peaks = devicePeaks(9, 0, 132, 1.98e9, 3.201e9, 6016);
        const std::vector<Summary> s = d.peakSummaries();
        const RooflinePeaks p = rooflinePeaks(s);
        QCOMPARE(p.fp32.value, 132.0 * 128 * 2 * 1.98e9);
        QCOMPARE(p.fp64.value, p.fp32.value / 2);
        // FP16 in the counters' unit (one HFMA2 = 2 FLOPs): 2x the FP32 rate in halves, / 2.
        QCOMPARE(p.fp16.value, p.fp32.value);
        QCOMPARE(p.dram.value, 2 * 3.201e9 * 6016 / 8);
        QVERIFY(QString::fromStdString(p.fp32.source).contains("132 SMs x 128 FP32 lanes"));
        QVERIFY(QString::fromStdString(p.fp64.source).contains("SINGLE_TO_DOUBLE"));
        QVERIFY(QString::fromStdString(p.dram.source).contains("6016-bit bus"));
    }

    void reportTextShowsTheRoofline()
    {
        ProfileReport r;
        r.device = "NVIDIA H200";
        r.timingMethod = "cuda-event";
        r.counterStatus = ProfilerStatus::success();
        r.passes = 10;
        r.summaries = saxpySummaries(1 << 24, 64.8e-6);
        const QString text = QString::fromStdString(r.toText());
        QVERIFY2(text.contains("Roofline  FP32 · intensity 0.167 FLOP/B (DRAM), 0.111 FLOP/B (L2)"),
                 qPrintable(text));
        QVERIFY2(text.contains("bound by DRAM bandwidth: roof 802.133 GFLOP/s"), qPrintable(text));
        QVERIFY(text.contains("% of roof"));
        QVERIFY(text.contains("DRAM roof 4.813 TB/s"));
        QVERIFY(text.contains("FP32 roof 66.900 TFLOP/s (fp32 source)"));
    }

    /// The privilege error injected at the CUPTI boundary: the table's
    /// cuptiProfilerInitialize returns it (CUPTI itself is not called), the range profiler's
    /// classifier turns it into InsufficientPrivileges with how to enable counters, and a
    /// profile with real timing and that counter status says so exactly once, keeps its timing
    /// and bandwidth, and tells why there is no roofline.
    void injectedPrivilegeErrorDegradesGracefully()
    {
        if (!detail::cuptiLoadError().empty())
            QSKIP(("CUPTI is not installed here: " + detail::cuptiLoadError()).c_str());
        qputenv(detail::kCuptiFaultVariable, "CUPTI_ERROR_INSUFFICIENT_PRIVILEGES");
        const auto fault = detail::injectedCuptiFault();
        QVERIFY(fault);
        CUpti_Profiler_Initialize_Params init{CUpti_Profiler_Initialize_Params_STRUCT_SIZE,
                                              nullptr};
        const CUptiResult result = detail::cupti().cuptiProfilerInitialize(&init);
        qunsetenv(detail::kCuptiFaultVariable);
        QCOMPARE(result, CUPTI_ERROR_INSUFFICIENT_PRIVILEGES);
        QVERIFY(!detail::injectedCuptiFault());

        ProfileResult profile;
        profile.device.name = "test device";
        MeasurementOptions mo;
        mo.minSamples = 5;
        mo.minTimeS = 0;
        mo.maxSamples = 5;
        profile.timing = Measurement(mo).run([] { return 0.25; });
        profile.timing.method = "cuda-event";
        profile.workload.bytes = 1e6;
        CounterReport counters;
        counters.status = detail::classifyCuptiResult(result, "cuptiProfilerInitialize");
        profile.counters = counters;
        QCOMPARE(profile.counters->status.state, ProfilerStatus::State::InsufficientPrivileges);

        const ProfileReport report = ProfileReport::fromResult(profile, true);
        QVERIFY(report.profiled());
        QVERIFY(report.warnings.empty()); // the status says it; no second copy as a warning
        const QString text = QString::fromStdString(report.toText());
        QCOMPARE(text.count("NVreg_RestrictProfilingToAdminUsers=0"), 1);
        QCOMPARE(text.count("https://developer.nvidia.com/ERR_NVGPUCTRPERM"), 1);
        QVERIFY2(text.contains("Counters  unavailable (insufficient privileges): "
                               "cuptiProfilerInitialize: CUPTI_ERROR_INSUFFICIENT_PRIVILEGES"),
                 qPrintable(text));
        QVERIFY(text.contains("Timing    median 250.000 us"));
        QVERIFY(text.contains("Bandwidth 4.000 GB/s"));
        QVERIFY(text.contains("Roofline  needs the hardware counters"));
        QVERIFY(!rooflinePoint(report.summaries));
    }
};

WB_QTEST_APPLESS_MAIN(TestRoofline)
#include "tst_roofline.moc"
