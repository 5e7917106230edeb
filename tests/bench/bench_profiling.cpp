// SPDX-License-Identifier: GPL-3.0-or-later
// bench_profiling — evidence that the workbench's figures agree with Nsight Compute.
//
// For a copy kernel, saxpy and a 32×32-tiled matmul it prints, in one run:
//   * the median of CUDA-event timing and of CUPTI activity timing (cold L2), their ratio;
//   * the Speed-of-Light counters from the CUPTI range profiler (kernel replay);
//   * the same metrics from `ncu --clock-control none --metrics … --csv`, run on this very
//     executable in its second mode (`--run-kernel NAME`: set up, launch the kernel once, exit);
//   * the % difference, against the targets (duration and throughput % within 3 %; event median
//     within 5 % of the CUPTI median for kernels ≥ 50 µs).
// Without a GPU or without ncu it prints the reason and exits 0.
//
//   bench_profiling                     all cases
//   bench_profiling copy saxpy          some cases
//   bench_profiling --variants copy     also: events and CUPTI with a warm L2, events with the
//                                       stream drained after the flush, and CUPTI's
//                                       CONCURRENT_KERNEL records beside its KERNEL ones
//   bench_profiling --run-kernel copy   the helper mode ncu runs
//   $WARPBENCH_NCU                      ncu to use (default /usr/local/cuda/bin/ncu, then PATH)
#include "core/backend/Backend.h"
#include "core/common/Error.h"
#include "core/cuda/Context.h"
#include "core/cuda/DeviceBuffer.h"
#include "core/cuda/Kernel.h"
#include "core/cuda/SourceModule.h"
#include "core/cuda/Stream.h"
#include "core/profiling/CudaTimer.h"
#include "core/profiling/MetricTable.h"
#include "core/profiling/RangeProfiler.h"
#include "core/profiling/Throughput.h"
#include "tests/profiling/kernels/Kernels.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QProcess>
#include <QProcessEnvironment>
#include <QStandardPaths>
#include <QStringList>

#include <cmath>
#include <cstdio>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

using namespace wb::profiling;
using wb::cuda::KernelArg;

namespace {

bool g_variants = false; ///< --variants

KernelArg pointerArg(const wb::cuda::DeviceBuffer& b)
{
    return {b.ptrAddress(), sizeof(CUdeviceptr), KernelArg::Kind::DevicePointer, nullptr};
}

template <typename T> KernelArg valueArg(const T& v)
{
    return {&v, sizeof(T), KernelArg::Kind::Value, nullptr};
}

/// One benchmark case: its buffers, kernel, launch shape and stated work.
struct Case {
    std::string name;       ///< "copy"
    std::string kernelName; ///< "wb_copy"
    std::string description;
    Workload work;
    wb::LaunchConfig config;
    std::unique_ptr<wb::cuda::SourceModule> module;
    std::unique_ptr<wb::cuda::Kernel> kernel;
    std::vector<wb::cuda::DeviceBuffer> buffers;
    unsigned long long n = 0;
    int size = 0;
    float alpha = 2.0f;

