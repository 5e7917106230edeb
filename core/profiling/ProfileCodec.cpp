// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/profiling/ProfileCodec.h"

#include "core/common/Error.h"

#include <QJsonArray>

#include <cmath>
#include <limits>

namespace wb::profiling {

namespace {

using State = ProfilerStatus::State;

QString q(const std::string& s)
{
    return QString::fromStdString(s);
}

std::string str(const QJsonObject& o, const char* key)
{
    return o.value(QLatin1String(key)).toString().toStdString();
}

[[noreturn]] void malformed(const std::string& what)
{
    throw Error(Error::Kind::Internal, "profile JSON: " + what);
}

QJsonValue numberJson(double v)
{
    if (std::isnan(v)) return QStringLiteral("nan");
    if (std::isinf(v)) return v > 0 ? QStringLiteral("inf") : QStringLiteral("-inf");
    return v;
}

double numberFromJson(const QJsonValue& v, const char* field)
{
    if (v.isDouble()) return v.toDouble();
    const QString s = v.toString();
    if (s == QLatin1String("nan")) return std::numeric_limits<double>::quiet_NaN();
    if (s == QLatin1String("inf")) return std::numeric_limits<double>::infinity();
    if (s == QLatin1String("-inf")) return -std::numeric_limits<double>::infinity();
    malformed(std::string("'") + field + "' is not a number");
}

QJsonObject statusJson(const ProfilerStatus& s)
{
    return QJsonObject{{"state", profilerStateName(s.state)}, {"message", q(s.message)}};
}

ProfilerStatus statusFromJson(const QJsonValue& v, const char* field)
{
    if (!v.isObject()) malformed(std::string("'") + field + "' is missing");
    const QJsonObject o = v.toObject();
    return {ProfileCodec::stateFromName(str(o, "state")), str(o, "message")};
}

std::uint64_t countFromJson(const QJsonValue& v, const char* field)
{
    const double d = v.toDouble(-1);
    if (!v.isDouble() || d < 0 || d != std::floor(d) || d > 9007199254740992.0)
        malformed(std::string("'") + field + "' is not a count");
    return static_cast<std::uint64_t>(d);
}

QJsonArray stallsJson(const std::vector<StallCount>& stalls)
{
    QJsonArray a;
    for (const StallCount& s : stalls)
        a.append(QJsonObject{{"reason", q(s.reason)}, {"samples", static_cast<double>(s.samples)}});
    return a;
}

/// The stall reasons of `o`; `samples` must be their sum.
std::vector<StallCount> stallsFromJson(const QJsonObject& o, std::uint64_t samples,
                                       const char* what)
{
    std::vector<StallCount> out;
    std::uint64_t sum = 0;
    for (const QJsonValue& v : o.value(QLatin1String("stalls")).toArray()) {
        if (!v.isObject())
            malformed(std::string("a stall reason of ") + what + " is not an object");
        const QJsonObject s = v.toObject();
        StallCount c{str(s, "reason"), countFromJson(s.value(QLatin1String("samples")), "samples")};
        if (c.reason.empty()) malformed(std::string("a stall reason of ") + what + " has no name");
        sum += c.samples;
        out.push_back(std::move(c));
    }
    if (sum != samples)
        malformed(std::string(what) + "'s samples (" + std::to_string(samples) +
                  ") are not the sum of its stall reasons (" + std::to_string(sum) + ")");
    return out;
}

int lineFromJson(const QJsonObject& o)
{
    const std::uint64_t line = countFromJson(o.value(QLatin1String("line")), "line");
    if (line > 100000000) malformed("'line' is out of range");
    return static_cast<int>(line);
}

} // namespace

QJsonObject ProfileCodec::hotspotsToJson(const HotspotReport& h)
{
    QJsonArray instructions;
    for (const HotspotInstruction& i : h.instructions)
        instructions.append(QJsonObject{{"function", q(i.function)},
                                        {"pcOffset", static_cast<double>(i.pcOffset)},
                                        {"file", q(i.file)},
                                        {"line", i.line},
                                        {"samples", static_cast<double>(i.samples)},
                                        {"stalls", stallsJson(i.stalls)}});
    QJsonArray lines;
    for (const HotspotLine& l : h.lines)
        lines.append(QJsonObject{{"file", q(l.file)},
                                 {"line", l.line},
                                 {"samples", static_cast<double>(l.samples)},
                                 {"stalls", stallsJson(l.stalls)}});
    QJsonArray warnings;
    for (const std::string& w : h.warnings)
        warnings.append(q(w));
    return QJsonObject{{"kernel", q(h.kernel)},
                       {"totalSamples", static_cast<double>(h.totalSamples)},
                       {"droppedSamples", static_cast<double>(h.droppedSamples)},
                       {"samplingPeriodLog2", h.samplingPeriodLog2},
                       {"launches", h.launches},
                       {"collectMs", numberJson(h.collectMs)},
                       {"instructions", instructions},
                       {"lines", lines},
                       {"warnings", warnings}};
}

QJsonArray ProfileCodec::topLinesToJson(const HotspotReport& h, const std::string& source,
                                        std::size_t top)
{
    QJsonArray out;
    for (std::size_t i = 0; i < h.lines.size() && i < top; ++i) {
        const HotspotLine& l = h.lines[i];
        out.append(QJsonObject{{"file", q(l.file)},
                               {"line", l.line},
                               {"samples", static_cast<double>(l.samples)},
                               {"share", h.share(l)},
                               {"topStall", q(l.topStall())},
                               {"source", q(sourceLineText(source, l.line))}});
    }
    return out;
}

HotspotReport ProfileCodec::hotspotsFromJson(const QJsonObject& o)
{
    HotspotReport h;
    h.kernel = str(o, "kernel");
    h.totalSamples = countFromJson(o.value(QLatin1String("totalSamples")), "totalSamples");
    h.droppedSamples = countFromJson(o.value(QLatin1String("droppedSamples")), "droppedSamples");
    if (h.droppedSamples > h.totalSamples) malformed("more samples dropped than taken");
    const std::uint64_t period =
        countFromJson(o.value(QLatin1String("samplingPeriodLog2")), "samplingPeriodLog2");
    if (period < 5 || period > 31) malformed("'samplingPeriodLog2' is not 5..31");
    h.samplingPeriodLog2 = static_cast<int>(period);
    const std::uint64_t launches = countFromJson(o.value(QLatin1String("launches")), "launches");
    if (launches > 1000000) malformed("'launches' is out of range");
    h.launches = static_cast<int>(launches);
    h.collectMs = numberFromJson(o.value(QLatin1String("collectMs")), "collectMs");
    std::uint64_t instructionSum = 0, lineSum = 0;
    for (const QJsonValue& v : o.value(QLatin1String("instructions")).toArray()) {
        if (!v.isObject()) malformed("an instruction is not an object");
        const QJsonObject j = v.toObject();
        HotspotInstruction i;
        i.function = str(j, "function");
        i.pcOffset = countFromJson(j.value(QLatin1String("pcOffset")), "pcOffset");
        i.file = str(j, "file");
        i.line = lineFromJson(j);
        i.samples = countFromJson(j.value(QLatin1String("samples")), "samples");
        i.stalls = stallsFromJson(j, i.samples, "an instruction");
        instructionSum += i.samples;
        h.instructions.push_back(std::move(i));
    }
    for (const QJsonValue& v : o.value(QLatin1String("lines")).toArray()) {
        if (!v.isObject()) malformed("a hotspot line is not an object");
        const QJsonObject j = v.toObject();
        HotspotLine l;
        l.file = str(j, "file");
        l.line = lineFromJson(j);
        l.samples = countFromJson(j.value(QLatin1String("samples")), "samples");
        l.stalls = stallsFromJson(j, l.samples, "a line");
        lineSum += l.samples;
        h.lines.push_back(std::move(l));
    }
    if (lineSum != instructionSum)
        malformed("the hotspot lines hold " + std::to_string(lineSum) +
                  " samples, the instructions " + std::to_string(instructionSum));
    if (instructionSum > h.totalSamples - h.droppedSamples)
        malformed("more samples attributed than taken");
    for (const QJsonValue& v : o.value(QLatin1String("warnings")).toArray())
        h.warnings.push_back(v.toString().toStdString());
    return h;
}

ProfilerStatus::State ProfileCodec::stateFromName(const std::string& name)
{
    for (State s :
         {State::Ok, State::NoDriver, State::NoCupti, State::InsufficientPrivileges,
          State::ProfilerBusy, State::UnsupportedDevice, State::InvalidMetric, State::Failed})
        if (name == profilerStateName(s)) return s;
    malformed("unknown profiler state '" + name + "'");
}

QJsonObject ProfileCodec::summaryToJson(const Summary& s)
{
    return QJsonObject{{"tag", q(s.tag)},
                       {"name", q(s.name)},
                       {"hint", q(s.hint)},
                       {"value", numberJson(s.value)},
                       {"description", q(s.description)}};
}

Summary ProfileCodec::summaryFromJson(const QJsonObject& o)
{
    if (!o.contains(QLatin1String("tag")) || !o.contains(QLatin1String("value")))
        malformed("a summary needs 'tag' and 'value'");
    return {str(o, "tag"), str(o, "name"), str(o, "hint"),
            numberFromJson(o.value(QLatin1String("value")), "value"), str(o, "description")};
}

QJsonObject ProfileCodec::toJson(const ProfileReport& r)
{
    QJsonArray summaries;
    for (const Summary& s : r.summaries)
        summaries.append(summaryToJson(s));
    QJsonArray warnings;
    for (const std::string& w : r.warnings)
        warnings.append(q(w));
    QJsonObject o{{"status", statusJson(r.status)},
                  {"device", q(r.device)},
                  {"timingMethod", q(r.timingMethod)},
                  {"flushL2", r.flushL2},
                  {"stopReason", q(r.stopReason)},
                  {"chip", q(r.chip)},
                  {"passes", static_cast<double>(r.passes)},
                  {"summaries", summaries},
                  {"warnings", warnings}};
    if (r.counterStatus) o["counterStatus"] = statusJson(*r.counterStatus);
    if (r.hotspotStatus) o["hotspotStatus"] = statusJson(*r.hotspotStatus);
    if (r.hotspots) o["hotspots"] = hotspotsToJson(*r.hotspots);
    return o;
}

ProfileReport ProfileCodec::fromJson(const QJsonObject& o)
{
    ProfileReport r;
    r.status = statusFromJson(o.value(QLatin1String("status")), "status");
    r.device = str(o, "device");
    r.timingMethod = str(o, "timingMethod");
    r.flushL2 = o.value(QLatin1String("flushL2")).toBool();
    r.stopReason = str(o, "stopReason");
    r.chip = str(o, "chip");
    const double passes = o.value(QLatin1String("passes")).toDouble(0);
    if (passes < 0 || passes != std::floor(passes)) malformed("'passes' is not a count");
    r.passes = static_cast<std::size_t>(passes);
    if (o.contains(QLatin1String("counterStatus")))
        r.counterStatus = statusFromJson(o.value(QLatin1String("counterStatus")), "counterStatus");
    for (const QJsonValue& v : o.value(QLatin1String("summaries")).toArray()) {
        if (!v.isObject()) malformed("a summary is not an object");
        r.summaries.push_back(summaryFromJson(v.toObject()));
    }
    for (const QJsonValue& v : o.value(QLatin1String("warnings")).toArray())
        r.warnings.push_back(v.toString().toStdString());
    if (o.contains(QLatin1String("hotspotStatus")))
        r.hotspotStatus = statusFromJson(o.value(QLatin1String("hotspotStatus")), "hotspotStatus");
    if (o.contains(QLatin1String("hotspots"))) {
        if (!o.value(QLatin1String("hotspots")).isObject())
            malformed("'hotspots' is not an object");
        if (!r.hotspotStatus || !r.hotspotStatus->ok())
            malformed("'hotspots' without a successful 'hotspotStatus'");
        r.hotspots = hotspotsFromJson(o.value(QLatin1String("hotspots")).toObject());
    }
    return r;
}

QJsonObject ProfileCodec::optionsToJson(const SessionProfileOptions& opt)
{
    return QJsonObject{{"timing", opt.timing == TimingMethod::CuptiActivity ? "cupti" : "events"},
                       {"flushL2", opt.flushL2},
                       {"counters", opt.counters},
                       {"replay", opt.replay == ReplayMode::User ? "user" : "kernel"},
                       {"hotspots", opt.hotspots}};
}

SessionProfileOptions ProfileCodec::optionsFromJson(const QJsonObject& o)
{
    SessionProfileOptions opt;
    const QString timing = o.value(QLatin1String("timing")).toString(QStringLiteral("events"));
    if (timing == QLatin1String("cupti"))
        opt.timing = TimingMethod::CuptiActivity;
    else if (timing != QLatin1String("events"))
        malformed("unknown timing method '" + timing.toStdString() + "'");
    const QString replay = o.value(QLatin1String("replay")).toString(QStringLiteral("kernel"));
    if (replay == QLatin1String("user"))
        opt.replay = ReplayMode::User;
    else if (replay != QLatin1String("kernel"))
        malformed("unknown replay mode '" + replay.toStdString() + "'");
    opt.flushL2 = o.value(QLatin1String("flushL2")).toBool(true);
    opt.counters = o.value(QLatin1String("counters")).toBool(true);
    opt.hotspots = o.value(QLatin1String("hotspots")).toBool(false);
    return opt;
}

} // namespace wb::profiling
