// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/session/ReportJson.h"

#include "core/common/Error.h"
#include "core/session/ReportFormat.h"
#include "core/session/RunReport.h"

#include <QJsonArray>
#include <QString>

#include <cmath>
#include <cstdint>
#include <limits>

namespace wb::session {

namespace {

using json::count;
using json::dim;
using json::sizes;

// ---- Values ---------------------------------------------------------------------------------

QString qs(const std::string& s)
{
    return QString::fromStdString(s);
}
std::string ss(const QJsonValue& v)
{
    return v.toString().toStdString();
}

[[noreturn]] void malformed(const std::string& what)
{
    throw Error(Error::Kind::Internal, "report JSON: " + what);
}

/// A double, exactly: JSON has no NaN or Inf, so those are the strings "nan", "inf", "-inf".
QJsonValue real(double v)
{
    if (std::isfinite(v)) return v;
    return QString::fromLatin1(std::isnan(v) ? "nan" : (v > 0 ? "inf" : "-inf"));
}
double real(const QJsonValue& v)
{
    if (v.isString()) {
        const QString s = v.toString();
        if (s == QLatin1String("inf")) return std::numeric_limits<double>::infinity();
        if (s == QLatin1String("-inf")) return -std::numeric_limits<double>::infinity();
        return std::numeric_limits<double>::quiet_NaN();
    }
    if (v.isNull()) return std::numeric_limits<double>::quiet_NaN(); // QJson writes NaN as null
    return v.toDouble();
}

std::size_t size(const QJsonValue& v)
{
    return static_cast<std::size_t>(count(v));
}
int integer(const QJsonValue& v, int absent = 0)
{
    return v.toInt(absent);
}
unsigned unsignedInt(const QJsonValue& v)
{
    const std::uint64_t c = count(v);
    return c > std::numeric_limits<unsigned>::max() ? std::numeric_limits<unsigned>::max()
                                                    : static_cast<unsigned>(c);
}

QJsonValue hex(std::uint64_t v)
{
    return QStringLiteral("0x") + QString::number(v, 16);
}
std::uint64_t hex(const QJsonValue& v)
{
    return v.toString().toULongLong(nullptr, 16); // accepts the 0x
}

QJsonArray strings(const std::vector<std::string>& v)
{
    QJsonArray a;
    for (const std::string& s : v)
        a.append(qs(s));
    return a;
}
std::vector<std::string> strings(const QJsonValue& v)
{
    std::vector<std::string> out;
    for (const QJsonValue& x : v.toArray())
        out.push_back(ss(x));
    return out;
}

/// An enum written by its name (`name(E)`), read back by looking the name up in [0, last].
template <typename E, typename Name>
E named(const QJsonValue& v, E last, Name name, const char* what)
{
    const QString s = v.isString()   ? v.toString()
                      : v.isDouble() ? QString::number(v.toDouble(), 'g', 17)
                                     : QStringLiteral("(missing)");
    for (int i = 0; i <= static_cast<int>(last); ++i)
        if (s == QLatin1String(name(static_cast<E>(i)))) return static_cast<E>(i);
    malformed(std::string("unknown ") + what + " " + s.toStdString());
}

const char* statusName(RunReport::Status s)
{
    RunReport r;
    r.status = s;
    return r.statusName();
}
const char* toleranceModeName(Tolerance::Mode m)
{
    return m == Tolerance::Mode::Ulp ? "ulp" : "allclose";
}

// ---- Compile ---------------------------------------------------------------------------------

QJsonArray diagnosticsToJson(const std::vector<Diagnostic>& ds)
{
    QJsonArray a;
    for (const Diagnostic& d : ds)
        a.append(QJsonObject{{"file", qs(d.file)},
                             {"line", d.line},
                             {"column", d.column},
                             {"severity", severityName(d.severity)},
                             {"code", qs(d.code)},
                             {"message", qs(d.message)},
                             {"context", strings(d.context)}});
    return a;
}
std::vector<Diagnostic> diagnosticsFromJson(const QJsonValue& v)
{
    std::vector<Diagnostic> out;
    for (const QJsonValue& x : v.toArray()) {
        const QJsonObject o = x.toObject();
        Diagnostic d;
        d.file = ss(o["file"]);
        d.line = integer(o["line"]);
        d.column = integer(o["column"]);
        d.severity = named(o["severity"], Severity::Fatal, severityName, "severity");
        d.code = ss(o["code"]);
        d.message = ss(o["message"]);
        d.context = strings(o["context"]);
        out.push_back(std::move(d));
    }
    return out;
}

QJsonObject kernelToJson(const KernelInfo& k)
{
    QJsonArray ps;
    for (const KernelParam& p : k.params)
        ps.append(QJsonObject{{"name", qs(p.name)},
                              {"type", qs(p.type)},
                              {"size", count(p.size)},
                              {"offset", count(p.offset)},
                              {"alignment", count(p.alignment)},
                              {"isPointer", p.isPointer},
                              {"pointee", qs(p.pointee)},
                              {"isConst", p.isConst}});
    const ResourceUsage& r = k.resources;
    return QJsonObject{{"name", qs(k.name)},
                       {"loweredName", qs(k.loweredName)},
                       {"signature", qs(k.signature)},
                       {"externC", k.externC},
                       {"isTemplateInstance", k.isTemplateInstance},
                       {"params", ps},
                       {"resourcesKnown", r.known},
                       {"registers", r.registers},
                       {"spillStoreBytes", r.spillStoreBytes},
                       {"spillLoadBytes", r.spillLoadBytes},
                       {"stackFrameBytes", r.stackFrameBytes},
                       {"staticSharedBytes", r.sharedBytes},
                       {"constBytes", r.constBytes},
                       {"barriers", r.barriers}};
}
KernelInfo kernelFromJson(const QJsonObject& o)
{
    KernelInfo k;
    k.name = ss(o["name"]);
    k.loweredName = ss(o["loweredName"]);
    k.signature = ss(o["signature"]);
    k.externC = o["externC"].toBool();
    k.isTemplateInstance = o["isTemplateInstance"].toBool();
    for (const QJsonValue& x : o["params"].toArray()) {
        const QJsonObject p = x.toObject();
        KernelParam kp;
        kp.name = ss(p["name"]);
        kp.type = ss(p["type"]);
        kp.size = size(p["size"]);
        kp.offset = size(p["offset"]);
        kp.alignment = size(p["alignment"]);
        kp.isPointer = p["isPointer"].toBool();
        kp.pointee = ss(p["pointee"]);
        kp.isConst = p["isConst"].toBool();
        k.params.push_back(std::move(kp));
    }
    ResourceUsage& r = k.resources;
    r.known = o["resourcesKnown"].toBool();
    r.registers = integer(o["registers"]);
    r.spillStoreBytes = integer(o["spillStoreBytes"]);
    r.spillLoadBytes = integer(o["spillLoadBytes"]);
    r.stackFrameBytes = integer(o["stackFrameBytes"]);
    r.sharedBytes = integer(o["staticSharedBytes"]);
    r.constBytes = integer(o["constBytes"]);
    r.barriers = integer(o["barriers"]);
    return k;
}

/// {ok, compiler, target, ms, diagnostics, kernel (once compiled), log (when there is one)}
QJsonObject compileToJson(const RunReport& r, bool all)
{
    QJsonObject c{{"ok", r.compiled},
                  {"compiler", qs(r.compilerVersion)},
                  {"target", qs(r.target)},
                  {"ms", real(r.compileMs)},
                  {"diagnostics", diagnosticsToJson(r.diagnostics)}};
    if (r.compiled || all) c["kernel"] = kernelToJson(r.kernel);
    if (!r.compileLog.empty()) c["log"] = qs(r.compileLog);
    return c;
}
void compileFromJson(const QJsonObject& c, RunReport& r)
{
    r.compiled = c["ok"].toBool();
    r.compilerVersion = ss(c["compiler"]);
    r.target = ss(c["target"]);
    r.compileMs = real(c["ms"]);
    r.diagnostics = diagnosticsFromJson(c["diagnostics"]);
    r.kernel = kernelFromJson(c["kernel"].toObject());
    r.compileLog = ss(c["log"]);
}

// ---- Device ----------------------------------------------------------------------------------

QJsonObject deviceToJson(const DeviceDescription& d)
{
    return QJsonObject{{"name", qs(d.name)},
                       {"index", d.index},
                       {"arch", qs(d.arch)},
                       {"multiprocessors", d.multiprocessors},
                       {"totalMemoryBytes", count(d.totalMemoryBytes)},
                       {"peakBandwidthGBs", real(d.peakBandwidthGBs)},
                       {"peakFp32Gflops", real(d.peakFp32Gflops)},
                       {"l2CacheBytes", count(d.l2CacheBytes)},
                       {"driverVersion", qs(d.driverVersion)}};
}
DeviceDescription deviceFromJson(const QJsonObject& o)
{
    DeviceDescription d;
    d.name = ss(o["name"]);
    d.index = integer(o["index"]);
    d.arch = ss(o["arch"]);
    d.multiprocessors = integer(o["multiprocessors"]);
    d.totalMemoryBytes = count(o["totalMemoryBytes"]);
    d.peakBandwidthGBs = real(o["peakBandwidthGBs"]);
    d.peakFp32Gflops = real(o["peakFp32Gflops"]);
    d.l2CacheBytes = count(o["l2CacheBytes"]);
    d.driverVersion = ss(o["driverVersion"]);
    return d;
}

// ---- Timing ----------------------------------------------------------------------------------

QJsonObject launchToJson(const RunReport& r)
{
    return QJsonObject{{"grid", dim(r.launch.grid)},
                       {"block", dim(r.launch.block)},
                       {"sharedBytes", static_cast<qint64>(r.launch.sharedBytes)},
                       {"cluster", dim(r.launch.cluster)},
                       {"cooperative", r.launch.cooperative},
                       {"warmup", r.warmup},
                       {"iterations", r.iterations}};
}
void launchFromJson(const QJsonObject& l, RunReport& r)
{
    r.launch.grid = dim(l["grid"]);
    r.launch.block = dim(l["block"]);
    r.launch.sharedBytes = unsignedInt(l["sharedBytes"]);
    if (l.contains(QLatin1String("cluster"))) r.launch.cluster = dim(l["cluster"]);
    r.launch.cooperative = l["cooperative"].toBool();
    r.warmup = integer(l["warmup"]);
    r.iterations = integer(l["iterations"]);
}

/// {medianMs, minMs, meanMs, stdevMs, samplesMs}
QJsonObject timingToJson(const TimingStats& t)
{
    QJsonArray samples;
    for (double v : t.samplesMs)
        samples.append(real(v));
    return QJsonObject{{"medianMs", real(t.medianMs)},
                       {"minMs", real(t.minMs)},
                       {"meanMs", real(t.meanMs)},
                       {"stdevMs", real(t.stdevMs)},
                       {"samplesMs", samples}};
}
TimingStats timingFromJson(const QJsonObject& o)
{
    TimingStats t;
    for (const QJsonValue& x : o["samplesMs"].toArray())
        t.samplesMs.push_back(real(x));
    t.medianMs = real(o["medianMs"]);
    t.minMs = real(o["minMs"]);
    t.meanMs = real(o["meanMs"]);
    t.stdevMs = real(o["stdevMs"]);
    return t;
}

/// {launchesPerPass, launches: [{entry, kernel, vars {name: value}, varOrder (the names,
/// outermost first), grid, block, sharedBytes, timing}]}
QJsonObject pipelineToJson(const std::vector<PipelineLaunchTiming>& pipeline)
{
    QJsonArray launches;
    for (const PipelineLaunchTiming& l : pipeline) {
        QJsonObject vars;
        QJsonArray order;
        for (const auto& [name, value] : l.vars) {
            vars.insert(qs(name), static_cast<qint64>(value));
            order.append(qs(name));
        }
        launches.append(QJsonObject{{"entry", count(l.entry)},
                                    {"kernel", qs(l.kernel)},
                                    {"vars", vars},
                                    {"varOrder", order},
                                    {"grid", dim(l.config.grid)},
                                    {"block", dim(l.config.block)},
                                    {"sharedBytes", static_cast<qint64>(l.config.sharedBytes)},
                                    {"timing", timingToJson(l.timing)}});
    }
    return QJsonObject{{"launchesPerPass", static_cast<qint64>(pipeline.size())},
                       {"launches", launches}};
}
std::vector<PipelineLaunchTiming> pipelineFromJson(const QJsonObject& p)
{
    std::vector<PipelineLaunchTiming> out;
    for (const QJsonValue& x : p["launches"].toArray()) {
        const QJsonObject o = x.toObject();
        PipelineLaunchTiming l;
        l.entry = size(o["entry"]);
        l.kernel = ss(o["kernel"]);
        const QJsonObject vars = o["vars"].toObject();
        for (const QJsonValue& name : o["varOrder"].toArray())
            l.vars.emplace_back(ss(name), vars[name.toString()].toInteger());
        l.config.grid = dim(o["grid"]);
        l.config.block = dim(o["block"]);
        l.config.sharedBytes = unsignedInt(o["sharedBytes"]);
        l.timing = timingFromJson(o["timing"].toObject());
        out.push_back(std::move(l));
    }
    return out;
}

/// {bytesMoved, GBs, percentOfPeak}
QJsonObject bandwidthToJson(const RunReport& r)
{
    return QJsonObject{{"bytesMoved", count(r.bytesMoved)},
                       {"GBs", real(r.bandwidthGBs)},
                       {"percentOfPeak", real(r.peakPercent)}};
}
void bandwidthFromJson(const QJsonObject& b, RunReport& r)
{
    r.bytesMoved = count(b["bytesMoved"]);
    r.bandwidthGBs = real(b["GBs"]);
    r.peakPercent = real(b["percentOfPeak"]);
}

/// {checked, impossible, achievedGBs, peakGBs, peakSource, message} and, for a project that
/// states its FLOPs, {flopsPerLaunch, gflops, flopsChecked, flopsImpossible, achievedGflops,
/// peakGflops, flopsPeakSource}.
QJsonObject speedOfLightToJson(const RunReport& r, bool all)
{
    const SpeedOfLight& s = r.speedOfLight;
    QJsonObject o{{"checked", s.checked},
                  {"impossible", s.impossible},
                  {"achievedGBs", real(s.achievedGBs)},
                  {"peakGBs", real(s.peakGBs)},
                  {"peakSource", qs(s.peakSource)},
                  {"message", qs(s.message)}};
    if (r.flopsPerLaunch > 0 || all) {
        o["flopsPerLaunch"] = real(r.flopsPerLaunch);
        o["gflops"] = real(r.gflops);
        o["flopsChecked"] = s.flopsChecked;
        o["flopsImpossible"] = s.flopsImpossible;
        o["achievedGflops"] = real(s.achievedGflops);
        o["peakGflops"] = real(s.peakGflops);
        o["flopsPeakSource"] = qs(s.flopsPeakSource);
    }
    return o;
}
void speedOfLightFromJson(const QJsonObject& o, RunReport& r)
{
    SpeedOfLight& s = r.speedOfLight;
    s.checked = o["checked"].toBool();
    s.impossible = o["impossible"].toBool();
    s.achievedGBs = real(o["achievedGBs"]);
    s.peakGBs = real(o["peakGBs"]);
    s.peakSource = ss(o["peakSource"]);
    s.message = ss(o["message"]);
    if (!o.contains(QLatin1String("flopsPerLaunch"))) return;
    r.flopsPerLaunch = real(o["flopsPerLaunch"]);
    r.gflops = real(o["gflops"]);
    s.flopsChecked = o["flopsChecked"].toBool();
    s.flopsImpossible = o["flopsImpossible"].toBool();
    s.achievedGflops = real(o["achievedGflops"]);
    s.peakGflops = real(o["peakGflops"]);
    s.flopsPeakSource = ss(o["flopsPeakSource"]);
}

/// {smClockMHz, memoryClockMHz, temperatureC (each null when unknown), source}
QJsonObject conditionsToJson(const DeviceConditions& c)
{
    const auto v = [](int x) { return x < 0 ? QJsonValue() : QJsonValue(x); };
    return QJsonObject{{"smClockMHz", v(c.smClockMHz)},
                       {"memoryClockMHz", v(c.memoryClockMHz)},
                       {"temperatureC", v(c.temperatureC)},
                       {"source", qs(c.source)}};
}
DeviceConditions conditionsFromJson(const QJsonObject& o)
{
    DeviceConditions c;
    c.smClockMHz = integer(o["smClockMHz"], -1);
    c.memoryClockMHz = integer(o["memoryClockMHz"], -1);
    c.temperatureC = integer(o["temperatureC"], -1);
    c.source = ss(o["source"]);
    return c;
}

/// The result launch's own copies: {h2dMs, h2dBytes, d2hMs, d2hBytes} (-1 ms: not measured).
QJsonObject transfersToJson(const RunReport& r)
{
    return QJsonObject{{"h2dMs", real(r.h2dMs)},
                       {"h2dBytes", count(r.h2dBytes)},
                       {"d2hMs", real(r.d2hMs)},
                       {"d2hBytes", count(r.d2hBytes)}};
}
void transfersFromJson(const QJsonObject& x, RunReport& r)
{
    r.h2dMs = real(x["h2dMs"]);
    r.d2hMs = real(x["d2hMs"]);
    r.h2dBytes = count(x["h2dBytes"]);
    r.d2hBytes = count(x["d2hBytes"]);
}

// ---- Outputs ---------------------------------------------------------------------------------

QJsonObject toleranceToJson(const Tolerance& t)
{
    return QJsonObject{{"mode", toleranceModeName(t.mode)},
                       {"atol", real(t.atol)},
                       {"rtol", real(t.rtol)},
                       {"maxUlp", count(t.maxUlp)},
                       {"nanEqual", t.nanEqual}};
}
Tolerance toleranceFromJson(const QJsonObject& o)
{
    Tolerance t;
    t.mode = named(o["mode"], Tolerance::Mode::Ulp, toleranceModeName, "tolerance mode");
    t.atol = real(o["atol"]);
    t.rtol = real(o["rtol"]);
    t.maxUlp = count(o["maxUlp"]);
    t.nanEqual = o["nanEqual"].toBool();
    return t;
}

/// A compared output's diff, into its output object: result, tolerance (text), count,
/// comparedCount, maxAbs, maxRel, maxUlp ("inf" for no bound), meanAbs, rms, mismatches,
/// mismatchFraction, nan and inf {result, reference}, firstMismatches, histogram (the bins
/// that count something: {bin, lowerEdge, count}) and histogramBins.
void diffToJson(const OutputResult& r, QJsonObject& o)
{
    const DiffStats& s = r.stats;
    o["result"] = s.passed() ? "PASS" : "FAIL";
    o["tolerance"] = qs(toleranceText(r.tolerance));
    o["count"] = count(s.count);
    o["comparedCount"] = count(s.compared);
    o["maxAbs"] = real(s.maxAbs);
    o["maxRel"] = real(s.maxRel);
    o["maxUlp"] =
        s.maxUlp == std::numeric_limits<std::uint64_t>::max() ? QJsonValue("inf") : count(s.maxUlp);
    o["meanAbs"] = real(s.meanAbs);
    o["rms"] = real(s.rms);
    o["mismatches"] = count(s.mismatches);
    o["mismatchFraction"] = real(s.mismatchFraction);
    o["nan"] = QJsonObject{{"result", count(s.nanActual)}, {"reference", count(s.nanExpected)}};
    o["inf"] = QJsonObject{{"result", count(s.infActual)}, {"reference", count(s.infExpected)}};
    QJsonArray first;
    for (const Mismatch& m : s.firstMismatches) {
        QJsonObject mo{{"index", count(m.index)},      {"coordinates", sizes(m.coordinates)},
                       {"actual", real(m.actual)},     {"expected", real(m.expected)},
                       {"absError", real(m.absError)}, {"ulp", count(m.ulp)}};
        if (!m.actualText.empty()) { // integers: exact decimal text
            mo["actualExact"] = qs(m.actualText);
            mo["expectedExact"] = qs(m.expectedText);
            mo["absErrorExact"] = QString::number(m.ulp);
        }
        first.append(mo);
    }
    o["firstMismatches"] = first;
    QJsonArray hist;
    for (std::size_t i = 0; i < s.histogram.size(); ++i)
        if (const std::uint64_t c = s.histogram[i])
            hist.append(QJsonObject{{"bin", static_cast<qint64>(i)},
                                    {"lowerEdge", DiffStats::binLowerEdge(static_cast<int>(i))},
                                    {"count", count(c)}});
    o["histogram"] = hist;
    o["histogramBins"] = static_cast<qint64>(s.histogram.size());
}
DiffStats diffFromJson(const QJsonObject& o)
{
    DiffStats s;
    s.count = size(o["count"]);
    s.compared = size(o["comparedCount"]);
    s.maxAbs = real(o["maxAbs"]);
    s.maxRel = real(o["maxRel"]);
    s.maxUlp = o["maxUlp"] == QJsonValue("inf") ? std::numeric_limits<std::uint64_t>::max()
                                                : count(o["maxUlp"]);
    s.meanAbs = real(o["meanAbs"]);
    s.rms = real(o["rms"]);
    s.mismatches = size(o["mismatches"]);
    s.mismatchFraction = real(o["mismatchFraction"]);
    s.nanActual = size(o["nan"].toObject()["result"]);
    s.nanExpected = size(o["nan"].toObject()["reference"]);
    s.infActual = size(o["inf"].toObject()["result"]);
    s.infExpected = size(o["inf"].toObject()["reference"]);
    for (const QJsonValue& x : o["firstMismatches"].toArray()) {
        const QJsonObject m = x.toObject();
        Mismatch mm;
        mm.index = size(m["index"]);
        mm.coordinates = sizes(m["coordinates"]);
        mm.actual = real(m["actual"]);
        mm.expected = real(m["expected"]);
        mm.absError = real(m["absError"]);
        mm.ulp = count(m["ulp"]);
        mm.actualText = ss(m["actualExact"]);
        mm.expectedText = ss(m["expectedExact"]);
        s.firstMismatches.push_back(std::move(mm));
    }
    const std::uint64_t bins = count(o["histogramBins"]);
    if (bins > static_cast<std::uint64_t>(DiffStats::kHistogramBins))
        malformed("a histogram of " + std::to_string(bins) + " bins");
    s.histogram.assign(static_cast<std::size_t>(bins), 0);
    for (const QJsonValue& x : o["histogram"].toArray()) {
        const std::uint64_t bin = count(x.toObject()["bin"]);
        if (bin >= bins) malformed("histogram bin " + std::to_string(bin) + " out of range");
        s.histogram[static_cast<std::size_t>(bin)] = count(x.toObject()["count"]);
    }
    return s;
}

/// {total, unwritten, ambiguous, tailOnly, message} and, with elements unwritten, {firstIndex,
/// lastIndex, hint}
QJsonObject coverageToJson(const OutputResult& r)
{
    const CoverageStats& c = r.coverage;
    QJsonObject o{{"total", count(c.total)},
                  {"unwritten", count(c.unwritten)},
                  {"ambiguous", count(c.ambiguous)},
                  {"tailOnly", c.tailOnly},
                  {"message", qs(c.message(r.buffer))}};
    if (c.unwritten) {
        o["firstIndex"] = count(c.firstUnwritten);
        o["lastIndex"] = count(c.lastUnwritten);
        o["hint"] = qs(c.hint);
    }
    return o;
}
CoverageStats coverageFromJson(const QJsonObject& o)
{
    CoverageStats c;
    c.checked = true;
    c.total = size(o["total"]);
    c.unwritten = size(o["unwritten"]);
    c.ambiguous = size(o["ambiguous"]);
    c.tailOnly = o["tailOnly"].toBool();
    c.firstUnwritten = size(o["firstIndex"]);
    c.lastUnwritten = size(o["lastIndex"]);
    c.hint = ss(o["hint"]);
    return c;
}

/// {buffer, compared, toleranceSpec, resultNonFinite {nan, inf}, coverage (when checked)},
/// for an output not compared nan and inf {result}, for a compared one its diff.
QJsonObject outputToJson(const OutputResult& r)
{
    QJsonObject o{{"buffer", qs(r.buffer)},
                  {"compared", r.compared},
                  {"toleranceSpec", toleranceToJson(r.tolerance)},
                  {"resultNonFinite", QJsonObject{{"nan", count(r.nan)}, {"inf", count(r.inf)}}}};
    if (!r.compared) {
        // What is known without a reference (a compared output has them in nan/inf below).
        o["nan"] = QJsonObject{{"result", count(r.nan)}};
        o["inf"] = QJsonObject{{"result", count(r.inf)}};
    }
    if (r.coverage.checked) o["coverage"] = coverageToJson(r);
    if (r.compared) diffToJson(r, o);
    return o;
}
OutputResult outputFromJson(const QJsonObject& o)
{
    OutputResult r;
    r.buffer = ss(o["buffer"]);
    r.compared = o["compared"].toBool();
    r.tolerance = toleranceFromJson(o["toleranceSpec"].toObject());
    const QJsonObject nonFinite = o["resultNonFinite"].toObject();
    r.nan = count(nonFinite["nan"]);
    r.inf = count(nonFinite["inf"]);
    if (o.contains(QLatin1String("coverage")))
        r.coverage = coverageFromJson(o["coverage"].toObject());
    if (r.compared) r.stats = diffFromJson(o);
    return r;
}

// ---- Grade mode ------------------------------------------------------------------------------

/// {graded, coldSamples, freshInputs, freshTimedInputs, pinnedInputs, seed (decimal text),
/// checks: [{label, launch, passed, mismatches, unwritten, nanWhereFinite, message}]}
QJsonObject gradeToJson(const RunReport& r)
{
    QJsonArray checks;
    for (const LaunchCheck& c : r.checks)
        checks.append(QJsonObject{{"label", qs(c.label)},
                                  {"launch", c.launch},
                                  {"passed", c.passed},
                                  {"mismatches", count(c.mismatches)},
                                  {"unwritten", count(c.unwritten)},
                                  {"nanWhereFinite", count(c.nanWhereFinite)},
                                  {"message", qs(c.message)}});
    return QJsonObject{{"graded", r.graded},
                       {"coldSamples", r.coldSamples},
                       {"freshInputs", r.freshInputs},
                       {"freshTimedInputs", r.freshTimedInputs},
                       {"pinnedInputs", qs(r.pinnedInputs)},
                       {"seed", QString::number(r.checkSeed)},
                       {"checks", checks}};
}
void gradeFromJson(const QJsonObject& g, RunReport& r)
{
    r.graded = g.contains(QLatin1String("graded")) ? g["graded"].toBool() : true;
    r.coldSamples = g["coldSamples"].toBool();
    r.freshInputs = g["freshInputs"].toBool();
    r.freshTimedInputs = g["freshTimedInputs"].toBool();
    r.pinnedInputs = ss(g["pinnedInputs"]);
    r.checkSeed = g["seed"].toString().toULongLong();
    for (const QJsonValue& x : g["checks"].toArray()) {
        const QJsonObject c = x.toObject();
        LaunchCheck lc;
        lc.label = ss(c["label"]);
        lc.launch = integer(c["launch"]);
        lc.passed = c["passed"].toBool();
        lc.mismatches = count(c["mismatches"]);
        lc.unwritten = count(c["unwritten"]);
        lc.nanWhereFinite = count(c["nanWhereFinite"]);
        lc.message = ss(c["message"]);
        r.checks.push_back(std::move(lc));
    }
}

// ---- Trace mode (a summary: the traces themselves travel as buffers) -------------------------

QJsonObject traceToJson(const WriteTrace& t)
{
    std::size_t atomicOnly = 0;
    for (std::size_t i = 0; i < t.count(); ++i)
        atomicOnly += t.isAtomic(i) ? 1 : 0;
    QJsonArray races;
    for (std::size_t i = 0; i < t.count() && races.size() < 16; ++i)
        if (t.isRace(i))
            races.append(QJsonObject{{"index", count(i)},
                                     {"writes", static_cast<qint64>(t.writes[i])},
                                     {"lastBlock", dim(t.lastBlock(i))},
                                     {"lastThread", dim(t.lastThread(i))}});
    return QJsonObject{{"elements", count(t.count())},
                       {"unwritten", count(t.unwritten())},
                       {"writtenMoreThanOnce", count(t.writtenMoreThanOnce())},
                       {"races", count(t.races())},
                       {"atomicOnly", count(atomicOnly)},
                       {"untraced", count(t.untraced)},
                       {"firstRaces", races},
                       {"summary", qs(traceText(t))}};
}

// ---- Checks ----------------------------------------------------------------------------------

QJsonObject raceSideToJson(const RaceAccess& a)
{
    return QJsonObject{{"file", qs(a.file)},      {"line", a.line},       {"block", dim(a.block)},
                       {"thread", dim(a.thread)}, {"isWrite", a.isWrite}, {"isAtomic", a.isAtomic}};
}
RaceAccess raceSideFromJson(const QJsonObject& o)
{
    RaceAccess a;
    a.file = ss(o["file"]);
    a.line = integer(o["line"]);
    a.block = dim(o["block"]);
    a.thread = dim(o["thread"]);
    a.isWrite = o["isWrite"].toBool();
    a.isAtomic = o["isAtomic"].toBool();
    return a;
}

const char* memoryName(bool shared)
{
    return shared ? "shared" : "global";
}
bool sharedOf(const QJsonValue& v)
{
    const QString m = v.toString();
    if (m != QLatin1String("shared") && m != QLatin1String("global"))
        malformed("unknown memory " + m.toStdString());
    return m == QLatin1String("shared");
}

/// races, raceCrowding, raceCrowdedWords, and raceCrowdingNote when words were crowded.
void racesToJson(const RunReport& r, QJsonObject& root)
{
    QJsonArray races;
    for (const RaceFinding& f : r.races)
        races.append(raceToJson(f));
    root["races"] = races;
    QJsonArray crowding;
    std::uint64_t crowdedWords = 0;
    for (const RaceCrowding& c : r.raceCrowding) {
        crowding.append(crowdingToJson(c));
        crowdedWords += c.words;
    }
    root["raceCrowding"] = crowding;
    root["raceCrowdedWords"] = count(crowdedWords);
    if (crowdedWords) root["raceCrowdingNote"] = qs(raceCrowdingText(r.raceCrowding));
}

} // namespace

std::optional<CheckMode> checkModeOfName(std::string_view name)
{
    // checkModeName says "none" for None and for any value past the last mode.
    for (int i = 0;; ++i) {
        const auto mode = static_cast<CheckMode>(i);
        const std::string_view n = checkModeName(mode);
        if (i > 0 && n == checkModeName(CheckMode::None)) return std::nullopt;
        if (n == name) return mode;
    }
}

QJsonObject findingToJson(const MemoryFinding& f)
{
    const auto located = [&](const Dim3& d) -> QJsonValue {
        return f.located ? QJsonValue(dim(d)) : QJsonValue(QJsonValue::Null);
    };
    return QJsonObject{{"kind", memoryFindingKindName(f.kind)},
                       {"kernel", qs(f.kernel)},
                       {"file", qs(f.file)},
                       {"line", f.line},
                       {"block", located(f.block)},
                       {"thread", located(f.thread)},
                       {"address", hex(f.address)},
                       {"isWrite", f.isWrite},
                       {"accessSize", static_cast<qint64>(f.accessSize)},
                       {"message", qs(f.message)}};
}

MemoryFinding findingFromJson(const QJsonObject& o)
{
    MemoryFinding f;
    f.kind =
        named(o["kind"], MemoryFinding::Kind::Other, memoryFindingKindName, "memory finding kind");
    f.kernel = ss(o["kernel"]);
    f.file = ss(o["file"]);
    f.line = integer(o["line"]);
    f.located = o["block"].isArray();
    if (f.located) {
        f.block = dim(o["block"]);
        f.thread = dim(o["thread"]);
    }
    f.address = hex(o["address"]);
    f.isWrite = o["isWrite"].toBool();
    f.accessSize = unsignedInt(o["accessSize"]);
    f.message = ss(o["message"]);
    return f;
}

QJsonObject raceToJson(const RaceFinding& f)
{
    return QJsonObject{{"kernel", qs(f.kernel)},
                       {"memory", memoryName(f.shared)},
                       {"location", qs(f.location)},
                       {"address", hex(f.address)},
                       {"accessSize", static_cast<qint64>(f.accessSize)},
                       {"occurrences", count(f.occurrences)},
                       {"first", raceSideToJson(f.first)},
                       {"second", raceSideToJson(f.second)}};
}

RaceFinding raceFromJson(const QJsonObject& o)
{
    RaceFinding f;
    f.kernel = ss(o["kernel"]);
    f.shared = sharedOf(o["memory"]);
    f.location = ss(o["location"]);
    f.address = hex(o["address"]);
    f.accessSize = unsignedInt(o["accessSize"]);
    f.occurrences = count(o["occurrences"]);
    f.first = raceSideFromJson(o["first"].toObject());
    f.second = raceSideFromJson(o["second"].toObject());
    return f;
}

QJsonObject crowdingToJson(const RaceCrowding& c)
{
    return QJsonObject{
        {"location", qs(c.location)}, {"memory", memoryName(c.shared)}, {"words", count(c.words)}};
}

RaceCrowding crowdingFromJson(const QJsonObject& o)
{
    RaceCrowding c;
    c.location = ss(o["location"]);
    c.shared = sharedOf(o["memory"]);
    c.words = count(o["words"]);
    return c;
}

QJsonObject reportToJson(const RunReport& r, ReportSections sections)
{
    const bool all = sections == ReportSections::All;
    const bool timed = !r.timing.samplesMs.empty() || all;
    QJsonObject root;
    root["status"] = r.statusName();
    root["exitCode"] = r.exitCodeWithFindings();
    root["message"] = qs(r.message);
    root["project"] = qs(r.project);
    root["backend"] = backendName(r.backend);
    if (r.check != CheckMode::None) root["check"] = checkModeName(r.check);
    root["device"] = deviceToJson(r.device);
    root["compile"] = compileToJson(r, all);
    if (timed) {
        root["launch"] = launchToJson(r);
        root["timing"] = timingToJson(r.timing);
        if (!r.pipeline.empty()) root["pipeline"] = pipelineToJson(r.pipeline);
        root["bandwidth"] = bandwidthToJson(r);
        const SpeedOfLight& sol = r.speedOfLight;
        if (sol.checked || !sol.peakSource.empty() || r.flopsPerLaunch > 0 || all)
            root["speedOfLight"] = speedOfLightToJson(r, all);
        root["conditions"] = QJsonObject{{"before", conditionsToJson(r.conditionsBefore)},
                                         {"after", conditionsToJson(r.conditionsAfter)}};
        if ((r.h2dMs >= 0 && r.d2hMs >= 0) || all) root["transfers"] = transfersToJson(r);
    }
    if (!r.sandbox.empty()) root["sandbox"] = qs(r.sandbox);
    QJsonObject ref{{"kind", referenceKindName(r.referenceKind)}};
    if (!r.referenceCompiler.empty()) ref["compiler"] = qs(r.referenceCompiler);
    if (!r.referenceDiagnostics.empty())
        ref["diagnostics"] = diagnosticsToJson(r.referenceDiagnostics);
    root["reference"] = ref;
    QJsonArray outputs;
    for (const OutputResult& o : r.outputs)
        outputs.append(outputToJson(o));
    root["outputs"] = outputs;
    if (r.graded || all) root["grade"] = gradeToJson(r);
    // A summary of each write trace (the runner sends the traces themselves as buffers).
    if (!r.traces.empty() && !all) {
        QJsonObject traces;
        for (const auto& [name, t] : r.traces)
            traces[qs(name)] = traceToJson(t);
        root["trace"] = traces;
    }
    // What the kernel printed and what the checks found.
    root["kernelOutput"] = qs(r.kernelOutput);
    if (!r.sanitizerLog.empty()) root["sanitizerLog"] = qs(r.sanitizerLog);
    QJsonArray findings;
    for (const MemoryFinding& f : r.memoryFindings)
        findings.append(findingToJson(f));
    root["findings"] = findings;
    if (r.check == CheckMode::Races || all) racesToJson(r, root);
    return root;
}

RunReport reportFromJson(const QJsonObject& o)
{
    if (!o.contains(QLatin1String("status")) || !o["compile"].isObject() || !o["outputs"].isArray())
        malformed("the report is missing fields");
    RunReport r;
    r.status = named(o["status"], RunReport::Status::Unchecked, statusName, "report status");
    r.message = ss(o["message"]);
    r.project = ss(o["project"]);
    r.backend = named(o["backend"], BackendKind::Cpu, backendName, "backend");
    if (o.contains(QLatin1String("check"))) {
        const auto mode = checkModeOfName(ss(o["check"]));
        if (!mode) malformed("unknown check mode " + ss(o["check"]));
        r.check = *mode;
    }
    r.device = deviceFromJson(o["device"].toObject());
    compileFromJson(o["compile"].toObject(), r);
    if (o.contains(QLatin1String("launch"))) launchFromJson(o["launch"].toObject(), r);
    if (o.contains(QLatin1String("timing"))) r.timing = timingFromJson(o["timing"].toObject());
    if (o.contains(QLatin1String("pipeline")))
        r.pipeline = pipelineFromJson(o["pipeline"].toObject());
    if (o.contains(QLatin1String("bandwidth"))) bandwidthFromJson(o["bandwidth"].toObject(), r);
    if (o.contains(QLatin1String("speedOfLight")))
        speedOfLightFromJson(o["speedOfLight"].toObject(), r);
    if (o.contains(QLatin1String("conditions"))) {
        r.conditionsBefore = conditionsFromJson(o["conditions"].toObject()["before"].toObject());
        r.conditionsAfter = conditionsFromJson(o["conditions"].toObject()["after"].toObject());
    }
    if (o.contains(QLatin1String("transfers"))) transfersFromJson(o["transfers"].toObject(), r);
    r.sandbox = ss(o["sandbox"]);
    const QJsonObject ref = o["reference"].toObject();
    r.referenceKind =
        named(ref["kind"], ReferenceSpec::Kind::Files, referenceKindName, "reference kind");
    r.referenceCompiler = ss(ref["compiler"]);
    r.referenceDiagnostics = diagnosticsFromJson(ref["diagnostics"]);
    for (const QJsonValue& x : o["outputs"].toArray())
        r.outputs.push_back(outputFromJson(x.toObject()));
    if (o.contains(QLatin1String("grade"))) gradeFromJson(o["grade"].toObject(), r);
    r.kernelOutput = ss(o["kernelOutput"]);
    r.sanitizerLog = ss(o["sanitizerLog"]);
    for (const QJsonValue& x : o["findings"].toArray())
        r.memoryFindings.push_back(findingFromJson(x.toObject()));
    for (const QJsonValue& x : o["races"].toArray())
        r.races.push_back(raceFromJson(x.toObject()));
    for (const QJsonValue& x : o["raceCrowding"].toArray())
        r.raceCrowding.push_back(crowdingFromJson(x.toObject()));
    return r;
}

namespace json {

/// A 64-bit count, exactly: a JSON integer (Qt reads it back without a double in between), or
/// its decimal text above 2^63 - 1.
QJsonValue count(std::uint64_t v)
{
    if (v <= static_cast<std::uint64_t>(std::numeric_limits<qint64>::max()))
        return static_cast<qint64>(v);
    return QString::number(v);
}
std::uint64_t count(const QJsonValue& v)
{
    if (v.isString()) return v.toString().toULongLong();
    const qint64 i = v.toInteger(-1);
    if (i >= 0) return static_cast<std::uint64_t>(i);
    const double d = v.toDouble(0);
    return d > 0 && d < 1.8446744073709552e19 ? static_cast<std::uint64_t>(d) : 0;
}

QJsonArray dim(const Dim3& d)
{
    return QJsonArray{static_cast<qint64>(d.x), static_cast<qint64>(d.y), static_cast<qint64>(d.z)};
}
Dim3 dim(const QJsonValue& v)
{
    const QJsonArray a = v.toArray();
    return Dim3{unsignedInt(a.at(0)), unsignedInt(a.at(1)), unsignedInt(a.at(2))};
}

QJsonArray sizes(const std::vector<std::size_t>& v)
{
    QJsonArray a;
    for (std::size_t x : v)
        a.append(count(x));
    return a;
}
std::vector<std::size_t> sizes(const QJsonValue& v)
{
    std::vector<std::size_t> out;
    for (const QJsonValue& x : v.toArray())
        out.push_back(size(x));
    return out;
}

} // namespace json

} // namespace wb::session
