// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli/GradeCommand.h"

#include "app/cli/CliCommands.h"
#include "core/backend/Backend.h"
#include "core/common/Error.h"
#include "core/common/ProcessTree.h"
#include "core/session/ProjectFile.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QProcessEnvironment>
#include <QSaveFile>
#include <QTemporaryDir>
#include <QThread>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <iostream>
#include <limits>
#include <map>
#include <mutex>
#include <thread>

#include <csignal>
#include <sys/resource.h>
#include <unistd.h>

namespace wb::cli {

namespace {

void err(const QString& s)
{
    std::cerr << "warpbench-cli: grade: " << s.toStdString() << "\n" << std::flush;
}

double jsonNumber(const QJsonValue& v)
{
    if (v.isDouble()) return v.toDouble();
    const QString s = v.toString();
    if (s == QLatin1String("inf")) return std::numeric_limits<double>::infinity();
    if (s == QLatin1String("-inf")) return -std::numeric_limits<double>::infinity();
    return std::numeric_limits<double>::quiet_NaN();
}

QString oneLine(QString s)
{
    s.replace(QLatin1Char('\n'), QLatin1String(" | "));
    return s.trimmed();
}

QString csvField(const QString& s)
{
    if (!s.contains(QLatin1Char(',')) && !s.contains(QLatin1Char('"')) &&
        !s.contains(QLatin1Char('\n')))
        return s;
    QString q = s;
    q.replace(QLatin1String("\""), QLatin1String("\"\""));
    return QLatin1Char('"') + q + QLatin1Char('"');
}

QString numberText(double v, int precision = 6)
{
    if (std::isnan(v)) return QStringLiteral("nan");
    if (std::isinf(v)) return v > 0 ? QStringLiteral("inf") : QStringLiteral("-inf");
    return QString::number(v, 'g', precision);
}

/// Fills a row from the child's `run --json` report.
void readReport(const QJsonObject& rep, GradeRow& row)
{
    row.result = rep.value(QLatin1String("status")).toString();
    if (row.result == QLatin1String("mismatch")) row.result = QStringLiteral("fail");
    QStringList why;
    const QString message = rep.value(QLatin1String("message")).toString();
    if (row.result == QLatin1String("compile-error")) {
        const QJsonArray diags = rep.value(QLatin1String("compile"))
                                     .toObject()
                                     .value(QLatin1String("diagnostics"))
                                     .toArray();
        for (const QJsonValue& d : diags) {
            const QJsonObject o = d.toObject();
            if (o.value(QLatin1String("severity")).toString() == QLatin1String("warning")) continue;
            why << QStringLiteral("%1:%2: %3")
                       .arg(o.value(QLatin1String("file")).toString())
                       .arg(o.value(QLatin1String("line")).toInt())
                       .arg(o.value(QLatin1String("message")).toString());
            break;
        }
    }
    if (why.isEmpty() && !message.isEmpty()) why << message;
    const QJsonArray outs = rep.value(QLatin1String("outputs")).toArray();
    double maxAbs = outs.isEmpty() ? std::numeric_limits<double>::quiet_NaN() : 0.0;
    for (const QJsonValue& v : outs) {
        const QJsonObject o = v.toObject();
        if (o.value(QLatin1String("compared")).toBool()) {
            double m = jsonNumber(o.value(QLatin1String("maxAbs")));
            // The diff's error statistics cover finite pairs only: a NaN or Inf the reference
            // does not have (an unwritten element, a division by zero) makes the error unknown.
            const auto side = [&](const char* key, const char* which) {
                return o.value(QLatin1String(key))
                    .toObject()
                    .value(QLatin1String(which))
                    .toDouble();
            };
            if (side("nan", "result") != side("nan", "reference") ||
                side("inf", "result") != side("inf", "reference"))
                m = std::numeric_limits<double>::quiet_NaN();
            if (std::isnan(m) || std::isnan(maxAbs))
                maxAbs = std::numeric_limits<double>::quiet_NaN();
            else
                maxAbs = std::max(maxAbs, m);
            if (o.value(QLatin1String("result")).toString() == QLatin1String("FAIL")) {
                const double mism = o.value(QLatin1String("mismatches")).toDouble();
                why << QStringLiteral("%1: %2 mismatches")
                           .arg(o.value(QLatin1String("buffer")).toString())
                           .arg(static_cast<qint64>(mism));
            }
        }
        const QJsonObject c = o.value(QLatin1String("coverage")).toObject();
        if (!c.isEmpty()) {
            row.unwritten = std::max<qint64>(row.unwritten, 0) +
                            static_cast<qint64>(c.value(QLatin1String("unwritten")).toDouble());
            const QString cm = c.value(QLatin1String("message")).toString();
            if (!cm.isEmpty()) why << cm;
        }
    }
    row.maxAbs = maxAbs;
    const QJsonObject timing = rep.value(QLatin1String("timing")).toObject();
    if (timing.contains(QLatin1String("medianMs")))
        row.kernelMs = timing.value(QLatin1String("medianMs")).toDouble();
    const QJsonObject bw = rep.value(QLatin1String("bandwidth")).toObject();
    if (bw.contains(QLatin1String("GBs")))
        row.bandwidthGBs = bw.value(QLatin1String("GBs")).toDouble();
    const QJsonObject sol = rep.value(QLatin1String("speedOfLight")).toObject();
    row.peakGBs = sol.value(QLatin1String("peakGBs")).toDouble();
    if (sol.value(QLatin1String("impossible")).toBool()) {
        row.speedOfLight = QStringLiteral("impossible");
        why.prepend(sol.value(QLatin1String("message")).toString());
        // Right answers at an impossible speed: not a pass.
        if (row.result == QLatin1String("pass")) row.result = QStringLiteral("impossible");
    } else if (sol.value(QLatin1String("checked")).toBool()) {
        row.speedOfLight = QStringLiteral("ok");
    } else if (row.kernelMs >= 0) {
        row.speedOfLight = QStringLiteral("unchecked");
    }
    const QJsonObject grade = rep.value(QLatin1String("grade")).toObject();
    row.seed = grade.value(QLatin1String("seed")).toString();
    // The most elements any checked launch left unwritten (a kernel may write in the result
    // launch and nothing later).
    for (const QJsonValue& c : grade.value(QLatin1String("checks")).toArray())
        row.unwritten = std::max<qint64>(
            row.unwritten,
            static_cast<qint64>(c.toObject().value(QLatin1String("unwritten")).toDouble()));
    row.message = oneLine(why.join(QLatin1String("; ")));
}

} // namespace

/// The table: --csv FILE, --out DIR (grades.csv, grades.json), and text or --json on stdout.
static int writeTables(const QCommandLineParser& p, const QString& project,
                       const std::vector<GradeRow>& rows, const QString& shard)
{
    const auto save = [&](const QString& path, const QByteArray& bytes) {
        QSaveFile f(path);
        if (!f.open(QIODevice::WriteOnly) || f.write(bytes) != bytes.size() || !f.commit()) {
            err(QStringLiteral("cannot write %1: %2").arg(path, f.errorString()));
            return false;
        }
        return true;
    };
    const QString outDir = p.value(QStringLiteral("out"));
    if (!outDir.isEmpty() && !QDir().mkpath(outDir)) {
        err(QStringLiteral("cannot create %1").arg(outDir));
        return InvalidInput;
    }
    const QByteArray json = GradeCommand::toJson(project, rows, shard);
    if (p.isSet(QStringLiteral("csv")) &&
        !save(p.value(QStringLiteral("csv")), GradeCommand::toCsv(rows).toUtf8()))
        return RuntimeError;
    if (!outDir.isEmpty() && (!save(QDir(outDir).filePath(QStringLiteral("grades.csv")),
                                    GradeCommand::toCsv(rows).toUtf8()) ||
                              !save(QDir(outDir).filePath(QStringLiteral("grades.json")), json)))
        return RuntimeError;
    if (p.isSet(QStringLiteral("json")))
        std::cout << json.toStdString() << std::flush;
    else
        std::cout << GradeCommand::toText(rows).toStdString() << std::flush;
    return Pass;
}

GradeRow GradeCommand::gradeOne(const QString& cli, const QString& project,
                                const QString& submission, const QStringList& extraArgs,
                                double timeoutS, qint64 memoryLimitBytes)
{
    GradeRow row;
    row.file = QFileInfo(submission).fileName();
    row.maxAbs = std::numeric_limits<double>::quiet_NaN();
    const qsizetype dev = extraArgs.indexOf(QStringLiteral("--device"));
    if (dev >= 0 && dev + 1 < extraArgs.size()) row.device = extraArgs[dev + 1].toInt();
    QProcess p;
    p.setProgram(cli);
    // The child leads a process group of its own that its runner, the runner's children and
    // the compilers join (WARPBENCH_GRADE_CHILD): killed whole when the row ends, so no process
    // of a submission outlives its row. The memory limit, set before exec, is inherited by all.
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("WARPBENCH_GRADE_CHILD"), QStringLiteral("1"));
    p.setProcessEnvironment(env);
    const auto limit = static_cast<rlim_t>(memoryLimitBytes);
    p.setChildProcessModifier([limit] {
        ::setpgid(0, 0);
        if (limit > 0) {
            const struct rlimit r {
                limit, limit
            };
            ::setrlimit(RLIMIT_AS, &r);
        }
    });
    // The child's runner enforces the same limit on the kernel; this process's wait below also
    // covers the compile, so it is the outer bound.
    p.setArguments(QStringList{QStringLiteral("run"), project, QStringLiteral("--kernel"),
                               submission, QStringLiteral("--json"), QStringLiteral("--grade"),
                               QStringLiteral("--timeout"), QString::number(timeoutS),
                               // The same bound for the compile: the child's runner stops a
                               // stuck compile itself (its compilers with it) and says so.
                               QStringLiteral("--prepare-timeout"), QString::number(timeoutS)} +
                   extraArgs);
    QElapsedTimer timer;
    timer.start();
    p.start();
    if (!p.waitForStarted()) {
        row.result = QStringLiteral("runtime-error");
        row.message = QStringLiteral("could not start %1: %2").arg(cli, p.errorString());
        return row;
    }
    const auto group = static_cast<pid_t>(p.processId());
    struct KillGroup {
        pid_t group;
        ~KillGroup()
        {
            if (group > 0) ::kill(-group, SIGKILL);
        }
    } killGroup{group};
    const bool finished = p.waitForFinished(static_cast<int>(std::lround(timeoutS * 1000.0)));
    if (!finished) {
        // The run, its runner and the runner's compilers: all of it, at once (the whole
        // process group, then anything that left it).
        ::kill(-group, SIGKILL);
        killProcessTree(static_cast<pid_t>(p.processId()));
        p.waitForFinished();
        row.wallS = static_cast<double>(timer.elapsed()) / 1000.0;
        row.result = QStringLiteral("timeout");
        row.message = QStringLiteral("stopped after %1 s (runaway kernel?)").arg(timeoutS);
        return row;
    }
    row.wallS = static_cast<double>(timer.elapsed()) / 1000.0;
    const QByteArray out = p.readAllStandardOutput();
    const QString errText = oneLine(QString::fromUtf8(p.readAllStandardError()));
    if (p.exitStatus() != QProcess::NormalExit) {
        row.result = QStringLiteral("crashed");
        row.message = QStringLiteral("the run crashed (%1)%2")
                          .arg(p.errorString(),
                               errText.isEmpty() ? QString() : QStringLiteral(": ") + errText);
        return row;
    }
    QJsonParseError pe;
    const QJsonDocument doc = QJsonDocument::fromJson(out, &pe);
    if (pe.error != QJsonParseError::NoError || !doc.isObject()) {
        row.result = QStringLiteral("runtime-error");
        row.message = QStringLiteral("exit %1, no report: %2").arg(p.exitCode()).arg(errText);
        return row;
    }
    row.report = out;
    readReport(doc.object(), row);
    // The child's runner stopped the kernel at the same limit: a timeout like the one above.
    if (row.result == QLatin1String("runtime-error") && doc.object()
                                                            .value(QLatin1String("message"))
                                                            .toString()
                                                            .startsWith(QLatin1String("timeout"))) {
        row.result = QStringLiteral("timeout");
        row.message = QStringLiteral("stopped after %1 s (runaway kernel?): %2")
                          .arg(timeoutS)
                          .arg(row.message);
    }
    return row;
}

