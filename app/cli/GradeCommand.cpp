// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli/GradeCommand.h"

#include "app/cli/CliCommands.h"
#include "core/common/Error.h"
#include "core/session/ProjectFile.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSaveFile>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <limits>

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
    row.message = oneLine(why.join(QLatin1String("; ")));
}

} // namespace

GradeRow GradeCommand::gradeOne(const QString& cli, const QString& project,
                                const QString& submission, const QStringList& extraArgs,
                                double timeoutS)
{
    GradeRow row;
    row.file = QFileInfo(submission).fileName();
    row.maxAbs = std::numeric_limits<double>::quiet_NaN();
    QProcess p;
    p.setProgram(cli);
    // The child's runner enforces the same limit on the kernel; this process's wait below also
    // covers the compile, so it is the outer bound.
    p.setArguments(QStringList{QStringLiteral("run"), project, QStringLiteral("--kernel"),
                               submission, QStringLiteral("--json"), QStringLiteral("--timeout"),
                               QString::number(timeoutS)} +
                   extraArgs);
    QElapsedTimer timer;
    timer.start();
    p.start();
    if (!p.waitForStarted()) {
        row.result = QStringLiteral("runtime-error");
        row.message = QStringLiteral("could not start %1: %2").arg(cli, p.errorString());
        return row;
    }
    const bool finished = p.waitForFinished(static_cast<int>(std::lround(timeoutS * 1000.0)));
    if (!finished) {
        p.kill();
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
    QString s = QStringLiteral("file,result,max_abs_error,unwritten,kernel_ms,wall_s,message\n");
    for (const GradeRow& r : rows)
        s += QStringList{csvField(r.file),
                         r.result,
                         numberText(r.maxAbs),
                         r.unwritten < 0 ? QString() : QString::number(r.unwritten),
                         r.kernelMs < 0 ? QString() : numberText(r.kernelMs),
                         QString::number(r.wallS, 'f', 3),
                         csvField(r.message)}
                 .join(QLatin1Char(',')) +
             QLatin1Char('\n');
    return s;
}

QByteArray GradeCommand::toJson(const QString& project, const std::vector<GradeRow>& rows)
{
    QJsonArray a;
    int passed = 0;
    for (const GradeRow& r : rows) {
        passed += r.passed() ? 1 : 0;
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
        a.append(o);
    }
    return QJsonDocument(QJsonObject{{"project", project},
                                     {"submissions", static_cast<int>(rows.size())},
                                     {"passed", passed},
                                     {"results", a}})
        .toJson(QJsonDocument::Indented);
}

QString GradeCommand::toText(const std::vector<GradeRow>& rows)
{
    int width = 10;
    for (const GradeRow& r : rows)
        width = std::max(width, static_cast<int>(r.file.size()));
    QString s = QStringLiteral("%1  %2  %3  %4  %5  %6\n")
                    .arg(QStringLiteral("file"), -width)
                    .arg(QStringLiteral("result"), -13)
                    .arg(QStringLiteral("max abs"), 10)
                    .arg(QStringLiteral("unwritten"), 9)
                    .arg(QStringLiteral("kernel ms"), 10)
                    .arg(QStringLiteral("message"));
    int passed = 0;
    for (const GradeRow& r : rows) {
        passed += r.passed() ? 1 : 0;
        s += QStringLiteral("%1  %2  %3  %4  %5  %6\n")
                 .arg(r.file, -width)
                 .arg(r.result, -13)
                 .arg(numberText(r.maxAbs, 4), 10)
                 .arg(r.unwritten < 0 ? QStringLiteral("-") : QString::number(r.unwritten), 9)
                 .arg(r.kernelMs < 0 ? QStringLiteral("-") : numberText(r.kernelMs, 4), 10)
                 .arg(r.message);
    }
    s += QStringLiteral("%1 of %2 submissions pass\n").arg(passed).arg(rows.size());
    return s;
}

int GradeCommand::run(const QCommandLineParser& p, const QStringList& args)
{
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
    for (const char* o : {"backend", "device", "iterations"})
        if (p.isSet(QLatin1String(o)))
            extra << QStringLiteral("--") + QLatin1String(o) << p.value(QLatin1String(o));
    const QStringList files = dir.entryList({QStringLiteral("*.cu")}, QDir::Files, QDir::Name);
    if (files.isEmpty()) {
        err(QStringLiteral("no .cu files in %1").arg(dir.path()));
        return InvalidInput;
    }
    // A bad project fails every submission the same way: say so once, before grading.
    const bool trust = p.isSet(QStringLiteral("trust-project"));
    try {
        session::Session s = session::ProjectFile::load(project.toStdString());
        if (const std::string why = untrustedFlagsMessage(s, trust); !why.empty())
            throw Error(Error::Kind::InvalidArgument, why);
    } catch (const Error& e) {
        err(QStringLiteral("invalid project: %1").arg(QString::fromUtf8(e.what())));
        return InvalidInput;
    }
    if (trust) extra << QStringLiteral("--trust-project");
    std::vector<GradeRow> rows;
    for (const QString& f : files) {
        std::cerr << "grading " << f.toStdString() << " ..." << std::endl;
        rows.push_back(gradeOne(QCoreApplication::applicationFilePath(), project,
                                dir.absoluteFilePath(f), extra, timeoutS));
    }
    if (p.isSet(QStringLiteral("csv"))) {
        QSaveFile csv(p.value(QStringLiteral("csv")));
        const QByteArray bytes = toCsv(rows).toUtf8();
        if (!csv.open(QIODevice::WriteOnly) || csv.write(bytes) != bytes.size() || !csv.commit()) {
            err(QStringLiteral("cannot write %1: %2")
                    .arg(p.value(QStringLiteral("csv")), csv.errorString()));
            return RuntimeError;
        }
    }
    if (p.isSet(QStringLiteral("json")))
        std::cout << toJson(project, rows).toStdString() << std::flush;
    else
        std::cout << toText(rows).toStdString() << std::flush;
    return Pass;
}

} // namespace wb::cli
