// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QCommandLineParser>
#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <vector>

namespace wb::cli {

/// One graded submission: a row of the CSV/JSON table.
struct GradeRow {
    QString file; ///< the submission's file name
    /// pass, fail, impossible, compile-error, runtime-error, invalid, timeout, crashed, unchecked
    /// (no reference: nothing compared)
    QString result;
    double maxAbs = 0;        ///< largest |result - reference| over the outputs (NaN if unknown)
    qint64 unwritten = -1;    ///< output elements never written; -1 when not measured
    double kernelMs = -1;     ///< median kernel time; -1 when it did not run
    double bandwidthGBs = -1; ///< bytes moved / median time; -1 when it did not run
    /// The speed-of-light check: "ok", "impossible" (faster than the peak allows) or
    /// "unchecked" (no peak known: the CPU emulator without --peak-bandwidth).
    QString speedOfLight;
    double peakGBs = 0; ///< the peak it was checked against; 0 when unknown
    double wallS = 0;   ///< wall-clock seconds of the whole child run
    int device = -1;    ///< the device the child ran on (--device), -1 = the project's
    QString seed;       ///< grade-mode seed of the run (reproduces its checks)
    QString message;    ///< why, in one line
    QByteArray report;  ///< the child's `run --json` report (for bundles); may be empty
    QString bundle;     ///< the reproducible bundle written for a failing submission
    bool passed() const { return result == QLatin1String("pass"); }
};

/// `warpbench-cli grade PROJECT DIR [--csv FILE] [--json] [--out DIR] [--jobs N] [--timeout S]
/// [--memory-limit MIB] [--fresh-inputs] [--peak-bandwidth GBS] [--backend K] [--iterations N]`:
/// every `*.cu` in DIR replaces the project's kernel source and runs in grade mode
/// (SessionRunner::Options::grade) in its own child `warpbench-cli run --kernel FILE --grade
/// --json` process — and so its own runner —, killed after the timeout: a runaway or crashing
/// submission cannot take the grading down. Up to --jobs children run at once (default: one
/// per GPU, or one per CPU core on the emulator). Returns 0 when grading completed (whatever
/// the students' results), 4 on invalid arguments.
class GradeCommand {
public:
    static int run(const QCommandLineParser& parser, const QStringList& positional);

    /// Grades one submission (exposed for tests and the GUI). `memoryLimitBytes` > 0 limits
    /// the child's address space (RLIMIT_AS; CPU emulator only, CUDA reserves more).
    static GradeRow gradeOne(const QString& cli, const QString& project, const QString& submission,
                             const QStringList& extraArgs, double timeoutS,
                             qint64 memoryLimitBytes = 0);
    static QString toCsv(const std::vector<GradeRow>& rows);
    /// `shard` ("K/N", empty for a whole grading) goes into the document for --merge.
    static QByteArray toJson(const QString& project, const std::vector<GradeRow>& rows,
                             const QString& shard = {});
    /// A row of a toJson() document (the report and nothing else is lost).
    static GradeRow rowFromJson(const QJsonObject& o);
    /// "K/N" with 1 <= K <= N: K and N; false (and `why`) otherwise.
    static bool parseShard(const QString& text, int& k, int& n, QString& why);
    /// `grade --merge DIR...`: the shards' DIR/grades.json as one table.
    static int merge(const QCommandLineParser& parser, const QStringList& dirs);
    static QString toText(const std::vector<GradeRow>& rows);
    /// Writes DIR/<submission stem>/ with the project file and the files it reads, the
    /// submission, the child's report.json and a README.txt with the command that reproduces
    /// the run (same seed). Returns the folder, or an empty string (and `why`) on failure.
    static QString writeBundle(const QString& dir, const QString& project,
                               const QString& submission, const GradeRow& row,
                               const QStringList& extraArgs, QString& why);
};

} // namespace wb::cli