QString GradeCommand::toCsv(const std::vector<GradeRow>& rows)
{
    QString s = QStringLiteral("file,result,max_abs_error,unwritten,kernel_ms,gb_s,speed_of_light,"
                               "peak_gb_s,wall_s,device,seed,message,bundle\n");
    for (const GradeRow& r : rows)
        s += QStringList{csvField(r.file),
                         r.result,
                         numberText(r.maxAbs),
                         r.unwritten < 0 ? QString() : QString::number(r.unwritten),
                         r.kernelMs < 0 ? QString() : numberText(r.kernelMs),
                         r.bandwidthGBs < 0 ? QString() : numberText(r.bandwidthGBs),
                         r.speedOfLight,
                         r.peakGBs > 0 ? numberText(r.peakGBs) : QString(),
                         QString::number(r.wallS, 'f', 3),
                         r.device < 0 ? QString() : QString::number(r.device),
                         r.seed,
                         csvField(r.message),
                         csvField(r.bundle)}
                 .join(QLatin1Char(',')) +
             QLatin1Char('\n');
    return s;
}

QByteArray GradeCommand::toJson(const QString& project, const std::vector<GradeRow>& rows,
                                const QString& shard)
{
    QJsonArray a;
    int passed = 0, impossible = 0;
    for (const GradeRow& r : rows) {
        passed += r.passed() ? 1 : 0;
        impossible += r.speedOfLight == QLatin1String("impossible") ? 1 : 0;
        QJsonObject o{{"file", r.file},
                      {"result", r.result},
                      {"passed", r.passed()},
                      {"wallS", r.wallS},
                      {"message", r.message}};
        o["maxAbsError"] =
            std::isfinite(r.maxAbs) ? QJsonValue(r.maxAbs) : QJsonValue(numberText(r.maxAbs));
        o["unwritten"] =
            r.unwritten < 0 ? QJsonValue() : QJsonValue(static_cast<double>(r.unwritten));
        o["kernelMs"] = r.kernelMs < 0 ? QJsonValue() : QJsonValue(r.kernelMs);
        o["bandwidthGBs"] = r.bandwidthGBs < 0 ? QJsonValue() : QJsonValue(r.bandwidthGBs);
        o["speedOfLight"] = r.speedOfLight.isEmpty() ? QJsonValue() : QJsonValue(r.speedOfLight);
        o["peakGBs"] = r.peakGBs > 0 ? QJsonValue(r.peakGBs) : QJsonValue();
        o["device"] = r.device < 0 ? QJsonValue() : QJsonValue(r.device);
        o["seed"] = r.seed.isEmpty() ? QJsonValue() : QJsonValue(r.seed);
        o["bundle"] = r.bundle.isEmpty() ? QJsonValue() : QJsonValue(r.bundle);
        a.append(o);
    }
    QJsonObject doc{{"project", project},
                    {"submissions", static_cast<int>(rows.size())},
                    {"passed", passed},
                    {"impossible", impossible},
                    {"results", a}};
    if (!shard.isEmpty()) doc["shard"] = shard;
    return QJsonDocument(doc).toJson(QJsonDocument::Indented);
}

