// SPDX-License-Identifier: GPL-3.0-or-later
// debug::DebugSession: gdb on the CPU emulator's sandbox. A conditional breakpoint in the
// reduction example's kernel, its locals, stepping over a barrier while the shared array
// changes, the all-threads table, the warp view of a shuffle, and no process left behind.
#include "core/common/Error.h"
#include "core/cpu/detail/Sandbox.h"
#include "core/debug/DebugSession.h"
#include "core/debug/GdbMi.h"
#include "core/session/ProjectFile.h"
#include "core/session/Session.h"
#include "tests/support/SuiteMain.h"

#include <QDir>
#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>
#include <cstring>
#include <fstream>

using namespace wb;
using namespace wb::debug;

namespace {

/// The input buffer the launch starts from, as written for the sandbox.
std::vector<float> readFloats(const std::filesystem::path& file)
{
    std::ifstream in(file, std::ios::binary);
    std::vector<char> bytes((std::istreambuf_iterator<char>(in)), {});
    std::vector<float> out(bytes.size() / 4);
    std::memcpy(out.data(), bytes.data(), out.size() * 4);
    return out;
}

float asFloat(const std::string& s)
{
    return std::stof(s);
}

std::string valueOf(const std::vector<DebugVariable>& vars, const std::string& name)
{
    for (const DebugVariable& v : vars)
        if (v.name == name) return v.value;
    return "<missing " + name + ">";
}

const DebugVariable* variable(const std::vector<DebugVariable>& vars, const std::string& name)
{
    for (const DebugVariable& v : vars)
        if (v.name == name) return &v;
    return nullptr;
}

/// tests/debug/data/multi_kernel: three kernels with their own __shared__ memory; the launch
/// (tile_scale, 4 blocks of 32, in = 1, 2, ..., 128) stopped at `line` in thread 3 of block 1.
DebugStop stopInMultiKernel(DebugSession& d, int line, int thread = 3)
{
    d.addBreakpoint({line, "blockIdx.x == 1 && threadIdx.x == " + std::to_string(thread)});
    return d.start();
}

DebugTarget prepareMultiKernel(const QTemporaryDir& work)
{
    return DebugTarget::prepare(
        session::ProjectFile::load(WB_SOURCE_DIR
                                   "/tests/debug/data/multi_kernel/multi_kernel.wbproj"),
        work.path().toStdString());
}

bool processAlive(qint64 pid)
{
    return pid > 0 && ::kill(static_cast<pid_t>(pid), 0) == 0;
}

} // namespace

