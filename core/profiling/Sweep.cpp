// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/profiling/Sweep.h"

#include "core/common/Error.h"

#include <QRegularExpression>
#include <QString>

#include <cmath>
#include <cstdio>
#include <exception>

namespace wb::profiling {

namespace {

constexpr std::size_t kMaxPoints = 10000;
constexpr std::size_t kVerdictWidth = 64; ///< verdicts longer than this are cut in table()

std::string number(double v)
{
    if (std::fabs(v - std::round(v)) < 1e-9 && std::fabs(v) < 9e15)
        return std::to_string(static_cast<long long>(std::llround(v)));
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.10g", v);
    return buffer;
}

double parsedNumber(const QString& text, const char* what)
{
    bool ok = false;
    const double v = text.trimmed().toDouble(&ok);
    if (!ok)
        throw Error(Error::Kind::InvalidArgument,
                    std::string(what) + " is not a number: '" + text.toStdString() + "'");
    return v;
}

} // namespace

const char* sweepKindName(SweepParameter::Kind kind) noexcept
{
    switch (kind) {
    case SweepParameter::Kind::BlockSize:
        return "block size";
    case SweepParameter::Kind::Define:
        return "#define";
    case SweepParameter::Kind::Scalar:
        return "scalar";
    }
    return "?";
}

std::vector<std::string> SweepParameter::range(double start, double stop, double step)
{
    if (step == 0 || !std::isfinite(step) || !std::isfinite(start) || !std::isfinite(stop) ||
        (stop - start) * step < 0)
        throw Error(Error::Kind::InvalidArgument, "sweep range " + number(start) + ".." +
                                                      number(stop) + " step " + number(step) +
                                                      " never reaches its end");
    const double count = std::floor((stop - start) / step + 1e-9) + 1;
    if (count > static_cast<double>(kMaxPoints))
        throw Error(Error::Kind::InvalidArgument, "sweep range has " + number(count) +
                                                      " points; at most " +
                                                      std::to_string(kMaxPoints) + " are allowed");
    std::vector<std::string> values;
    for (std::size_t i = 0; i < static_cast<std::size_t>(count); ++i)
        values.push_back(number(start + static_cast<double>(i) * step));
    return values;
}

std::vector<std::string> SweepParameter::geometric(double start, double stop, double factor)
{
    if (!(start > 0) || !(factor > 1) || !std::isfinite(stop))
        throw Error(Error::Kind::InvalidArgument, "geometric sweep needs start > 0 and factor > 1");
    std::vector<std::string> values;
    for (double v = start; v <= stop * (1 + 1e-12); v *= factor) {
        if (values.size() >= kMaxPoints)
            throw Error(Error::Kind::InvalidArgument, "geometric sweep has too many points");
        values.push_back(number(v));
    }
    return values;
}

std::vector<std::string> SweepParameter::parseValues(const std::string& text)
{
    const QString t = QString::fromStdString(text).trimmed();
    if (t.isEmpty()) throw Error(Error::Kind::InvalidArgument, "no values to sweep");
    static const QRegularExpression range(
        QStringLiteral(R"(^([^.\s]+)\s*\.\.\s*([^\sx*+]+)\s*(?:([x*+])\s*(\S+))?$)"));
    const auto m = range.match(t);
    if (m.hasMatch()) {
        const double start = parsedNumber(m.captured(1), "range start");
        const double stop = parsedNumber(m.captured(2), "range end");
        const QString op = m.captured(3);
        if (op == QStringLiteral("x") || op == QStringLiteral("*"))
            return geometric(start, stop, parsedNumber(m.captured(4), "factor"));
        const double step = op.isEmpty() ? 1.0 : parsedNumber(m.captured(4), "step");
        return SweepParameter::range(start, stop, step);
    }
    if (t.contains(QStringLiteral("..")))
        throw Error(
            Error::Kind::InvalidArgument,
            std::string("a range is start..stop, start..stop +step or start..stop x factor: '") +
                t.toStdString() + "'");
    std::vector<std::string> values;
    static const QRegularExpression separators(QStringLiteral("[,;\\s]+"));
    for (const QString& v : t.split(separators, Qt::SkipEmptyParts))
        values.push_back(v.toStdString());
    return values;
}

std::size_t SweepResult::invalidCount() const noexcept
{
    std::size_t n = 0;
    for (const SweepPoint& p : points)
        n += p.outcome.valid ? 0 : 1;
    return n;
}

std::string SweepResult::problems() const
{
    std::string s;
    for (const SweepPoint& p : points) {
        if (p.outcome.valid) continue;
        const std::string name =
            (parameter.name.empty() ? sweepKindName(parameter.kind) : parameter.name) +
            std::string(" = ") + p.value;
        if (p.outcome.problems.empty()) {
            s += "  " + name + ": " + p.outcome.verdict + "\n";
            continue;
        }
        for (const std::string& problem : p.outcome.problems)
            s += "  " + name + ": " + problem + "\n";
    }
    return s.empty() ? s : "invalid points:\n" + s;
}

std::string SweepResult::conclusion() const
{
    const std::string name =
        parameter.name.empty() ? sweepKindName(parameter.kind) : parameter.name;
    const std::size_t invalid = invalidCount();
    const std::string total = std::to_string(points.size());
    std::string s;
    if (best) {
        const SweepPoint& b = points[*best];
        s = "best: " + name + " = " + b.value + " (" +
            formatSummaryValue({"wb/sweep/time", "Time", "duration", b.outcome.timeSeconds, ""}) +
            ")";
        if (invalid)
            s += "; " + std::to_string(invalid) + " of " + total + " point" +
                 (points.size() == 1 ? "" : "s") + " invalid (never recommended)";
    } else if (points.empty()) {
        s = "no valid point: no point ran";
    } else {
        s = "no valid point: " +
            (points.size() == 1 ? std::string("the only point is")
                                : "all " + total + " points are") +
            " invalid — nothing to recommend";
    }
    if (cancelled) s += " (cancelled after " + total + " points)";
    return s;
}

std::string SweepResult::table() const
{
    std::vector<std::vector<Summary>> rows;
    std::vector<std::string> labels;
    for (std::size_t i = 0; i < points.size(); ++i) {
        const SweepPoint& p = points[i];
        // Long verdicts are cut here; problems() lists them in full.
        std::string verdict = p.outcome.verdict;
        if (verdict.size() > kVerdictWidth) verdict = verdict.substr(0, kVerdictWidth - 3) + "...";
        std::string label =
            (parameter.name.empty() ? sweepKindName(parameter.kind) : parameter.name) +
            std::string(" = ") + p.value + (best && *best == i ? "  (best)" : "") + "  [" +
            verdict + "]";
        labels.push_back(std::move(label));
        std::vector<Summary> row;
        if (p.outcome.ok)
            row.push_back({"wb/sweep/time", "Time", "duration", p.outcome.timeSeconds, ""});
        for (const Summary& s : p.outcome.summaries)
            row.push_back(s);
        rows.push_back(std::move(row));
    }
    return formatSummaryTable(rows, labels);
}

SweepResult runSweep(const SweepParameter& parameter, const SweepPointRunner& runner,
                     const SweepProgress& progress, const std::atomic<bool>* cancel)
{
    SweepResult result;
    result.parameter = parameter;
    const std::size_t total = parameter.values.size();
    for (const std::string& value : parameter.values) {
        if (cancel && cancel->load(std::memory_order_relaxed)) {
            result.cancelled = true;
            break;
        }
        SweepPoint point{value, {}};
        try {
            point.outcome = runner(parameter, value);
        } catch (const std::exception& e) {
            point.outcome = {};
            point.outcome.verdict = e.what();
        }
        if (!point.outcome.ok) point.outcome.valid = false;
        result.points.push_back(std::move(point));
        const std::size_t index = result.points.size() - 1;
        const SweepPointOutcome& o = result.points[index].outcome;
        if (o.ok && o.valid && std::isfinite(o.timeSeconds) &&
            (!result.best || o.timeSeconds < result.points[*result.best].outcome.timeSeconds))
            result.best = index;
        if (progress) progress(result.points.size(), total, result.points[index]);
    }
    return result;
}

} // namespace wb::profiling