GradeRow GradeCommand::rowFromJson(const QJsonObject& o)
{
    GradeRow r;
    r.file = o.value(QLatin1String("file")).toString();
    r.result = o.value(QLatin1String("result")).toString();
    r.wallS = o.value(QLatin1String("wallS")).toDouble();
    r.message = o.value(QLatin1String("message")).toString();
    r.maxAbs = jsonNumber(o.value(QLatin1String("maxAbsError")));
    const auto optional = [&](const char* key, double none) {
        const QJsonValue v = o.value(QLatin1String(key));
        return v.isDouble() ? v.toDouble() : none;
    };
    r.unwritten = static_cast<qint64>(optional("unwritten", -1));
    r.kernelMs = optional("kernelMs", -1);
    r.bandwidthGBs = optional("bandwidthGBs", -1);
    r.speedOfLight = o.value(QLatin1String("speedOfLight")).toString();
    r.peakGBs = optional("peakGBs", 0);
    r.device = static_cast<int>(optional("device", -1));
    r.seed = o.value(QLatin1String("seed")).toString();
    r.bundle = o.value(QLatin1String("bundle")).toString();
    return r;
}

bool GradeCommand::parseShard(const QString& text, int& k, int& n, QString& why)
{
    const QStringList parts = text.split(QLatin1Char('/'));
    bool okK = false, okN = false;
    if (parts.size() == 2) {
        k = parts[0].toInt(&okK);
        n = parts[1].toInt(&okN);
    }
    if (!okK || !okN || n < 1 || k < 1 || k > n) {
        why = QStringLiteral("--shard: expected K/N with 1 <= K <= N, got \"%1\"").arg(text);
        return false;
    }
    return true;
}

