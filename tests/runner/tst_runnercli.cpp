// SPDX-License-Identifier: GPL-3.0-or-later
// warpbench-cli run through the runner (the default): same verdict and exit code as
// --in-process, a runaway kernel becomes a timeout report with exit code 3, a crash a message.
#include "../app/CliProcess.h"

#include "core/backend/Backend.h"
#include "tests/support/SuiteMain.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QProcessEnvironment>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

namespace {

/// Whether a compiler (g++, cc1plus, as, ld) whose command line mentions `path` is running.
bool compilerMentioning(const QString& path)
{
    const QByteArray needle = path.toUtf8();
    for (const QString& pid : QDir(QStringLiteral("/proc")).entryList(QDir::Dirs)) {
        bool number = false;
        pid.toLongLong(&number);
        if (!number) continue;
        QFile f(QStringLiteral("/proc/") + pid + QStringLiteral("/cmdline"));
        if (!f.open(QIODevice::ReadOnly)) continue;
        const QByteArray cmdline = f.readAll();
        if (!cmdline.contains(needle)) continue;
        const QByteArray program = cmdline.left(cmdline.indexOf('\0'));
        for (const char* tool : {"g++", "c++", "cc1plus", "/as", "ld", "collect2"})
            if (program.contains(tool)) return true;
    }
    return false;
}

/// Whether every compiler mentioning `path` is gone within 3 s (SIGKILL is quick, not instant).
bool compilersGone(const QString& path)
{
    for (int i = 0; i < 30; ++i) {
        if (!compilerMentioning(path)) return true;
        QTest::qWait(100);
    }
    return false;
}

} // namespace

