// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The cheating submissions of tests/app/data/cheats graded by `warpbench-cli grade` on one
// backend: shared by tst_grade_cheats (CPU emulator, CI) and tst_grade_gpu (CUDA, label gpu).

#include "CliProcess.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMap>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

namespace cheats {

/// Processes on this machine (other than this one) whose environment holds `tag`.
inline QStringList processesTagged(const QByteArray& tag)
{
    QStringList found;
    const QString self = QString::number(QCoreApplication::applicationPid());
    for (const QString& pid : QDir(QStringLiteral("/proc")).entryList(QDir::Dirs)) {
        if (pid == self || pid.toInt() <= 0) continue;
        QFile env(QStringLiteral("/proc/%1/environ").arg(pid));
        if (env.open(QIODevice::ReadOnly) && env.readAll().contains(tag)) {
            QFile cmd(QStringLiteral("/proc/%1/cmdline").arg(pid));
            cmd.open(QIODevice::ReadOnly);
            found << pid + QLatin1Char(' ') + QString::fromUtf8(cmd.readAll().replace('\0', ' '));
        }
    }
    return found;
}

inline QString data(const QString& rel)
{
    return QStringLiteral(WB_TEST_DATA_DIR "/cheats/") + rel;
}

/// Rows of a `grade --json` document by file name.
inline QMap<QString, QJsonObject> rowsOf(const CliRun& r)
{
    QMap<QString, QJsonObject> m;
    for (const QJsonValue& v :
         QJsonDocument::fromJson(r.out.toUtf8()).object()["results"].toArray())
        m.insert(v.toObject()["file"].toString(), v.toObject());
    return m;
}

#define WB_EXPECT_ROW(row, res, text)                                                              \
    do {                                                                                           \
        QVERIFY2((row)["result"].toString() == QLatin1String(res),                                 \
                 qPrintable((row)["file"].toString() + ": " + (row)["result"].toString() + ": " +  \
                            (row)["message"].toString()));                                         \
        QVERIFY2((row)["message"].toString().contains(QLatin1String(text)),                        \
                 qPrintable((row)["file"].toString() + ": " + (row)["message"].toString()));       \
    } while (0)

/// Writes nothing, caches across launches (a __device__ flag; a replayed answer), NaN output,
/// skips the timed launches: each fails for its own reason; the honest solution passes; every
/// failing one gets a bundle that reproduces the verdict.
inline void gradeVectorCheats(const QString& backend)
{
    QTemporaryDir out;
    const CliRun r =
        runCli({"grade", data("vector/vector.wbproj"), data("vector/subs"), "--json",
                "--fresh-inputs", "--backend", backend, "--out", out.path(), "--timeout", "240"});
    QVERIFY2(r.exitCode == 0,
             qPrintable(QString("exit %1\n%2%3").arg(r.exitCode).arg(r.out, r.err)));
    const auto rows = rowsOf(r);
    QCOMPARE(rows.size(), 6);
    const QJsonObject honest = rows["honest.cu"];
    WB_EXPECT_ROW(honest, "pass", "");
    QVERIFY(honest["bundle"].isNull());
    QCOMPARE(honest["unwritten"].toInt(), 0);
    QVERIFY(!honest["seed"].toString().isEmpty());

    WB_EXPECT_ROW(rows["writes_nothing.cu"], "fail", "1,048,576 never written");
    QCOMPARE(rows["writes_nothing.cu"]["unwritten"].toInt(), 1048576);
    // Correct in the result launch, then nothing: the checks after it find the poison.
    WB_EXPECT_ROW(rows["caches_flag.cu"], "fail", "launch after timing");
    QVERIFY(rows["caches_flag.cu"]["message"].toString().contains("never written"));
    QVERIFY(!rows["caches_flag.cu"]["message"].toString().contains("result launch"));
    QCOMPARE(rows["caches_flag.cu"]["unwritten"].toInt(), 1048576);
    // Writes every element every time, from a cache: only inputs from new seeds show it.
    WB_EXPECT_ROW(rows["caches_replay.cu"], "fail", "launch after timing (fresh inputs: a, b)");
    QVERIFY(rows["caches_replay.cu"]["message"].toString().contains("mismatches"));
    WB_EXPECT_ROW(rows["nan_output.cu"], "fail", "1,048,576 NaN where the reference is finite");
    QCOMPARE(rows["nan_output.cu"]["maxAbsError"].toString(), QStringLiteral("nan"));
    // Works in the launches it expects to be checked (result, after timing) and skips the
    // timed ones: the randomly chosen timed launch is checked too.
    WB_EXPECT_ROW(rows["skips_timed.cu"], "fail", "timed launch");
    QVERIFY(rows["skips_timed.cu"]["message"].toString().contains("never written"));
    QVERIFY(!rows["skips_timed.cu"]["message"].toString().contains("launch after timing"));

    // The table and the bundles.
    QFile csv(QDir(out.path()).filePath("grades.csv"));
    QVERIFY(csv.open(QIODevice::ReadOnly));
    const QStringList lines = QString::fromUtf8(csv.readAll()).split('\n', Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), 7);
    QVERIFY(
        lines[0].startsWith("file,result,max_abs_error,unwritten,kernel_ms,gb_s,speed_of_light"));
    QFile json(QDir(out.path()).filePath("grades.json"));
    QVERIFY(json.open(QIODevice::ReadOnly));
    QCOMPARE(QJsonDocument::fromJson(json.readAll()).object()["passed"].toInt(), 1);
    QVERIFY(!QDir(out.path()).exists("failed/honest"));
    for (const char* stem :
         {"writes_nothing", "caches_flag", "caches_replay", "nan_output", "skips_timed"}) {
        const QDir b(QDir(out.path()).filePath(QStringLiteral("failed/") + stem));
        QVERIFY2(b.exists("README.txt") && b.exists("report.json") && b.exists("vector.wbproj") &&
                     b.exists("honest.cu") &&
                     b.exists(QStringLiteral("submission/") + stem + ".cu"),
                 stem);
        QCOMPARE(rows[QString(stem) + ".cu"]["bundle"].toString(), b.path());
    }
    // The bundle's README command reproduces the verdict (same seed: same checked launch).
    const QDir skip(QDir(out.path()).filePath("failed/skips_timed"));
    QFile readme(skip.filePath("README.txt"));
    QVERIFY(readme.open(QIODevice::ReadOnly));
    QString command;
    for (const QString& line : QString::fromUtf8(readme.readAll()).split('\n'))
        if (line.trimmed().startsWith("warpbench-cli run")) command = line.trimmed();
    QStringList args = command.split(' ', Qt::SkipEmptyParts).mid(1);
    QVERIFY2(args.contains("--grade-seed"), qPrintable(command));
    for (QString& a : args)
        if (a == "vector.wbproj" || a.startsWith("submission/")) a = skip.filePath(a);
    const CliRun again = runCli(args << "--json");
    QCOMPARE(again.exitCode, 1);
    const QJsonObject rep = QJsonDocument::fromJson(again.out.toUtf8()).object();
    QCOMPARE(rep["grade"].toObject()["seed"].toString(), rows["skips_timed.cu"]["seed"].toString());
    QVERIFY2(rep["message"].toString().contains(
                 rows["skips_timed.cu"]["message"].toString().section(':', 0, 0)),
             qPrintable(rep["message"].toString()));
}

