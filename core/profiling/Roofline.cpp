// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/profiling/Roofline.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace wb::profiling {

namespace {

constexpr const char* kFfma = "sm__sass_thread_inst_executed_op_ffma_pred_on.sum";
constexpr const char* kFadd = "sm__sass_thread_inst_executed_op_fadd_pred_on.sum";
constexpr const char* kFmul = "sm__sass_thread_inst_executed_op_fmul_pred_on.sum";
constexpr const char* kDfma = "sm__sass_thread_inst_executed_op_dfma_pred_on.sum";
constexpr const char* kDadd = "sm__sass_thread_inst_executed_op_dadd_pred_on.sum";
constexpr const char* kDmul = "sm__sass_thread_inst_executed_op_dmul_pred_on.sum";
constexpr const char* kHfma = "sm__sass_thread_inst_executed_op_hfma_pred_on.sum";
constexpr const char* kHadd = "sm__sass_thread_inst_executed_op_hadd_pred_on.sum";
constexpr const char* kHmul = "sm__sass_thread_inst_executed_op_hmul_pred_on.sum";
constexpr const char* kDramBytes = "dram__bytes.sum";
constexpr const char* kL2Bytes = "lts__t_bytes.sum";
constexpr const char* kDramPeakPerCycle = "dram__bytes.sum.peak_sustained";
constexpr const char* kDramClock = "dram__cycles_elapsed.avg.per_second";
constexpr const char* kL2PeakPerCycle = "lts__t_bytes.sum.peak_sustained";
constexpr const char* kL2Clock = "lts__cycles_elapsed.avg.per_second";
constexpr const char* kDuration = "gpu__time_duration.sum";

/// The counter's value in its own unit (before the summary scale), or nullopt.
std::optional<double> counter(const std::vector<Summary>& summaries, const char* metric)
{
    const Summary* s = findSummary(summaries, std::string("wb/counter/") + metric);
    if (!s || !std::isfinite(s->value)) return std::nullopt;
    return s->value;
}

std::optional<double> figure(const std::vector<Summary>& summaries, const char* tag)
{
    const Summary* s = findSummary(summaries, tag);
    if (!s || !std::isfinite(s->value) || s->value <= 0) return std::nullopt;
    return s->value;
}

std::string format(const char* hint, double value)
{
    return formatSummaryValue(Summary{"", "", hint, value, ""});
}

/// "1.23 FLOP/B"
std::string intensityText(double v)
{
    char b[48];
    std::snprintf(b, sizeof b,
                  v >= 100 ? "%.0f FLOP/B"
                  : v >= 1 ? "%.2f FLOP/B"
                           : "%.3g FLOP/B",
                  v);
    return b;
}

} // namespace

const char* precisionName(Precision precision) noexcept
{
    switch (precision) {
    case Precision::Fp32:
        return "FP32";
    case Precision::Fp64:
        return "FP64";
    case Precision::Fp16:
        return "FP16";
    }
    return "FP32";
}

const Ceiling& RooflinePeaks::compute(Precision precision) const noexcept
{
    switch (precision) {
    case Precision::Fp64:
        return fp64;
    case Precision::Fp16:
        return fp16;
    case Precision::Fp32:
        break;
    }
    return fp32;
}

double RooflineCounts::flops(Precision precision) const noexcept
{
    switch (precision) {
    case Precision::Fp64:
        return fp64Flops;
    case Precision::Fp16:
        return fp16Flops;
    case Precision::Fp32:
        break;
    }
    return fp32Flops;
}

std::vector<std::string> rooflineMetricNames()
{
    return {kFfma,      kFadd,    kFmul,          kDfma,      kDadd,    kDmul,
            kHfma,      kHadd,    kHmul,          kDramBytes, kL2Bytes, kDramPeakPerCycle,
            kDramClock, kL2Clock, kL2PeakPerCycle};
}

double attainableFlops(double intensity, double computePeak, double bandwidth) noexcept
{
    double roof = computePeak > 0 ? computePeak : INFINITY;
    if (bandwidth > 0 && intensity > 0) roof = std::min(roof, intensity * bandwidth);
    return roof;
}