int GradeCommand::merge(const QCommandLineParser& p, const QStringList& args)
{
    if (args.size() < 2) {
        err(QStringLiteral("--merge: expected the shards' --out folders"));
        return InvalidInput;
    }
    QString project;
    int total = 0;
    std::map<int, QString> shards; // K -> folder
    std::map<QString, GradeRow> rows;
    for (qsizetype i = 1; i < args.size(); ++i) {
        const QString path = QDir(args[i]).filePath(QStringLiteral("grades.json"));
        QFile f(path);
        if (!f.open(QIODevice::ReadOnly)) {
            err(QStringLiteral("--merge: cannot read %1").arg(path));
            return InvalidInput;
        }
        QJsonParseError pe;
        const QJsonObject doc = QJsonDocument::fromJson(f.readAll(), &pe).object();
        if (pe.error != QJsonParseError::NoError ||
            !doc.value(QLatin1String("results")).isArray()) {
            err(QStringLiteral("--merge: %1 is not a grades.json of warpbench-cli grade")
                    .arg(path));
            return InvalidInput;
        }
        const QString proj = doc.value(QLatin1String("project")).toString();
        if (project.isEmpty()) project = proj;
        if (proj != project) {
            err(QStringLiteral("--merge: %1 graded %2, not %3").arg(path, proj, project));
            return InvalidInput;
        }
        const QString shard = doc.value(QLatin1String("shard")).toString();
        int k = 1, n = 1;
        QString why;
        if (!shard.isEmpty() && !parseShard(shard, k, n, why)) {
            err(QStringLiteral("%1: %2").arg(path, why));
            return InvalidInput;
        }
        if (total == 0) total = n;
        if (n != total) {
            err(QStringLiteral("--merge: %1 is shard %2, the others are slices of %3")
                    .arg(path, shard)
                    .arg(total));
            return InvalidInput;
        }
        if (!shards.emplace(k, args[i]).second) {
            err(QStringLiteral("--merge: shard %1/%2 is given twice (%3 and %4)")
                    .arg(k)
                    .arg(n)
                    .arg(shards[k], args[i]));
            return InvalidInput;
        }
        for (const QJsonValue& v : doc.value(QLatin1String("results")).toArray()) {
            GradeRow r = rowFromJson(v.toObject());
            if (!rows.emplace(r.file, r).second) {
                err(QStringLiteral("--merge: %1 is graded in more than one shard").arg(r.file));
                return InvalidInput;
            }
        }
    }
    if (static_cast<int>(shards.size()) != total) {
        QStringList missing;
        for (int k = 1; k <= total; ++k)
            if (!shards.count(k)) missing << QStringLiteral("%1/%2").arg(k).arg(total);
        err(QStringLiteral("--merge: shards missing: %1").arg(missing.join(QStringLiteral(", "))));
        return InvalidInput;
    }
    std::vector<GradeRow> table;
    for (auto& [file, r] : rows)
        table.push_back(std::move(r));
    return writeTables(p, project, table, {});
}