/// The replaying cache passes every check on restored inputs: it is --fresh-inputs that
/// catches it (so the option, not chance, is what the test above relies on).
inline void replayNeedsFreshInputs(const QString& backend)
{
    const QStringList base{"run",      data("vector/vector.wbproj"),
                           "--kernel", data("vector/subs/caches_replay.cu"),
                           "--grade",  "--backend",
                           backend};
    // Grade mode gives every timed launch inputs of its own (issue 25): the replayed results
    // are caught in the timed launches already, without --fresh-inputs.
    const CliRun same = runCli(base);
    QVERIFY2(same.exitCode == 1, qPrintable(same.out + same.err));
    QVERIFY2(same.out.contains("(fresh inputs): FAIL"), qPrintable(same.out));
    const CliRun fresh = runCli(QStringList(base) << "--fresh-inputs");
    QVERIFY2(fresh.exitCode == 1, qPrintable(fresh.out + fresh.err));
    QVERIFY(fresh.out.contains("launch after timing (fresh inputs: a, b): FAIL"));
}

/// The speed-of-light check: a row-sum kernel that knows its input is iota and never reads the
/// 128 MiB matrix is right in every launch and flagged impossible; the honest one is not.
/// `peakGBs` > 0 is passed as --peak-bandwidth (the CPU emulator has no peak of its own).
inline void gradeTooFast(const QString& backend, double peakGBs)
{
    QStringList args{"grade",
                     data("rowsum/rowsum.wbproj"),
                     data("rowsum/subs"),
                     "--json",
                     "--backend",
                     backend,
                     "--timeout",
                     "240",
                     "--jobs",
                     "1"};
    if (peakGBs > 0) args << "--peak-bandwidth" << QString::number(peakGBs, 'g', 17);
    const CliRun r = runCli(args);
    QVERIFY2(r.exitCode == 0,
             qPrintable(QString("exit %1\n%2%3").arg(r.exitCode).arg(r.out, r.err)));
    const auto rows = rowsOf(r);
    QCOMPARE(rows.size(), 2);
    WB_EXPECT_ROW(rows["honest.cu"], "pass", "");
    QCOMPARE(rows["honest.cu"]["speedOfLight"].toString(), QStringLiteral("ok"));
    WB_EXPECT_ROW(rows["too_fast.cu"], "impossible", "exceeds the peak");
    QCOMPARE(rows["too_fast.cu"]["speedOfLight"].toString(), QStringLiteral("impossible"));
    QCOMPARE(rows["too_fast.cu"]["maxAbsError"].toDouble(), 0.0); // right answers all the same
    QVERIFY(rows["too_fast.cu"]["bandwidthGBs"].toDouble() >
            rows["too_fast.cu"]["peakGBs"].toDouble());
    if (peakGBs > 0) QCOMPARE(rows["too_fast.cu"]["peakGBs"].toDouble(), peakGBs);
}

} // namespace cheats

