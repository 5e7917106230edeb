// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli/CliCommands.h"
#include "app/cli/DebugCommand.h"
#include "app/cli/GradeCommand.h"

#include "core/backend/Backend.h"
#include "core/common/Error.h"
#include "core/common/Paths.h"
#include "core/common/UserFile.h"
#include "core/profiling/ProfileCodec.h"
#include "core/profiling/Roofline.h"
#include "core/profiling/SessionProfiling.h"
#include "core/profiling/Sweep.h"
#include "core/profiling/TimingComparison.h"
#include "core/runner/RunnerClient.h"
#include "core/runner/RunnerSweep.h"
#include "core/session/ProjectFile.h"
#include "core/session/ProjectTrust.h"
#include "core/session/ReportFormat.h"
#include "core/session/ReportJson.h"
#include "core/session/SessionRunner.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <cmath>
#include <cstdio>
#include <iostream>

namespace wb::cli {

namespace {

const char* kDescription =
    "Runs Warpbench sessions (.wbproj) without the GUI.\n"
    "\n"
    "Commands:\n"
    "  run PROJECT       compile, launch, time and check a session against its reference\n"
    "  profile PROJECT   run it (CUDA backend) and profile the kernel: cold-L2 timing and\n"
    "                    hardware counters (--timing, --no-flush, --no-counters); with\n"
    "                    --hotspots also PC sampling and the top 10 source lines\n"
    "  list-kernels FILE compile a .cu file and list its kernels with their parameters\n"
    "                    (template kernels: --instantiate 'scale<float, 128>')\n"
    "  devices           list the devices each backend can use\n"
    "  sweep PROJECT PARAMETER VALUES\n"
    "                    run the project once per value of PARAMETER (block, define:NAME or\n"
    "                    scalar:NAME) over VALUES ('32,64,128', '32..1024 x2', '1..9 +2'),\n"
    "                    each point checked (reference, never-written elements, with\n"
    "                    --bounds-check out-of-bounds accesses on the CPU emulator); the\n"
    "                    fastest valid point is the best. Exit 0 when there is one, 1 when\n"
    "                    no point is valid\n"
    "  debug PROJECT     run it on the CPU emulator under gdb: stop at --break LINE\n"
    "                    (--cond EXPR), print locals, shared memory and --print EXPR\n"
    "                    in every thread of the block; --next/--step N, --warp\n"
    "  grade PROJECT DIR run every DIR/*.cu as the project's kernel in grade mode, each\n"
    "                    in its own process and runner (--jobs at a time, --timeout),\n"
    "                    and print a table (--csv FILE, --json, --out DIR with bundles);\n"
    "                    exit 0 when grading completed, 4 on invalid arguments\n"
    "  compare A.json B.json  compare two `run --json` reports' timing distributions:\n"
    "                    faster / slower / no significant difference (Mann-Whitney U and\n"
    "                    a noise threshold); exit 1 when B is slower\n"
    "\n"
    "Exit codes:\n"
    "  0  pass: every output matches its reference; or, with no reference, ran\n"
    "     (status unchecked, not a pass) and every output element was written\n"
    "  1  mismatch: at least one output is outside its tolerance; or, with no\n"
    "     reference, an output was left (partly) unwritten\n"
    "  2  compile error (kernel or C++ reference)\n"
    "  3  runtime error (launch failure, missing input file, no usable backend,\n"
    "     a data race found by --races)\n"
    "  4  invalid project or arguments, or compiler flags refused (see --trust-project)";

void out(const std::string& s)
{
    std::cout << s << std::flush;
}
void err(const std::string& s)
{
    std::cerr << "warpbench-cli: " << s << "\n" << std::flush;
}

QString qs(const std::string& s)
{
    return QString::fromStdString(s);
}

std::optional<BackendKind> backendOption(const QCommandLineParser& p, bool& ok)
{
    ok = true;
    if (!p.isSet(QStringLiteral("backend"))) return std::nullopt;
    const auto k = parseBackendKind(p.value(QStringLiteral("backend")).toStdString());
    if (!k) {
        err("--backend: expected cuda, cpu or auto, got \"" +
            p.value(QStringLiteral("backend")).toStdString() + "\"");
        ok = false;
    }
    return k;
}

std::optional<int> intOption(const QCommandLineParser& p, const char* name, int min, bool& ok)
{
    ok = true;
    if (!p.isSet(QLatin1String(name))) return std::nullopt;
    bool conv = false;
    const int v = p.value(QLatin1String(name)).toInt(&conv);
    if (!conv || v < min) {
        err(std::string("--") + name + ": expected an integer >= " + std::to_string(min) +
            ", got \"" + p.value(QLatin1String(name)).toStdString() + "\"");
        ok = false;
    }
    return v;
}

QJsonObject deviceJson(const DeviceDescription& d, BackendKind kind)
{
    return QJsonObject{{"backend", backendName(kind)},
                       {"index", d.index},
                       {"name", qs(d.name)},
                       {"arch", qs(d.arch)},
                       {"multiprocessors", d.multiprocessors},
                       {"totalMemoryBytes", static_cast<double>(d.totalMemoryBytes)},
                       {"peakBandwidthGBs", d.peakBandwidthGBs},
                       {"driverVersion", qs(d.driverVersion)}};
}

/// --schedule SEED: a decimal unsigned 64-bit number (0: the fixed order).
bool scheduleOption(const QCommandLineParser& p, std::uint64_t& seed)
{
    if (!p.isSet(QStringLiteral("schedule"))) return true;
    bool ok = false;
    seed = p.value(QStringLiteral("schedule")).toULongLong(&ok);
    if (!ok) {
        err("--schedule: expected a non-negative integer seed, got \"" +
            p.value(QStringLiteral("schedule")).toStdString() + "\"");
        return false;
    }
    return true;
}

/// Prints a failure before anything ran: JSON {status, exitCode, message} with --json, else
/// the message on stderr. Returns `code`.
int failure(const QCommandLineParser& p, int code, const std::string& message)
{
    if (p.isSet(QStringLiteral("json"))) {
        out(QJsonDocument(
                QJsonObject{{"status", code == InvalidInput ? "invalid" : "runtime-error"},
                            {"exitCode", code},
                            {"message", qs(message)}})
                .toJson()
                .toStdString());
    } else {
        err(message);
    }
    return code;
}

} // namespace

std::string untrustedFlagsMessage(session::Session& s, bool trustProject)
{
    if (trustProject) {
        s.flagsTrusted = true;
        return {};
    }
    const std::vector<FlagRefusal> refused = session::ProjectTrust::review(s);
    if (refused.empty()) return {};
    return session::ProjectTrust::refusalMessage(
        refused, "Nothing was compiled. If you trust this project file, run again with "
                 "--trust-project.");
}

namespace {

/// Loads PROJECT, with --kernel applied. False (after printing why) when it cannot be loaded.
bool loadProject(const QCommandLineParser& p, const QString& path, session::Session& s)
{
    try {
        s = session::ProjectFile::load(path.toStdString());
        if (p.isSet(QStringLiteral("kernel"))) {
            const std::filesystem::path k =
                std::filesystem::absolute(p.value(QStringLiteral("kernel")).toStdString());
            if (!std::filesystem::is_regular_file(k))
                throw Error(Error::Kind::InvalidArgument, "--kernel: no such file: " + k.string());
            s.kernelFile = k.string();
            s.kernelSource.clear();
        }
        if (const std::string why =
                untrustedFlagsMessage(s, p.isSet(QStringLiteral("trust-project")));
            !why.empty())
            throw Error(Error::Kind::InvalidArgument, why);
    } catch (const Error& e) {
        failure(p, InvalidInput, e.what());
        return false;
    }
    return true;
}

runner::RunnerClient::Config runnerConfig(const QCommandLineParser& p)
{
    runner::RunnerClient::Config config;
    // A submission graded by `grade`: the runner stays in this process's group, which the
    // grader kills whole when the row ends.
    config.ownProcessGroup = qEnvironmentVariableIsEmpty("WARPBENCH_GRADE_CHILD");
    if (p.isSet(QStringLiteral("runner"))) {
        for (const QString& a :
             p.value(QStringLiteral("runner")).split(QLatin1Char(' '), Qt::SkipEmptyParts))
            config.command.push_back(a.toStdString());
    }
    return config;
}

/// --timeout SECONDS (or --prepare-timeout) into `ms`; false (after saying why) when it is not
/// a positive number in range.
bool timeoutOption(const QCommandLineParser& p, int& ms, const char* option = "timeout")
{
    if (!p.isSet(QLatin1String(option))) return true;
    std::string why;
    const auto sec = parseTimeoutSeconds(p.value(QLatin1String(option)), why, option);
    if (!sec) {
        err(why);
        return false;
    }
    ms = static_cast<int>(std::ceil(*sec * 1000.0)); // at most INT_MAX by the range check
    return true;
}

/// --timeout and --prepare-timeout into a runner request.
bool requestLimits(const QCommandLineParser& p, runner::RunnerClient::Request& req)
{
    req.prepareTimeoutMs = static_cast<int>(kDefaultPrepareTimeoutSeconds * 1000);
    return timeoutOption(p, req.timeoutMs) &&
           timeoutOption(p, req.prepareTimeoutMs, "prepare-timeout");
}

/// --grade, --fresh-inputs, --grade-seed, --peak-bandwidth and --peak-gflops into `opt`; false
/// (after saying why) when a value is malformed.
bool gradeOptions(const QCommandLineParser& p, session::SessionRunner::Options& opt)
{
    opt.grade.enabled = p.isSet(QStringLiteral("grade"));
    opt.grade.freshInputs = p.isSet(QStringLiteral("fresh-inputs"));
    if (opt.grade.freshInputs && !opt.grade.enabled) {
        err("--fresh-inputs is a grade-mode option: add --grade");
        return false;
    }
    if (p.isSet(QStringLiteral("grade-seed"))) {
        bool conv = false;
        opt.grade.seed = p.value(QStringLiteral("grade-seed")).toULongLong(&conv);
        if (!conv || opt.grade.seed == 0) {
            err("--grade-seed: expected a positive integer, got \"" +
                p.value(QStringLiteral("grade-seed")).toStdString() + "\"");
            return false;
        }
    }
    std::string why;
    const std::optional<double> bandwidth =
        parsePeakOption(p, QStringLiteral("peak-bandwidth"), "GB/s", why);
    const std::optional<double> gflops =
        bandwidth ? parsePeakOption(p, QStringLiteral("peak-gflops"), "GFLOP/s", why) : 0.0;
    if (!bandwidth || !gflops) {
        err(why);
        return false;
    }
    opt.peakBandwidthGBs = *bandwidth;
    opt.peakGflops = *gflops;
    return true;
}

} // namespace

std::optional<double> parsePeakOption(const QCommandLineParser& p, const QString& name,
                                      const char* unit, std::string& why)
{
    if (!p.isSet(name)) return 0.0;
    bool conv = false;
    const double value = p.value(name).toDouble(&conv);
    if (conv && value > 0 && std::isfinite(value)) return value;
    why = "--" + name.toStdString() + ": expected a positive number of " + unit + ", got \"" +
          p.value(name).toStdString() + "\"";
    return std::nullopt;
}

namespace {

int cmdRun(const QCommandLineParser& p, const QStringList& args)
{
    if (args.size() != 2) {
        err("run: expected exactly one PROJECT argument (see --help)");
        return InvalidInput;
    }
    bool ok1, ok2, ok3;
    session::SessionRunner::Options opt;
    opt.backend = backendOption(p, ok1);
    opt.device = intOption(p, "device", 0, ok2);
    opt.iterations = intOption(p, "iterations", 1, ok3);
    if (!ok1 || !ok2 || !ok3) return InvalidInput;
    if (p.isSet(QStringLiteral("trace"))) opt.check = CheckMode::Trace;
    if (p.isSet(QStringLiteral("output")))
        opt.outputDir = p.value(QStringLiteral("output")).toStdString();
    const bool raceCheck = p.isSet(QStringLiteral("races"));
    std::uint64_t schedule = 0;
    if (!scheduleOption(p, schedule)) return InvalidInput;
    if (raceCheck || p.isSet(QStringLiteral("schedule"))) {
        const char* what = raceCheck ? "--races" : "--schedule";
        if (opt.backend && *opt.backend != BackendKind::Cpu) {
            err(std::string(what) + " needs the CPU emulator (--backend cpu)");
            return InvalidInput;
        }
        for (const char* other : {"in-process", "trace", "bounds-check", "memcheck"})
            if (p.isSet(QLatin1String(other)) && (raceCheck || std::string(other) != "trace")) {
                err(std::string(what) + " cannot be combined with --" + other);
                return InvalidInput;
            }
        opt.backend = BackendKind::Cpu; // races and schedules are the emulator's
    }
    if (!gradeOptions(p, opt)) return InvalidInput;
    session::Session s;
    if (!loadProject(p, args[1], s)) return InvalidInput;
    if (p.isSet(QStringLiteral("in-process"))) {
        const session::RunReport rep = session::SessionRunner::run(s, opt);
        out(p.isSet(QStringLiteral("json")) ? rep.toJson() : rep.toText() + rep.findingsText());
        return rep.exitCodeWithFindings();
    }
    // Default: the kernel runs in warpbench-runner, so a crash or a hang is a report (trace
    // runs too: the runner sends each buffer's write records back with the results).
    runner::RunnerClient::Config config = runnerConfig(p);
    if (p.isSet(QStringLiteral("memcheck"))) {
        const QString tool = p.value(QStringLiteral("memcheck"));
        if (tool != QLatin1String("memcheck") && tool != QLatin1String("racecheck")) {
            err("--memcheck: expected memcheck or racecheck, got \"" + tool.toStdString() + "\"");
            return InvalidInput;
        }
        config.memoryCheck = tool == QLatin1String("racecheck")
                                 ? runner::RunnerClient::MemoryCheck::Racecheck
                                 : runner::RunnerClient::MemoryCheck::Memcheck;
    }
    runner::RunnerClient::Request req;
    req.session = s;
    if (config.memoryCheck != runner::RunnerClient::MemoryCheck::None)
        req.timeoutMs = 300000; // compute-sanitizer starts slowly and runs kernels 10-100x slower
    req.options = opt;
    if (p.isSet(QStringLiteral("bounds-check"))) {
        if (opt.check == CheckMode::Trace) {
            err("--bounds-check cannot be combined with --trace (checked launches run in another "
                "process)");
            return InvalidInput;
        }
        req.options.check = CheckMode::Bounds;
    }
    if (raceCheck) req.options.check = CheckMode::Races;
    req.options.schedule = schedule;
    if (raceCheck) req.timeoutMs = 300000; // instrumented: every access goes to the detector
    if (!requestLimits(p, req)) return InvalidInput;
    runner::RunnerClient client(config);
    runner::RunOutcome o = client.run(req);
    // Unwritten-element counts are recomputed here from the result buffers the runner sent back.
    session::SessionRunner::checkCoverage(s, o.report);
    // A race is a runtime finding: exit 3 unless the run already failed worse.
    if (p.isSet(QStringLiteral("json"))) {
        out(o.report.toJson());
    } else {
        out(o.report.kernelOutput); // as the kernel printed it, before the report (bounded)
        out(o.report.toText());
        out(o.report.findingsText());
    }
    return o.report.exitCodeWithFindings();
}

/// The kernel source the hotspot lines refer to ("" when it cannot be read).
std::string hotspotSource(const session::Session& s)
{
    try {
        return s.loadKernelSource();
    } catch (const Error&) {
        return {};
    }
}

int cmdProfile(const QCommandLineParser& p, const QStringList& args)
{
    if (args.size() != 2) {
        err("profile: expected exactly one PROJECT argument (see --help)");
        return InvalidInput;
    }
    bool ok1, ok2, ok3;
    runner::RunnerClient::Request req;
    req.options.backend = backendOption(p, ok1);
    req.options.device = intOption(p, "device", 0, ok2);
    req.options.iterations = intOption(p, "iterations", 1, ok3);
    if (!ok1 || !ok2 || !ok3) return InvalidInput;
    if (p.isSet(QStringLiteral("output")))
        req.options.outputDir = p.value(QStringLiteral("output")).toStdString();
    profiling::SessionProfileOptions profile;
    if (p.isSet(QStringLiteral("timing"))) {
        const QString t = p.value(QStringLiteral("timing"));
        if (t == QLatin1String("cupti"))
            profile.timing = profiling::TimingMethod::CuptiActivity;
        else if (t != QLatin1String("events")) {
            err("--timing: expected events or cupti, got \"" + t.toStdString() + "\"");
            return InvalidInput;
        }
    }
    profile.flushL2 = !p.isSet(QStringLiteral("no-flush"));
    profile.counters = !p.isSet(QStringLiteral("no-counters"));
    profile.hotspots = p.isSet(QStringLiteral("hotspots"));
    for (const char* runOnly :
         {"trace", "in-process", "bounds-check", "memcheck", "races", "schedule"})
        if (p.isSet(QLatin1String(runOnly))) {
            err(std::string("profile: --") + runOnly + " is an option of run, not of profile");
            return InvalidInput;
        }
    if (!requestLimits(p, req)) return InvalidInput;
    if (!loadProject(p, args[1], req.session)) return InvalidInput;
    if (req.session.isPipeline())
        return failure(p, InvalidInput,
                       "profile: this project is a pipeline of several launches (\"launches\"), "
                       "which profile does not support; `run` times each launch, or profile one "
                       "of its kernels in a one-launch project");

    const BackendKind kind = req.options.backend.value_or(req.session.backend);
    if (kind == BackendKind::Cpu)
        return failure(p, InvalidInput,
                       "profile needs the CUDA backend: the session runs on the CPU emulator, "
                       "which has no hardware counters and no L2 cache to flush (use --backend "
                       "cuda on a machine with an NVIDIA GPU)");
    // A remote runner (--runner) has its own GPU: it reports there if CUDA is missing.
    if (!p.isSet(QStringLiteral("runner")))
        if (const auto why = cudaUnavailableReason())
            return failure(p, RuntimeError, "profile needs the CUDA backend: " + *why);
    req.options.backend = BackendKind::Cuda;
    req.profile = profile;

    runner::RunnerClient client(runnerConfig(p));
    runner::RunOutcome o = client.run(req);
    session::SessionRunner::checkCoverage(req.session, o.report);
    const profiling::ProfileReport report =
        o.profile ? *o.profile
                  : profiling::ProfileReport::notProfiled(
                        {profiling::ProfilerStatus::State::Failed,
                         std::string(o.fault == runner::Fault::None ? "the runner sent no profile"
                                                                    : faultName(o.fault))});
    int code = o.report.exitCode();
    // The run itself went through but the profiler could not profile: a runtime error.
    const bool profileFailed = (code == Pass || code == Mismatch) && !report.profiled();
    if (profileFailed) code = RuntimeError;
    if (p.isSet(QStringLiteral("json"))) {
        QJsonObject j =
            QJsonDocument::fromJson(QByteArray::fromStdString(o.report.toJson())).object();
        QJsonObject pj = profiling::ProfileCodec::toJson(report);
        QJsonArray counters;
        for (const profiling::CounterRow& r : report.counterRows())
            counters.append(QJsonObject{{"metric", qs(r.metric)},
                                        {"name", qs(r.name)},
                                        {"value", r.value},
                                        {"unit", qs(r.unit)}});
        pj["counters"] = counters;
        if (const auto point = profiling::rooflinePoint(report.summaries)) {
            const profiling::RooflinePeaks peaks = profiling::rooflinePeaks(report.summaries);
            QJsonObject roofs;
            auto roof = [&roofs](const char* name, const profiling::Ceiling& c) {
                if (c.known())
                    roofs[QLatin1String(name)] =
                        QJsonObject{{"value", c.value}, {"source", qs(c.source)}};
            };
            roof("fp32FlopsPerS", peaks.fp32);
            roof("fp64FlopsPerS", peaks.fp64);
            roof("fp16FlopsPerS", peaks.fp16);
            roof("dramBytesPerS", peaks.dram);
            roof("l2BytesPerS", peaks.l2);
            pj["roofline"] = QJsonObject{{"precision", profiling::precisionName(point->precision)},
                                         {"flops", point->flops},
                                         {"intensityDram", point->dramIntensity},
                                         {"intensityL2", point->l2Intensity},
                                         {"achievedFlopsPerS", point->achieved},
                                         {"bound", qs(point->bound)},
                                         {"attainableFlopsPerS", point->attainable},
                                         {"percentOfRoof", point->percentOfRoof},
                                         {"roofs", roofs}};
        }
        if (report.hotspots)
            pj["topLines"] = profiling::ProfileCodec::topLinesToJson(*report.hotspots,
                                                                     hotspotSource(req.session));
        j["profile"] = pj;
        j["exitCode"] = code;
        out(QJsonDocument(j).toJson().toStdString());
    } else {
        out(o.report.kernelOutput);
        out(o.report.toText());
        out(report.toText());
        if (report.hotspots) out(report.hotspots->toText(10, hotspotSource(req.session)));
    }
    if (profileFailed) err("profile failed: " + report.status.message);
    return code;
}

/// PARAMETER of `sweep`: "block", "define:NAME" or "scalar:NAME".
std::optional<profiling::SweepParameter> sweepParameter(const QString& text)
{
    profiling::SweepParameter parameter;
    const qsizetype colon = text.indexOf(QLatin1Char(':'));
    const QString kind = text.left(colon < 0 ? text.size() : colon);
    const QString name = colon < 0 ? QString() : text.mid(colon + 1).trimmed();
    if (kind == QLatin1String("block") && colon < 0) {
        parameter.kind = profiling::SweepParameter::Kind::BlockSize;
        return parameter;
    }
    if ((kind == QLatin1String("define") || kind == QLatin1String("scalar")) && !name.isEmpty()) {
        parameter.kind = kind == QLatin1String("define") ? profiling::SweepParameter::Kind::Define
                                                         : profiling::SweepParameter::Kind::Scalar;
        parameter.name = name.toStdString();
        return parameter;
    }
    return std::nullopt;
}

/// A sweep in --json: the parameter, every point (value, ok, valid, verdict, problems,
/// mismatches, unwritten, findings, boundsChecked, medianMs), the best point (index and value,
/// null when none), the number of invalid points and the conclusion line.
QJsonObject sweepJson(const profiling::SweepResult& r)
{
    QJsonArray values;
    for (const std::string& v : r.parameter.values)
        values.append(qs(v));
    QJsonArray points;
    for (const profiling::SweepPoint& pt : r.points) {
        const profiling::SweepPointOutcome& o = pt.outcome;
        QJsonArray problems, findings;
        for (const std::string& problem : o.problems)
            problems.append(qs(problem));
        for (const MemoryFinding& f : o.findings)
            findings.append(session::findingToJson(f));
        points.append(QJsonObject{
            {"value", qs(pt.value)},
            {"ok", o.ok},
            {"valid", o.valid},
            {"verdict", qs(o.verdict)},
            {"problems", problems},
            {"mismatches", static_cast<double>(o.mismatches)},
            {"unwritten", static_cast<double>(o.unwritten)},
            {"findings", findings},
            {"boundsChecked", o.boundsChecked},
            {"medianMs", o.ok ? QJsonValue(o.timeSeconds * 1e3) : QJsonValue(QJsonValue::Null)}});
    }
    return QJsonObject{
        {"parameter", QJsonObject{{"kind", profiling::sweepKindName(r.parameter.kind)},
                                  {"name", qs(r.parameter.name)},
                                  {"values", values}}},
        {"points", points},
        {"best", r.best ? QJsonValue(static_cast<double>(*r.best)) : QJsonValue(QJsonValue::Null)},
        {"bestValue",
         r.best ? QJsonValue(qs(r.points[*r.best].value)) : QJsonValue(QJsonValue::Null)},
        {"invalid", static_cast<double>(r.invalidCount())},
        {"cancelled", r.cancelled},
        {"conclusion", qs(r.conclusion())}};
}

int cmdSweep(const QCommandLineParser& p, const QStringList& args)
{
    if (args.size() != 4) {
        err("sweep: expected PROJECT PARAMETER VALUES, e.g. sweep p.wbproj block '32..1024 x2' "
            "(see --help)");
        return InvalidInput;
    }
    auto parameter = sweepParameter(args[2]);
    if (!parameter)
        return failure(p, InvalidInput,
                       "sweep: PARAMETER is block, define:NAME or scalar:NAME, got \"" +
                           args[2].toStdString() + "\"");
    try {
        parameter->values = profiling::SweepParameter::parseValues(args[3].toStdString());
    } catch (const Error& e) {
        return failure(p, InvalidInput, std::string("sweep: VALUES: ") + e.what());
    }
    for (const char* runOnly : {"trace", "in-process", "memcheck", "output"})
        if (p.isSet(QLatin1String(runOnly)))
            return failure(p, InvalidInput,
                           std::string("sweep: --") + runOnly +
                               " is an option of run, not of sweep");
    bool ok1, ok2, ok3;
    runner::RunnerClient::Request req;
    req.options.backend = backendOption(p, ok1);
    req.options.device = intOption(p, "device", 0, ok2);
    req.options.iterations = intOption(p, "iterations", 1, ok3);
    if (!ok1 || !ok2 || !ok3) return InvalidInput;
    if (!requestLimits(p, req)) return InvalidInput;
    if (p.isSet(QStringLiteral("bounds-check"))) req.options.check = CheckMode::Bounds;
    session::Session s;
    if (!loadProject(p, args[1], s)) return InvalidInput;
    if (s.isPipeline())
        return failure(p, InvalidInput,
                       "sweep: this project is a pipeline of several launches (\"launches\"), "
                       "which sweep does not support; sweep one of its kernels in a one-launch "
                       "project");
    if (parameter->kind == profiling::SweepParameter::Kind::Scalar &&
        !s.findScalar(parameter->name))
        return failure(p, InvalidInput,
                       "sweep: the project has no scalar '" + parameter->name + "'");

    const bool json = p.isSet(QStringLiteral("json"));
    auto client = std::make_shared<runner::RunnerClient>(runnerConfig(p));
    const profiling::SweepResult r = profiling::runSweep(
        *parameter, runner::runnerSweepRunner(client, s, req),
        [json](std::size_t done, std::size_t total, const profiling::SweepPoint& point) {
            if (!json)
                std::cerr << "[" << done << "/" << total << "] " << point.value << ": "
                          << point.outcome.verdict << "\n"
                          << std::flush;
        });
    const int code = r.best ? Pass : Mismatch;
    if (json) {
        QJsonObject j = sweepJson(r);
        j["project"] = qs(s.name);
        j["boundsCheck"] = req.options.check == CheckMode::Bounds;
        j["exitCode"] = code;
        out(QJsonDocument(j).toJson().toStdString());
    } else {
        out(r.table());
        out(r.problems());
        out(r.conclusion() + "\n");
    }
    return code;
}

int cmdListKernels(const QCommandLineParser& p, const QStringList& args)
{
    if (args.size() != 2) {
        err("list-kernels: expected exactly one FILE argument");
        return InvalidInput;
    }
    bool ok;
    const auto kind = backendOption(p, ok);
    if (!ok) return InvalidInput;
    std::string source;
    const std::filesystem::path path = args[1].toStdString();
    try {
        source = UserFile::read(path, UserFile::kMaxTextBytes, "the kernel source");
    } catch (const Error& e) {
        err(e.what());
        return InvalidInput;
    }
    std::unique_ptr<Backend> backend;
    try {
        backend = createBackend(kind.value_or(BackendKind::Auto), 0);
    } catch (const Error& e) {
        err(e.what());
        return RuntimeError;
    }
    CompileOptions options;
    // The kernel's folder stands for the project folder: #include resolves there.
    {
        std::error_code ec;
        options.projectDir = std::filesystem::absolute(path, ec).parent_path().string();
    }
    for (const QString& e : p.values(QStringLiteral("instantiate")))
        options.nameExpressions.push_back(e.toStdString());
    const CompileResult r = backend->compile(source, path.filename().string(), options);
    const bool json = p.isSet(QStringLiteral("json"));
    if (!r.ok) {
        for (const Diagnostic& d : r.diagnostics)
            std::cerr << d.file << ":" << d.line << ":" << d.column << ": "
                      << severityName(d.severity) << ": " << d.message << "\n";
        if (r.diagnostics.empty()) std::cerr << r.log << "\n";
        return CompileError;
    }
    if (json) {
        QJsonArray ks;
        for (const KernelInfo& k : r.kernels) {
            QJsonArray ps;
            for (const KernelParam& pa : k.params)
                ps.append(QJsonObject{{"name", qs(pa.name)},
                                      {"type", qs(pa.type)},
                                      {"size", static_cast<double>(pa.size)},
                                      {"pointer", pa.isPointer}});
            QJsonObject ko{{"name", qs(k.name)},
                           {"loweredName", qs(k.loweredName)},
                           {"signature", qs(k.signature)},
                           {"params", ps}};
            if (k.resources.known) {
                ko["registers"] = k.resources.registers;
                ko["spillStoreBytes"] = k.resources.spillStoreBytes;
                ko["spillLoadBytes"] = k.resources.spillLoadBytes;
            }
            ks.append(ko);
        }
        out(QJsonDocument(
                QJsonObject{{"file", qs(path.string())}, {"target", qs(r.target)}, {"kernels", ks}})
                .toJson()
                .toStdString());
        return Pass;
    }
    out(path.string() + " (" + r.compilerVersion + ", " + r.target +
        "): " + std::to_string(r.kernels.size()) + " kernel(s)\n");
    // A template kernel exists only once instantiated: say how, rather than a bare "0 kernels".
    if (options.nameExpressions.empty() && source.find("template") != std::string::npos &&
        source.find("__global__") != std::string::npos)
        out("  note: template kernels are listed only when instantiated, e.g. "
            "--instantiate 'name<float, 128>'\n");
    for (const KernelInfo& k : r.kernels) {
        out("  " + k.name + "(");
        for (std::size_t i = 0; i < k.params.size(); ++i)
            out((i ? ", " : "") + k.params[i].type + " " + k.params[i].name);
        out(")");
        if (k.resources.known)
            out("  registers " + std::to_string(k.resources.registers) + ", spills " +
                std::to_string(k.resources.spillStoreBytes) + "/" +
                std::to_string(k.resources.spillLoadBytes) + " B");
        out("\n");
    }
    return Pass;
}

int cmdDevices(const QCommandLineParser& p)
{
    QJsonArray devices;
    std::string text;
    if (const auto reason = cudaUnavailableReason()) {
        text += "cuda: unavailable: " + *reason + "\n";
    } else {
        for (int i = 0; i < 64; ++i) {
            try {
                const DeviceDescription d = createBackend(BackendKind::Cuda, i)->device();
                devices.append(deviceJson(d, BackendKind::Cuda));
                text += "cuda:" + std::to_string(i) + "  " + d.name + " (" + d.arch + ", " +
                        std::to_string(d.multiprocessors) + " SMs, " +
                        std::to_string(d.totalMemoryBytes >> 20) + " MiB, peak " +
                        std::to_string(static_cast<long>(d.peakBandwidthGBs)) + " GB/s)\n";
            } catch (const Error&) {
                break;
            }
        }
    }
    try {
        const DeviceDescription d = createBackend(BackendKind::Cpu, 0)->device();
        devices.append(deviceJson(d, BackendKind::Cpu));
        text += "cpu:0   " + d.name + " (" + d.arch + ", " + std::to_string(d.multiprocessors) +
                " threads)\n";
    } catch (const Error& e) {
        text += std::string("cpu: unavailable: ") + e.what() + "\n";
    }
    if (p.isSet(QStringLiteral("json")))
        out(QJsonDocument(QJsonObject{{"devices", devices}}).toJson().toStdString());
    else
        out(text);
    return Pass;
}

/// The timing samples and conditions of a `run --json` report (or a grade bundle's
/// report.json); false (after saying why) when it has none.
bool readTimingReport(const QString& path, std::vector<double>& samples, QJsonObject& conditions)
{
    std::string text;
    try {
        text = UserFile::read(path.toStdString(), UserFile::kMaxTextBytes, "the report");
    } catch (const Error& e) {
        err(std::string("compare: ") + e.what());
        return false;
    }
    QJsonParseError pe;
    const QJsonDocument doc = QJsonDocument::fromJson(QByteArray::fromStdString(text), &pe);
    const QJsonArray a = doc.object()["timing"].toObject()["samplesMs"].toArray();
    if (pe.error != QJsonParseError::NoError || a.isEmpty()) {
        err("compare: " + path.toStdString() +
            " is not a report with timing samples (write one with: warpbench-cli run PROJECT "
            "--json > FILE)");
        return false;
    }
    for (const QJsonValue& v : a)
        samples.push_back(v.toDouble());
    conditions = doc.object()["conditions"].toObject()["after"].toObject();
    return true;
}

int cmdCompare(const QCommandLineParser& p, const QStringList& args)
{
    if (args.size() != 3) {
        err("compare: expected BASELINE.json and CURRENT.json (see --help)");
        return InvalidInput;
    }
    std::vector<double> base, cur;
    QJsonObject baseCond, curCond;
    if (!readTimingReport(args[1], base, baseCond) || !readTimingReport(args[2], cur, curCond))
        return InvalidInput;
    const profiling::TimingComparison c = profiling::compareTimings(base, cur);
    // Timings at different clocks or temperatures are not comparable: say so next to them.
    std::string note;
    const auto differs = [&](const char* key, const char* unit, double tolerance) {
        const QJsonValue a = baseCond[QLatin1String(key)], b = curCond[QLatin1String(key)];
        if (!a.isDouble() || !b.isDouble()) return;
        if (std::fabs(a.toDouble() - b.toDouble()) > tolerance * std::max(1.0, a.toDouble()))
            note += std::string(note.empty() ? "" : ", ") + key + " " + std::to_string(a.toInt()) +
                    unit + " vs " + std::to_string(b.toInt()) + unit;
    };
    differs("smClockMHz", " MHz", 0.05);
    differs("memoryClockMHz", " MHz", 0.05);
    differs("temperatureC", " C", 0.15);
    if (p.isSet(QStringLiteral("json"))) {
        QJsonObject o{{"verdict", profiling::timingVerdictName(c.verdict)},
                      {"ratio", c.ratio},
                      {"baselineMedianMs", c.baselineMedian},
                      {"currentMedianMs", c.currentMedian},
                      {"baselineSamples", static_cast<double>(c.baselineCount)},
                      {"currentSamples", static_cast<double>(c.currentCount)},
                      {"u", c.u},
                      {"z", c.z},
                      {"pValue", c.pValue},
                      {"alpha", c.alpha},
                      {"noiseThreshold", c.threshold},
                      {"conditionsDiffer", qs(note)}};
        out(QJsonDocument(o).toJson().toStdString());
    } else {
        out(c.text() + "\n");
        if (!note.empty()) out("note: the runs ran at different conditions: " + note + "\n");
    }
    if (c.verdict == profiling::TimingVerdict::TooFewSamples) return InvalidInput;
    return c.verdict == profiling::TimingVerdict::Slower ? Mismatch : Pass;
}

} // namespace

std::optional<double> parseTimeoutSeconds(const QString& text, std::string& why, const char* option)
{
    bool conv = false;
    const double sec = text.toDouble(&conv);
    if (!conv || !(sec > 0)) {
        why = std::string("--") + option + ": expected a positive number of seconds, got \"" +
              text.toStdString() + "\"";
        return std::nullopt;
    }
    if (sec > kMaxTimeoutSeconds) {
        why = std::string("--") + option + ": " + text.toStdString() +
              " s is out of range (at most " +
              std::to_string(static_cast<long>(kMaxTimeoutSeconds)) + " s, about 24 days)";
        return std::nullopt;
    }
    return sec;
}

int runCli(const QStringList& arguments)
{
    QCommandLineParser p;
    p.setApplicationDescription(QString::fromUtf8(kDescription));
    p.addHelpOption();
    p.addVersionOption();
    p.addPositionalArgument(
        QStringLiteral("command"),
        QStringLiteral("run, profile, list-kernels, devices, grade, sweep, debug or compare"));
    p.addPositionalArgument(QStringLiteral("argument"),
                            QStringLiteral("PROJECT or FILE.cu (grade: PROJECT DIR; sweep: PROJECT "
                                           "PARAMETER VALUES)"),
                            QStringLiteral("[argument...]"));
    p.addOption({QStringLiteral("backend"),
                 QStringLiteral("cuda, cpu or auto (default: the project's)."),
                 QStringLiteral("kind")});
    p.addOption({QStringLiteral("device"), QStringLiteral("Device index (default: the project's)."),
                 QStringLiteral("N")});
    p.addOption({QStringLiteral("iterations"),
                 QStringLiteral("Timed launches (default: the project's)."), QStringLiteral("N")});
    p.addOption(
        {QStringLiteral("json"), QStringLiteral("Print one JSON document instead of text.")});
    p.addOption({QStringLiteral("instantiate"),
                 QStringLiteral("list-kernels: instantiate a template kernel (repeatable), "
                                "e.g. 'scale<float, 128>'."),
                 QStringLiteral("EXPR")});
    p.addOption({QStringLiteral("output"),
                 QStringLiteral("Write each output buffer as DIR/<name>.npy, plus its exports."),
                 QStringLiteral("DIR")});
    p.addOption({QStringLiteral("kernel"),
                 QStringLiteral("run, profile, sweep: use FILE.cu instead of the project's kernel "
                                "source."),
                 QStringLiteral("FILE")});
    p.addOption(
        {QStringLiteral("trace"),
         QStringLiteral("run: CPU emulator trace mode, report who wrote each output element.")});
    p.addOption(
        {QStringLiteral("trust-project"),
         QStringLiteral("run, profile, grade, sweep: allow the project's compiler flags outside "
                        "the allowed set (docs/sessions.md); without it such a project "
                        "is refused with exit code 4.")});
    p.addOption({QStringLiteral("csv"),
                 QStringLiteral("grade: also write the table as CSV to FILE."),
                 QStringLiteral("FILE")});
    p.addOption(
        {QStringLiteral("in-process"),
         QStringLiteral("run: run the kernel inside this process instead of warpbench-runner.")});
    p.addOption(
        {QStringLiteral("timeout"),
         QStringLiteral("run, profile, sweep (per point): wall-clock limit in seconds for the "
                        "kernel, from its first launch (default 10); the runner is killed "
                        "after it. grade: per submission, compile included (default 60). "
                        "At most 2147483 s (about 24 days); more is exit 4."),
         QStringLiteral("SECONDS")});
    p.addOption(
        {QStringLiteral("prepare-timeout"),
         QStringLiteral("run, profile, sweep (per point): wall-clock limit in seconds for what "
                        "comes before the first launch: runner start-up, compiles, data "
                        "preparation (default 300); the runner and the compilers it started are "
                        "killed after it. Not applied with --in-process."),
         QStringLiteral("SECONDS")});
    p.addOption({QStringLiteral("bounds-check"),
                 QStringLiteral("run: CPU backend, bounds-checked (AddressSanitizer) mode. sweep: "
                                "run every point once bounds-checked on the CPU emulator first; "
                                "an out-of-bounds point is invalid.")});
    p.addOption({QStringLiteral("races"),
                 QStringLiteral("run: CPU backend, race-check mode: report data races on shared "
                                "and global memory (exit 3 when there are any).")});
    p.addOption({QStringLiteral("schedule"),
                 QStringLiteral("run: CPU backend, run threads and blocks in the pseudo-random "
                                "order of SEED (reproducible; 0 = the fixed order)."),
                 QStringLiteral("SEED")});
    p.addOption({QStringLiteral("memcheck"),
                 QStringLiteral("run: GPU, run under compute-sanitizer (memcheck or racecheck)."),
                 QStringLiteral("TOOL")});
    p.addOption({QStringLiteral("runner"),
                 QStringLiteral("run, profile, sweep: command that starts the runner, e.g. \"ssh "
                                "gpu-box warpbench-runner\"."),
                 QStringLiteral("COMMAND")});
    p.addOption({QStringLiteral("timing"),
                 QStringLiteral("profile: events (CUDA events, default) or cupti (CUPTI kernel "
                                "records)."),
                 QStringLiteral("METHOD")});
    p.addOption({QStringLiteral("no-flush"),
                 QStringLiteral("profile: keep L2 warm between samples (no L2 flush).")});
    p.addOption({QStringLiteral("break"),
                 QStringLiteral("debug: stop at this kernel line (repeatable)."),
                 QStringLiteral("LINE")});
    p.addOption({QStringLiteral("cond"),
                 QStringLiteral("debug: condition of the breakpoints, e.g. \"blockIdx.x == 2 && "
                                "threadIdx.x == 17\"."),
                 QStringLiteral("EXPR")});
    p.addOption({QStringLiteral("print"),
                 QStringLiteral("debug: print EXPR in every thread of the block (repeatable)."),
                 QStringLiteral("EXPR")});
    p.addOption({QStringLiteral("next"),
                 QStringLiteral("debug: then step over N lines, printing each stop."),
                 QStringLiteral("N")});
    p.addOption({QStringLiteral("step"),
                 QStringLiteral("debug: then step into N times, printing each stop."),
                 QStringLiteral("N")});
    p.addOption({QStringLiteral("warp"),
                 QStringLiteral("debug: also print the chosen thread's warp (lanes, last "
                                "shuffle/ballot).")});
    p.addOption({QStringLiteral("grade"),
                 QStringLiteral("run: grade mode: every launch from restored inputs and poisoned "
                                "outputs, a random timed launch and one after timing checked too, "
                                "cold L2 on CUDA (docs/teaching.md).")});
    p.addOption({QStringLiteral("fresh-inputs"),
                 QStringLiteral("run --grade, grade: the launch after timing gets inputs from new "
                                "seeds (uniform/normal initialisers).")});
    p.addOption({QStringLiteral("grade-seed"),
                 QStringLiteral("run --grade: seed for the checked timed launch and fresh inputs "
                                "(default: random; reports say which)."),
                 QStringLiteral("N")});
    p.addOption({QStringLiteral("peak-bandwidth"),
                 QStringLiteral("run, grade: speed-of-light check against this peak in GB/s "
                                "instead of the device's (the CPU emulator has none)."),
                 QStringLiteral("GBS")});
    p.addOption({QStringLiteral("peak-gflops"),
                 QStringLiteral("run, grade: speed-of-light check of the FLOP rate (projects that "
                                "state \"flops\") against this peak in GFLOP/s instead of the "
                                "device's FP32 peak (the CPU emulator has none; tensor cores go "
                                "past it)."),
                 QStringLiteral("GFLOPS")});
    p.addOption({QStringLiteral("jobs"),
                 QStringLiteral("grade: submissions graded at once, each in its own runner "
                                "(default: one per GPU; one per CPU core on the emulator)."),
                 QStringLiteral("N")});
    p.addOption({QStringLiteral("shard"),
                 QStringLiteral("grade: grade only the K-th of N slices of the submissions (every "
                                "N-th file in name order, starting at the K-th); the slices' --out "
                                "folders join with grade --merge."),
                 QStringLiteral("K/N")});
    p.addOption({QStringLiteral("merge"),
                 QStringLiteral("grade --merge DIR...: join the grades.json of several shards' "
                                "--out folders into one table (text, --json, --csv, --out).")});
    p.addOption({QStringLiteral("memory-limit"),
                 QStringLiteral("grade: address-space limit per submission in MiB (CPU emulator; "
                                "not applied on CUDA)."),
                 QStringLiteral("MIB")});
    p.addOption({QStringLiteral("out"),
                 QStringLiteral("grade: write DIR/grades.csv, DIR/grades.json and one "
                                "reproducible bundle per failing submission in DIR/failed/."),
                 QStringLiteral("DIR")});
    p.addOption({QStringLiteral("no-counters"),
                 QStringLiteral("profile: timing only, no hardware counters.")});
    p.addOption({QStringLiteral("hotspots"),
                 QStringLiteral("profile: PC sampling (kernel compiled with -lineinfo); prints the "
                                "top 10 source lines with their stall reasons.")});
    if (!p.parse(arguments)) {
        err(p.errorText().toStdString());
        return InvalidInput;
    }
    if (p.isSet(QStringLiteral("help"))) {
        out(p.helpText().toStdString());
        return Pass;
    }
    if (p.isSet(QStringLiteral("version"))) {
        out("warpbench-cli " + QCoreApplication::applicationVersion().toStdString() + "\n");
        return Pass;
    }
    const QStringList args = p.positionalArguments();
    if (args.isEmpty()) {
        err("no command given (run, profile, list-kernels, devices, grade, sweep, debug, compare); "
            "see --help");
        return InvalidInput;
    }
    const QString& cmd = args[0];
    // Commands that compile: a cache folder that cannot be written is said here, once, as a
    // warning (the runner then uses the same private temporary cache; its own warning goes to
    // its log).
    for (const char* compiles : {"run", "profile", "list-kernels", "grade", "sweep", "debug"})
        if (cmd == QLatin1String(compiles)) (void)cacheDir();
    try {
        if (cmd == QLatin1String("run")) return cmdRun(p, args);
        if (cmd == QLatin1String("profile")) return cmdProfile(p, args);
        if (cmd == QLatin1String("list-kernels")) return cmdListKernels(p, args);
        if (cmd == QLatin1String("devices")) return cmdDevices(p);
        if (cmd == QLatin1String("grade")) return GradeCommand::run(p, args);
        if (cmd == QLatin1String("sweep")) return cmdSweep(p, args);
        if (cmd == QLatin1String("debug")) return DebugCommand::run(p, args);
        if (cmd == QLatin1String("compare")) return cmdCompare(p, args);
    } catch (const Error& e) {
        err(e.what());
        return RuntimeError;
    }
    err("unknown command \"" + cmd.toStdString() +
        "\" (run, profile, list-kernels, devices, grade, sweep, debug, compare); see --help");
    return InvalidInput;
}

} // namespace wb::cli