QString GradeCommand::toText(const std::vector<GradeRow>& rows)
{
    int width = 10;
    for (const GradeRow& r : rows)
        width = std::max(width, static_cast<int>(r.file.size()));
    QString s = QStringLiteral("%1  %2  %3  %4  %5  %6  %7  %8\n")
                    .arg(QStringLiteral("file"), -width)
                    .arg(QStringLiteral("result"), -13)
                    .arg(QStringLiteral("max abs"), 10)
                    .arg(QStringLiteral("unwritten"), 9)
                    .arg(QStringLiteral("kernel ms"), 10)
                    .arg(QStringLiteral("GB/s"), 9)
                    .arg(QStringLiteral("speed"), -10)
                    .arg(QStringLiteral("message"));
    int passed = 0;
    for (const GradeRow& r : rows) {
        passed += r.passed() ? 1 : 0;
        s += QStringLiteral("%1  %2  %3  %4  %5  %6  %7  %8\n")
                 .arg(r.file, -width)
                 .arg(r.result, -13)
                 .arg(numberText(r.maxAbs, 4), 10)
                 .arg(r.unwritten < 0 ? QStringLiteral("-") : QString::number(r.unwritten), 9)
                 .arg(r.kernelMs < 0 ? QStringLiteral("-") : numberText(r.kernelMs, 4), 10)
                 .arg(r.bandwidthGBs < 0 ? QStringLiteral("-") : numberText(r.bandwidthGBs, 4), 9)
                 .arg(r.speedOfLight.isEmpty() ? QStringLiteral("-") : r.speedOfLight, -10)
                 .arg(r.message);
    }
    s += QStringLiteral("%1 of %2 submissions pass\n").arg(passed).arg(rows.size());
    return s;
}

