// SPDX-License-Identifier: GPL-3.0-or-later
// RunnerClient + warpbench-runner on the CPU backend: the fault corpus (each case must end in a
// clear message AND a working next run), cancel, external kill, version and missing-binary
// errors, and identical results in-process and out-of-process.
#include "RunnerTestUtil.h"

#include "core/backend/Backend.h"
#include "core/common/Error.h"
#include "core/runner/RunnerClient.h"
#include "core/runner/RunnerSweep.h"
#include "core/session/SessionRunner.h"
#include "tests/support/SuiteMain.h"

#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <optional>
#include <thread>

using namespace wb;
using namespace wb::runner;
using namespace wb::runner::test;
using session::RunReport;

namespace {
/// Runners started while this lives have no NVRTC (as on a machine without the toolkit), so
/// the CPU emulator compiles kernels that call host functions without its device-code check.
struct WithoutNvrtc {
    WithoutNvrtc() { qputenv("WARPBENCH_LIBNVRTC", "/nonexistent/libnvrtc.so.13"); }
    ~WithoutNvrtc() { qunsetenv("WARPBENCH_LIBNVRTC"); }
    WithoutNvrtc(const WithoutNvrtc&) = delete;
    WithoutNvrtc& operator=(const WithoutNvrtc&) = delete;
};
} // namespace

Q_DECLARE_METATYPE(wb::runner::Fault)

