// SPDX-License-Identifier: GPL-3.0-or-later
// SessionRunner end to end on the CPU backend: the three kinds of reference, per-output
// tolerance, output files, and errors reported as statuses.
#include "core/backend/Backend.h"
#include "core/common/Error.h"
#include "core/session/Npy.h"
#include "core/session/SessionRunner.h"

#include <QTemporaryDir>
#include <QTest>

using namespace wb::session;

namespace {
const char* kSource = R"cu(
__global__ void scale(float* out, const float* in, float factor, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i] * factor;
}
__global__ void scale_serial(float* out, const float* in, float factor, int n)
{
    if (threadIdx.x == 0 && blockIdx.x == 0)
        for (int i = 0; i < n; ++i) out[i] = in[i] * factor;
}
)cu";

Session makeSession()
{
    Session s;
    s.name = "runner";
    s.kernelSource = kSource;
    s.scalars = {ScalarSpec{"n", ElementType::I32, "300"},
                 ScalarSpec{"factor", ElementType::F32, "1.5"}};
    BufferSpec in;
    in.name = "in";
    in.shape = {"n"};
    in.init.kind = Initialiser::Kind::Iota;
    BufferSpec out;
    out.name = "out";
    out.shape = {"n"};
    out.role = BufferRole::Out;
    s.buffers = {in, out};
    s.launch.kernel = "scale";
    s.launch.grid = {"ceil(n/64)"};
    s.launch.block = {"64"};
    s.iterations = 2;
    s.backend = wb::BackendKind::Cpu;
    return s;
}

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

class TestSessionRunner : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void init()
    {
        const QString why = cpuUnavailable();
        if (!why.isEmpty()) QSKIP(qPrintable("CPU backend unavailable: " + why));
    }
    void kernelReference()
    {
        Session s = makeSession();
        s.reference.kind = ReferenceSpec::Kind::Kernel;
        s.reference.launch.kernel = "scale_serial";
        s.reference.launch.grid = {"1"};
        s.reference.launch.block = {"1"};
        const RunReport r = SessionRunner::run(s, {});
        QVERIFY2(r.status == RunReport::Status::Passed, r.toText().c_str());
        QCOMPARE(r.outputs.size(), 1u);
        QVERIFY(r.outputs[0].compared);
        QCOMPARE(r.results.at("out").at(299), 299 * 1.5);
        QCOMPARE(r.timing.samplesMs.size(), 2u);
        QCOMPARE(r.bytesMoved, 2400u);
        QCOMPARE(r.launch.grid.x, 5u);
    }
    void filesReferenceAndToleranceOverride()
    {
        QTemporaryDir dir;
        Session s = makeSession();
        s.baseDir = dir.path().toStdString();
        HostArray expected(ElementType::F64, {300});
        for (std::size_t i = 0; i < 300; ++i)
            expected.set(i, 1.5 * static_cast<double>(i));
        expected.set(10, expected.at(10) + 0.01);
        Npy::write(s.resolve("expected.npy"), expected);
        s.reference.kind = ReferenceSpec::Kind::Files;
        s.reference.files = {{"out", "expected.npy"}};
        RunReport r = SessionRunner::run(s, {});
        QCOMPARE(r.status, RunReport::Status::Mismatch);
        QCOMPARE(r.exitCode(), 1);
        QCOMPARE(r.outputs[0].stats.mismatches, 1u);
        QCOMPARE(r.outputs[0].stats.firstMismatches[0].index, 10u);
        Tolerance loose;
        loose.atol = 0.02;
        s.buffers[1].tolerance = loose;
        SessionRunner::Options o;
        o.outputDir = dir.filePath("out").toStdString();
        r = SessionRunner::run(s, o);
        QVERIFY2(r.status == RunReport::Status::Passed, r.toText().c_str());
        QVERIFY(Npy::read(dir.filePath("out/out.npy").toStdString()) == r.results.at("out"));
    }
    void cppReferenceWithScalars()
    {
        Session s = makeSession();
        s.reference.kind = ReferenceSpec::Kind::Cpp;
        s.reference.source = "void reference(float* out, const float* in, float factor, int n)\n"
                             "{ for (int i = 0; i < n; ++i) out[i] = in[i] * factor; }\n";
        const RunReport r = SessionRunner::run(s, {});
        QVERIFY2(r.status == RunReport::Status::Passed, r.toText().c_str());
        QVERIFY(!r.referenceCompiler.empty());
    }
    void errorsBecomeStatuses()
    {
        Session s = makeSession();
        s.launch.kernel = "nope";
        RunReport r = SessionRunner::run(s, {});
        QCOMPARE(r.exitCode(), 4);
        QVERIFY2(r.message.find("kernels: scale") != std::string::npos, r.message.c_str());

        s = makeSession();
        s.kernelSource = "__global__ void scale(float* out) { out[0] = missing; }";
        r = SessionRunner::run(s, {});
        QCOMPARE(r.exitCode(), 2);
        QVERIFY(!r.diagnostics.empty());

        s = makeSession();
        s.scalars[0].value = "n + 1"; // n is not defined yet when n is evaluated
        r = SessionRunner::run(s, {});
        QCOMPARE(r.exitCode(), 4);
        QVERIFY2(r.message.rfind("scalars[0].value", 0) == 0, r.message.c_str());

        s = makeSession();
        s.reference.kind = ReferenceSpec::Kind::Cpp;
        s.reference.source =
            "void reference(float* out, const float* in, double factor, int n) {}\n";
        r = SessionRunner::run(s, {});
        QCOMPARE(r.exitCode(), 4);
        QVERIFY2(r.message.find("parameter 'factor' is double but scalar 'factor' is f32") !=
                     std::string::npos,
                 r.message.c_str());
    }
};

QTEST_GUILESS_MAIN(TestSessionRunner)
#include "tst_sessionrunner.moc"
