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

} // namespace

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
    return r;
}

QJsonObject ProfileCodec::optionsToJson(const SessionProfileOptions& opt)
{
    return QJsonObject{{"timing", opt.timing == TimingMethod::CuptiActivity ? "cupti" : "events"},
                       {"flushL2", opt.flushL2},
                       {"counters", opt.counters},
                       {"replay", opt.replay == ReplayMode::User ? "user" : "kernel"}};
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
    return opt;
}

} // namespace wb::profiling