    void launch(CUstream stream) const
    {
        std::vector<KernelArg> args;
        if (name == "copy") {
            args = {pointerArg(buffers[0]), pointerArg(buffers[1]), valueArg(n)};
        } else if (name == "saxpy") {
            args = {valueArg(alpha), pointerArg(buffers[0]), pointerArg(buffers[1]), valueArg(n)};
        } else {
            args = {pointerArg(buffers[0]), pointerArg(buffers[1]), pointerArg(buffers[2]),
                    valueArg(size)};
        }
        kernel->submit(config, args, stream);
    }
};

const std::vector<std::string> kCaseNames{"copy", "saxpy", "matmul"};

std::unique_ptr<Case> makeCase(const std::string& name, const wb::cuda::Context& ctx)
{
    auto c = std::make_unique<Case>();
    c->name = name;
    const auto linear = [&](unsigned long long n) {
        c->config.block = {256, 1, 1};
        c->config.grid = {static_cast<unsigned>((n + 255) / 256), 1, 1};
    };
    const auto buffer = [&](std::size_t bytes, const char* label, std::uint32_t fill) {
        wb::cuda::DeviceBuffer b(ctx, bytes, label);
        b.fill32(fill);
        c->buffers.push_back(std::move(b));
    };
    if (name == "copy") {
        c->n = 64ull << 20;
        c->kernelName = "wb_copy";
        c->module = std::make_unique<wb::cuda::SourceModule>(ctx, testkernels::kCopy);
        buffer(c->n * 4, "in", 0x3f800000u);
        buffer(c->n * 4, "out", 0);
        linear(c->n);
        c->work.bytes = 2.0 * static_cast<double>(c->n) * 4;
        c->description = "64 Mi floats, 512 MiB moved";
    } else if (name == "saxpy") {
        c->n = 64ull << 20;
        c->kernelName = "wb_saxpy";
        c->module = std::make_unique<wb::cuda::SourceModule>(ctx, testkernels::kSaxpy);
        buffer(c->n * 4, "x", 0x3f800000u);
        buffer(c->n * 4, "y", 0x40000000u);
        linear(c->n);
        c->work.bytes = 3.0 * static_cast<double>(c->n) * 4;
        c->work.flops = 2.0 * static_cast<double>(c->n);
        c->description = "64 Mi floats, 768 MiB moved, 2 FLOP per element";
    } else if (name == "matmul") {
        c->size = 2048;
        const std::size_t bytes = static_cast<std::size_t>(c->size) * c->size * 4;
        c->kernelName = "wb_matmul";
        c->module = std::make_unique<wb::cuda::SourceModule>(ctx, testkernels::kMatmul);
        buffer(bytes, "a", 0x3f800000u);
        buffer(bytes, "b", 0x3f000000u);
        buffer(bytes, "c", 0);
        c->config.block = {32, 32, 1};
        c->config.grid = {static_cast<unsigned>(c->size / 32), static_cast<unsigned>(c->size / 32),
                          1};
        c->work.bytes = 3.0 * static_cast<double>(bytes);
        c->work.flops = 2.0 * std::pow(static_cast<double>(c->size), 3);
        c->description = "2048 x 2048 fp32, 32 x 32 tiles";
    } else {
        throw wb::Error(wb::Error::Kind::InvalidArgument, "unknown case '" + name + "'");
    }
    c->kernel = std::make_unique<wb::cuda::Kernel>(c->module->function(c->kernelName));
    return c;
}

/// The helper mode: what ncu profiles. Sets up exactly as the main mode, launches once.
int runKernelOnce(const std::string& name)
{
    const wb::cuda::Context ctx = wb::cuda::Context::primary(0);
    const wb::cuda::Stream stream(ctx);
    const std::unique_ptr<Case> c = makeCase(name, ctx);
    ctx.synchronize();
    c->launch(stream.handle());
    stream.synchronize();
    return 0;
}

// ---- ncu ------------------------------------------------------------------------------------

std::string findNcu()
{
    if (const QByteArray env = qgetenv("WARPBENCH_NCU"); !env.isEmpty()) return env.toStdString();
    if (QFileInfo("/usr/local/cuda/bin/ncu").isExecutable()) return "/usr/local/cuda/bin/ncu";
    return QStandardPaths::findExecutable("ncu").toStdString();
}

std::vector<QString> parseCsvLine(const QString& line)
{
    std::vector<QString> fields;
    QString field;
    bool quoted = false;
    for (int i = 0; i < line.size(); ++i) {
        const QChar ch = line[i];
        if (quoted) {
            if (ch == '"' && i + 1 < line.size() && line[i + 1] == '"') {
                field += '"';
                ++i;
            } else if (ch == '"') {
                quoted = false;
            } else {
                field += ch;
            }
        } else if (ch == '"') {
            quoted = true;
        } else if (ch == ',') {
            fields.push_back(field);
            field.clear();
        } else {
            field += ch;
        }
    }
    fields.push_back(field);
    return fields;
}

struct NcuValue {
    double value = 0; ///< in CUPTI's base units (ns, bytes, Hz, %), converted from `unit`
    std::string unit; ///< as ncu printed it
};

/// Factor from an ncu unit to the base unit CUPTI evaluates in (ns for time, bytes, Hz).
/// `--print-units base` should make it 1; this keeps the comparison right if it does not.
double unitScale(QString unit)
{
    unit = unit.trimmed().toLower();
    static const std::map<QString, double> time{{"nsecond", 1},  {"ns", 1},        {"usecond", 1e3},
                                                {"us", 1e3},     {"msecond", 1e6}, {"ms", 1e6},
                                                {"second", 1e9}, {"s", 1e9}};
    static const std::map<QString, double> size{
        {"byte", 1}, {"kbyte", 1e3}, {"mbyte", 1e6}, {"gbyte", 1e9}, {"tbyte", 1e12}};
    static const std::map<QString, double> rate{
        {"hz", 1},           {"khz", 1e3},           {"mhz", 1e6},          {"ghz", 1e9},
        {"cycle/second", 1}, {"cycle/usecond", 1e6}, {"cycle/nsecond", 1e9}};
    for (const auto* table : {&time, &size, &rate})
        if (const auto it = table->find(unit); it != table->end()) return it->second;
    return 1; // "%", "" and plain counts
}

struct NcuResult {
    std::map<std::string, NcuValue> metrics;
    std::string error; ///< why there are no metrics
};

/// Runs ncu on this executable's helper mode. `cleanLibraryPath`: ncu itself runs without our
/// LD_LIBRARY_PATH (which may carry libraries for this program that ncu must not pick up), and
/// the helper gets it back through /usr/bin/env.
NcuResult runNcu(const std::string& ncu, const Case& c, const std::vector<std::string>& metrics,
                 bool cleanLibraryPath)
{
    NcuResult result;
    QStringList metricList;
    for (const std::string& m : metrics)
        metricList << QString::fromStdString(m);
    QStringList args{"--clock-control",
                     "none",
                     "--metrics",
                     metricList.join(','),
                     "--csv",
                     "--print-units",
                     "base",
                     "--target-processes",
                     "all",
                     "--kernel-name",
                     QString::fromStdString(c.kernelName),
                     "--launch-count",
                     "1"};
    QProcess process;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert("LC_ALL", "C"); // "1,234.5": the parser drops ',' as the thousands separator
    if (cleanLibraryPath) {
        args << "/usr/bin/env"
             << "LD_LIBRARY_PATH=" + env.value("LD_LIBRARY_PATH");
        env.remove("LD_LIBRARY_PATH");
    }
    process.setProcessEnvironment(env);
    args << QCoreApplication::applicationFilePath() << "--run-kernel"
         << QString::fromStdString(c.name);
    process.setProcessChannelMode(QProcess::SeparateChannels);
    process.start(QString::fromStdString(ncu), args);
    if (!process.waitForStarted(30000)) {
        result.error = "could not start " + ncu + ": " + process.errorString().toStdString();
        return result;
    }
    if (!process.waitForFinished(600000)) {
        process.kill();
        process.waitForFinished();
        result.error = "ncu did not finish within 10 minutes";
        return result;
    }
    const QString out = QString::fromUtf8(process.readAllStandardOutput());
    const QString err = QString::fromUtf8(process.readAllStandardError());
    int kernelCol = -1, nameCol = -1, unitCol = -1, valueCol = -1;
    for (const QString& raw : out.split('\n')) {
        const QString line = raw.trimmed();
        if (!line.startsWith('"')) continue;
        const std::vector<QString> f = parseCsvLine(line);
        if (nameCol < 0) {
            for (std::size_t i = 0; i < f.size(); ++i) {
                if (f[i] == "Kernel Name") kernelCol = static_cast<int>(i);
                if (f[i] == "Metric Name") nameCol = static_cast<int>(i);
                if (f[i] == "Metric Unit") unitCol = static_cast<int>(i);
                if (f[i] == "Metric Value") valueCol = static_cast<int>(i);
            }
            continue;
        }
        const auto at = [&](int col) {
            return col >= 0 && col < static_cast<int>(f.size()) ? f[static_cast<std::size_t>(col)]
                                                                : QString();
        };
        if (kernelCol >= 0 && !at(kernelCol).contains(QString::fromStdString(c.kernelName)))
            continue;
        QString value = at(valueCol);
        value.remove(',');
        bool ok = false;
        const double v = value.toDouble(&ok);
        if (ok)
            result.metrics[at(nameCol).toStdString()] = {v * unitScale(at(unitCol)),
                                                         at(unitCol).toStdString()};
    }
    if (result.metrics.empty()) {
        QString tail = (err + "\n" + out).trimmed();
        if (tail.size() > 1500) tail = "..." + tail.right(1500);
        result.error = "ncu exited with " + std::to_string(process.exitCode()) +
                       " and no metrics for " + c.kernelName + ":\n" + tail.toStdString();
    }
    return result;
}

// ---- Report ---------------------------------------------------------------------------------

std::string formatted(const std::string& hint, double value)
{
    return formatSummaryValue({"", "", hint, value, ""});
}

/// Targets: duration and throughput % within 3 %.
bool hasTarget(const std::string& metric)
{
    return metric == "gpu__time_duration.sum" ||
           metric == "sm__throughput.avg.pct_of_peak_sustained_elapsed" ||
           metric == "gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed";
}

struct Tally {
    int checked = 0;
    int met = 0;
};

void runCase(const std::string& name, const wb::cuda::Context& ctx,
             const CudaDeviceProperties& props, const std::string& ncu, Tally& tally)
{
    const std::unique_ptr<Case> c = makeCase(name, ctx);
    const auto launch = [&](CUstream s) { c->launch(s); };
    std::printf("\n== %s: %s (%s), grid %ux%u block %ux%u\n", c->name.c_str(),
                c->kernelName.c_str(), c->description.c_str(), c->config.grid.x, c->config.grid.y,
                c->config.block.x, c->config.block.y);

    CudaTimer timer(ctx);
    const wb::cuda::Stream& stream = timer.stream();
    CudaTimingOptions options;
    options.measurement.minTimeS = 0.5;
    options.measurement.maxTimeS = 20;
    options.method = TimingMethod::CudaEvents;
    const MeasurementResult events = timer.measure(launch, options);
    std::optional<MeasurementResult> cupti;
    try {
        options.method = TimingMethod::CuptiActivity;
        cupti = timer.measure(launch, options);
    } catch (const wb::Error& e) {
        std::printf("  CUPTI activity timing unavailable: %s\n", e.what());
    }
    // What the flush and its ordering do to each method (the methods section of
    // docs/BENCHMARKS.md): no flush at all, and events with the stream drained after the flush.
    std::optional<MeasurementResult> cuptiWarm, eventsWarm, eventsSynced, cuptiConcurrent;
    if (g_variants) {
        CudaTimingOptions v = options;
        v.flushL2 = false;
        v.method = TimingMethod::CudaEvents;
        eventsWarm = timer.measure(launch, v);
        if (cupti) {
            v.method = TimingMethod::CuptiActivity;
            cuptiWarm = timer.measure(launch, v);
            v.flushL2 = true;
            v.concurrentKernelRecords = true;
            cuptiConcurrent = timer.measure(launch, v);
            v.concurrentKernelRecords = false;
        }
        v.flushL2 = true;
        v.method = TimingMethod::CudaEvents;
        MeasurementHooks drain;
        drain.beforeSample = [&] { stream.synchronize(); };
        eventsSynced = timer.measure(launch, v, drain);
    }
    const auto timingRow = [](const char* label, const MeasurementResult& r) {
        std::printf(
            "  %-16s median %-12s min %-12s p25 %-12s p75 %-12s noise %5.2f %%  %zu samples (%s)\n",
            label, formatted("duration", r.statsMs.median * 1e-3).c_str(),
            formatted("duration", r.statsMs.min * 1e-3).c_str(),
            formatted("duration", r.statsMs.p25 * 1e-3).c_str(),
            formatted("duration", r.statsMs.p75 * 1e-3).c_str(), r.statsMs.relativeNoise * 100,
            r.samplesMs.size(), stopReasonName(r.stopReason));
    };
    timingRow("CUDA events", events);
    if (eventsSynced) timingRow("events, drained", *eventsSynced);
    if (eventsWarm) timingRow("events, warm L2", *eventsWarm);
    if (cuptiWarm) timingRow("CUPTI, warm L2", *cuptiWarm);
    if (cuptiConcurrent) timingRow("CUPTI concurrent", *cuptiConcurrent);
    if (cupti) {
        timingRow("CUPTI activity", *cupti);
        const double ratio = events.statsMs.median / cupti->statsMs.median;
        const bool long_ = cupti->statsMs.median >= 0.05;
        std::printf("  event / CUPTI median = %.4f (%+.2f %%)", ratio, (ratio - 1) * 100);
        if (long_) {
            const bool met = std::fabs(ratio - 1) <= 0.05;
            ++tally.checked;
            tally.met += met;
            std::printf("  target within 5 %%: %s\n", met ? "met" : "NOT MET");
        } else {
            std::printf("  (kernel < 50 us: no target)\n");
        }
        const double seconds = cupti->statsMs.median * 1e-3;
        for (const Summary& s : throughputSummaries(seconds, c->work, props.peaks))
            std::printf("  %-16s %s\n", s.name.c_str(), formatSummaryValue(s).c_str());
    }

    timer.flushL2();
    stream.synchronize();
    const CounterReport counters = RangeProfiler::profile(stream, launch);
    if (!counters.status.ok()) {
        std::printf("  counters unavailable (%s): %s\n", profilerStateName(counters.status.state),
                    counters.status.message.c_str());
    } else {
        std::printf("  counters: chip %s, %zu passes (kernel replay), %zu kernel(s)\n",
                    counters.chip.c_str(), counters.passes, counters.ranges);
    }
    for (const std::string& w : counters.warnings)
        std::printf("  warning: %s\n", w.c_str());

    NcuResult ncuResult;
    if (ncu.empty())
        ncuResult.error = "ncu not found (looked at $WARPBENCH_NCU, /usr/local/cuda/bin/ncu, PATH)";
    else
        ncuResult = runNcu(ncu, *c, speedOfLightMetricNames(), false);
    if (!ncuResult.error.empty() && !qgetenv("LD_LIBRARY_PATH").isEmpty()) {
        std::printf("  ncu (direct): %s\n  retrying with ncu outside LD_LIBRARY_PATH\n",
                    ncuResult.error.c_str());
        ncuResult = runNcu(ncu, *c, speedOfLightMetricNames(), true);
    }
    if (!ncuResult.error.empty()) std::printf("  ncu: %s\n", ncuResult.error.c_str());

    std::printf("  %-24s %-64s %14s %14s %9s  %-22s %s\n", "metric", "name", "workbench", "ncu",
                "diff", "target (relative)", "ncu unit");
    for (const std::string& metric : speedOfLightMetricNames()) {
        const MetricInfo* info = findMetric(metric);
        const std::optional<double> ours = counters.value(metric);
        const auto theirs = ncuResult.metrics.find(metric);
        const std::string hint = info ? info->hint : "";
        const double scale = info ? info->toSummaryScale : 1.0;
        const std::string oursText = ours ? formatted(hint, *ours * scale) : "-";
        const std::string theirsText =
            theirs != ncuResult.metrics.end() ? formatted(hint, theirs->second.value * scale) : "-";
        std::string diff = "-";
        std::string target;
        if (ours && theirs != ncuResult.metrics.end() && theirs->second.value != 0) {
            const double d = (*ours - theirs->second.value) / std::fabs(theirs->second.value) * 100;
            char buffer[32];
            std::snprintf(buffer, sizeof buffer, "%+.2f %%", d);
            diff = buffer;
            if (hasTarget(metric)) {
                const bool met = std::fabs(d) <= 3.0;
                ++tally.checked;
                tally.met += met;
                target = met ? "within 3 %: met" : "within 3 %: NOT MET";
            }
        }
        const std::string unit =
            theirs != ncuResult.metrics.end() ? theirs->second.unit : std::string();
        std::printf("  %-24s %-64s %14s %14s %9s  %-22s %s\n",
                    info ? info->displayName : metric.c_str(), metric.c_str(), oursText.c_str(),
                    theirsText.c_str(), diff.c_str(), target.c_str(), unit.c_str());
    }
    const std::optional<double> observed = counters.value("sm__cycles_elapsed.avg.per_second");
    std::printf("  SM clock: nominal %s (CU_DEVICE_ATTRIBUTE_CLOCK_RATE), observed %s "
                "(sm__cycles_elapsed.avg.per_second, range profiler); clocks not locked\n",
                formatted("frequency", props.nominalSmClockHz).c_str(),
                observed ? formatted("frequency", *observed).c_str() : "n/a");
}

} // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    const QStringList args = app.arguments();
    try {
        if (args.size() >= 3 && args[1] == "--run-kernel")
            return runKernelOnce(args[2].toStdString());

        if (const std::optional<std::string> why = wb::cudaUnavailableReason()) {
            std::printf("bench_profiling: skipped — %s\n", why->c_str());
            return 0;
        }
        std::vector<std::string> cases;
        for (int i = 1; i < args.size(); ++i) {
            if (args[i] == "--variants")
                g_variants = true;
            else
                cases.push_back(args[i].toStdString());
        }
        if (cases.empty()) cases = kCaseNames;

        const wb::cuda::Context ctx = wb::cuda::Context::primary(0);
        const CudaDeviceProperties props = queryDeviceProperties(0);
        const std::string ncu = findNcu();
        std::printf(
            "bench_profiling: %s (sm_%d%d, %d SMs, L2 %s), nominal SM clock %s, peak DRAM %s, "
            "peak FP32 %s\n",
            props.name.c_str(), props.ccMajor, props.ccMinor, props.multiprocessors,
            formatted("bytes", static_cast<double>(props.l2Bytes)).c_str(),
            formatted("frequency", props.nominalSmClockHz).c_str(),
            formatted("bandwidth", props.peaks.bandwidthBytesPerS).c_str(),
            formatted("flops", props.peaks.flopsPerS).c_str());
        std::printf("ncu: %s\n",
                    ncu.empty() ? "not found — the comparison columns stay empty" : ncu.c_str());
        std::printf("timing: cold L2 (flushed before each sample), warm-up 1, stop at 0.5 %% noise "
                    "after 0.5 s of kernel time or 20 s\n");
        Tally tally;
        for (const std::string& name : cases)
            runCase(name, ctx, props, ncu, tally);
        std::printf("\ntargets met: %d of %d checked\n", tally.met, tally.checked);
        return 0;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "bench_profiling: %s\n", e.what());
        return 1;
    }
}
