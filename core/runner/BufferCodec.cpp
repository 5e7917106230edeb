// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/runner/ReportCodec.h"

#include "core/common/Error.h"

#include <QJsonArray>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

namespace wb::runner {

using session::RunReport;

namespace {

QString qs(const std::string& s)
{
    return QString::fromStdString(s);
}
std::string ss(const QJsonValue& v)
{
    return v.toString().toStdString();
}

QJsonValue u64(std::uint64_t v)
{
    return QString::number(v);
}
std::uint64_t u64(const QJsonValue& v)
{
    return v.toString().toULongLong();
}

// JSON has no inf/nan; encode them as strings.
QJsonValue dbl(double v)
{
    if (std::isnan(v)) return QStringLiteral("nan");
    if (std::isinf(v)) return v > 0 ? QStringLiteral("inf") : QStringLiteral("-inf");
    return v;
}
double dbl(const QJsonValue& v)
{
    if (v.isString()) {
        const QString s = v.toString();
        if (s == QLatin1String("inf")) return std::numeric_limits<double>::infinity();
        if (s == QLatin1String("-inf")) return -std::numeric_limits<double>::infinity();
        return std::numeric_limits<double>::quiet_NaN();
    }
    return v.toDouble();
}
int num(const QJsonValue& v)
{
    return v.toInt();
}
/// An enum value from the wire, checked against its range [0, last].
template <typename E> E enumOf(const QJsonValue& v, E last, const char* what)
{
    const double d = v.toDouble(-1);
    if (!v.isDouble() || !(d >= 0) || d > static_cast<double>(static_cast<int>(last)) ||
        d != static_cast<double>(static_cast<int>(d)))
        throw Error(Error::Kind::Internal,
                    std::string("runner protocol: unknown ") + what + " " +
                        (v.isDouble() ? QString::number(d, 'g', 17).toStdString()
                                      : std::string("(not a number)")));
    return static_cast<E>(static_cast<int>(d));
}
unsigned unum(const QJsonValue& v)
{
    return static_cast<unsigned>(v.toDouble());
}
std::size_t size(const QJsonValue& v)
{
    return static_cast<std::size_t>(u64(v));
}

QJsonArray dim(const Dim3& d)
{
    return QJsonArray{static_cast<double>(d.x), static_cast<double>(d.y), static_cast<double>(d.z)};
}
Dim3 dim(const QJsonValue& v)
{
    const QJsonArray a = v.toArray();
    return Dim3{unum(a.at(0)), unum(a.at(1)), unum(a.at(2))};
}

QJsonArray strings(const std::vector<std::string>& v)
{
    QJsonArray a;
    for (const auto& s : v)
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

QJsonArray diagnostics(const std::vector<Diagnostic>& ds)
{
    QJsonArray a;
    for (const Diagnostic& d : ds)
        a.append(QJsonObject{{"file", qs(d.file)},
                             {"line", d.line},
                             {"column", d.column},
                             {"severity", static_cast<int>(d.severity)},
                             {"code", qs(d.code)},
                             {"message", qs(d.message)},
                             {"context", strings(d.context)}});
    return a;
}
std::vector<Diagnostic> diagnostics(const QJsonValue& v)
{
    std::vector<Diagnostic> out;
    for (const QJsonValue& x : v.toArray()) {
        const QJsonObject o = x.toObject();
        Diagnostic d;
        d.file = ss(o["file"]);
        d.line = num(o["line"]);
        d.column = num(o["column"]);
        d.severity = static_cast<Severity>(num(o["severity"]));
        d.code = ss(o["code"]);
        d.message = ss(o["message"]);
        d.context = strings(o["context"]);
        out.push_back(std::move(d));
    }
    return out;
}

QJsonObject kernel(const KernelInfo& k)
{
    QJsonArray ps;
    for (const KernelParam& p : k.params)
        ps.append(QJsonObject{{"name", qs(p.name)},
                              {"type", qs(p.type)},
                              {"size", u64(p.size)},
                              {"offset", u64(p.offset)},
                              {"alignment", u64(p.alignment)},
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
                       {"resources", QJsonArray{r.registers, r.spillStoreBytes, r.spillLoadBytes,
                                                r.stackFrameBytes, r.sharedBytes, r.constBytes,
                                                r.barriers, r.known}}};
}
KernelInfo kernel(const QJsonObject& o)
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
    const QJsonArray r = o["resources"].toArray();
    k.resources.registers = num(r.at(0));
    k.resources.spillStoreBytes = num(r.at(1));
    k.resources.spillLoadBytes = num(r.at(2));
    k.resources.stackFrameBytes = num(r.at(3));
    k.resources.sharedBytes = num(r.at(4));
    k.resources.constBytes = num(r.at(5));
    k.resources.barriers = num(r.at(6));
    k.resources.known = r.at(7).toBool();
    return k;
}

QJsonObject tolerance(const session::Tolerance& t)
{
    return QJsonObject{{"mode", static_cast<int>(t.mode)},
                       {"atol", dbl(t.atol)},
                       {"rtol", dbl(t.rtol)},
                       {"maxUlp", u64(t.maxUlp)},
                       {"nanEqual", t.nanEqual}};
}
session::Tolerance tolerance(const QJsonObject& o)
{
    session::Tolerance t;
    t.mode = static_cast<session::Tolerance::Mode>(num(o["mode"]));
    t.atol = dbl(o["atol"]);
    t.rtol = dbl(o["rtol"]);
    t.maxUlp = u64(o["maxUlp"]);
    t.nanEqual = o["nanEqual"].toBool();
    return t;
}

QJsonArray sizes(const std::vector<std::size_t>& v)
{
    QJsonArray a;
    for (std::size_t x : v)
        a.append(u64(x));
    return a;
}
std::vector<std::size_t> sizes(const QJsonValue& v)
{
    std::vector<std::size_t> out;
    for (const QJsonValue& x : v.toArray())
        out.push_back(size(x));
    return out;
}

QJsonObject diff(const session::DiffStats& d)
{
    QJsonArray mism;
    for (const session::Mismatch& m : d.firstMismatches)
        mism.append(QJsonObject{{"index", u64(m.index)},
                                {"coordinates", sizes(m.coordinates)},
                                {"actual", dbl(m.actual)},
                                {"expected", dbl(m.expected)},
                                {"absError", dbl(m.absError)},
                                {"ulp", u64(m.ulp)},
                                {"actualText", QString::fromStdString(m.actualText)},
                                {"expectedText", QString::fromStdString(m.expectedText)}});
    QJsonArray hist;
    for (std::uint64_t h : d.histogram)
        hist.append(u64(h));
    return QJsonObject{{"count", u64(d.count)},
                       {"compared", u64(d.compared)},
                       {"maxAbs", dbl(d.maxAbs)},
                       {"maxRel", dbl(d.maxRel)},
                       {"maxUlp", u64(d.maxUlp)},
                       {"meanAbs", dbl(d.meanAbs)},
                       {"rms", dbl(d.rms)},
                       {"mismatches", u64(d.mismatches)},
                       {"mismatchFraction", dbl(d.mismatchFraction)},
                       {"nan", QJsonArray{u64(d.nanActual), u64(d.nanExpected), u64(d.infActual),
                                          u64(d.infExpected)}},
                       {"firstMismatches", mism},
                       {"histogram", hist}};
}
session::DiffStats diff(const QJsonObject& o)
{
    session::DiffStats d;
    d.count = size(o["count"]);
    d.compared = size(o["compared"]);
    d.maxAbs = dbl(o["maxAbs"]);
    d.maxRel = dbl(o["maxRel"]);
    d.maxUlp = u64(o["maxUlp"]);
    d.meanAbs = dbl(o["meanAbs"]);
    d.rms = dbl(o["rms"]);
    d.mismatches = size(o["mismatches"]);
    d.mismatchFraction = dbl(o["mismatchFraction"]);
    const QJsonArray n = o["nan"].toArray();
    d.nanActual = size(n.at(0));
    d.nanExpected = size(n.at(1));
    d.infActual = size(n.at(2));
    d.infExpected = size(n.at(3));
    for (const QJsonValue& x : o["firstMismatches"].toArray()) {
        const QJsonObject m = x.toObject();
        session::Mismatch mm;
        mm.index = size(m["index"]);
        mm.coordinates = sizes(m["coordinates"]);
        mm.actual = dbl(m["actual"]);
        mm.expected = dbl(m["expected"]);
        mm.absError = dbl(m["absError"]);
        mm.ulp = u64(m["ulp"]);
        mm.actualText = m["actualText"].toString().toStdString();
        mm.expectedText = m["expectedText"].toString().toStdString();
        d.firstMismatches.push_back(std::move(mm));
    }
    for (const QJsonValue& x : o["histogram"].toArray())
        d.histogram.push_back(u64(x));
    return d;
}

QJsonObject conditions(const DeviceConditions& c)
{
    return QJsonObject{{"sm", c.smClockMHz},
                       {"memory", c.memoryClockMHz},
                       {"temperature", c.temperatureC},
                       {"source", qs(c.source)}};
}

DeviceConditions conditions(const QJsonObject& o)
{
    DeviceConditions c;
    c.smClockMHz = o["sm"].toInt(-1);
    c.memoryClockMHz = o["memory"].toInt(-1);
    c.temperatureC = o["temperature"].toInt(-1);
    c.source = ss(o["source"]);
    return c;
}

/// Grade mode, speed of light and clocks: optional (a runner from before them sends none).
QJsonObject gradeJson(const RunReport& r)
{
    QJsonArray checks;
    for (const session::LaunchCheck& c : r.checks)
        checks.append(QJsonObject{{"label", qs(c.label)},
                                  {"launch", c.launch},
                                  {"passed", c.passed},
                                  {"mismatches", u64(c.mismatches)},
                                  {"unwritten", u64(c.unwritten)},
                                  {"nanWhereFinite", u64(c.nanWhereFinite)},
                                  {"message", qs(c.message)}});
    const session::SpeedOfLight& sol = r.speedOfLight;
    return QJsonObject{{"graded", r.graded},
                       {"coldSamples", r.coldSamples},
                       {"freshInputs", r.freshInputs},
                       {"freshTimedInputs", r.freshTimedInputs},
                       {"pinnedInputs", qs(r.pinnedInputs)},
                       {"seed", u64(r.checkSeed)},
                       {"checks", checks},
                       {"before", conditions(r.conditionsBefore)},
                       {"after", conditions(r.conditionsAfter)},
                       {"sol", QJsonObject{{"peakGBs", dbl(sol.peakGBs)},
                                           {"peakSource", qs(sol.peakSource)},
                                           {"achievedGBs", dbl(sol.achievedGBs)},
                                           {"checked", sol.checked},
                                           {"impossible", sol.impossible},
                                           {"message", qs(sol.message)},
                                           {"peakGflops", dbl(sol.peakGflops)},
                                           {"flopsPeakSource", qs(sol.flopsPeakSource)},
                                           {"achievedGflops", dbl(sol.achievedGflops)},
                                           {"flopsChecked", sol.flopsChecked},
                                           {"flopsImpossible", sol.flopsImpossible}}}};
}

void gradeFromJson(const QJsonObject& g, RunReport& r)
{
    r.graded = g["graded"].toBool();
    r.coldSamples = g["coldSamples"].toBool();
    r.freshInputs = g["freshInputs"].toBool();
    r.freshTimedInputs = g["freshTimedInputs"].toBool();
    r.pinnedInputs = ss(g["pinnedInputs"]);
    r.checkSeed = u64(g["seed"]);
    for (const QJsonValue& x : g["checks"].toArray()) {
        const QJsonObject c = x.toObject();
        session::LaunchCheck lc;
        lc.label = ss(c["label"]);
        lc.launch = num(c["launch"]);
        lc.passed = c["passed"].toBool();
        lc.mismatches = u64(c["mismatches"]);
        lc.unwritten = u64(c["unwritten"]);
        lc.nanWhereFinite = u64(c["nanWhereFinite"]);
        lc.message = ss(c["message"]);
        r.checks.push_back(std::move(lc));
    }
    r.conditionsBefore = conditions(g["before"].toObject());
    r.conditionsAfter = conditions(g["after"].toObject());
    const QJsonObject sol = g["sol"].toObject();
    r.speedOfLight.peakGBs = dbl(sol["peakGBs"]);
    r.speedOfLight.peakSource = ss(sol["peakSource"]);
    r.speedOfLight.achievedGBs = dbl(sol["achievedGBs"]);
    r.speedOfLight.checked = sol["checked"].toBool();
    r.speedOfLight.impossible = sol["impossible"].toBool();
    r.speedOfLight.message = ss(sol["message"]);
    r.speedOfLight.peakGflops = dbl(sol["peakGflops"]);
    r.speedOfLight.flopsPeakSource = ss(sol["flopsPeakSource"]);
    r.speedOfLight.achievedGflops = dbl(sol["achievedGflops"]);
    r.speedOfLight.flopsChecked = sol["flopsChecked"].toBool();
    r.speedOfLight.flopsImpossible = sol["flopsImpossible"].toBool();
}

/// A pipeline's launches (RunReport::pipeline), each with its timed samples.
QJsonArray pipelineJson(const std::vector<session::PipelineLaunchTiming>& launches)
{
    QJsonArray a;
    for (const session::PipelineLaunchTiming& l : launches) {
        QJsonArray vars, samples;
        for (const auto& [name, value] : l.vars)
            vars.append(QJsonArray{qs(name), static_cast<qint64>(value)});
        for (double s : l.timing.samplesMs)
            samples.append(dbl(s));
        a.append(QJsonObject{{"entry", static_cast<qint64>(l.entry)},
                             {"kernel", qs(l.kernel)},
                             {"vars", vars},
                             {"grid", dim(l.config.grid)},
                             {"block", dim(l.config.block)},
                             {"sharedBytes", static_cast<double>(l.config.sharedBytes)},
                             {"samplesMs", samples}});
    }
    return a;
}

std::vector<session::PipelineLaunchTiming> pipelineOf(const QJsonValue& v)
{
    std::vector<session::PipelineLaunchTiming> out;
    for (const QJsonValue& x : v.toArray()) {
        const QJsonObject o = x.toObject();
        session::PipelineLaunchTiming l;
        l.entry = static_cast<std::size_t>(std::max<qint64>(0, o["entry"].toInteger()));
        l.kernel = ss(o["kernel"]);
        for (const QJsonValue& var : o["vars"].toArray())
            l.vars.emplace_back(ss(var.toArray().at(0)), var.toArray().at(1).toInteger());
        l.config.grid = dim(o["grid"]);
        l.config.block = dim(o["block"]);
        l.config.sharedBytes = unum(o["sharedBytes"]);
        std::vector<double> samples;
        for (const QJsonValue& s : o["samplesMs"].toArray())
            samples.push_back(dbl(s));
        l.timing = session::TimingStats::of(std::move(samples));
        out.push_back(std::move(l));
    }
    return out;
}

} // namespace

QJsonObject ReportCodec::toJson(const RunReport& r)
{
    QJsonArray samples;
    for (double s : r.timing.samplesMs)
        samples.append(dbl(s));
    QJsonArray outputs;
    for (const session::OutputResult& o : r.outputs)
        outputs.append(QJsonObject{{"buffer", qs(o.buffer)},
                                   {"compared", o.compared},
                                   {"tolerance", tolerance(o.tolerance)},
                                   {"stats", diff(o.stats)}});
    const DeviceDescription& d = r.device;
    QJsonObject out{
        {"status", static_cast<int>(r.status)},
        {"message", qs(r.message)},
        {"project", qs(r.project)},
        {"backend", static_cast<int>(r.backend)},
        {"device", QJsonObject{{"name", qs(d.name)},
                               {"index", d.index},
                               {"arch", qs(d.arch)},
                               {"multiprocessors", d.multiprocessors},
                               {"totalMemoryBytes", u64(d.totalMemoryBytes)},
                               {"peakBandwidthGBs", dbl(d.peakBandwidthGBs)},
                               {"peakFp32Gflops", dbl(d.peakFp32Gflops)},
                               {"l2CacheBytes", u64(d.l2CacheBytes)},
                               {"driverVersion", qs(d.driverVersion)}}},
        {"compiled", r.compiled},
        {"compilerVersion", qs(r.compilerVersion)},
        {"target", qs(r.target)},
        {"compileMs", dbl(r.compileMs)},
        {"diagnostics", diagnostics(r.diagnostics)},
        {"compileLog", qs(r.compileLog)},
        {"kernel", kernel(r.kernel)},
        {"launch", QJsonObject{{"grid", dim(r.launch.grid)},
                               {"block", dim(r.launch.block)},
                               {"sharedBytes", static_cast<double>(r.launch.sharedBytes)},
                               {"cluster", dim(r.launch.cluster)}}},
        {"warmup", r.warmup},
        {"iterations", r.iterations},
        {"timing", QJsonObject{{"samplesMs", samples},
                               {"medianMs", dbl(r.timing.medianMs)},
                               {"minMs", dbl(r.timing.minMs)},
                               {"meanMs", dbl(r.timing.meanMs)},
                               {"stdevMs", dbl(r.timing.stdevMs)}}},
        {"bytesMoved", u64(r.bytesMoved)},
        {"bandwidthGBs", dbl(r.bandwidthGBs)},
        {"peakPercent", dbl(r.peakPercent)},
        {"flopsPerLaunch", dbl(r.flopsPerLaunch)},
        {"gflops", dbl(r.gflops)},
        {"transfers", QJsonObject{{"h2dMs", dbl(r.h2dMs)},
                                  {"d2hMs", dbl(r.d2hMs)},
                                  {"h2dBytes", u64(r.h2dBytes)},
                                  {"d2hBytes", u64(r.d2hBytes)}}},
        {"referenceKind", static_cast<int>(r.referenceKind)},
        {"referenceCompiler", qs(r.referenceCompiler)},
        {"referenceDiagnostics", diagnostics(r.referenceDiagnostics)},
        {"outputs", outputs},
        {"grade", gradeJson(r)},
    };
    if (!r.pipeline.empty()) out["pipeline"] = pipelineJson(r.pipeline);
    if (!r.sandbox.empty()) out["sandbox"] = qs(r.sandbox);
    if (r.check != CheckMode::None) out["check"] = static_cast<int>(r.check);
    return out;
}

RunReport ReportCodec::fromJson(const QJsonObject& o)
{
    if (!o.contains(QLatin1String("status")) || !o.contains(QLatin1String("timing")))
        throw Error(Error::Kind::Internal, "runner protocol: report is missing fields");
    RunReport r;
    r.status = enumOf(o["status"], RunReport::Status::Unchecked, "report status");
    r.message = ss(o["message"]);
    r.project = ss(o["project"]);
    r.backend = enumOf(o["backend"], BackendKind::Cpu, "backend");
    const QJsonObject d = o["device"].toObject();
    r.device.name = ss(d["name"]);
    r.device.index = num(d["index"]);
    r.device.arch = ss(d["arch"]);
    r.device.multiprocessors = num(d["multiprocessors"]);
    r.device.totalMemoryBytes = u64(d["totalMemoryBytes"]);
    r.device.peakBandwidthGBs = dbl(d["peakBandwidthGBs"]);
    r.device.peakFp32Gflops = dbl(d["peakFp32Gflops"]);
    r.device.l2CacheBytes = u64(d["l2CacheBytes"]);
    r.device.driverVersion = ss(d["driverVersion"]);
    r.compiled = o["compiled"].toBool();
    r.compilerVersion = ss(o["compilerVersion"]);
    r.target = ss(o["target"]);
    r.compileMs = dbl(o["compileMs"]);
    r.diagnostics = diagnostics(o["diagnostics"]);
    r.compileLog = ss(o["compileLog"]);
    r.kernel = kernel(o["kernel"].toObject());
    const QJsonObject l = o["launch"].toObject();
    r.launch.grid = dim(l["grid"]);
    r.launch.block = dim(l["block"]);
    r.launch.sharedBytes = unum(l["sharedBytes"]);
    r.launch.cluster = dim(l["cluster"]);
    r.warmup = num(o["warmup"]);
    r.iterations = num(o["iterations"]);
    const QJsonObject t = o["timing"].toObject();
    for (const QJsonValue& x : t["samplesMs"].toArray())
        r.timing.samplesMs.push_back(dbl(x));
    r.timing.medianMs = dbl(t["medianMs"]);
    r.timing.minMs = dbl(t["minMs"]);
    r.timing.meanMs = dbl(t["meanMs"]);
    r.timing.stdevMs = dbl(t["stdevMs"]);
    r.pipeline = pipelineOf(o["pipeline"]); // absent for a one-launch project
    r.bytesMoved = u64(o["bytesMoved"]);
    r.bandwidthGBs = dbl(o["bandwidthGBs"]);
    r.peakPercent = dbl(o["peakPercent"]);
    r.flopsPerLaunch = dbl(o["flopsPerLaunch"]);
    r.gflops = dbl(o["gflops"]);
    // Optional (a runner from before transfer timing does not send it): -1 = not measured.
    if (o.contains(QLatin1String("transfers"))) {
        const QJsonObject x = o["transfers"].toObject();
        r.h2dMs = dbl(x["h2dMs"]);
        r.d2hMs = dbl(x["d2hMs"]);
        r.h2dBytes = u64(x["h2dBytes"]);
        r.d2hBytes = u64(x["d2hBytes"]);
    }
    r.referenceKind =
        enumOf(o["referenceKind"], session::ReferenceSpec::Kind::Files, "reference kind");
    if (o.contains(QLatin1String("check")))
        r.check = enumOf(o["check"], CheckMode::Races, "check mode");
    r.referenceCompiler = ss(o["referenceCompiler"]);
    r.sandbox = ss(o["sandbox"]);
    r.referenceDiagnostics = diagnostics(o["referenceDiagnostics"]);
    for (const QJsonValue& x : o["outputs"].toArray()) {
        const QJsonObject oo = x.toObject();
        session::OutputResult out;
        out.buffer = ss(oo["buffer"]);
        out.compared = oo["compared"].toBool();
        out.tolerance = tolerance(oo["tolerance"].toObject());
        out.stats = diff(oo["stats"].toObject());
        r.outputs.push_back(std::move(out));
    }
    if (o.contains(QLatin1String("grade"))) gradeFromJson(o["grade"].toObject(), r);
    return r;
}

QJsonObject ReportCodec::findingToJson(const MemoryFinding& f)
{
    return QJsonObject{{"kind", static_cast<int>(f.kind)},
                       {"kernel", qs(f.kernel)},
                       {"file", qs(f.file)},
                       {"line", f.line},
                       {"block", dim(f.block)},
                       {"thread", dim(f.thread)},
                       {"located", f.located},
                       {"address", u64(f.address)},
                       {"isWrite", f.isWrite},
                       {"accessSize", static_cast<double>(f.accessSize)},
                       {"message", qs(f.message)}};
}

MemoryFinding ReportCodec::findingFromJson(const QJsonObject& o)
{
    MemoryFinding f;
    f.kind = enumOf(o["kind"], MemoryFinding::Kind::Other, "memory finding kind");
    f.kernel = ss(o["kernel"]);
    f.file = ss(o["file"]);
    f.line = num(o["line"]);
    f.block = dim(o["block"]);
    f.thread = dim(o["thread"]);
    f.located = o["located"].toBool();
    f.address = u64(o["address"]);
    f.isWrite = o["isWrite"].toBool();
    f.accessSize = unum(o["accessSize"]);
    f.message = ss(o["message"]);
    return f;
}

namespace {

QJsonObject raceSideToJson(const RaceAccess& a)
{
    return QJsonObject{{"file", qs(a.file)},      {"line", a.line},       {"block", dim(a.block)},
                       {"thread", dim(a.thread)}, {"isWrite", a.isWrite}, {"isAtomic", a.isAtomic}};
}

RaceAccess raceSideFromJson(const QJsonObject& o)
{
    RaceAccess a;
    a.file = ss(o["file"]);
    a.line = num(o["line"]);
    a.block = dim(o["block"]);
    a.thread = dim(o["thread"]);
    a.isWrite = o["isWrite"].toBool();
    a.isAtomic = o["isAtomic"].toBool();
    return a;
}

} // namespace

QJsonObject ReportCodec::raceToJson(const RaceFinding& f)
{
    return QJsonObject{{"kernel", qs(f.kernel)},
                       {"shared", f.shared},
                       {"location", qs(f.location)},
                       {"address", u64(f.address)},
                       {"accessSize", static_cast<double>(f.accessSize)},
                       {"first", raceSideToJson(f.first)},
                       {"second", raceSideToJson(f.second)},
                       {"occurrences", u64(f.occurrences)}};
}

RaceFinding ReportCodec::raceFromJson(const QJsonObject& o)
{
    RaceFinding f;
    f.kernel = ss(o["kernel"]);
    f.shared = o["shared"].toBool();
    f.location = ss(o["location"]);
    f.address = u64(o["address"]);
    f.accessSize = unum(o["accessSize"]);
    f.first = raceSideFromJson(o["first"].toObject());
    f.second = raceSideFromJson(o["second"].toObject());
    f.occurrences = u64(o["occurrences"]);
    return f;
}

QJsonObject ReportCodec::crowdingToJson(const RaceCrowding& c)
{
    return QJsonObject{{"location", qs(c.location)}, {"shared", c.shared}, {"words", u64(c.words)}};
}

RaceCrowding ReportCodec::crowdingFromJson(const QJsonObject& o)
{
    RaceCrowding c;
    c.location = ss(o["location"]);
    c.shared = o["shared"].toBool();
    c.words = u64(o["words"]);
    return c;
}

QJsonObject ReportCodec::arrayHeader(const session::HostArray& a)
{
    return QJsonObject{{"type", session::elementTypeName(a.type())}, {"shape", sizes(a.shape())}};
}

session::HostArray ReportCodec::arrayFromHeader(const QJsonObject& o, std::uint64_t maxBytes)
{
    const auto type = session::parseElementType(ss(o["type"]));
    if (!type)
        throw Error(Error::Kind::Internal,
                    "runner protocol: unknown element type " + ss(o["type"]));
    const std::vector<std::size_t> shape = sizes(o["shape"]);
    // The size is checked before anything is allocated: a shape from a misbehaving runner must
    // be an error message, not std::bad_alloc.
    std::uint64_t bytes = elementSize(*type);
    for (std::size_t d : shape)
        if (d == 0) bytes = 0;
    for (std::size_t d : shape) {
        if (bytes == 0) break;
        if (bytes > maxBytes / d)
            throw Error(Error::Kind::Internal,
                        "runner protocol: a buffer of shape " + session::shapeToText(shape) +
                            " is larger than the " + std::to_string(maxBytes) +
                            " bytes the runner sent for it");
        bytes *= d;
    }
    if (bytes > maxBytes)
        throw Error(Error::Kind::Internal, "runner protocol: a buffer of shape " +
                                               session::shapeToText(shape) +
                                               " is larger than the " + std::to_string(maxBytes) +
                                               " bytes the runner sent for it");
    return session::HostArray(*type, shape);
}

namespace {

template <typename T> session::HostArray toArray(session::ElementType type, const std::vector<T>& v)
{
    session::HostArray a(type, {v.size()});
    if (!v.empty()) std::memcpy(a.data(), v.data(), v.size() * sizeof(T));
    return a;
}

template <typename T>
std::vector<T> fromArray(std::map<std::string, session::HostArray>& arrays, const std::string& key,
                         std::size_t count)
{
    const auto it = arrays.find(key);
    if (it == arrays.end() || it->second.bytes() != count * sizeof(T))
        throw Error(Error::Kind::Internal,
                    "runner protocol: trace array '" + key + "' is missing or of the wrong size");
    std::vector<T> v(count);
    if (count) std::memcpy(v.data(), it->second.data(), count * sizeof(T));
    arrays.erase(it);
    return v;
}

} // namespace

QJsonObject ReportCodec::traceHeader(const WriteTrace& t)
{
    return QJsonObject{{"buffer", QString::fromStdString(t.buffer)},
                       {"shape", sizes(t.shape)},
                       {"elementSize", static_cast<double>(t.elementSize)},
                       {"grid", dim(t.grid)},
                       {"block", dim(t.block)},
                       {"count", static_cast<double>(t.count())},
                       {"untraced", static_cast<double>(t.untraced)}};
}

std::map<std::string, session::HostArray> ReportCodec::traceArrays(const WriteTrace& t)
{
    using session::ElementType;
    const std::string p = t.buffer + "/";
    std::map<std::string, session::HostArray> out;
    out.emplace(p + "lastWriter", toArray(ElementType::I64, t.lastWriter));
    out.emplace(p + "writes", toArray(ElementType::I32, t.writes));
    out.emplace(p + "atomicWrites", toArray(ElementType::I32, t.atomicWrites));
    out.emplace(p + "multipleWriters", toArray(ElementType::U8, t.multipleWriters));
    out.emplace(p + "untracedMask", toArray(ElementType::U8, t.untracedMask));
    return out;
}

WriteTrace ReportCodec::traceFromParts(const QJsonObject& h,
                                       std::map<std::string, session::HostArray>& arrays)
{
    WriteTrace t;
    t.buffer = ss(h["buffer"]);
    t.shape = sizes(h["shape"]);
    t.elementSize = static_cast<std::size_t>(h["elementSize"].toDouble());
    t.grid = dim(h["grid"]);
    t.block = dim(h["block"]);
    t.untraced = static_cast<std::size_t>(h["untraced"].toDouble());
    const auto n = static_cast<std::size_t>(h["count"].toDouble());
    const std::string p = t.buffer + "/";
    t.lastWriter = fromArray<std::uint64_t>(arrays, p + "lastWriter", n);
    t.writes = fromArray<std::uint32_t>(arrays, p + "writes", n);
    t.atomicWrites = fromArray<std::uint32_t>(arrays, p + "atomicWrites", n);
    t.multipleWriters = fromArray<std::uint8_t>(arrays, p + "multipleWriters", n);
    t.untracedMask = fromArray<std::uint8_t>(arrays, p + "untracedMask", n);
    return t;
}

} // namespace wb::runner