std::optional<RooflineCounts> rooflineCounts(const std::vector<Summary>& summaries)
{
    const auto ffma = counter(summaries, kFfma), fadd = counter(summaries, kFadd),
               fmul = counter(summaries, kFmul), dram = counter(summaries, kDramBytes);
    if (!ffma || !fadd || !fmul || !dram) return std::nullopt;
    RooflineCounts c;
    c.fp32Flops = 2 * *ffma + *fadd + *fmul;
    c.fp64Flops = 2 * counter(summaries, kDfma).value_or(0) +
                  counter(summaries, kDadd).value_or(0) + counter(summaries, kDmul).value_or(0);
    c.fp16Flops = 2 * counter(summaries, kHfma).value_or(0) +
                  counter(summaries, kHadd).value_or(0) + counter(summaries, kHmul).value_or(0);
    c.dramBytes = *dram;
    c.l2Bytes = counter(summaries, kL2Bytes).value_or(0);
    if (const auto median = figure(summaries, "wb/timing/median"))
        c.seconds = *median;
    else if (const Summary* d = findSummary(summaries, std::string("wb/counter/") + kDuration))
        c.seconds = d->value; // the summary is in seconds (the metric table's scale)
    if (!(c.seconds > 0)) return std::nullopt;
    return c;
}

RooflinePeaks rooflinePeaks(const std::vector<Summary>& summaries)
{
    RooflinePeaks p;
    auto fromDevice = [&](Ceiling& c, const char* tag) {
        if (const Summary* s = findSummary(summaries, tag); s && std::isfinite(s->value)) {
            c.value = std::max(0.0, s->value);
            c.source = s->description;
        }
    };
    fromDevice(p.fp32, "wb/device/peak_flops");
    fromDevice(p.fp64, "wb/device/peak_fp64_flops");
    fromDevice(p.fp16, "wb/device/peak_fp16_flops");
    fromDevice(p.dram, "wb/device/peak_bandwidth");
    auto fromCounters = [&](Ceiling& c, const char* perCycle, const char* clock, const char* what) {
        const auto bytes = counter(summaries, perCycle), hz = counter(summaries, clock);
        if (!bytes || !hz || *bytes <= 0 || *hz <= 0) return;
        c.value = *bytes * *hz;
        char b[200];
        std::snprintf(b, sizeof b, "%s: %.0f bytes/cycle (%s) x %s observed clock (%s), counters",
                      what, *bytes, perCycle, format("frequency", *hz).c_str(), clock);
        c.source = b;
    };
    fromCounters(p.dram, kDramPeakPerCycle, kDramClock, "DRAM");
    fromCounters(p.l2, kL2PeakPerCycle, kL2Clock, "L2");
    return p;
}

std::optional<RooflinePoint> rooflinePoint(const RooflineCounts& counts, const RooflinePeaks& peaks)
{
    RooflinePoint pt;
    for (Precision q : {Precision::Fp64, Precision::Fp16})
        if (counts.flops(q) > counts.flops(pt.precision)) pt.precision = q;
    pt.flops = counts.flops(pt.precision);
    pt.seconds = counts.seconds;
    if (!(pt.flops > 0) || !(counts.dramBytes > 0) || !(pt.seconds > 0)) return std::nullopt;
    pt.dramIntensity = pt.flops / counts.dramBytes;
    pt.l2Intensity = counts.l2Bytes > 0 ? pt.flops / counts.l2Bytes : 0;
    pt.achieved = pt.flops / pt.seconds;

    const Ceiling& compute = peaks.compute(pt.precision);
    pt.attainable = INFINITY;
    if (compute.known()) {
        pt.attainable = compute.value;
        pt.bound = std::string(precisionName(pt.precision)) + " peak";
    }
    auto roof = [&](const Ceiling& bandwidth, double intensity, const char* name) {
        if (!bandwidth.known() || !(intensity > 0)) return;
        const double r = intensity * bandwidth.value;
        if (r < pt.attainable) {
            pt.attainable = r;
            pt.bound = name;
            pt.memoryBound = true;
        }
    };
    roof(peaks.dram, pt.dramIntensity, "DRAM bandwidth");
    roof(peaks.l2, pt.l2Intensity, "L2 bandwidth");
    if (std::isfinite(pt.attainable) && pt.attainable > 0) {
        pt.percentOfRoof = 100.0 * pt.achieved / pt.attainable;
    } else {
        pt.attainable = 0;
        pt.bound.clear();
    }
    return pt;
}