namespace cheats {

/// What stops the escapes: NVRTC's device-code check (the GPU backend's compile, and the CPU
/// emulator's first step where NVRTC is installed), or on the CPU emulator without NVRTC
/// (WARPBENCH_LIBNVRTC pointing nowhere) the sandbox alone.
enum class EscapeLayer { DeviceCheck, Sandbox };

/// The submissions of cheats/escapes try to reach the machine from a kernel: system(), a file
/// read into the output, a TCP connection, the grader's SECRET_TOKEN, the parent's command
/// line and the other submissions, kill(getppid()), fork() copies, a detached process that
/// rewrites grades.csv later, a constructor. Graded together with an honest one; afterwards
/// the table, the submissions, the marker folder, the listening socket and the process list
/// are checked. `layer` DeviceCheck: each is a compile error with NVRTC's own message at the
/// host call's line (ptxas's "Unresolved extern function" placed at the call), on both
/// backends. Sandbox (CPU emulator without NVRTC): each is stopped when it runs ("kernel
/// attempted <call>"), and the run's report says which layers confined it.
inline void gradeEscapes(const QString& backend, EscapeLayer layer)
{
    QTemporaryDir work;
    QVERIFY(work.isValid());
    const QDir root(work.path());
    QVERIFY(root.mkpath(QStringLiteral("subs")) && root.mkpath(QStringLiteral("marks")) &&
            root.mkpath(QStringLiteral("out")));
    // A socket that the connect cheat aims at.
    const int listener = ::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    QVERIFY(listener >= 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof addr;
    QVERIFY(::bind(listener, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0 &&
            ::listen(listener, 4) == 0 &&
            ::getsockname(listener, reinterpret_cast<sockaddr*>(&addr), &len) == 0);
    const QString port = QString::number(ntohs(addr.sin_port));
    const QDir from(data(QStringLiteral("escapes/subs")));
    QMap<QString, QByteArray> submitted;
    for (const QString& f : from.entryList({QStringLiteral("*.cu")}, QDir::Files)) {
        QFile in(from.filePath(f));
        QVERIFY(in.open(QIODevice::ReadOnly));
        QByteArray text = in.readAll();
        text.replace("@MARKDIR@", root.filePath(QStringLiteral("marks")).toUtf8());
        text.replace("@SUBSDIR@", root.filePath(QStringLiteral("subs")).toUtf8());
        text.replace("@OUTDIR@", root.filePath(QStringLiteral("out")).toUtf8());
        text.replace("@PORT@", port.toUtf8());
        QFile out(root.filePath(QStringLiteral("subs/") + f));
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(text);
        submitted.insert(f, text);
    }
    QVERIFY(QFile::copy(data(QStringLiteral("escapes/escapes.wbproj")),
                        root.filePath(QStringLiteral("escapes.wbproj"))));
    QVERIFY(QFile::copy(data(QStringLiteral("escapes/honest.cu")),
                        root.filePath(QStringLiteral("honest.cu"))));

    const QByteArray tag = "wb-escape-" + QByteArray::number(QCoreApplication::applicationPid());
    const bool sandboxOnly = layer == EscapeLayer::Sandbox;
    if (sandboxOnly) qputenv("WARPBENCH_LIBNVRTC", "/nonexistent/libnvrtc.so.13");
    qputenv("SECRET_TOKEN", "hunter2");
    qputenv("WB_ESCAPE_TAG", tag);
    const CliRun r = runCli({"grade", root.filePath(QStringLiteral("escapes.wbproj")),
                             root.filePath(QStringLiteral("subs")), "--json", "--backend", backend,
                             "--out", root.filePath(QStringLiteral("out")), "--timeout", "120"});
    // The same checks for `run`: the leaked line does not reach the output.
    const CliRun fopenRun =
        runCli({"run", root.filePath(QStringLiteral("escapes.wbproj")), "--kernel",
                root.filePath(QStringLiteral("subs/fopen.cu")), "--json", "--backend", backend});
    const CliRun listed =
        runCli({"list-kernels", root.filePath(QStringLiteral("subs/constructor.cu")), "--backend",
                backend});
    const CliRun sandboxedRun = runCli(
        {"run", root.filePath(QStringLiteral("escapes.wbproj")), "--json", "--backend", backend});
    qunsetenv("SECRET_TOKEN");
    qunsetenv("WB_ESCAPE_TAG");
    qunsetenv("WARPBENCH_LIBNVRTC");
    QVERIFY2(r.exitCode == 0,
             qPrintable(QString("exit %1\n%2%3").arg(r.exitCode).arg(r.out, r.err)));
    const auto rows = rowsOf(r);
    QCOMPARE(rows.size(), submitted.size());
    WB_EXPECT_ROW(rows["honest.cu"], "pass", "");
    if (sandboxOnly) {
        // The secret never reached the kernel: it computed the right answer.
        WB_EXPECT_ROW(rows["getenv.cu"], "pass", "");
        const std::pair<const char*, const char*> stopped[] = {
            {"system.cu", "clone"},   {"fopen.cu", "openat"},      {"connect.cu", "socket"},
            {"cmdline.cu", "openat"}, {"killparent.cu", "kill"},   {"forks.cu", "clone"},
            {"detached.cu", "clone"}, {"constructor.cu", "openat"}};
        for (const auto& [file, call] : stopped) {
            const QJsonObject row = rows[QLatin1String(file)];
            QVERIFY2(!row["passed"].toBool(), file);
            QVERIFY2(row["message"].toString().contains(QStringLiteral("kernel attempted ") +
                                                        QLatin1String(call)),
                     qPrintable(QLatin1String(file) + ": " + row["message"].toString()));
        }
        // The honest kernel's report says what confined it: no device-code check here, the
        // filter, and Landlock and namespaces where this machine has them.
        const QJsonObject honestRun = QJsonDocument::fromJson(sandboxedRun.out.toUtf8()).object();
        const QString layers = honestRun["sandbox"].toString();
        QVERIFY2(sandboxedRun.exitCode == 0 &&
                     layers.startsWith(QStringLiteral("device-code check: not done (")) &&
                     layers.contains(QStringLiteral("; seccomp-bpf filter (")) &&
                     layers.contains(QStringLiteral("Landlock")) &&
                     layers.contains(QStringLiteral("namespaces")),
                 qPrintable(sandboxedRun.out + sandboxedRun.err));
        qInfo().noquote() << "sandbox layers:" << layers;
        // Under Landlock and the rest, opening a file is still the filter's to name: exit 3.
        QCOMPARE(fopenRun.exitCode, 3);
        QVERIFY2(fopenRun.out.contains(QStringLiteral("kernel attempted openat")),
                 qPrintable(fopenRun.out));
        // Listing the kernels runs the constructor only in a sealed child.
        QVERIFY2(listed.exitCode != 0 &&
                     (listed.out + listed.err).contains(QStringLiteral("kernel attempted openat")),
                 qPrintable(listed.out + listed.err));
    } else {
        // NVRTC's own message at the line of the first host call (a function the file
        // declares itself reaches ptxas, whose message is put at the call).
        const std::tuple<const char*, int, const char*> refused[] = {
            {"system.cu", 6, "Unresolved extern function 'system'"},
            {"fopen.cu", 7, "identifier \"FILE\" is undefined"},
            {"connect.cu", 8, "Unresolved extern function 'socket'"},
            {"cmdline.cu", 10, "identifier \"snprintf\" is undefined"},
            {"killparent.cu", 7, "Unresolved extern function 'getppid'"},
            {"forks.cu", 9, "Unresolved extern function 'fork'"},
            {"detached.cu", 10, "Unresolved extern function 'fork'"},
            {"constructor.cu", 4, "identifier \"fopen\" is undefined"},
            {"getenv.cu", 6, "Unresolved extern function 'getenv'"}};
        for (const auto& [file, line, message] : refused) {
            const QJsonObject row = rows[QLatin1String(file)];
            const QString expected =
                QStringLiteral(":%1: %2").arg(line).arg(QLatin1String(message));
            QVERIFY2(row["result"].toString() == QLatin1String("compile-error") &&
                         row["message"].toString().contains(expected),
                     qPrintable(QLatin1String(file) + ": " + row["result"].toString() + ": " +
                                row["message"].toString() + " (expected " + expected + ")"));
        }
        QCOMPARE(fopenRun.exitCode, 2);
        if (backend == QLatin1String("cpu")) {
            const QString layers =
                QJsonDocument::fromJson(sandboxedRun.out.toUtf8()).object()["sandbox"].toString();
            QVERIFY2(sandboxedRun.exitCode == 0 &&
                         layers.startsWith(QStringLiteral("device-code check: NVRTC ")) &&
                         layers.contains(QStringLiteral("; seccomp-bpf filter (")),
                     qPrintable(sandboxedRun.out + sandboxedRun.err));
        }
        QVERIFY2(listed.exitCode != 0 && (listed.out + listed.err)
                                             .contains(QStringLiteral("identifier \"fopen\" is "
                                                                      "undefined")),
                 qPrintable(listed.out + listed.err));
    }
    QVERIFY2(fopenRun.exitCode != 0, qPrintable(fopenRun.out));
    QVERIFY2(!fopenRun.out.contains(QStringLiteral("root:")), qPrintable(fopenRun.out));

    // The machine afterwards: a detached process would rewrite grades.csv within 3 s.
    QThread::sleep(4);
    QFile csv(root.filePath(QStringLiteral("out/grades.csv")));
    QVERIFY(csv.open(QIODevice::ReadOnly));
    const QString table = QString::fromUtf8(csv.readAll());
    QVERIFY2(table.contains(QStringLiteral("\ndetached.cu,")) &&
                 !table.contains(QStringLiteral("\ndetached.cu,pass,")),
             qPrintable(table));
    QVERIFY2(root.entryList({QStringLiteral("*")}, QDir::Files | QDir::NoDotAndDotDot).size() == 2,
             qPrintable(root.entryList().join(' ')));
    const QStringList marks =
        QDir(root.filePath(QStringLiteral("marks"))).entryList(QDir::Files | QDir::NoDotAndDotDot);
    QVERIFY2(marks.isEmpty(), qPrintable(marks.join(' ')));
    for (auto it = submitted.cbegin(); it != submitted.cend(); ++it) {
        QFile f(root.filePath(QStringLiteral("subs/") + it.key()));
        QVERIFY(f.open(QIODevice::ReadOnly));
        QVERIFY2(f.readAll() == it.value(), qPrintable(it.key() + " was changed"));
    }
    const int accepted = ::accept(listener, nullptr, nullptr);
    ::close(listener);
    QVERIFY2(accepted < 0, "a kernel connected to the test's socket");
    const QStringList left = processesTagged(tag);
    QVERIFY2(left.isEmpty(), qPrintable(left.join('\n')));
}

} // namespace cheats

namespace cheats {

/// The result cache of cheats/matmul/subs/caches_by_hash.cu: keyed by a hash of sampled inputs,
/// it replays its last answer when a launch's inputs repeat. Grade mode gives every timed launch
/// fresh inputs, so it computes every time (and is timed like the honest kernel); a project
/// that pins its inputs (with a reason, shown in the report) lets it replay. On the CPU emulator
/// the timing ratios are checked too (`ratios`): the replay is several times faster.
/// `n` > 0 sets the matrix size (the project's is 128; the cheat caches up to 512).
inline void replayCacheFindsNothing(const QString& backend, bool ratios, int n = 0)
{
    QTemporaryDir work;
    QVERIFY(work.isValid());
    const QDir root(work.path());
    QVERIFY(QFile::copy(data(QStringLiteral("matmul/honest.cu")), root.filePath("honest.cu")));
    QFile in(data(QStringLiteral("matmul/matmul.wbproj")));
    QVERIFY(in.open(QIODevice::ReadOnly));
    QByteArray project = in.readAll();
    if (n > 0) {
        const QByteArray sized =
            QByteArray(project).replace("\"value\": 128", "\"value\": " + QByteArray::number(n));
        QVERIFY(sized != project);
        project = sized;
    }
    writeFile(root.filePath("fresh.wbproj"), project);
    QByteArray pinned = project;
    pinned.replace("\"iterations\": 5,",
                   "\"iterations\": 5, \"pinInputs\": \"the timings must be comparable with "
                   "last year's\",");
    QVERIFY(pinned != project);
    writeFile(root.filePath("pinned.wbproj"), pinned);

    const auto grade = [&](const QString& proj) {
        const CliRun r =
            runCli({"grade", root.filePath(proj), data(QStringLiteral("matmul/subs")), "--json",
                    "--jobs", "1", "--backend", backend, "--timeout", "240"});
        return r;
    };
    const CliRun fresh = grade(QStringLiteral("fresh.wbproj"));
    QVERIFY2(fresh.exitCode == 0, qPrintable(fresh.out + fresh.err));
    const auto rows = rowsOf(fresh);
    WB_EXPECT_ROW(rows["honest.cu"], "pass", "");
    WB_EXPECT_ROW(rows["caches_by_hash.cu"], "pass", "");
    const CliRun pinnedRun = grade(QStringLiteral("pinned.wbproj"));
    QVERIFY2(pinnedRun.exitCode == 0, qPrintable(pinnedRun.out + pinnedRun.err));
    const auto pinnedRows = rowsOf(pinnedRun);
    WB_EXPECT_ROW(pinnedRows["caches_by_hash.cu"], "pass", "");

    // The reports say which: fresh inputs for every timed launch, or the project's reason.
    const CliRun report = runCli({"run", root.filePath("fresh.wbproj"), "--kernel",
                                  data(QStringLiteral("matmul/subs/caches_by_hash.cu")), "--grade",
                                  "--backend", backend});
    QVERIFY2(report.out.contains(QStringLiteral("fresh for every timed launch")),
             qPrintable(report.out + report.err));
    const CliRun pinnedReport = runCli({"run", root.filePath("pinned.wbproj"), "--kernel",
                                        data(QStringLiteral("matmul/subs/caches_by_hash.cu")),
                                        "--grade", "--backend", backend, "--json"});
    const QJsonObject g =
        QJsonDocument::fromJson(pinnedReport.out.toUtf8()).object()["grade"].toObject();
    QVERIFY2(!g["freshTimedInputs"].toBool(), qPrintable(pinnedReport.out));
    QCOMPARE(g["pinnedInputs"].toString(),
             QStringLiteral("the timings must be comparable with last year's"));

    if (!ratios) return;
    const auto ratio = [](const QMap<QString, QJsonObject>& r) {
        return r["caches_by_hash.cu"]["kernelMs"].toDouble() /
               r["honest.cu"]["kernelMs"].toDouble();
    };
    // Fresh inputs: the cache never hits, the cheat computes like the honest kernel.
    QVERIFY2(ratio(rows) > 0.6, qPrintable(QString::number(ratio(rows))));
    // Pinned inputs: it replays, several times faster (the test has teeth).
    QVERIFY2(ratio(pinnedRows) < 0.5, qPrintable(QString::number(ratio(pinnedRows))));
}

} // namespace cheats