class TestDebugSession : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void init()
    {
        if (const std::string why = GdbMi::unavailableReason(); !why.empty()) QSKIP(why.c_str());
    }

    void scansSharedDeclarations()
    {
        const auto v = DebugTarget::scanShared(
            "// __shared__ float fake[3];\n__shared__ float As[16][16];\n"
            "extern __shared__ __align__(16) float cache[];\nstatic __shared__ int n;\n"
            "const char* s = \"__shared__ int q;\";\n");
        QCOMPARE(v.size(), std::size_t(3));
        QCOMPARE(v[0].name, std::string("As"));
        QVERIFY(!v[0].isExtern);
        QCOMPARE(v[1].name, std::string("cache"));
        QVERIFY(v[1].isExtern);
        QCOMPARE(v[2].name, std::string("n"));
    }

    void translatesBuiltins()
    {
        QCOMPARE(DebugSession::gdbExpression("blockIdx.x == 2 && threadIdx.x == 17"),
                 std::string("::wb_cpu_current.block.x == 2 && ::wb_cpu_current.thread.x == 17"));
        QCOMPARE(DebugSession::gdbExpression("s.threadIdx + blockDim.y * warpSize"),
                 std::string("s.threadIdx + ::wb_cpu_current.blockSize.y * 32"));
        QCOMPARE(DebugSession::gdbExpression("\"threadIdx\" == 'g' && myblockIdx"),
                 std::string("\"threadIdx\" == 'g' && myblockIdx"));
    }

    void findsTheBlockACondition()
    {
        using B = std::array<int, 3>;
        QCOMPARE(DebugSession::blockOf("blockIdx.x == 2 && threadIdx.x == 17"), (B{2, -1, -1}));
        QCOMPARE(DebugSession::blockOf("(blockIdx.y==3) && 1 == blockIdx.x && i > 4"),
                 (B{1, 3, -1}));
        QVERIFY(!DebugSession::blockOf("threadIdx.x == 1"));
        QVERIFY(!DebugSession::blockOf("blockIdx.x == 2 || threadIdx.x == 1"));
        QVERIFY(!DebugSession::blockOf("(blockIdx.x == 2 && a) || b"));
        QVERIFY(!DebugSession::blockOf("blockIdx.x == n"));
        QVERIFY(!DebugSession::blockOf("blockIdx.x == 99999999999"));
    }

    void stepsAThreadOfReductionAcrossABarrier()
    {
        QTemporaryDir work;
        QVERIFY(work.isValid());
        const session::Session s = session::ProjectFile::load(
            WB_SOURCE_DIR "/resources/examples/reduction/reduction.wbproj");
        DebugTarget target = DebugTarget::prepare(s, work.path().toStdString());
        QCOMPARE(target.sourceName, std::string("reduction.cu"));
        QCOMPARE(target.kernel, std::string("block_sum"));
        const std::vector<float> in = readFloats(target.workDir / "buffer0");
        QCOMPARE(in.size(), std::size_t(65536));

        {
            DebugSession d(target);
            // reduction.cu:12 is `if (t < stride) cache[t] += cache[t + stride];`
            d.addBreakpoint({12, "blockIdx.x == 2 && threadIdx.x == 17"});
            const DebugStop first = d.start();
            QCOMPARE(int(first.reason), int(DebugStop::Reason::Breakpoint));
            QCOMPARE(first.file, std::string("reduction.cu"));
            QCOMPARE(first.line, 12);
            QCOMPARE(first.block, (Dim3{2, 0, 0}));
            QCOMPARE(first.thread, (Dim3{17, 0, 0}));
            QCOMPARE(first.phase, 1u); // past the __syncthreads() that follows the load

            const std::vector<DebugVariable> l = d.locals();
            QCOMPARE(valueOf(l, "t"), std::string("17"));
            QCOMPARE(valueOf(l, "i"), std::string("529"));
            QCOMPARE(valueOf(l, "stride"), std::string("128"));
            QVERIFY(valueOf(l, "cache").find("missing") != std::string::npos); // shared: below

            std::vector<SharedArray> sh = d.sharedMemory();
            QCOMPARE(sh.size(), std::size_t(1));
            QCOMPARE(sh[0].name, std::string("cache"));
            QCOMPARE(sh[0].elements.size(), std::size_t(256));
            const std::size_t base = 2 * 256;
            QCOMPARE(asFloat(sh[0].elements[17]), in[base + 17]);
            QCOMPARE(asFloat(sh[0].elements[200]), in[base + 200]);

            // Step over line 12: this thread added cache[17 + 128].
            const DebugStop next = d.stepOver();
            QCOMPARE(next.line, 13);
            QCOMPARE(next.thread, (Dim3{17, 0, 0}));
            QCOMPARE(next.phase, 1u);
            sh = d.sharedMemory();
            QCOMPARE(asFloat(sh[0].elements[17]), in[base + 17] + in[base + 145]);

            // Step over the barrier: every thread of the block ran its part; still thread 17.
            const DebugStop after = d.stepOver();
            QCOMPARE(after.thread, (Dim3{17, 0, 0}));
            QCOMPARE(after.block, (Dim3{2, 0, 0}));
            QCOMPARE(after.phase, 2u);
            sh = d.sharedMemory();
            QCOMPARE(asFloat(sh[0].elements[100]), in[base + 100] + in[base + 228]);
            QCOMPARE(asFloat(sh[0].elements[200]), in[base + 200]); // untouched above stride

            // Continue: the same thread, next pass of the loop (stride 64).
            const DebugStop again = d.resume();
            QCOMPARE(again.line, 12);
            QCOMPARE(again.thread, (Dim3{17, 0, 0}));
            QCOMPARE(again.phase, 2u);
            QCOMPARE(d.evaluate("stride"), std::string("64"));
            QCOMPARE(d.evaluate("threadIdx.x + blockIdx.x * blockDim.x"), std::string("529"));

            // Every thread of block 2 at line 12 in phase 2: those below 64 executed it.
            const std::vector<ThreadRow> rows = d.allThreads("t * 10 + (t < stride)");
            QCOMPARE(rows.size(), std::size_t(256));
            for (const ThreadRow& r : rows) {
                QVERIFY2(r.reachedLine, "every thread evaluates the if at line 12");
                QCOMPARE(r.value, std::to_string(r.linear * 10 + (r.linear < 64 ? 1 : 0)));
            }
            // Now: threads before 17 wait at the barrier of line 13 in phase 2, later ones
            // have not run this phase yet.
            QCOMPARE(int(rows[3].where), int(ThreadWhere::AtBarrier));
            QCOMPARE(rows[3].waitLine, 13);
            QCOMPARE(rows[3].phase, 2u);
            QCOMPARE(int(rows[17].where), int(ThreadWhere::Chosen));
            QCOMPARE(int(rows[90].where), int(ThreadWhere::Running));

            d.stop();
            QVERIFY(d.finished());
            QVERIFY_THROWS_EXCEPTION(Error, d.stepOver());
        }
    }

    void allThreadsShowsWhoSkipsALine()
    {
        QTemporaryDir work;
        const session::Session s = session::ProjectFile::load(
            WB_SOURCE_DIR "/resources/examples/reduction/reduction.wbproj");
        DebugSession d(DebugTarget::prepare(s, work.path().toStdString()));
        // reduction.cu:15: `if (t == 0) partial[blockIdx.x] = cache[0];` runs after the loop.
        d.addBreakpoint({9, "blockIdx.x == 1 && threadIdx.x == 40"});
        const DebugStop st = d.start();
        QCOMPARE(st.line, 9);
        QCOMPARE(st.phase, 0u);
        const std::vector<ThreadRow> rows = d.allThreads("i");
        for (const ThreadRow& r : rows) {
            QVERIFY(r.reachedLine);
            QCOMPARE(r.value, std::to_string(256 + r.linear));
        }
        QCOMPARE(int(rows[0].where), int(ThreadWhere::AtBarrier));
        QCOMPARE(rows[0].waitLine, 10);
        QCOMPARE(int(rows[255].where), int(ThreadWhere::NotStarted));
    }

    void warpViewShowsTheShuffleAndDivergence()
    {
        QTemporaryDir work;
        const session::Session s = session::ProjectFile::load(
            WB_SOURCE_DIR "/tests/debug/data/warp_shuffle/warp_shuffle.wbproj");
        DebugSession d(DebugTarget::prepare(s, work.path().toStdString()));
        d.addBreakpoint({7, "threadIdx.x == 3"}); // inside `if (lane < 8)`
        const DebugStop st = d.start();
        QCOMPARE(st.line, 7);
        QCOMPARE(valueOf(d.locals(), "w"), std::string("102"));
        const WarpView w = d.warp(d.allThreads("lane"));
        QVERIFY(w.hasExchange);
        QVERIFY2(w.exchange.find("__shfl_xor_sync") != std::string::npos, w.exchange.c_str());
        QVERIFY(w.exchange.find(":5") != std::string::npos);
        QCOMPARE(w.lanes.size(), std::size_t(32));
        for (const WarpLane& l : w.lanes) {
            QVERIFY(l.exists && l.inExchange);
            QCOMPARE(l.given, std::uint64_t(100 + l.lane));
            QCOMPARE(l.got, std::uint64_t(100 + (l.lane ^ 1u)));
            QCOMPARE(l.atLine, l.lane < 8); // lanes 8..31 take the else branch
        }
        QCOMPARE(int(w.lanes[0].where), int(ThreadWhere::Exited));
    }

    void stepFollowsTheChosenThreadPastOtherThreadsBreakpoints()
    {
        QTemporaryDir work;
        const session::Session s = session::ProjectFile::load(
            WB_SOURCE_DIR "/resources/examples/reduction/reduction.wbproj");
        DebugSession d(DebugTarget::prepare(s, work.path().toStdString()));
        d.addBreakpoint({12, ""}); // every thread of every block passes here
        DebugStop st = d.start();
        QCOMPARE(st.thread, (Dim3{0, 0, 0}));
        QCOMPARE(d.stepOver().line, 13);
        // Over the barrier: threads 1..255 hit line 12 meanwhile; the step stays with thread 0.
        st = d.stepOver();
        QCOMPARE(st.thread, (Dim3{0, 0, 0}));
        QCOMPARE(st.phase, 2u);
        QCOMPARE(st.line, 11); // the loop's `stride /= 2`
        // Continue does stop at other threads' hits: thread 0's own first, then thread 1's.
        st = d.resume();
        QCOMPARE(st.line, 12);
        QCOMPARE(st.thread, (Dim3{0, 0, 0}));
        st = d.resume();
        QCOMPARE(st.line, 12);
        QCOMPARE(st.thread, (Dim3{1, 0, 0}));
        QCOMPARE(st.phase, 2u);
    }

    void badConditionAndEndOfLaunch()
    {
        QTemporaryDir work;
        const session::Session s = session::ProjectFile::load(
            WB_SOURCE_DIR "/tests/debug/data/warp_shuffle/warp_shuffle.wbproj");
        DebugSession d(DebugTarget::prepare(s, work.path().toStdString()));
        QVERIFY_THROWS_EXCEPTION(Error, d.addBreakpoint({0, ""}));
        QVERIFY_THROWS_EXCEPTION(Error, d.addBreakpoint({7, "a\nb"}));
        // A condition no thread meets: the launch runs to its end.
        d.addBreakpoint({7, "threadIdx.x == 1000"});
        const DebugStop st = d.start();
        QCOMPARE(int(st.reason), int(DebugStop::Reason::Exited));
        QVERIFY(d.finished());
        QVERIFY_THROWS_EXCEPTION(Error, d.resume());
    }

    void aConditionGdbCannotParseIsReported()
    {
        QTemporaryDir work;
        const session::Session s = session::ProjectFile::load(
            WB_SOURCE_DIR "/tests/debug/data/warp_shuffle/warp_shuffle.wbproj");
        DebugSession d(DebugTarget::prepare(s, work.path().toStdString()));
        d.addBreakpoint({7, "nosuchvar == 1"});
        const DebugStop st = d.start();
        QCOMPARE(int(st.reason), int(DebugStop::Reason::Exited));
        QVERIFY2(st.message.find("cannot evaluate its condition 'nosuchvar == 1'") !=
                     std::string::npos,
                 st.message.c_str());
    }

    /// A struct holding a device pointer cannot be debugged (the sandbox moves the buffers):
    /// refused with the scalar and member named, before anything is compiled.
    void structWithPointerMemberIsRefused()
    {
        session::Session s;
        s.kernelSource = "struct V { int n; float* p; };\n"
                         "__global__ void k(V v) { v.p[threadIdx.x] = 1.0f; }\n";
        session::BufferSpec a;
        a.name = std::string("a");
        a.shape = {"32"};
        a.role = session::BufferRole::Out;
        s.buffers = {a};
        s.scalars = {session::ScalarSpec{
            "v",
            session::ElementType::I32,
            "0",
            {{"n", session::ElementType::I32, "32"}, {"p", session::ElementType::F32, "0", "a"}}}};
        s.launch.kernel = std::string("k");
        s.launch.block = {"32"};
        QTemporaryDir work;
        try {
            DebugTarget::prepareHere(s, work.path().toStdString());
            QFAIL("prepared");
        } catch (const Error& e) {
            QVERIFY2(std::string(e.what()).find("scalar 'v' is a struct with a pointer member "
                                                "('p')") != std::string::npos,
                     e.what());
        }
    }

    /// Issue 27: `--print nosuchvar` waited for the replay's 60 s timeout. A name gdb does not
    /// know at the stop's line is refused at once with gdb's own message, before any replay;
    /// an expression that fails only in some threads still gets its table, with gdb's error as
    /// those threads' values (no wait either).
    void anUnknownNameIsRefusedAtOnce()
    {
        QTemporaryDir work;
        DebugSession d(prepareMultiKernel(work));
        const DebugStop st = stopInMultiKernel(d, 44);
        QCOMPARE(st.line, 44);
        QElapsedTimer timer;
        timer.start();
        try {
            d.allThreads("nosuchvar");
            QFAIL("an unknown name was accepted");
        } catch (const Error& e) {
            QCOMPARE(int(e.kind()), int(Error::Kind::InvalidArgument));
            QCOMPARE(std::string(e.what()),
                     std::string("No symbol \"nosuchvar\" in current context."));
        }
        QVERIFY_THROWS_EXCEPTION(Error, d.checkExpression("t +"));
        QVERIFY_THROWS_EXCEPTION(Error, d.checkExpression("threadIdx.w"));
        QVERIFY_THROWS_EXCEPTION(Error, d.checkExpression("  "));
        // Another kernel's shared array is not a name at this line either.
        QVERIFY_THROWS_EXCEPTION(Error, d.checkExpression("counts[0]"));
        d.checkExpression("cache[t] / total[0]");
        // A hang guard, generous for a loaded machine: the refusals take a few gdb round trips.
        QVERIFY2(timer.elapsed() < 10'000, qPrintable(QString::number(timer.elapsed())));

        timer.restart();
        const std::vector<ThreadRow> rows = d.allThreads("t < 30 ? cache[t] : ((float*)0)[t]");
        QVERIFY2(timer.elapsed() < 30'000, qPrintable(QString::number(timer.elapsed())));
        QCOMPARE(rows.size(), std::size_t(32));
        for (const ThreadRow& r : rows) {
            QVERIFY(r.reachedLine);
            if (r.linear < 30)
                QCOMPARE(r.value, std::to_string(33 + r.linear));
            else
                QVERIFY2(r.value.find("Cannot access memory") != std::string::npos,
                         r.value.c_str());
        }
    }

    /// Issue 27: every __shared__ variable of every kernel of the file was listed, those of the
    /// other kernels with "-var-create: unable to create variable object". Only the stopped
    /// kernel's (and the file's) are listed, each once, with their values.
    void sharedMemoryIsTheStoppedKernels()
    {
        QTemporaryDir work;
        DebugSession d(prepareMultiKernel(work));
        stopInMultiKernel(d, 44);
        const std::vector<SharedArray> sh = d.sharedMemory();
        std::vector<std::string> names;
        for (const SharedArray& a : sh) {
            names.push_back(a.name);
            QVERIFY2(a.error.empty(), (a.name + ": " + a.error).c_str());
        }
        QCOMPARE(names, (std::vector<std::string>{"launches_seen", "cache", "total"}));
        QCOMPARE(sh[0].type, std::string("int [2]"));
        QCOMPARE(sh[0].elements, (std::vector<std::string>{"1", "0"}));
        QCOMPARE(sh[1].type, std::string("float [32]"));
        QCOMPARE(sh[1].elements.size(), std::size_t(32));
        for (std::size_t i = 0; i < 32; ++i)
            QCOMPARE(sh[1].elements[i], std::to_string(33 + i)); // in[32 + t] = 33 + t
        QCOMPARE(sh[2].elements.front(), std::string("1552"));   // 33 + ... + 64
        const std::vector<DebugVariable> l = d.locals();
        for (const char* name : {"cache", "total", "tile", "counts", "launches_seen"})
            QVERIFY2(!variable(l, name), name);
    }

    /// Issue 27: locals whose declaration has not run at the stop showed their stack slot's
    /// garbage as a value. A local declared on the stop's line or after it is marked (its
    /// declaration's line from the DWARF, through gdb), and so is an all-threads expression
    /// that names one.
    void localsNotYetInitialisedAreMarked()
    {
        QTemporaryDir work;
        const DebugTarget target = prepareMultiKernel(work);
        {
            DebugSession d(target);
            stopInMultiKernel(d, 33); // const unsigned t = threadIdx.x;
            std::vector<DebugVariable> l = d.locals();
            for (const char* name : {"in", "out"}) {
                QVERIFY(variable(l, name) && variable(l, name)->argument);
                QVERIFY(!variable(l, name)->notYetInitialised);
            }
            QVERIFY(variable(l, "t") && variable(l, "mine") && variable(l, "twice"));
            QCOMPARE(variable(l, "t")->declLine, 33);
            QVERIFY(variable(l, "t")->notYetInitialised);
            QCOMPARE(variable(l, "mine")->declLine, 44);
            QVERIFY(variable(l, "mine")->notYetInitialised);
            QVERIFY(variable(l, "twice")->notYetInitialised);
            QVERIFY(!variable(l, "acc")); // an inner block's local is not in scope here

            QCOMPARE(d.stepOver().line, 34);
            l = d.locals();
            QVERIFY(!variable(l, "t")->notYetInitialised);
            QCOMPARE(variable(l, "t")->value, std::string("3"));
            QVERIFY(variable(l, "mine")->notYetInitialised);
            QCOMPARE(DebugSession::uninitialisedIn("mine * 2 + t + v.mine + twice", l),
                     (std::vector<std::string>{"mine", "twice"}));
        }
        {
            // Inside the `if (t == 0)` block, in its loop: acc (line 38) and k (line 39) have
            // run; mine (line 44) has not.
            DebugSession d(target);
            stopInMultiKernel(d, 40, 0);
            const std::vector<DebugVariable> l = d.locals();
            QVERIFY(variable(l, "acc") && variable(l, "k"));
            QCOMPARE(variable(l, "acc")->declLine, 38);
            QVERIFY(!variable(l, "acc")->notYetInitialised);
            QCOMPARE(variable(l, "acc")->value, std::string("0"));
            QVERIFY(!variable(l, "k")->notYetInitialised);
            QVERIFY(!variable(l, "t")->notYetInitialised);
            QVERIFY(variable(l, "mine")->notYetInitialised);
        }
    }

    void endingTheSessionLeavesNoProcess()
    {
        QTemporaryDir work;
        const session::Session s = session::ProjectFile::load(
            WB_SOURCE_DIR "/tests/debug/data/warp_shuffle/warp_shuffle.wbproj");
        const DebugTarget t = DebugTarget::prepare(s, work.path().toStdString());
        GdbMi gdb(wb::cpu::detail::sandboxExecutable(), {"--debug", t.requestPath().string()});
        gdb.check("-break-insert -f warp_shuffle.cu:7");
        gdb.check("-exec-run");
        QVERIFY(gdb.waitForStop(30'000));
        const qint64 pid = gdb.inferiorPid();
        QVERIFY(processAlive(pid));
        gdb.kill();
        QTRY_VERIFY_WITH_TIMEOUT(!processAlive(pid), 5000);
    }
};

WB_QTEST_GUILESS_MAIN(TestDebugSession)
#include "tst_debugsession.moc"