class TstRunnerClient : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        try {
            createBackend(BackendKind::Cpu);
        } catch (const Error& e) {
            QSKIP(e.what());
        }
    }

    void helloIsWarmAndIdenticalToInProcess()
    {
        RunnerClient client(localConfig());
        const RunOutcome a = client.run(helloRequest(BackendKind::Cpu));
        QCOMPARE(a.fault, Fault::None);
        QCOMPARE(a.report.status, RunReport::Status::Passed);
        QVERIFY(a.runnerStarted);
        const pid_t pid = client.runnerPid(BackendKind::Cpu, 0);
        QVERIFY(pid > 0);
        const RunOutcome b = client.run(helloRequest(BackendKind::Cpu));
        QCOMPARE(b.report.status, RunReport::Status::Passed);
        QVERIFY(!b.runnerStarted);
        QCOMPARE(client.runnerPid(BackendKind::Cpu, 0), pid);

        session::SessionRunner::Options opt;
        opt.backend = BackendKind::Cpu;
        const RunReport local = session::SessionRunner::run(helloSession(), opt);
        QCOMPARE(local.status, RunReport::Status::Passed);
        QCOMPARE(b.report.results, local.results);
        QCOMPARE(b.report.expected, local.expected);
        QCOMPARE(b.report.kernel, local.kernel);
        QCOMPARE(b.report.outputs.size(), local.outputs.size());
        QCOMPARE(b.report.outputs[0].stats.maxAbs, local.outputs[0].stats.maxAbs);
        QCOMPARE(b.report.device.name, local.device.name);
        QCOMPARE(b.report.exitCode(), local.exitCode());
    }

    void faultCorpus_data()
    {
        QTest::addColumn<QString>("source");
        QTest::addColumn<QStringList>("scalars"); // name=value
        QTest::addColumn<QString>("shape");
        QTest::addColumn<int>("timeoutMs");
        QTest::addColumn<Fault>("fault");
        QTest::addColumn<QString>("expect"); // in the message

        QTest::newRow("out-of-bounds write")
            << "__global__ void k(float* out) { out[threadIdx.x + (1ull << 40)] = 1.0f; }"
            << QStringList{} << "64" << 10000 << Fault::Crashed << "SIGSEGV";
        QTest::newRow("null pointer")
            << "__global__ void k(float* out, unsigned long long addr) {\n"
               "  float* p = reinterpret_cast<float*>(addr); out[threadIdx.x] = p[threadIdx.x]; }"
            << QStringList{"addr=0"} << "64" << 10000 << Fault::Crashed << "SIGSEGV";
        QTest::newRow("integer divide by zero")
            << "__global__ void k(float* out, int d) { out[threadIdx.x] = float(100 / d); }"
            << QStringList{"d=0"} << "64" << 10000 << Fault::Crashed << "SIGFPE";
        QTest::newRow("abort")
            << "#include <cstdlib>\n__global__ void k(float* out) { if (threadIdx.x == 3) abort(); "
               "out[threadIdx.x] = 1.0f; }"
            << QStringList{} << "64" << 10000 << Fault::Crashed << "SIGABRT";
        QTest::newRow("stack overflow by recursion")
            << "__device__ int down(volatile int* p, int n) { volatile int pad[256]; pad[0] = n; "
               "p[0] = pad[0]; return down(p, n + 1) + pad[0]; }\n"
               "__global__ void k(float* out) { __shared__ int s; out[threadIdx.x] = "
               "float(down(&s, 0)); }"
            << QStringList{} << "64" << 10000 << Fault::Crashed << "SIGSEGV";
        QTest::newRow("infinite loop")
            << "__global__ void k(float* out) { volatile int x = 0; while (true) x = x + 1; out[0] "
               "= float(x); }"
            << QStringList{} << "64" << 2000 << Fault::Timeout << "timeout";
        QTest::newRow("divergent barrier")
            << "__global__ void k(float* out) { if (threadIdx.x < 16) __syncthreads(); "
               "out[threadIdx.x] = 1.0f; }"
            << QStringList{} << "64" << 4000 << Fault::None << "is not reached by every thread";
        QTest::newRow("1 PB allocation")
            << "__global__ void k(float* out) { out[threadIdx.x] = 1.0f; }" << QStringList{}
            << "281474976710656" << 10000 << Fault::OutOfMemory << "out of memory";
        // The CPU prelude has no __trap() yet: today a compile error naming it; once the prelude
        // maps it to abort(), a SIGABRT crash. Both are accepted, each checked for its message.
        QTest::newRow("__trap()") << "__global__ void k(float* out) { if (threadIdx.x == 1) "
                                     "__trap(); out[threadIdx.x] = 1.0f; }"
                                  << QStringList{} << "64" << 10000 << Fault::None << "__trap";
    }

    void faultCorpus()
    {
        QFETCH(QString, source);
        QFETCH(QStringList, scalars);
        QFETCH(QString, shape);
        QFETCH(int, timeoutMs);
        QFETCH(Fault, fault);
        QFETCH(QString, expect);
        const auto sc = scalarPairs(scalars);
        // abort() is a host function: NVRTC's device-code check refuses it (issue 25). What
        // the runner does when such a kernel runs is what happens where NVRTC is missing.
        std::optional<WithoutNvrtc> noCheck;
        if (QByteArray(QTest::currentDataTag()) == "abort") noCheck.emplace();
        RunnerClient client(localConfig());
        QCOMPARE(client.run(helloRequest(BackendKind::Cpu)).report.status,
                 RunReport::Status::Passed); // warm
        const RunOutcome o = client.run(request(
            faultSession("fault", source.toStdString(), BackendKind::Cpu, sc, shape.toStdString()),
            timeoutMs));
        print(QTest::currentDataTag(), o);
        QVERIFY(o.report.status != RunReport::Status::Passed);
        std::string text = o.report.message;
        for (const Diagnostic& d : o.report.diagnostics)
            text += "\n" + d.file + ":" + std::to_string(d.line) + ": " + d.message;
        if (o.report.status == RunReport::Status::CompileError)
            std::printf("    diagnostics:%s\n", text.substr(o.report.message.size()).c_str());
        const bool trapAsAbort =
            QByteArray(QTest::currentDataTag()) == "__trap()" && o.fault == Fault::Crashed;
        if (trapAsAbort) {
            QCOMPARE(o.signal, SIGABRT);
        } else {
            QCOMPARE(o.fault, fault);
            QVERIFY2(text.find(expect.toStdString()) != std::string::npos, text.c_str());
        }
        if (fault == Fault::Crashed) {
            QVERIFY2(o.report.message.find("kernel 'k'") != std::string::npos,
                     o.report.message.c_str());
            QVERIFY2(o.report.message.find("restarted") != std::string::npos,
                     o.report.message.c_str());
        }
        if (fault == Fault::Timeout) QVERIFY(o.elapsedMs >= timeoutMs);
        QCOMPARE(o.report.exitCode(), o.report.status == RunReport::Status::CompileError ? 2 : 3);
        // The next run works, on a fresh runner where the fault took the old one down.
        const RunOutcome next = client.run(helloRequest(BackendKind::Cpu));
        QCOMPARE(next.fault, Fault::None);
        QCOMPARE(next.report.status, RunReport::Status::Passed);
        QCOMPARE(next.runnerStarted, o.fault == Fault::Crashed || o.fault == Fault::Timeout);
    }

    void killedExternallyMidRun()
    {
        RunnerClient client(localConfig());
        RunOutcome o;
        std::thread t([&] {
            o = client.run(request(
                faultSession(
                    "spin",
                    "__global__ void k(float* out) { volatile int x = 0; while (true) x = x + 1; }",
                    BackendKind::Cpu),
                60000));
        });
        pid_t pid = 0;
        for (int i = 0; i < 3000 && !pid; ++i) {
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
            pid = client.activeRunnerPid();
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(1500)); // compiled and spinning
        QVERIFY(pid > 0);
        ::kill(pid, SIGKILL);
        t.join();
        print("killed externally", o);
        QCOMPARE(o.fault, Fault::Crashed);
        QCOMPARE(o.signal, SIGKILL);
        QVERIFY(o.report.message.find("killed from outside") != std::string::npos);
        QCOMPARE(client.run(helloRequest(BackendKind::Cpu)).report.status,
                 RunReport::Status::Passed);
    }

    void killedWhileIdleIsTransparent()
    {
        RunnerClient client(localConfig());
        QCOMPARE(client.run(helloRequest(BackendKind::Cpu)).report.status,
                 RunReport::Status::Passed);
        const pid_t pid = client.runnerPid(BackendKind::Cpu, 0);
        ::kill(pid, SIGKILL);
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        const RunOutcome o = client.run(helloRequest(BackendKind::Cpu));
        QCOMPARE(o.report.status, RunReport::Status::Passed);
        QVERIFY(o.runnerStarted);
        QVERIFY(client.runnerPid(BackendKind::Cpu, 0) != pid);
    }

    void cancelKillsAfterGrace()
    {
        RunnerClient::Config c = localConfig();
        c.cancelGraceMs = 300;
        RunnerClient client(c);
        QCOMPARE(client.run(helloRequest(BackendKind::Cpu)).report.status,
                 RunReport::Status::Passed);
        RunOutcome o;
        std::thread t([&] {
            o = client.run(request(
                faultSession(
                    "spin",
                    "__global__ void k(float* out) { volatile int x = 0; while (true) x = x + 1; }",
                    BackendKind::Cpu),
                60000));
        });
        std::this_thread::sleep_for(std::chrono::milliseconds(1500));
        const auto t0 = std::chrono::steady_clock::now();
        client.cancel();
        t.join();
        const double ms =
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0)
                .count();
        print("cancel", o);
        QCOMPARE(o.fault, Fault::Cancelled);
        QVERIFY(ms >= 250 && ms < 5000);
        QCOMPARE(client.run(helloRequest(BackendKind::Cpu)).report.status,
                 RunReport::Status::Passed);
    }

    /// The run's own copies are timed in the runner and come back in the report: every buffer
    /// uploaded once, every output downloaded once (the window shows these; it no longer
    /// copies anything itself).
    void transfersAreTheRunsOwn()
    {
        RunnerClient client(localConfig());
        const RunOutcome o = client.run(helloRequest(BackendKind::Cpu));
        QCOMPARE(o.report.status, RunReport::Status::Passed);
        std::printf("  transfers: H2D %.4f ms (%llu B), D2H %.4f ms (%llu B)\n", o.report.h2dMs,
                    static_cast<unsigned long long>(o.report.h2dBytes), o.report.d2hMs,
                    static_cast<unsigned long long>(o.report.d2hBytes));
        QVERIFY(o.report.h2dMs >= 0);
        QVERIFY(o.report.d2hMs >= 0);
        std::uint64_t results = 0;
        for (const auto& [name, a] : o.report.results)
            results += a.bytes();
        QVERIFY(results > 0);
        QCOMPARE(o.report.d2hBytes, results);
        // hello_gpu: two inputs and one output of the same size, all uploaded.
        QCOMPARE(o.report.h2dBytes, 3 * results);
        // A run that stops before its launch measured nothing.
        const RunOutcome bad = client.run(request(
            faultSession("bad", "__global__ void k(float* out) { out[0] = }", BackendKind::Cpu)));
        QCOMPARE(bad.report.status, RunReport::Status::CompileError);
        QCOMPARE(bad.report.h2dMs, -1.0);
    }

    /// Module globals travel with the session to the runner (a __constant__ set there) and
    /// come back with the results (a __device__ variable read back and compared), and the
    /// unset-__constant__ warning with the diagnostics.
    void moduleGlobalsCrossTheProcess()
    {
        session::Session s = faultSession(
            "globals",
            "__constant__ float c_scale[2];\n"
            "__constant__ float c_unset[4];\n"
            "__device__ int g_sum = 5;\n"
            "__global__ void k(float* out)\n"
            "{\n"
            "    out[threadIdx.x] = c_scale[0] * threadIdx.x + c_scale[1] + c_unset[0];\n"
            "    atomicAdd(&g_sum, 1);\n"
            "}\n",
            BackendKind::Cpu);
        session::BufferSpec scale;
        scale.name = "c_scale";
        scale.shape = {"2"};
        scale.init.kind = session::Initialiser::Kind::Iota;
        scale.init.start = "3";
        session::BufferSpec sum;
        sum.name = "g_sum";
        sum.type = session::ElementType::I32;
        sum.shape = {"1"};
        sum.role = session::BufferRole::Out;
        s.globals = {scale, sum};
        RunnerClient client(localConfig());
        const RunOutcome o = client.run(request(s));
        QCOMPARE(o.fault, Fault::None);
        QVERIFY2(o.report.compiled, o.report.message.c_str());
        const session::HostArray& out = o.report.results.at("out");
        QCOMPARE(out.count(), std::size_t{64});
        QCOMPARE(out.at(10), 3.0 * 10 + 4.0);
        QCOMPARE(o.report.results.at("g_sum").at(0), 5.0 + 32.0); // one block of 32
        bool warned = false;
        for (const Diagnostic& d : o.report.diagnostics)
            warned = warned || (d.severity == Severity::Warning && d.line == 2 &&
                                d.message.find("'c_unset'") != std::string::npos);
        QVERIFY(warned);
    }

    /// Request::cancel already set: the run does not start (a sweep cancelled between points).
    void cancelFlagBeforeTheRun()
    {
        RunnerClient client(localConfig());
        RunnerClient::Request req = helloRequest(BackendKind::Cpu);
        req.cancel = std::make_shared<std::atomic<bool>>(true);
        const RunOutcome o = client.run(req);
        QCOMPARE(o.fault, Fault::Cancelled);
        QVERIFY(!o.runnerStarted);
        QCOMPARE(client.runnerPid(BackendKind::Cpu, 0), 0);
    }

    /// Sweeps run each point in the runner: a point that crashes is that point's verdict and
    /// the next point runs in a fresh runner (in-process, the crash killed the whole sweep and
    /// its caller: the window).
    void sweepPointCrashIsThatPointsVerdict()
    {
        auto client = std::make_shared<RunnerClient>(localConfig());
        profiling::SweepParameter p;
        p.kind = profiling::SweepParameter::Kind::Scalar;
        p.name = "d";
        p.values = {"1", "0", "2"};
        const profiling::SweepResult r = profiling::runSweep(
            p, runnerSweepRunner(
                   client, faultSession("div",
                                        "__global__ void k(float* out, int d) { out[threadIdx.x] = "
                                        "float(100 / d); }",
                                        BackendKind::Cpu, {{"d", "1"}}, "32")));
        QCOMPARE(r.points.size(), std::size_t{3});
        for (const auto& point : r.points)
            std::printf("  d = %s: %s\n", point.value.c_str(), point.outcome.verdict.c_str());
        QVERIFY(r.points[0].outcome.valid);
        QVERIFY(!r.points[1].outcome.ok);
        QVERIFY(r.points[1].outcome.verdict.find("SIGFPE") != std::string::npos);
        QVERIFY(r.points[1].outcome.verdict.find("kernel 'k'") != std::string::npos);
        QVERIFY2(r.points[2].outcome.valid, r.points[2].outcome.verdict.c_str());
        QVERIFY(r.best.has_value());
    }

    /// Issue 17 item 8, core: a kernel correct only at block 256. Without a reference the
    /// old sweep called every point that ran a "pass"; now block 512 is invalid for its 256
    /// never-written elements (counted on the client: the report travels without coverage),
    /// block 128 for its out-of-bounds write (the bounds check on the CPU emulator, before the
    /// point is timed), and only 256 can be best.
    void sweepMarksUnwrittenAndOutOfBoundsPointsInvalid()
    {
        auto client = std::make_shared<RunnerClient>(localConfig());
        session::Session s = faultSession("block256",
                                          "__global__ void k(float* out)\n"
                                          "{\n"
                                          "    out[blockIdx.x * 256 + threadIdx.x] = 1.0f;\n"
                                          "}\n",
                                          BackendKind::Cpu, {}, "1024");
        s.launch.grid = {"4"};
        s.launch.block = {"256"};
        profiling::SweepParameter p;
        p.kind = profiling::SweepParameter::Kind::BlockSize;
        p.values = {"256", "512"};
        profiling::SweepResult plain = profiling::runSweep(p, runnerSweepRunner(client, s));
        QCOMPARE(plain.points.size(), std::size_t{2});
        QVERIFY2(plain.points[0].outcome.valid, plain.points[0].outcome.verdict.c_str());
        QVERIFY(plain.points[1].outcome.ok && !plain.points[1].outcome.valid);
        QCOMPARE(plain.points[1].outcome.unwritten, std::size_t{256});
        QCOMPARE(plain.points[1].outcome.verdict,
                 std::string("invalid: 256 never-written elements in 'out'"));
        QVERIFY(!plain.points[1].outcome.boundsChecked);
        QCOMPARE(plain.points[*plain.best].value, std::string("256"));

        p.values = {"128", "256", "512"};
        RunnerClient::Request checked;
        checked.options.check = wb::CheckMode::Bounds;
        const profiling::SweepResult r =
            profiling::runSweep(p, runnerSweepRunner(client, s, checked));
        for (const auto& point : r.points)
            std::printf("  block %s: %s\n", point.value.c_str(), point.outcome.verdict.c_str());
        QCOMPARE(r.points.size(), std::size_t{3});
        if (r.points[0].outcome.verdict.find("unavailable") != std::string::npos)
            QSKIP("bounds-checked mode is unavailable here (needs clang++ with AddressSanitizer)");
        const profiling::SweepPointOutcome& oob = r.points[0].outcome;
        QVERIFY(oob.boundsChecked && !oob.ok && !oob.valid);
        QVERIFY(!oob.findings.empty());
        QCOMPARE(oob.findings[0].kind, MemoryFinding::Kind::OutOfBounds);
        QCOMPARE(oob.findings[0].line, 3);
        QVERIFY2(oob.verdict.rfind("invalid: out of bounds at ", 0) == 0, oob.verdict.c_str());
        QVERIFY2(oob.verdict.find(":3 (block (") != std::string::npos, oob.verdict.c_str());
        QVERIFY(r.points[1].outcome.valid && r.points[1].outcome.boundsChecked);
        QVERIFY(r.points[1].outcome.timeSeconds > 0); // timed by the plain run
        QCOMPARE(r.points[2].outcome.unwritten, std::size_t{256});
        QVERIFY(!r.points[2].outcome.valid);
        QVERIFY(r.best.has_value());
        QCOMPARE(r.points[*r.best].value, std::string("256"));
        QCOMPARE(r.invalidCount(), std::size_t{2});
    }

    void missingRunner()
    {
        RunnerClient::Config c;
        c.command = {"/nonexistent/warpbench-runner"};
        RunnerClient client(c);
        const RunOutcome o = client.run(helloRequest(BackendKind::Cpu));
        print("missing runner", o);
        QCOMPARE(o.fault, Fault::RunnerUnavailable);
        QCOMPARE(o.report.exitCode(), 3);
        QVERIFY(o.report.message.find("No such file") != std::string::npos);
        QVERIFY(o.report.message.find("--in-process") != std::string::npos);
    }

    void wrongProtocolVersion()
    {
        RunnerClient::Config c;
        c.command = {WB_RUNNER_EXE, "--protocol-version", "99"};
        RunnerClient client(c);
        const RunOutcome o = client.run(helloRequest(BackendKind::Cpu));
        print("wrong version", o);
        QCOMPARE(o.fault, Fault::RunnerUnavailable);
        QVERIFY(o.report.message.find("version mismatch") != std::string::npos);
        QVERIFY(o.report.message.find("99") != std::string::npos);
    }

    /// A profile request on the CPU emulator: the run goes through as usual and the profile
    /// that comes back says why there is none.
    void profileOnTheCpuSaysWhy()
    {
        RunnerClient client(localConfig());
        RunnerClient::Request req = helloRequest(BackendKind::Cpu);
        req.profile = profiling::SessionProfileOptions{};
        const RunOutcome o = client.run(req);
        print("profile on the CPU", o);
        QCOMPARE(o.fault, Fault::None);
        QCOMPARE(o.report.status, RunReport::Status::Passed);
        QVERIFY(o.profile);
        QVERIFY(!o.profile->profiled());
        QCOMPARE(o.profile->status.state, profiling::ProfilerStatus::State::UnsupportedDevice);
        QVERIFY2(o.profile->status.message.find("need the CUDA backend") != std::string::npos,
                 o.profile->status.message.c_str());
        // Without a profile request there is no profile; the runner stays warm in between.
        const RunOutcome plain = client.run(helloRequest(BackendKind::Cpu));
        QVERIFY(!plain.profile);
        QVERIFY(!plain.runnerStarted);
        QVERIFY(plain.report.results == o.report.results);
    }

    void boundsCheckedRerunFindsTheAccess()
    {
        RunnerClient client(localConfig());
        RunnerClient::Request r = request(
            faultSession("oob", "__global__ void k(float* out) { out[threadIdx.x + 60] = 1.0f; }",
                         BackendKind::Cpu));
        r.options.check = wb::CheckMode::Bounds;
        const RunOutcome o = client.run(r);
        print("bounds-checked", o);
        if (o.report.message.find("unavailable") != std::string::npos)
            QSKIP("bounds-checked mode is unavailable here (needs clang++ with AddressSanitizer)");
        QCOMPARE(o.fault, Fault::None); // the sandbox caught it: a report, not a crash
        QVERIFY(o.report.status != RunReport::Status::Passed);
        QVERIFY(!o.report.memoryFindings.empty());
        QCOMPARE(o.report.memoryFindings[0].kind, MemoryFinding::Kind::OutOfBounds);
        QCOMPARE(o.report.memoryFindings[0].kernel, std::string("k"));
        QVERIFY(o.report.memoryFindings[0].line > 0);
        QCOMPARE(client.run(helloRequest(BackendKind::Cpu)).report.status,
                 RunReport::Status::Passed);
    }

    /// A runner that breaks the protocol (tests/runner/fake_runner.cpp, one way per mode): a
    /// clear protocol error, never a crash, an abort or SIGBUS; the next run starts a fresh one.
    void misbehavingRunner_data()
    {
        QTest::addColumn<QString>("mode");
        QTest::addColumn<bool>("inlineBuffers");
        QTest::addColumn<Fault>("fault");
        QTest::addColumn<QString>("expect"); // in the message
        QTest::newRow("shell greeting before the protocol")
            << "bashrc" << true << Fault::ProtocolError
            << "not a Warpbench runner: it sent \"Welcome to gpu-box! Last login";
        QTest::newRow("frame larger than a hello may be")
            << "bigframe" << false << Fault::ProtocolError
            << "a frame of type hello with 1073741824 bytes, more than the 1048576";
        QTest::newRow("offset + bytes wraps around")
            << "wrap" << false << Fault::ProtocolError
            << "a buffer's offset is not an integer from 0 to 9007199254740992 (got "
               "1.8446744073709548e+19)";
        QTest::newRow("buffer past the shared memory")
            << "farbuffer" << false << Fault::ProtocolError
            << "(8192 bytes at offset 9007199254740992) lies outside the 8192-byte shared memory";
        QTest::newRow("shared memory smaller than announced")
            << "smallshm" << false << Fault::ProtocolError
            << "holds 4096 bytes, fewer than the 1048576 announced";
        QTest::newRow("shared memory that may shrink")
            << "unsealed" << false << Fault::ProtocolError << "not sealed against shrinking";
        QTest::newRow("huge shape")
            << "hugeshape" << false << Fault::ProtocolError
            << "a buffer of shape [1125899906842624] is larger than the 4096 bytes";
        QTest::newRow("unknown status")
            << "status" << false << Fault::ProtocolError << "unknown report status 42";
        QTest::newRow("exits mid-frame") << "midframe" << false << Fault::Crashed
                                         << "the runner exited in the middle of a frame (10 bytes";
        QTest::newRow("blob claiming more than it holds")
            << "blobbomb" << true << Fault::ProtocolError
            << "claims 1073741824 bytes, the runner sent 4128";
    }

    void misbehavingRunner()
    {
        QFETCH(QString, mode);
        QFETCH(bool, inlineBuffers);
        QFETCH(Fault, fault);
        QFETCH(QString, expect);
        RunnerClient::Config c;
        c.command = {WB_FAKE_RUNNER_EXE, mode.toStdString()};
        c.inlineBuffers = inlineBuffers;
        c.startTimeoutMs = 5000;
        RunnerClient client(c);
        RunnerClient::Request r = helloRequest(BackendKind::Cpu);
        r.prepareTimeoutMs = 5000;
        for (int attempt = 0; attempt < 2; ++attempt) {
            const RunOutcome o = client.run(r);
            print(qPrintable(mode), o);
            QCOMPARE(o.fault, fault);
            QCOMPARE(o.report.exitCode(), 3);
            QVERIFY2(o.report.message.find(expect.toStdString()) != std::string::npos,
                     o.report.message.c_str());
            QVERIFY(o.runnerStarted); // the broken runner was not kept
            QCOMPARE(client.runnerPid(BackendKind::Cpu, 0), 0);
        }
        if (mode == QLatin1String("bashrc"))
            QVERIFY(client.run(r).report.message.find(".bashrc") != std::string::npos);
    }

    /// A hello naming another process's pid is refused, and that process is never signalled
    /// (before, the timeout killed "the runner pid" from the hello).
    void pidFromTheWireIsNeverKilled()
    {
        QProcess victim;
        victim.start(QStringLiteral("sleep"), {QStringLiteral("30")});
        QVERIFY(victim.waitForStarted());
        const qint64 pid = victim.processId();
        RunnerClient::Config c;
        c.command = {WB_FAKE_RUNNER_EXE, "pid:" + std::to_string(pid)};
        c.inlineBuffers = false;
        RunnerClient client(c);
        RunnerClient::Request r = helloRequest(BackendKind::Cpu);
        r.prepareTimeoutMs = 1000;
        const RunOutcome o = client.run(r);
        print("pid", o);
        QCOMPARE(o.fault, Fault::ProtocolError);
        QVERIFY2(o.report.message.find("names pid " + std::to_string(pid) +
                                       ", which is neither the process started") !=
                     std::string::npos,
                 o.report.message.c_str());
        client.shutdown();
        QVERIFY(!victim.waitForFinished(300));
        QCOMPARE(victim.state(), QProcess::Running);
        QCOMPARE(::kill(static_cast<pid_t>(pid), 0), 0);
        victim.kill();
        victim.waitForFinished();
    }

    /// What a CPU kernel prints comes back with the outcome: the first 200 lines, then how
    /// many more; each run's own output, nothing when nothing is printed.
    void kernelPrintfReachesTheOutcome()
    {
        session::Session s = faultSession(
            "printf",
            "__global__ void k(float* out) { printf(\"thread %d says hi\\n\", (int)threadIdx.x); "
            "out[threadIdx.x] = 1.0f; }",
            BackendKind::Cpu, {}, "256");
        s.launch.block = {"256"};
        RunnerClient client(localConfig());
        const RunOutcome a = client.run(request(s));
        print("printf", a);
        QCOMPARE(a.fault, Fault::None);
        const QStringList lines =
            QString::fromStdString(a.report.kernelOutput).split(u'\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 201);
        QVERIFY2(lines.contains(QStringLiteral("thread 0 says hi")), qPrintable(lines.join('|')));
        QVERIFY(lines[0].endsWith(QStringLiteral(" says hi")));
        QVERIFY2(lines.last().startsWith(QStringLiteral("… ")) &&
                     lines.last().endsWith(QStringLiteral(" more lines")),
                 qPrintable(lines.last()));
        const qlonglong more = lines.last().section(u' ', 1, 1).toLongLong();
        QVERIFY(more >= 56);
        QCOMPARE((200 + more) % 256, 0); // whole launches of 256 lines each
        const RunOutcome b = client.run(request(s));
        QVERIFY(!b.runnerStarted);
        QCOMPARE(b.report.kernelOutput, a.report.kernelOutput); // not accumulated across runs
        QCOMPARE(client.run(helloRequest(BackendKind::Cpu)).report.kernelOutput, std::string());
    }

    /// Issue 26: what a kernel printed before it crashed comes back with the crash (it was
    /// lost with the runner's process).
    void printfBeforeACrashIsKept()
    {
        RunnerClient client(localConfig());
        const RunOutcome o = client.run(request(
            faultSession("printf-crash",
                         "__global__ void k(float* out) {\n"
                         "    if (threadIdx.x == 0) printf(\"about to crash: %d\\n\", 42);\n"
                         "    if (threadIdx.x == 5) *(volatile int*)nullptr = 1;\n"
                         "    out[threadIdx.x] = 1.0f;\n"
                         "}\n",
                         BackendKind::Cpu)));
        print("printf before a crash", o);
        QCOMPARE(o.fault, Fault::Crashed);
        QCOMPARE(o.signal, SIGSEGV);
        QCOMPARE(o.report.kernelOutput, std::string("about to crash: 42\n"));
        QCOMPARE(client.run(helloRequest(BackendKind::Cpu)).report.status,
                 RunReport::Status::Passed);
    }

    /// Issue 26: a kernel that prints without end until the time limit: the first lines and the
    /// count of the others come back with the timeout (kernelOutput was empty).
    void printingPastTheTimeLimitKeepsTheFirstLines()
    {
        RunnerClient client(localConfig());
        const RunOutcome o = client.run(
            request(faultSession("printf-timeout",
                                 "__global__ void k(float* out) {\n"
                                 "    for (long long i = 0;; ++i) printf(\"line %lld\\n\", i);\n"
                                 "}\n",
                                 BackendKind::Cpu),
                    2000));
        QCOMPARE(o.fault, Fault::Timeout);
        const QStringList lines =
            QString::fromStdString(o.report.kernelOutput).split(u'\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 201);
        QCOMPARE(lines[0], QStringLiteral("line 0"));
        QCOMPARE(lines[199], QStringLiteral("line 199"));
        QVERIFY2(lines.last().startsWith(QStringLiteral("… ")) &&
                     lines.last().endsWith(QStringLiteral(" more lines")) &&
                     lines.last().section(u' ', 1, 1).toLongLong() > 0,
                 qPrintable(lines.last()));
    }

    /// Issue 26: a kernel closing descriptors 3-1023 (the runner's channel among them) is not
    /// blamed on the client hanging up.
    void kernelClosingDescriptorsIsNotAHangUp()
    {
        // close() is a host function, which NVRTC's device-code check refuses (issue 25): the
        // runner is started without NVRTC, as on a machine without the toolkit.
        const WithoutNvrtc noCheck;
        RunnerClient client(localConfig());
        const RunOutcome o = client.run(request(
            faultSession("close-fds",
                         "extern \"C\" int close(int);\n"
                         "__global__ void k(float* out) {\n"
                         "    if (threadIdx.x == 0) for (int fd = 3; fd < 1024; ++fd) close(fd);\n"
                         "    out[threadIdx.x] = 1.0f;\n"
                         "}\n",
                         BackendKind::Cpu)));
        print("kernel closes descriptors", o);
        // The kernel runs in the runner's sealed child (issue 25): what it closes are the
        // child's descriptors, the runner's channel to the client stays open, and the run ends
        // as the kernel's runtime error, never as the client hanging up.
        QCOMPARE(o.report.status, RunReport::Status::RuntimeError);
        QVERIFY2(o.report.message.find("kernel") != std::string::npos &&
                     o.report.message.find("hung up") == std::string::npos,
                 o.report.message.c_str());
        QCOMPARE(client.run(helloRequest(BackendKind::Cpu)).report.status,
                 RunReport::Status::Passed);
    }

    /// --memcheck with a runner started through another program (ssh; here env plays it):
    /// compute-sanitizer wraps warpbench-runner on the far side, not the local ssh, and its
    /// report comes back (on the runner's stderr) as findings.
    void memcheckWithARemoteCommandWrapsTheRemoteRunner()
    {
        QTemporaryDir dir;
        const QString record = dir.filePath(QStringLiteral("record"));
        qputenv("WB_FAKE_SANITIZER_RECORD", record.toUtf8());
        RunnerClient::Config c;
        c.command = {"/usr/bin/env", "WB_REMOTE_SIDE=1", WB_RUNNER_EXE};
        c.sanitizer = WB_FAKE_RUNNER_EXE; // plays compute-sanitizer
        c.memoryCheck = RunnerClient::MemoryCheck::Memcheck;
        RunnerClient client(c);
        const RunOutcome o = client.run(helloRequest(BackendKind::Cpu));
        qunsetenv("WB_FAKE_SANITIZER_RECORD");
        print("remote memcheck", o);
        QFile f(record);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(QString::fromUtf8(f.readAll()).trimmed(),
                 QStringLiteral(WB_RUNNER_EXE " --no-device-pool"));
        QCOMPARE(o.fault, Fault::None);
        // A finding fails the run (exit 3), naming the first one's place.
        QCOMPARE(o.report.status, RunReport::Status::RuntimeError);
        QVERIFY2(o.report.message.find("compute-sanitizer found 1 problem; the first: ") == 0 &&
                     o.report.message.find("/tmp/remote/kernel.cu:7") != std::string::npos &&
                     o.report.message.find("thread (5,") != std::string::npos,
                 o.report.message.c_str());
        QCOMPARE(o.report.memoryFindings.size(), std::size_t{1});
        QCOMPARE(o.report.memoryFindings[0].file, std::string("/tmp/remote/kernel.cu"));
        QCOMPARE(o.report.memoryFindings[0].line, 7);
        QCOMPARE(o.report.memoryFindings[0].thread.x, 5u);

        // racecheck: the hazard names its place (kernel file:line, block, thread), the run
        // fails with it, and the race summary comes along as a second finding.
        c.memoryCheck = RunnerClient::MemoryCheck::Racecheck;
        const RunOutcome race = RunnerClient(c).run(helloRequest(BackendKind::Cpu));
        print("remote racecheck", race);
        QCOMPARE(race.report.status, RunReport::Status::RuntimeError);
        QCOMPARE(race.report.memoryFindings.size(), std::size_t{2});
        const MemoryFinding& hazard = race.report.memoryFindings[0];
        QCOMPARE(hazard.file, std::string("/tmp/remote/kernel.cu"));
        QCOMPARE(hazard.line, 3);
        QCOMPARE(hazard.kernel, std::string("k"));
        QVERIFY(hazard.located);
        QCOMPARE(hazard.block, (Dim3{2, 0, 0}));
        QCOMPARE(hazard.thread, (Dim3{7, 0, 0}));
        QVERIFY2(race.report.message.find("compute-sanitizer found 2 problems; the first: ") == 0 &&
                     race.report.message.find("/tmp/remote/kernel.cu:3 by block (2,0,0), "
                                              "thread (7,0,0) in kernel 'k'") !=
                         std::string::npos &&
                     race.report.message.find("RAW hazard") != std::string::npos,
                 race.report.message.c_str());
        c.memoryCheck = RunnerClient::MemoryCheck::Memcheck;

        // A remote command that names no warpbench-runner: said, nothing started.
        c.command = {"/usr/bin/env", "/opt/some-runner"};
        const RunOutcome none = RunnerClient(c).run(helloRequest(BackendKind::Cpu));
        QCOMPARE(none.fault, Fault::RunnerUnavailable);
        QVERIFY(!none.runnerStarted);
        QVERIFY(none.report.message.find("no program named warpbench-runner") != std::string::npos);
    }
};

WB_QTEST_GUILESS_MAIN(TstRunnerClient)
#include "tst_runnerclient.moc"
