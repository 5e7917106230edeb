// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QCommandLineParser>
#include <QString>
#include <QStringList>

#include <vector>

namespace wb::cli {

/// One graded submission: a row of the CSV/JSON table.
struct GradeRow {
    QString file;          ///< the submission's file name
    QString result;        ///< pass, fail, compile-error, runtime-error, invalid, timeout, crashed
    double maxAbs = 0;     ///< largest |result - reference| over the outputs (NaN if unknown)
    qint64 unwritten = -1; ///< output elements never written; -1 when not measured
    double kernelMs = -1;  ///< median kernel time; -1 when it did not run
    double wallS = 0;      ///< wall-clock seconds of the whole child run
    QString message;       ///< why, in one line
    bool passed() const { return result == QLatin1String("pass"); }
};

/// `warpbench-cli grade PROJECT DIR [--csv FILE] [--json] [--timeout S] [--backend K]
/// [--iterations N]`: every `*.cu` in DIR replaces the project's kernel source and runs in its
/// own child `warpbench-cli run --kernel FILE --json` process, killed after the timeout — a
/// runaway or crashing submission cannot take the grading down. Returns 0 when grading
/// completed (whatever the students' results), 4 on invalid arguments.
class GradeCommand {
public:
    static int run(const QCommandLineParser& parser, const QStringList& positional);

    /// Grades one submission (exposed for tests and the GUI).
    static GradeRow gradeOne(const QString& cli, const QString& project, const QString& submission,
                             const QStringList& extraArgs, double timeoutS);
    static QString toCsv(const std::vector<GradeRow>& rows);
    static QByteArray toJson(const QString& project, const std::vector<GradeRow>& rows);
    static QString toText(const std::vector<GradeRow>& rows);
};

} // namespace wb::cli