QString GradeCommand::writeBundle(const QString& dir, const QString& project,
                                  const QString& submission, const GradeRow& row,
                                  const QStringList& extraArgs, QString& why)
{
    const QString stem = QFileInfo(submission).completeBaseName();
    const QDir root(QDir(dir).absoluteFilePath(stem));
    if (!QDir().mkpath(root.path())) {
        why = QStringLiteral("cannot create %1").arg(root.path());
        return {};
    }
    const QFileInfo proj(project);
    const QDir projDir = proj.absoluteDir();
    QStringList copied, skipped;
    const auto copy = [&](const QString& from, const QString& to) {
        QFile::remove(to);
        QDir().mkpath(QFileInfo(to).absolutePath());
        if (QFile::copy(from, to)) {
            QFile(to).setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ReadGroup |
                                     QFile::ReadOther);
            return true;
        }
        return false;
    };
    if (!copy(proj.absoluteFilePath(), root.filePath(proj.fileName()))) {
        why = QStringLiteral("cannot copy %1 into %2").arg(proj.absoluteFilePath(), root.path());
        return {};
    }
    // The files the project reads, at the same place relative to it; one outside the project's
    // folder cannot be placed so and is listed in the README instead.
    std::vector<std::string> used;
    try {
        const session::Session s = session::ProjectFile::load(project.toStdString());
        if (!s.kernelFile.empty()) used.push_back(s.kernelFile);
        if (!s.reference.file.empty()) used.push_back(s.reference.file);
        for (const auto& [buffer, file] : s.reference.files)
            used.push_back(file);
        for (const session::BufferSpec& b : s.buffers)
            if (!b.init.path.empty()) used.push_back(b.init.path);
    } catch (const Error& e) {
        skipped << QStringLiteral("(the project could not be read: %1)")
                       .arg(QString::fromUtf8(e.what()));
    }
    for (const std::string& u : used) {
        const QString rel =
            projDir.relativeFilePath(projDir.absoluteFilePath(QString::fromStdString(u)));
        if (rel.startsWith(QLatin1String("..")) || QDir::isAbsolutePath(rel)) {
            skipped << rel;
            continue;
        }
        if (copy(projDir.absoluteFilePath(rel), root.filePath(rel)))
            copied << rel;
        else
            skipped << rel;
    }
    const QString subName = QFileInfo(submission).fileName();
    copy(submission, root.filePath(QStringLiteral("submission/") + subName));
    {
        QSaveFile f(root.filePath(QStringLiteral("report.json")));
        if (f.open(QIODevice::WriteOnly)) {
            f.write(row.report.isEmpty() ? QByteArray("{}\n") : row.report);
            f.commit();
        }
    }
    QStringList args{QStringLiteral("warpbench-cli"),
                     QStringLiteral("run"),
                     proj.fileName(),
                     QStringLiteral("--kernel"),
                     QStringLiteral("submission/") + subName,
                     QStringLiteral("--grade")};
    if (!row.seed.isEmpty()) args << QStringLiteral("--grade-seed") << row.seed;
    args += extraArgs;
    QString readme =
        QStringLiteral("Warpbench grade bundle: %1\n\nresult:  %2\nmessage: %3\n\n"
                       "Reproduce (from this folder; the same seed picks the same checked "
                       "launches and fresh inputs):\n\n    %4\n\nreport.json is the graded "
                       "run's report (warpbench-cli run --json).\n")
            .arg(row.file, row.result, row.message, args.join(QLatin1Char(' ')));
    if (!copied.isEmpty())
        readme +=
            QStringLiteral("Project files copied: %1\n").arg(copied.join(QStringLiteral(", ")));
    if (!skipped.isEmpty())
        readme += QStringLiteral("Not copied (outside the project folder or unreadable): %1\n")
                      .arg(skipped.join(QStringLiteral(", ")));
    QSaveFile f(root.filePath(QStringLiteral("README.txt")));
    const QByteArray bytes = readme.toUtf8();
    if (!f.open(QIODevice::WriteOnly) || f.write(bytes) != bytes.size() || !f.commit()) {
        why = QStringLiteral("cannot write %1: %2").arg(f.fileName(), f.errorString());
        return {};
    }
    return root.path();
}

