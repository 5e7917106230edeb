// SPDX-License-Identifier: GPL-3.0-or-later
// Trace mode of the CPU emulator: who wrote each element of an output buffer. A double-written
// element is a race, atomic writes are not, one thread writing twice is not, unwritten
// elements show, writes through a raw pointer are caught as untraced, and fiber mode keeps the
// right coordinates. Also the parameter rewrite itself and SessionRunner's trace option.
#include "core/backend/Backend.h"
#include "core/common/Error.h"
#include "core/cpu/CpuBackend.h"
#include "core/cpu/detail/KernelSource.h"
#include "core/session/SessionRunner.h"
#include "tests/support/SuiteMain.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <cstring>

using wb::WriteTrace;
using wb::cpu::CpuBackend;

namespace {
const char* kSource = R"cu(
__device__ void put(float* p, int i, float v) { p[i] = v; }

__global__ void double_write(float* out, const float* in, int n)
{
    const int i = threadIdx.x;
    if (i < n - 4) out[i] = in[i];          // the last 4 elements stay unwritten
    if (i == 5) out[6] = 99.0f;             // a second writer of element 6: a race
}
__global__ void twice_by_one(float* out)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = 0.0f;
    out[i] += 2.0f;                         // the same thread again: not a race
}
__global__ void count(unsigned int* bins)
{
    atomicAdd(&bins[threadIdx.x % 4], 1u);  // many threads, atomically: not a race
}
__global__ void through_raw(float* out)
{
    put(out, threadIdx.x, 1.0f);            // a raw float*: not traced, but noticed
}
__global__ void reverse(float* out)
{
    __shared__ float s[32];
    s[threadIdx.x] = static_cast<float>(threadIdx.x);
    __syncthreads();
    out[blockIdx.x * 32 + threadIdx.x] = s[31 - threadIdx.x];
}
)cu";

struct Fixture {
    CpuBackend backend;
    wb::CompileResult compiled;
    std::unique_ptr<wb::BackendProgram> program;

    bool compile()
    {
        wb::CompileOptions o;
        o.extraFlags = {CpuBackend::kTraceFlag};
        compiled = backend.compile(kSource, "trace.cu", o);
        if (!compiled.ok) {
            qWarning("%s", compiled.log.c_str());
            return false;
        }
        program = backend.load(compiled);
        return true;
    }

    /// Launches `kernel` with `out` (traced, `count` elements of `elem` bytes) first and the
    /// extra arguments after it; returns the trace of `out`.
    WriteTrace run(const std::string& kernel, wb::Dim3 grid, wb::Dim3 block, std::size_t count,
                   std::size_t elem, std::vector<wb::KernelArgValue> extra = {},
                   std::vector<unsigned char>* result = nullptr)
    {
        auto out = backend.allocate(count * elem, "out");
        std::vector<unsigned char> zeros(count * elem, 0);
        backend.upload(*out, zeros.data(), zeros.size());
        const std::uint64_t address = out->address();
        std::vector<wb::KernelArgValue> args{{&address, 8, true}};
        args.insert(args.end(), extra.begin(), extra.end());
        wb::LaunchConfig c;
        c.grid = grid;
        c.block = block;
        backend.beginTrace(c, {{"out", out.get(), elem, {count}}});
        backend.launch(*program, kernel, c, args);
        std::vector<WriteTrace> traces = backend.endTrace();
        if (result) {
            result->resize(count * elem);
            backend.download(*out, result->data(), result->size());
        }
        return std::move(traces.at(0));
    }
};

QString cpuUnavailable()
{
    try {
        wb::createBackend(wb::BackendKind::Cpu, 0);
    } catch (const wb::Error& e) {
        return QString::fromStdString(e.what());
    }
    return {};
}
} // namespace