std::optional<RooflinePoint> rooflinePoint(const std::vector<Summary>& summaries)
{
    const auto counts = rooflineCounts(summaries);
    if (!counts) return std::nullopt;
    return rooflinePoint(*counts, rooflinePeaks(summaries));
}

std::vector<Summary> rooflineSummaries(const RooflinePoint& p)
{
    const std::string prec = precisionName(p.precision);
    std::vector<Summary> out = {
        {"wb/roofline/flops", prec + " FLOPs", "", p.flops,
         "Floating-point operations of one launch in the kernel's main precision, from SASS "
         "thread-instruction counters (FMA counts 2)"},
        {"wb/roofline/intensity_dram", "Intensity (DRAM)", "ratio", p.dramIntensity,
         "Arithmetic intensity: FLOPs per byte moved to or from DRAM (FLOP/B)"},
    };
    if (p.l2Intensity > 0)
        out.push_back({"wb/roofline/intensity_l2", "Intensity (L2)", "ratio", p.l2Intensity,
                       "FLOPs per byte through the L2 cache (FLOP/B)"});
    out.push_back({"wb/roofline/achieved", "Achieved " + prec, "flops", p.achieved,
                   "FLOPs of one launch / median time of one launch"});
    if (p.attainable > 0) {
        out.push_back({"wb/roofline/attainable", "Roof (" + p.bound + ")", "flops", p.attainable,
                       "The lowest roof at the kernel's intensity: the most this kernel could "
                       "reach"});
        out.push_back({"wb/roofline/percent_of_roof", "% of roof", "percentage", p.percentOfRoof,
                       "Achieved FLOP/s as a share of the roof the kernel is bound by"});
    }
    return out;
}

double fp16RateToFp32(int ccMajor, int ccMinor) noexcept
{
    switch (ccMajor) {
    case 5:
        return ccMinor == 3 ? 2 : 0;
    case 6:
        return ccMinor == 1 ? 1.0 / 64 : 2;
    case 7:
        return 2;
    case 8:
        return ccMinor == 6 || ccMinor == 9 ? 1 : 2;
    case 9:
    case 10:
    case 11:
        return 2;
    case 12:
        return 1;
    default:
        return 0;
    }
}

std::string rooflineText(const std::vector<Summary>& summaries)
{
    const auto counts = rooflineCounts(summaries);
    if (!counts) return "Roofline  needs the FLOP and DRAM counters (not collected for this run)\n";
    const RooflinePeaks peaks = rooflinePeaks(summaries);
    const auto p = rooflinePoint(*counts, peaks);
    if (!p)
        return "Roofline  no point: the kernel did no floating-point work or moved no DRAM "
               "bytes\n";
    std::string out = std::string("Roofline  ") + precisionName(p->precision) + " · intensity " +
                      intensityText(p->dramIntensity) + " (DRAM)";
    if (p->l2Intensity > 0) out += ", " + intensityText(p->l2Intensity) + " (L2)";
    out += " · achieved " + format("flops", p->achieved) + "\n";
    if (p->attainable > 0) {
        char pct[32];
        std::snprintf(pct, sizeof pct, "%.1f %%", p->percentOfRoof);
        out += std::string("          bound by ") + p->bound + ": roof " +
               format("flops", p->attainable) + " at this intensity, " + pct + " of roof\n";
    }
    auto roofLine = [&](const char* name, const Ceiling& c, const char* hint) {
        if (!c.known()) return;
        out += std::string("          ") + name + " " + format(hint, c.value) +
               (c.source.empty() ? "" : " (" + c.source + ")") + "\n";
    };
    roofLine("FP32 roof", peaks.fp32, "flops");
    roofLine("FP64 roof", peaks.fp64, "flops");
    roofLine("FP16 roof", peaks.fp16, "flops");
    roofLine("DRAM roof", peaks.dram, "bandwidth");
    roofLine("L2 roof  ", peaks.l2, "bandwidth");
    return out;
}

} // namespace wb::profiling