int GradeCommand::run(const QCommandLineParser& p, const QStringList& args)
{
    if (p.isSet(QStringLiteral("merge"))) return merge(p, args);
    if (args.size() != 3) {
        err(QStringLiteral("expected PROJECT and SUBMISSIONS_DIR (see --help)"));
        return InvalidInput;
    }
    const QString project = QFileInfo(args[1]).absoluteFilePath();
    if (!QFileInfo(project).isFile()) {
        err(QStringLiteral("no such project file: %1").arg(args[1]));
        return InvalidInput;
    }
    const QDir dir(args[2]);
    if (!dir.exists()) {
        err(QStringLiteral("no such folder: %1").arg(args[2]));
        return InvalidInput;
    }
    double timeoutS = 60;
    if (p.isSet(QStringLiteral("timeout"))) {
        std::string why;
        const auto sec = parseTimeoutSeconds(p.value(QStringLiteral("timeout")), why);
        if (!sec) {
            err(QString::fromStdString(why));
            return InvalidInput;
        }
        timeoutS = *sec;
    }
    QStringList extra;
    for (const char* o : {"backend", "iterations", "peak-bandwidth", "peak-gflops"})
        if (p.isSet(QLatin1String(o)))
            extra << QStringLiteral("--") + QLatin1String(o) << p.value(QLatin1String(o));
    if (p.isSet(QStringLiteral("fresh-inputs"))) extra << QStringLiteral("--fresh-inputs");
    for (const auto& [name, unit] :
         {std::pair{"peak-bandwidth", "GB/s"}, std::pair{"peak-gflops", "GFLOP/s"}}) {
        std::string why;
        if (!parsePeakOption(p, QLatin1String(name), unit, why)) {
            err(QString::fromStdString(why));
            return InvalidInput;
        }
    }
    const QStringList all = dir.entryList({QStringLiteral("*.cu")}, QDir::Files, QDir::Name);
    if (all.isEmpty()) {
        err(QStringLiteral("no .cu files in %1").arg(dir.path()));
        return InvalidInput;
    }
    // --shard K/N: every N-th file in name order from the K-th (deterministic on any machine
    // that sees the same folder; a slice may be empty).
    QString shard;
    QStringList files = all;
    if (p.isSet(QStringLiteral("shard"))) {
        int k = 0, n = 0;
        QString why;
        if (!parseShard(p.value(QStringLiteral("shard")), k, n, why)) {
            err(why);
            return InvalidInput;
        }
        shard = QStringLiteral("%1/%2").arg(k).arg(n);
        files.clear();
        for (qsizetype i = k - 1; i < all.size(); i += n)
            files << all[i];
    }
    // A bad project fails every submission the same way: say so once, before grading.
    const bool trust = p.isSet(QStringLiteral("trust-project"));
    BackendKind kind = BackendKind::Auto;
    try {
        session::Session s = session::ProjectFile::load(project.toStdString());
        if (const std::string why = untrustedFlagsMessage(s, trust); !why.empty())
            throw Error(Error::Kind::InvalidArgument, why);
        kind = s.backend;
    } catch (const Error& e) {
        err(QStringLiteral("invalid project: %1").arg(QString::fromUtf8(e.what())));
        return InvalidInput;
    }
    if (trust) extra << QStringLiteral("--trust-project");
    if (p.isSet(QStringLiteral("backend"))) {
        const auto k = parseBackendKind(p.value(QStringLiteral("backend")).toStdString());
        if (!k) {
            err(QStringLiteral("--backend: expected cuda, cpu or auto, got \"%1\"")
                    .arg(p.value(QStringLiteral("backend"))));
            return InvalidInput;
        }
        kind = *k;
    }
    // Where the children run: on CUDA one device each (round robin over the GPUs, or the one
    // --device names); on the emulator the CPU cores.
    std::vector<int> devices;
    try {
        kind = describeBackend(kind, 0).kind;
    } catch (const Error&) {
        kind = BackendKind::Cpu; // each child reports why its backend is unusable
    }
    if (p.isSet(QStringLiteral("device"))) {
        bool conv = false;
        const int d = p.value(QStringLiteral("device")).toInt(&conv);
        if (!conv || d < 0) {
            err(QStringLiteral("--device: expected an integer >= 0, got \"%1\"")
                    .arg(p.value(QStringLiteral("device"))));
            return InvalidInput;
        }
        devices.push_back(d);
    } else if (kind == BackendKind::Cuda) {
        for (int d = 0; d < 64; ++d) {
            try {
                describeBackend(BackendKind::Cuda, d);
                devices.push_back(d);
            } catch (const Error&) {
                break;
            }
        }
    }
    int jobs = kind == BackendKind::Cuda ? std::max<int>(1, static_cast<int>(devices.size()))
                                         : std::max(1, QThread::idealThreadCount());
    if (p.isSet(QStringLiteral("jobs"))) {
        bool conv = false;
        jobs = p.value(QStringLiteral("jobs")).toInt(&conv);
        if (!conv || jobs < 1) {
            err(QStringLiteral("--jobs: expected an integer >= 1, got \"%1\"")
                    .arg(p.value(QStringLiteral("jobs"))));
            return InvalidInput;
        }
    }
    jobs = std::max(1, std::min(jobs, static_cast<int>(files.size())));
    qint64 memoryLimit = 0;
    if (p.isSet(QStringLiteral("memory-limit"))) {
        bool conv = false;
        const qint64 mib = p.value(QStringLiteral("memory-limit")).toLongLong(&conv);
        if (!conv || mib < 64 || mib > (qint64{1} << 32)) {
            err(QStringLiteral("--memory-limit: expected MiB between 64 and 2^32, got \"%1\"")
                    .arg(p.value(QStringLiteral("memory-limit"))));
            return InvalidInput;
        }
        if (kind == BackendKind::Cuda)
            err(QStringLiteral("--memory-limit: not applied on CUDA (the driver reserves more "
                               "address space than any limit would allow); a kernel there can "
                               "use only the project's buffers and the device heap"));
        else
            memoryLimit = mib << 20;
    }
    const QString outDir = p.value(QStringLiteral("out"));
    if (!outDir.isEmpty() && !QDir().mkpath(outDir)) {
        err(QStringLiteral("cannot create %1").arg(outDir));
        return InvalidInput;
    }

    // Each submission is graded from a private copy (a folder only this user can read), so
    // that no submission can change another before it is graded.
    QTemporaryDir privateDir;
    if (!privateDir.isValid()) {
        err(QStringLiteral("cannot create a private folder for the submissions: %1")
                .arg(privateDir.errorString()));
        return RuntimeError;
    }
    const QDir copies(privateDir.path());
    for (const QString& f : files) {
        const QString to = copies.filePath(f);
        if (!QFile::copy(dir.absoluteFilePath(f), to) ||
            !QFile(to).setPermissions(QFile::ReadOwner | QFile::WriteOwner)) {
            err(QStringLiteral("cannot copy %1 into %2")
                    .arg(dir.absoluteFilePath(f), copies.path()));
            return RuntimeError;
        }
    }
    std::vector<GradeRow> rows(static_cast<std::size_t>(files.size()));
    std::atomic<int> next{0};
    std::mutex printMutex;
    const QString cli = QCoreApplication::applicationFilePath();
    const auto worker = [&](int slot) {
        QStringList args = extra;
        if (!devices.empty())
            args << QStringLiteral("--device")
                 << QString::number(devices[static_cast<std::size_t>(slot) % devices.size()]);
        for (int i; (i = next.fetch_add(1)) < files.size();) {
            {
                const std::lock_guard lock(printMutex);
                std::cerr << "grading " << files[i].toStdString() << " ..." << std::endl;
            }
            rows[static_cast<std::size_t>(i)] =
                gradeOne(cli, project, copies.filePath(files[i]), args, timeoutS, memoryLimit);
        }
    };
    {
        std::vector<std::thread> pool;
        for (int j = 1; j < jobs; ++j)
            pool.emplace_back(worker, j);
        worker(0);
        for (std::thread& t : pool)
            t.join();
    }
    if (!outDir.isEmpty()) {
        const QString failed = QDir(outDir).filePath(QStringLiteral("failed"));
        for (std::size_t i = 0; i < rows.size(); ++i) {
            if (rows[i].passed()) continue;
            QString why;
            QStringList args = extra;
            if (rows[i].device >= 0)
                args << QStringLiteral("--device") << QString::number(rows[i].device);
            rows[i].bundle =
                writeBundle(failed, project, copies.filePath(files[static_cast<qsizetype>(i)]),
                            rows[i], args, why);
            if (rows[i].bundle.isEmpty()) {
                err(why);
                return RuntimeError;
            }
        }
    }
    return writeTables(p, project, rows, shard);
}

} // namespace wb::cli