class TestTrace : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void rewritesMutablePointerParameters()
    {
        const std::string src =
            "__global__ void k(const float* in, float* __restrict__ out,\n"
            "                  int n, unsigned int *bins)\n{ out[0] = in[0]; }\n"
            "__device__ void helper(float* p) {}\n";
        const std::string t = wb::cpu::detail::KernelSource::withTracedPointers(src);
        QVERIFY2(t.find("const float* in") != std::string::npos, t.c_str());
        QVERIFY2(t.find("::wbcpu::traced_ptr<float> out") != std::string::npos, t.c_str());
        QVERIFY2(t.find("::wbcpu::traced_ptr<unsigned int> bins") != std::string::npos, t.c_str());
        QVERIFY2(t.find("void helper(float* p)") != std::string::npos, t.c_str()); // not a kernel
        QCOMPARE(std::count(t.begin(), t.end(), '\n'), std::count(src.begin(), src.end(), '\n'));
    }

    void doubleWrittenElementIsARace()
    {
        if (const QString why = cpuUnavailable(); !why.isEmpty()) QSKIP(qPrintable(why));
        Fixture f;
        QVERIFY(f.compile());
        // The traced kernel is described with its raw pointer types, so bindings still match.
        const wb::KernelInfo* k = f.compiled.findKernel("double_write");
        QVERIFY(k);
        QCOMPARE(QString::fromStdString(k->params[0].type).remove(QLatin1Char(' ')),
                 QStringLiteral("float*"));
        QCOMPARE(QString::fromStdString(k->params[0].pointee), QStringLiteral("float"));
        QVERIFY(k->params[0].isPointer);

        std::vector<float> in(16);
        for (int i = 0; i < 16; ++i)
            in[static_cast<std::size_t>(i)] = static_cast<float>(i) + 0.5f;
        auto inBuf = f.backend.allocate(in.size() * 4, "in");
        f.backend.upload(*inBuf, in.data(), in.size() * 4);
        const std::uint64_t inAddr = inBuf->address();
        const int n = 16;
        std::vector<unsigned char> bytes;
        const WriteTrace t = f.run("double_write", {1, 1, 1}, {16, 1, 1}, 16, 4,
                                   {{&inAddr, 8, true}, {&n, 4, false}}, &bytes);
        QCOMPARE(t.count(), std::size_t{16});
        QCOMPARE(t.writes[5], 1u);
        QCOMPARE(t.lastThread(5).x, 5u);
        QCOMPARE(t.writes[6], 2u); // thread 5, then thread 6 (threads run in order)
        QVERIFY(t.isRace(6));
        QCOMPARE(t.lastThread(6).x, 6u);
        QCOMPARE(t.races(), std::size_t{1});
        QCOMPARE(t.unwritten(), std::size_t{4});
        for (std::size_t i = 12; i < 16; ++i)
            QVERIFY(!t.written(i));
        QCOMPARE(t.untraced, std::size_t{0});
        float v6 = 0;
        std::memcpy(&v6, bytes.data() + 6 * 4, 4);
        QCOMPARE(v6, 6.5f); // the traced stores really happened
    }

    void sameThreadTwiceIsNotARace()
    {
        if (const QString why = cpuUnavailable(); !why.isEmpty()) QSKIP(qPrintable(why));
        Fixture f;
        QVERIFY(f.compile());
        const WriteTrace t = f.run("twice_by_one", {3, 1, 1}, {8, 1, 1}, 24, 4);
        for (std::size_t i = 0; i < 24; ++i) {
            QCOMPARE(t.writes[i], 2u);
            QVERIFY(!t.isRace(i));
            QCOMPARE(t.lastBlock(i).x, static_cast<unsigned>(i / 8));
            QCOMPARE(t.lastThread(i).x, static_cast<unsigned>(i % 8));
        }
        QCOMPARE(t.writtenMoreThanOnce(), std::size_t{24});
        QCOMPARE(t.races(), std::size_t{0});
    }

    void atomicWritesAreNotRaces()
    {
        if (const QString why = cpuUnavailable(); !why.isEmpty()) QSKIP(qPrintable(why));
        Fixture f;
        QVERIFY(f.compile());
        std::vector<unsigned char> bytes;
        const WriteTrace t = f.run("count", {2, 1, 1}, {64, 1, 1}, 4, 4, {}, &bytes);
        for (std::size_t i = 0; i < 4; ++i) {
            QCOMPARE(t.writes[i], 32u);
            QCOMPARE(t.atomicWrites[i], 32u);
            QVERIFY(t.multipleWriters[i]);
            QVERIFY(t.isAtomic(i));
            QVERIFY(!t.isRace(i));
            unsigned v = 0;
            std::memcpy(&v, bytes.data() + i * 4, 4);
            QCOMPARE(v, 32u);
        }
        QCOMPARE(t.races(), std::size_t{0});
    }

    void rawPointerWritesAreReportedAsUntraced()
    {
        if (const QString why = cpuUnavailable(); !why.isEmpty()) QSKIP(qPrintable(why));
        Fixture f;
        QVERIFY(f.compile());
        const WriteTrace t = f.run("through_raw", {1, 1, 1}, {10, 1, 1}, 10, 4);
        QCOMPARE(t.untraced, std::size_t{10});
        QCOMPARE(t.writes[3], 0u);
        QVERIFY(t.written(3)); // counted as written (the bytes changed), but by nobody known
    }

    void fiberModeKeepsCoordinates()
    {
        if (const QString why = cpuUnavailable(); !why.isEmpty()) QSKIP(qPrintable(why));
        Fixture f;
        QVERIFY(f.compile());
        const WriteTrace t = f.run("reverse", {2, 1, 1}, {32, 1, 1}, 64, 4);
        for (std::size_t i = 0; i < 64; ++i) {
            QCOMPARE(t.writes[i], 1u);
            QCOMPARE(t.lastBlock(i).x, static_cast<unsigned>(i / 32));
            QCOMPARE(t.lastThread(i).x, static_cast<unsigned>(i % 32));
        }
    }

    void sessionRunnerReportsTraces()
    {
        if (const QString why = cpuUnavailable(); !why.isEmpty()) QSKIP(qPrintable(why));
        using namespace wb::session;
        Session s;
        s.name = "trace";
        s.kernelSource = kSource;
        s.scalars = {ScalarSpec{"n", ElementType::I32, "16"}};
        BufferSpec in{"in", ElementType::F32, {"n"}, BufferRole::In, {}, {}, {}, {}};
        BufferSpec out{"out", ElementType::F32, {"n"}, BufferRole::Out, {}, {}, {}, {}};
        s.buffers = {out, in};
        s.launch.kernel = "double_write";
        s.launch.block = {"16"};
        s.iterations = 1;
        s.backend = wb::BackendKind::Cpu;
        SessionRunner::Options o;
        o.check = wb::CheckMode::Trace;
        const RunReport rep = SessionRunner::run(s, o);
        // No reference, and the tail left unwritten: it ran, unchecked, exit 1.
        QVERIFY2(rep.status == RunReport::Status::Unchecked, rep.message.c_str());
        QCOMPARE(rep.exitCode(), 1);
        QCOMPARE(rep.traces.size(), std::size_t{1});
        QVERIFY(rep.traces.at("out").isRace(6));
        const QString text = QString::fromStdString(rep.toText());
        QVERIFY2(text.contains("1 by several threads non-atomically (race)"), qPrintable(text));
        const QJsonObject j =
            QJsonDocument::fromJson(QByteArray::fromStdString(rep.toJson())).object();
        QCOMPARE(j["trace"].toObject()["out"].toObject()["races"].toInt(), 1);
        // The coverage check and the trace agree on the unwritten tail.
        QCOMPARE(rep.outputs[0].coverage.unwritten, std::size_t{4});
        QCOMPARE(rep.traces.at("out").unwritten(), std::size_t{4});
    }
};

WB_QTEST_GUILESS_MAIN(TestTrace)
#include "tst_trace.moc"