class TstRunnerCli : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        const QString why = cpuUnavailable();
        if (!why.isEmpty()) QSKIP(qPrintable(why));
    }

    /// The same verdict through the runner as in-process, and the runner's report reaches
    /// --json in the encoding the CLI writes in-process (one encoder, session::reportToJson):
    /// the same sections with the same fields.
    void sameVerdictAsInProcess()
    {
        const QString hello =
            QStringLiteral(WB_SOURCE_DIR "/resources/examples/hello_gpu/hello_gpu.wbproj");
        const CliRun a = runCli({"run", hello, "--backend", "cpu", "--json"});
        const CliRun b = runCli({"run", hello, "--backend", "cpu", "--json", "--in-process"});
        QCOMPARE(a.exitCode, 0);
        QCOMPARE(b.exitCode, 0);
        const QJsonObject ja = QJsonDocument::fromJson(a.out.toUtf8()).object();
        const QJsonObject jb = QJsonDocument::fromJson(b.out.toUtf8()).object();
        QCOMPARE(ja.value("status"), jb.value("status"));
        QCOMPARE(ja.value("outputs"), jb.value("outputs")); // diff statistics, element for element
        QCOMPARE(ja.value("kernel"), jb.value("kernel"));

        QStringList keysA = ja.keys(), keysB = jb.keys();
        keysA.removeAll(QStringLiteral("sandbox")); // the runner's child says what sealed it
        QCOMPARE(keysA, keysB);
        for (const char* section : {"device", "compile", "launch", "timing", "bandwidth",
                                    "conditions", "transfers", "reference"})
            QCOMPARE(ja.value(QLatin1String(section)).toObject().keys(),
                     jb.value(QLatin1String(section)).toObject().keys());
        QCOMPARE(ja.value("compile").toObject().value("kernel"),
                 jb.value("compile").toObject().value("kernel"));
        QCOMPARE(ja.value("launch"), jb.value("launch"));
        QCOMPARE(ja.value("findings"), jb.value("findings"));
    }

    void runawayKernelIsATimeout()
    {
        QTemporaryDir dir;
        QFile f(dir.filePath("spin.wbproj"));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(R"({"schemaVersion": 1, "name": "spin",
  "kernel": {"source": "__global__ void spin(float* out) { volatile int x = 0; while (true) x = x + 1; }"},
  "buffers": [{"name": "out", "type": "f32", "shape": [32], "role": "out"}],
  "launch": {"kernel": "spin", "grid": [1], "block": [32], "backend": "cpu"}})");
        f.close();
        const CliRun r = runCli({"run", f.fileName(), "--timeout", "1.5"});
        QCOMPARE(r.exitCode, 3);
        QVERIFY2(r.out.contains("timeout: the kernels did not finish within 1.50 s"),
                 qPrintable(r.out + r.err));
        const CliRun bad = runCli({"run", f.fileName(), "--timeout", "zero"});
        QCOMPARE(bad.exitCode, 4);
    }

    // Issue 26: preparation (start-up, compiles, data) has its own limit, --prepare-timeout;
    // past it the runner and every compiler it started are gone.
    void prepareTimeoutBoundsACompile()
    {
        const CliRun help = runCli({"--help"});
        QVERIFY(help.out.contains("--prepare-timeout <SECONDS>"));
        QTemporaryDir cache; // cold: the first compile builds the precompiled prelude (seconds)
        QVERIFY(cache.isValid());
        const QByteArray old = qgetenv("WARPBENCH_CACHE_DIR");
        qputenv("WARPBENCH_CACHE_DIR", cache.path().toUtf8());
        const QString hello =
            QStringLiteral(WB_SOURCE_DIR "/resources/examples/hello_gpu/hello_gpu.wbproj");
        QElapsedTimer timer;
        timer.start();
        const CliRun r = runCli({"run", hello, "--backend", "cpu", "--prepare-timeout", "0.3"});
        const qint64 took = timer.elapsed();
        const CliRun bad = runCli({"run", hello, "--prepare-timeout", "soon"});
        qputenv("WARPBENCH_CACHE_DIR", old);
        QCOMPARE(r.exitCode, 3);
        QVERIFY2(r.out.contains("timeout: the run did not reach its first launch within 0.30 s "
                                "(compile and data preparation)"),
                 qPrintable(r.out + r.err));
        QVERIFY2(took < 10000, qPrintable(QString::number(took)));
        QVERIFY2(compilersGone(cache.path()), "a compiler outlived --prepare-timeout");
        QCOMPARE(bad.exitCode, 4);
        QVERIFY2(bad.err.contains("--prepare-timeout: expected a positive number of seconds"),
                 qPrintable(bad.err));
    }

    // Issue 26: a client killed from outside while its runner compiles (an outer time limit,
    // grade's per-submission kill) takes the runner's compilers along.
    void killedClientTakesTheCompilersAlong()
    {
        QTemporaryDir cache;
        QVERIFY(cache.isValid());
        QProcess cli;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("WARPBENCH_CACHE_DIR"), cache.path());
        cli.setProcessEnvironment(env);
        cli.start(QStringLiteral(WB_BINARY_DIR "/bin/warpbench-cli"),
                  {QStringLiteral("run"),
                   QStringLiteral(WB_SOURCE_DIR "/resources/examples/hello_gpu/hello_gpu.wbproj"),
                   QStringLiteral("--backend"), QStringLiteral("cpu")});
        QVERIFY(cli.waitForStarted());
        bool compiling = false;
        for (int i = 0; i < 100 && !compiling; ++i) {
            QTest::qWait(50);
            compiling = compilerMentioning(cache.path());
        }
        if (!compiling) QSKIP("the compile finished before it could be seen (a warm machine)");
        cli.kill(); // the client only: its runner must notice and take its group along
        cli.waitForFinished();
        QVERIFY2(compilersGone(cache.path()), "a compiler outlived its killed client");
    }

    // Issue 26: a cache folder that cannot be written is a warning, not a compile error.
    void unwritableCacheIsAWarning()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        writeFile(dir.filePath("a-file"), "x");
        const QByteArray oldCache = qgetenv("WARPBENCH_CACHE_DIR");
        const QByteArray oldTmp = qgetenv("TMPDIR");
        qputenv("WARPBENCH_CACHE_DIR", dir.filePath("a-file/cache").toUtf8());
        qputenv("TMPDIR", dir.path().toUtf8());
        const CliRun r = runCli(
            {"run", QStringLiteral(WB_SOURCE_DIR "/resources/examples/hello_gpu/hello_gpu.wbproj"),
             "--backend", "cpu"});
        qputenv("WARPBENCH_CACHE_DIR", oldCache);
        qputenv("TMPDIR", oldTmp);
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(r.err.count("warpbench: warning: the cache folder"), 1);
        QVERIFY2(r.err.contains(dir.filePath("a-file/cache") +
                                " cannot be written (Not a directory); using a private temporary "
                                "cache " +
                                dir.path() + "/warpbench-cache-"),
                 qPrintable(r.err));
    }

    void crashIsAMessage()
    {
        QTemporaryDir dir;
        QFile f(dir.filePath("div.wbproj"));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(R"({"schemaVersion": 1, "name": "div",
  "kernel": {"source": "__global__ void divide(float* out, int d) { out[threadIdx.x] = float(7 / d); }"},
  "scalars": [{"name": "d", "type": "i32", "value": 0}],
  "buffers": [{"name": "out", "type": "f32", "shape": [32], "role": "out"}],
  "launch": {"kernel": "divide", "grid": [1], "block": [32], "backend": "cpu"}})");
        f.close();
        const CliRun r = runCli({"run", f.fileName()});
        QCOMPARE(r.exitCode, 3);
        QVERIFY2(r.out.contains("SIGFPE"), qPrintable(r.out + r.err));
        QVERIFY(r.out.contains("kernel 'divide'"));
        const CliRun missing =
            runCli({"run", f.fileName(), "--runner", "/nonexistent/warpbench-runner"});
        QCOMPARE(missing.exitCode, 3);
        QVERIFY2(missing.out.contains("No such file or directory"), qPrintable(missing.out));
    }

    /// `run --trace` goes through the runner like the window's trace mode: the same write
    /// records as an in-process trace, and a traced kernel that crashes is a report (before,
    /// trace runs were in-process and the crash killed warpbench-cli itself).
    void traceRunsInTheRunner()
    {
        QTemporaryDir dir;
        QFile f(dir.filePath("race.wbproj"));
        QVERIFY(f.open(QIODevice::WriteOnly));
        // Two threads write each of out[0..15]; out[16..31] are never written.
        f.write(R"({"schemaVersion": 1, "name": "race",
  "kernel": {"source": "__global__ void pairs(float* out) { out[threadIdx.x / 2] = float(threadIdx.x); }"},
  "buffers": [{"name": "out", "type": "f32", "shape": [32], "role": "out"}],
  "launch": {"kernel": "pairs", "grid": [1], "block": [32], "backend": "cpu"}})");
        f.close();
        const CliRun a = runCli({"run", f.fileName(), "--trace", "--json"});
        const CliRun b = runCli({"run", f.fileName(), "--trace", "--json", "--in-process"});
        QCOMPARE(a.exitCode, b.exitCode);
        const QJsonObject ja = QJsonDocument::fromJson(a.out.toUtf8()).object();
        const QJsonObject jb = QJsonDocument::fromJson(b.out.toUtf8()).object();
        QVERIFY2(ja.value("trace").isObject() && !ja.value("trace").toObject().isEmpty(),
                 qPrintable(a.out + a.err));
        QCOMPARE(ja.value("trace"), jb.value("trace"));
        QCOMPARE(ja.value("outputs"), jb.value("outputs"));
        const CliRun text = runCli({"run", f.fileName(), "--trace"});
        const CliRun textIn = runCli({"run", f.fileName(), "--trace", "--in-process"});
        auto traceLines = [](const QString& out) {
            QStringList lines;
            for (const QString& l : out.split('\n'))
                if (l.startsWith(QLatin1String("Trace "))) lines << l;
            return lines;
        };
        QVERIFY2(!traceLines(text.out).isEmpty(), qPrintable(text.out + text.err));
        QCOMPARE(traceLines(text.out), traceLines(textIn.out));

        QFile d(dir.filePath("div.wbproj"));
        QVERIFY(d.open(QIODevice::WriteOnly));
        d.write(R"({"schemaVersion": 1, "name": "div",
  "kernel": {"source": "__global__ void divide(float* out, int d) { out[threadIdx.x] = float(7 / d); }"},
  "scalars": [{"name": "d", "type": "i32", "value": 0}],
  "buffers": [{"name": "out", "type": "f32", "shape": [32], "role": "out"}],
  "launch": {"kernel": "divide", "grid": [1], "block": [32], "backend": "cpu"}})");
        d.close();
        const CliRun crash = runCli({"run", d.fileName(), "--trace"});
        QCOMPARE(crash.exitCode, 3);
        QVERIFY2(crash.out.contains("the runner crashed with SIGFPE"),
                 qPrintable(crash.out + crash.err));
    }

    /// `profile` needs the CUDA backend: on the CPU emulator (and without a GPU) it says so and
    /// exits non-zero, before anything runs.
    void profileNeedsCuda()
    {
        const QString saxpy =
            QStringLiteral(WB_SOURCE_DIR "/resources/examples/saxpy/saxpy.wbproj");
        const CliRun cpu = runCli({"profile", saxpy, "--backend", "cpu"});
        QCOMPARE(cpu.exitCode, 4);
        QVERIFY2(cpu.err.contains("profile needs the CUDA backend: the session runs on the CPU "
                                  "emulator"),
                 qPrintable(cpu.err));
        QVERIFY(cpu.out.isEmpty());
        const CliRun json = runCli({"profile", saxpy, "--backend", "cpu", "--json"});
        QCOMPARE(json.exitCode, 4);
        const QJsonObject j = QJsonDocument::fromJson(json.out.toUtf8()).object();
        QCOMPARE(j.value("exitCode").toInt(), 4);
        QVERIFY(j.value("message").toString().startsWith("profile needs the CUDA backend"));
        QCOMPARE(runCli({"profile", saxpy, "--timing", "sundial"}).exitCode, 4);
        QCOMPARE(runCli({"profile", saxpy, "--trace"}).exitCode, 4);
        QCOMPARE(runCli({"profile"}).exitCode, 4);
        if (const auto why = wb::cudaUnavailableReason()) {
            const CliRun none = runCli({"profile", saxpy, "--backend", "cuda"});
            QCOMPARE(none.exitCode, 3);
            QVERIFY2(none.err.contains(
                         QString::fromStdString("profile needs the CUDA backend: " + *why)),
                     qPrintable(none.err));
        }
    }

    /// A runner that breaks the protocol (a remote .bashrc printing a greeting): exit code 3
    /// and a message saying what arrived and what to do, never an abort.
    void protocolErrorIsExit3()
    {
        const QString hello =
            QStringLiteral(WB_SOURCE_DIR "/resources/examples/hello_gpu/hello_gpu.wbproj");
        const QString fake = QStringLiteral(WB_FAKE_RUNNER_EXE " bashrc");
        const CliRun r = runCli({"run", hello, "--backend", "cpu", "--runner", fake});
        QCOMPARE(r.exitCode, 3);
        QVERIFY2(r.out.contains("the other side is not a Warpbench runner: it sent \"Welcome to "
                                "gpu-box!"),
                 qPrintable(r.out + r.err));
        QVERIFY2(r.out.contains(".bashrc"), qPrintable(r.out));
        const CliRun j = runCli({"run", hello, "--backend", "cpu", "--json", "--runner",
                                 QStringLiteral(WB_FAKE_RUNNER_EXE " status")});
        QCOMPARE(j.exitCode, 3);
        const QJsonObject o = QJsonDocument::fromJson(j.out.toUtf8()).object();
        QVERIFY2(o.value("message").toString().contains("unknown report status 42"),
                 qPrintable(j.out + j.err));
    }

    /// What the kernel prints reaches stdout before the report, bounded, and --json has it as
    /// `kernelOutput`. Blocks run in no fixed order (the emulator spreads them over worker
    /// threads, as a GPU over its SMs), so which 200 of the 320 lines are kept is not fixed.
    void kernelPrintfReachesStdout()
    {
        QTemporaryDir dir;
        QFile f(dir.filePath("talk.wbproj"));
        QVERIFY(f.open(QIODevice::WriteOnly));
        const QString source = QStringLiteral(
            "__global__ void talk(float* out) { printf(\"thread %d of block %d\\n\", "
            "(int)threadIdx.x, (int)blockIdx.x); out[blockIdx.x * 32 + threadIdx.x] = 1.0f; }");
        const QJsonObject project{
            {"schemaVersion", 1},
            {"name", "talk"},
            {"kernel", QJsonObject{{"source", source}}},
            {"buffers",
             QJsonArray{QJsonObject{
                 {"name", "out"}, {"type", "f32"}, {"shape", QJsonArray{320}}, {"role", "out"}}}},
            {"launch", QJsonObject{{"kernel", "talk"},
                                   {"grid", QJsonArray{10}},
                                   {"block", QJsonArray{32}},
                                   {"backend", "cpu"},
                                   {"warmup", 0},
                                   {"iterations", 1}}}};
        f.write(QJsonDocument(project).toJson());
        f.close();
        const CliRun r = runCli({"run", f.fileName()});
        QCOMPARE(r.exitCode, 0);
        static const QRegularExpression line(QStringLiteral("thread ([0-9]|[12][0-9]|3[01]) of "
                                                            "block [0-9]\n"));
        QVERIFY2(r.out.contains(line), qPrintable(r.out + r.err));
        QVERIFY2(r.out.contains(QRegularExpression(QStringLiteral("\n… [0-9]+ more lines\n"))),
                 qPrintable(r.out));
        // Before the report's result line (no reference: "RAN, NOT CHECKED").
        QVERIFY(r.out.indexOf(line) < r.out.indexOf("Result    RAN, NOT CHECKED"));
        const CliRun j = runCli({"run", f.fileName(), "--json"});
        QCOMPARE(j.exitCode, 0);
        const QJsonObject o = QJsonDocument::fromJson(j.out.toUtf8()).object();
        const QString printed = o.value("kernelOutput").toString();
        QVERIFY2(printed.startsWith("thread ") && printed.contains(line), qPrintable(j.out));
        QVERIFY2(printed.contains(QRegularExpression(QStringLiteral("\n… [0-9]+ more lines\n$"))),
                 qPrintable(printed));
        QCOMPARE(printed.count(u'\n'), 201);
        QVERIFY(o.value("findings").isArray());
    }

    /// run --json carries the memory findings (here the CPU emulator's bounds-checked mode).
    void jsonHasMemoryFindings()
    {
        const CliRun r = runCli({"run", QStringLiteral(WB_TEST_DATA_DIR "/oob_write.wbproj"),
                                 "--backend", "cpu", "--bounds-check", "--json"});
        const QJsonObject o = QJsonDocument::fromJson(r.out.toUtf8()).object();
        if (o.value("message").toString().contains("unavailable"))
            QSKIP("bounds-checked mode is unavailable here (needs clang++ with AddressSanitizer)");
        QVERIFY2(r.exitCode != 0, qPrintable(r.out + r.err));
        const QJsonArray findings = o.value("findings").toArray();
        QVERIFY2(!findings.isEmpty(), qPrintable(r.out));
        const QJsonObject first = findings.first().toObject();
        QCOMPARE(first.value("kind").toString(), QStringLiteral("out of bounds"));
        QCOMPARE(first.value("kernel").toString(), QStringLiteral("oob_write"));
        QVERIFY(first.value("line").toInt() > 0);
        QVERIFY(first.value("isWrite").toBool());
        QCOMPARE(first.value("thread").toArray().size(), 3);
    }
};

WB_QTEST_GUILESS_MAIN(TstRunnerCli)
#include "tst_runnercli.moc"
