// SPDX-License-Identifier: GPL-3.0-or-later
// SessionRunner end to end on the CPU backend: the three kinds of reference, per-output
// tolerance, output files, and errors reported as statuses.
#include "core/backend/Backend.h"
#include "core/common/Error.h"
#include "core/session/Npy.h"
#include "core/session/ProjectFile.h"
#include "core/session/SessionRunner.h"
#include "tests/support/SuiteMain.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <cstring>
#include <filesystem>
#include <vector>

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
    /// Options::profile runs after the timed launches with the run's buffers alive; restore()
    /// puts back the data the result launch started from; the run's results and diff are
    /// those of a run without the hook. saxpy's `y` is inout, so every launch changes it.
    void profileHookRestoresAndLeavesResults()
    {
        if (const QString why = cpuUnavailable(); !why.isEmpty()) QSKIP(qPrintable(why));
        Session s = ProjectFile::load(WB_SOURCE_DIR "/resources/examples/saxpy/saxpy.wbproj");
        s.backend = wb::BackendKind::Cpu;
        s.iterations = 2;
        const RunReport plain = SessionRunner::run(s, {});
        QCOMPARE(plain.status, RunReport::Status::Passed);

        int calls = 0;
        std::vector<float> beforeRestore, afterRestore, relaunched;
        std::string kernel;
        wb::LaunchConfig config;
        std::uint64_t bytesMoved = 0;
        SessionRunner::Options opt;
        opt.profile = [&](const ProfileContext& c) {
            ++calls;
            kernel = c.kernel;
            config = c.config;
            bytesMoved = c.bytesMoved;
            QCOMPARE(c.backend.kind(), wb::BackendKind::Cpu);
            QCOMPARE(c.args.size(), std::size_t(4)); // n, alpha, x, y
            // On the CPU emulator a buffer's address is a host pointer: read `y` directly.
            const wb::KernelArgValue& yArg = c.args[3];
            QVERIFY(yArg.isPointer);
            std::uint64_t address = 0;
            std::memcpy(&address, yArg.data, sizeof address);
            const auto* y = reinterpret_cast<const float*>(address);
            const std::size_t n = plain.results.at("y").count();
            beforeRestore.assign(y, y + n);
            c.restore();
            afterRestore.assign(y, y + n);
            c.backend.launch(c.program, c.kernel, c.config, c.args);
            relaunched.assign(y, y + n);
        };
        const RunReport hooked = SessionRunner::run(s, opt);
        QCOMPARE(calls, 1);
        QCOMPARE(hooked.status, RunReport::Status::Passed);
        QCOMPARE(kernel, std::string("saxpy"));
        QCOMPARE(config.grid.x, 64u);
        QCOMPARE(config.block.x, 256u);
        QCOMPARE(bytesMoved, plain.bytesMoved);
        // The results (downloaded before the hook) are exactly those of the plain run.
        QVERIFY(hooked.results.at("y") == plain.results.at("y"));
        QCOMPARE(hooked.outputs.size(), plain.outputs.size());
        QCOMPARE(hooked.outputs[0].stats.maxAbs, plain.outputs[0].stats.maxAbs);
        // Warm-up and timed launches changed y; restore() brought back the initial data, and one
        // launch from there gives the result launch's output, element for element.
        const HostArray& result = plain.results.at("y");
        QVERIFY(beforeRestore != afterRestore);
        QVERIFY(std::memcmp(relaunched.data(), result.data(), result.bytes()) == 0);
        QCOMPARE(afterRestore.front(), -1.0f); // linspace(-1, 1)
        QCOMPARE(afterRestore.back(), 1.0f);

        // An exception from the hook ends the run like a launch failure.
        opt.profile = [](const ProfileContext&) {
            throw wb::Error(wb::Error::Kind::Runtime, "profiler exploded");
        };
        const RunReport failed = SessionRunner::run(s, opt);
        QCOMPARE(failed.status, RunReport::Status::RuntimeError);
        QVERIFY2(failed.message.find("profiler exploded") != std::string::npos,
                 failed.message.c_str());
    }

    void init()
    {
        const QString why = cpuUnavailable();
        if (!why.isEmpty()) QSKIP(qPrintable("CPU backend unavailable: " + why));
    }
    /// Grade mode: every launch checked from fresh poison; the seed fixes which timed launch
    /// is checked; the speed-of-light check holds the run to a stated peak; the CPU emulator
    /// records no clocks and says why.
    void gradeMode()
    {
        Session s = makeSession();
        s.iterations = 6;
        SessionRunner::Options o;
        o.grade.enabled = true;
        o.grade.seed = 42;
        const RunReport a = SessionRunner::run(s, o);
        // No reference: every check passed, and nothing was compared (never a pass).
        QVERIFY2(a.status == RunReport::Status::Unchecked, a.message.c_str());
        QCOMPARE(a.exitCode(), 0);
        QVERIFY(a.graded);
        QCOMPARE(a.checkSeed, std::uint64_t{42});
        QCOMPARE(a.checks.size(), std::size_t{3});
        for (const LaunchCheck& c : a.checks)
            QVERIFY2(c.passed, c.label.c_str());
        QCOMPARE(a.checks[2].launch, s.warmup + s.iterations + 1);
        const RunReport b = SessionRunner::run(s, o);
        QCOMPARE(b.checks[1].label, a.checks[1].label); // same seed, same timed launch
        QVERIFY(!a.coldSamples);                        // nothing to flush on the CPU
        QVERIFY(!a.conditionsAfter.known());
        QVERIFY(!a.conditionsAfter.source.empty());
        QVERIFY(!a.speedOfLight.checked);
        QVERIFY(a.speedOfLight.peakSource.find("CPU emulator") != std::string::npos);
        // A peak far below what any run reaches: flagged impossible, with the figures.
        o.peakBandwidthGBs = 1e-9;
        const RunReport slow = SessionRunner::run(s, o);
        QVERIFY(slow.speedOfLight.checked);
        QVERIFY(slow.speedOfLight.impossible);
        QVERIFY(slow.speedOfLight.message.find("exceeds the peak") != std::string::npos);
        QVERIFY(slow.toText().find("IMPOSSIBLE") != std::string::npos);
        // A peak far above: possible.
        o.peakBandwidthGBs = 1e9;
        QVERIFY(!SessionRunner::run(s, o).speedOfLight.impossible);
        // Without grade mode nothing after the result launch is checked.
        QVERIFY(SessionRunner::run(s, {}).checks.empty());
    }

    /// Grade mode with random inputs: every timed launch gets inputs of its own (new seeds)
    /// and is checked against the reference for them — the chosen one whole, the others
    /// sampled; a project may pin the inputs by stating why, and the report says so.
    void gradeModeFreshInputsForEveryTimedLaunch()
    {
        Session s = makeSession();
        s.buffers[0].init.kind = Initialiser::Kind::Uniform;
        s.iterations = 4;
        s.reference.kind = ReferenceSpec::Kind::Cpp;
        s.reference.source = "void reference(float* out, const float* in, float factor, int n)"
                             " { for (int i = 0; i < n; ++i) out[i] = in[i] * factor; }";
        SessionRunner::Options o;
        o.grade.enabled = true;
        o.grade.seed = 7;
        const RunReport a = SessionRunner::run(s, o);
        QVERIFY2(a.status == RunReport::Status::Passed, a.message.c_str());
        QVERIFY(a.freshTimedInputs);
        QCOMPARE(a.checks.size(), std::size_t{4});
        for (const LaunchCheck& c : a.checks)
            QVERIFY2(c.passed, c.label.c_str());
        QVERIFY2(a.checks[1].label.find("(fresh inputs)") != std::string::npos,
                 a.checks[1].label.c_str());
        QVERIFY2(a.checks[2].label.find("the other 3 timed launches") != std::string::npos,
                 a.checks[2].label.c_str());
        QVERIFY(a.toText().find("fresh for every timed launch") != std::string::npos);
        // A kernel that answers from the first launch's inputs fails the timed launches.
        Session stale = s;
        stale.kernelSource = "__device__ float remembered[1024]; __device__ int filled;\n"
                             "__global__ void scale(float* out, const float* in, float factor,"
                             " int n)\n{ int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                             "  if (i >= n) return;\n"
                             "  if (!filled) remembered[i] = in[i] * factor;\n"
                             "  out[i] = remembered[i];\n"
                             "  if (i == n - 1) filled = 1; }\n";
        stale.buffers[0].shape = {"n"};
        const RunReport b = SessionRunner::run(stale, o);
        QCOMPARE(b.status, RunReport::Status::Mismatch);
        QVERIFY2(b.message.find("timed launch") != std::string::npos, b.message.c_str());
        // Pinned, with a reason: every timed launch on the same inputs, and the report says why.
        s.pinInputs = "the inputs are a recorded trace";
        const RunReport p = SessionRunner::run(s, o);
        QVERIFY(!p.freshTimedInputs);
        QCOMPARE(p.pinnedInputs, s.pinInputs);
        QCOMPARE(p.checks.size(), std::size_t{3});
        QVERIFY(p.toText().find("pinned by the project: the inputs are a recorded trace") !=
                std::string::npos);
    }

    /// Warm launches over data that fits in L2 may beat DRAM's peak; cold ones, or data too
    /// big for L2, may not.
    void speedOfLightKnowsTheCache()
    {
        RunReport r;
        r.backend = wb::BackendKind::Cuda;
        r.device.peakBandwidthGBs = 4800;
        r.device.l2CacheBytes = 50u << 20;
        r.bytesMoved = 40u << 20;
        r.timing = TimingStats::of({0.005, 0.005, 0.005}); // 8,389 GB/s
        r.bandwidthGBs = static_cast<double>(r.bytesMoved) / (r.timing.medianMs * 1e6);
        SpeedOfLight sol = SessionRunner::speedOfLight(r);
        QVERIFY(sol.checked);
        QVERIFY(!sol.impossible);
        QVERIFY2(sol.message.find("fits in the") != std::string::npos, sol.message.c_str());
        r.coldSamples = true; // L2 flushed before every sample: nothing could be served warm
        QVERIFY(SessionRunner::speedOfLight(r).impossible);
        r.coldSamples = false;
        r.bytesMoved = 400u << 20; // ten times the bandwidth, and too big for L2
        r.bandwidthGBs *= 10;
        sol = SessionRunner::speedOfLight(r);
        QVERIFY(sol.impossible);
        QVERIFY(sol.message.find("exceeds the peak of 4800.0 GB/s (driver") != std::string::npos);
        r.bandwidthGBs = 100; // well under
        QVERIFY(!SessionRunner::speedOfLight(r).impossible);
        QVERIFY(SessionRunner::speedOfLight(r).message.find("possible") != std::string::npos);
        QCOMPARE(SessionRunner::speedOfLight(r, 50).peakGBs, 50.0); // --peak-bandwidth
        QVERIFY(SessionRunner::speedOfLight(r, 50).impossible);
    }

    /// Where the project states its FLOPs, their rate is held to the FP32 peak (or the one
    /// given): above it is impossible whatever the caches did.
    void speedOfLightCountsFlops()
    {
        RunReport r;
        r.backend = wb::BackendKind::Cuda;
        r.device.peakBandwidthGBs = 4800;
        r.device.peakFp32Gflops = 66908; // H200: 132 SMs x 128 lanes x 2 x 1.98 GHz
        r.device.l2CacheBytes = 50u << 20;
        r.bytesMoved = 1u << 20; // warm and small: the bandwidth is possible
        r.timing = TimingStats::of({0.01, 0.01, 0.01});
        r.bandwidthGBs = static_cast<double>(r.bytesMoved) / (r.timing.medianMs * 1e6);
        // Not stated: no FLOP check.
        SpeedOfLight sol = SessionRunner::speedOfLight(r);
        QVERIFY(!sol.flopsChecked && sol.peakGflops == 0 && !sol.impossible);
        // 2^30 FLOPs in 10 µs: 107 TFLOP/s, above the FP32 peak.
        r.flopsPerLaunch = 1073741824.0;
        r.gflops = r.flopsPerLaunch / (r.timing.medianMs * 1e6);
        sol = SessionRunner::speedOfLight(r);
        QVERIFY(sol.flopsChecked && sol.checked);
        QVERIFY(sol.flopsImpossible && sol.impossible);
        QCOMPARE(sol.peakGflops, 66908.0);
        QVERIFY2(sol.message.find("GFLOP/s") != std::string::npos &&
                     sol.message.find("exceeds the peak of 66908.0 GFLOP/s (FP32") !=
                         std::string::npos,
                 sol.message.c_str());
        // The bandwidth half still says its own (possible) verdict.
        QVERIFY2(sol.message.find("GB/s") != std::string::npos, sol.message.c_str());
        // A tensor-core peak given by the teacher: possible.
        sol = SessionRunner::speedOfLight(r, 0, 989000);
        QVERIFY(sol.flopsChecked && !sol.flopsImpossible && !sol.impossible);
        QVERIFY(sol.flopsPeakSource.find("--peak-gflops") != std::string::npos);
        // A tenth of the FLOPs: under the FP32 peak.
        r.flopsPerLaunch /= 10;
        r.gflops /= 10;
        QVERIFY(!SessionRunner::speedOfLight(r).impossible);
        // The CPU emulator has no FP32 peak: it says how to give one.
        r.backend = wb::BackendKind::Cpu;
        r.device = {};
        sol = SessionRunner::speedOfLight(r);
        QVERIFY(!sol.flopsChecked);
        QVERIFY2(sol.peakSource.find("give --peak-gflops") != std::string::npos,
                 sol.peakSource.c_str());
        QVERIFY(SessionRunner::speedOfLight(r, 0, 1).flopsImpossible);
    }

    /// "flops" in the launch object: evaluated with the scalars, saved and loaded back, and a
    /// negative or non-numeric count is an invalid project.
    void flopsAreStatedInTheProject()
    {
        Session s = makeSession();
        s.flops = "2*n";
        const RunReport r = SessionRunner::run(s, {});
        QVERIFY2(r.status == RunReport::Status::Unchecked, r.toText().c_str()); // no reference
        QCOMPARE(r.flopsPerLaunch, 600.0);
        QVERIFY(r.gflops > 0);
        QVERIFY2(r.toText().find("FLOPs     600 per launch (stated)") != std::string::npos,
                 r.toText().c_str());
        QVERIFY2(r.toText().find("give --peak-gflops") != std::string::npos, r.toText().c_str());
        QTemporaryDir dir;
        const std::filesystem::path file = dir.filePath("f.wbproj").toStdString();
        ProjectFile::save(s, file);
        QCOMPARE(ProjectFile::load(file).flops, std::string("2*n"));
        s.flops = "-n";
        const RunReport bad = SessionRunner::run(s, {});
        QCOMPARE(bad.status, RunReport::Status::Invalid);
        QVERIFY2(bad.message.find("launch.flops") != std::string::npos, bad.message.c_str());
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
    // Issue 26: the writer checks exports again and never writes outside the output folder,
    // also for a Session built in code (not loaded from a project file).
    void outputWriterStaysInTheOutputFolder()
    {
        QTemporaryDir dir;
        const std::filesystem::path root = dir.path().toStdString();
        const std::filesystem::path out = root / "a" / "out";
        std::filesystem::create_directories(out);
        Session s = makeSession();
        RunReport r;
        r.results.emplace("out", HostArray(ElementType::F32, {4}));
        for (const std::string& bad :
             {std::string("../escaped.npy"), std::string("/tmp/x.bin"), std::string("sub/x.npy"),
              std::string("x.npy\0.png", 10), std::string(".."), std::string("")}) {
            s.buffers[1].exports = {"fine.bin", bad};
            QString message;
            try {
                SessionRunner::writeOutputs(r, s, out);
            } catch (const wb::Error& e) {
                message = QString::fromStdString(e.what());
            }
            QVERIFY2(message.contains("buffer 'out': export 1: ") &&
                         message.contains("nothing is written outside the output folder"),
                     qPrintable(message));
        }
        QVERIFY(!std::filesystem::exists(root / "a" / "escaped.npy"));
        QVERIFY(!std::filesystem::exists(out / "sub"));
        // A link planted in the output folder is not written through.
        std::filesystem::create_symlink(root / "target.npy", out / "link.npy");
        s.buffers[1].exports = {"link.npy"};
        QVERIFY_THROWS_EXCEPTION(wb::Error, SessionRunner::writeOutputs(r, s, out));
        QVERIFY(!std::filesystem::exists(root / "target.npy"));
        s.buffers[1].exports = {"plain.npy", "plain.bin"};
        SessionRunner::writeOutputs(r, s, out);
        QVERIFY(std::filesystem::is_regular_file(out / "plain.npy"));
        QCOMPARE(std::filesystem::file_size(out / "plain.bin"), std::uintmax_t{16});
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
    // Issue 15: flags outside FlagPolicy's set run only in a trusted session.
    void untrustedFlagsAreRefusedBeforeCompiling()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::string marker = dir.filePath("pwned").toStdString();
        Session s = makeSession();
        s.baseDir = dir.path().toStdString();
        s.reference.kind = ReferenceSpec::Kind::Cpp;
        s.reference.source = "void reference(float* out, const float* in, float factor, int n)\n"
                             "{ for (int i = 0; i < n; ++i) out[i] = in[i] * factor; }\n";
        s.reference.flags = {"-O2", "-wrapper", "/bin/sh,-c,touch " + marker};
        RunReport r = SessionRunner::run(s, {});
        QCOMPARE(r.exitCode(), 4);
        QVERIFY2(r.message.find("reference.flags: '-wrapper /bin/sh,-c,touch") != std::string::npos,
                 r.message.c_str());
        QVERIFY(r.compilerVersion.empty()); // nothing was compiled
        QVERIFY(!QFile::exists(dir.filePath("pwned")));

        s.reference.flags = {"-O2"};
        s.compileOptions.extraFlags = {"--host-flag=-frecord-gcc-switches"};
        r = SessionRunner::run(s, {});
        QCOMPARE(r.exitCode(), 4);
        QVERIFY2(r.message.find("compileOptions.extraFlags: '--host-flag=-frecord-gcc-switches'") !=
                     std::string::npos,
                 r.message.c_str());
        s.flagsTrusted = true;
        r = SessionRunner::run(s, {});
        QVERIFY2(r.status == RunReport::Status::Passed, r.toText().c_str());
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
    void invalidLaunchIsRefusedBeforeAnythingRuns_data()
    {
        QTest::addColumn<QString>("what");
        QTest::addColumn<QString>("field");
        QTest::newRow("block of 2048 threads") << "block"
                                               << "launch.block[0]: \"2048\" = 2048";
        QTest::newRow("block of 64 x 32") << "blockxy"
                                          << "launch.block: 64 x 32 x 1 = 2048";
        QTest::newRow("block.z") << "blockz"
                                 << "launch.block[2]";
        QTest::newRow("grid.y") << "gridy"
                                << "launch.grid[1]";
        QTest::newRow("sharedBytes 2^32+16") << "shared"
                                             << "launch.sharedBytes";
        QTest::newRow("reference block") << "refblock"
                                         << "reference.block";
        QTest::newRow("i32 scalar 1e308") << "scalar"
                                          << "scalars[0].value: scalar 'n' of type i32";
        QTest::newRow("u8 scalar -1") << "u8"
                                      << "scalars[0].value: scalar 'n' of type u8";
        QTest::newRow("f32 scalar 1e39") << "f32"
                                         << "scalars[1].value: scalar 'factor' of type f32";
    }
    /// Exit 4 naming the field, before any compile, whichever backend: the CUDA one is refused
    /// the same way even on a machine without a GPU (before, it failed later with exit 3 or ran
    /// with a truncated value).
    void invalidLaunchIsRefusedBeforeAnythingRuns()
    {
        QFETCH(QString, what);
        QFETCH(QString, field);
        for (const wb::BackendKind backend : {wb::BackendKind::Cpu, wb::BackendKind::Cuda}) {
            Session s = makeSession();
            s.backend = backend;
            if (what == "block") s.launch.block = {"2048"};
            if (what == "blockxy") s.launch.block = {"64", "32"};
            if (what == "blockz") s.launch.block = {"1", "1", "65"};
            if (what == "gridy") s.launch.grid = {"1", "65536"};
            if (what == "shared") s.launch.sharedBytes = "2^32+16";
            if (what == "refblock") {
                s.reference.kind = ReferenceSpec::Kind::Kernel;
                s.reference.launch.kernel = "scale_serial";
                s.reference.launch.grid = {"1"};
                s.reference.launch.block = {"32", "64"};
            }
            if (what == "scalar") s.scalars[0].value = "1e308";
            if (what == "u8") s.scalars[0] = ScalarSpec{"n", ElementType::U8, "-1"};
            if (what == "f32") s.scalars[1].value = "1e39";
            const RunReport r = SessionRunner::run(s, {});
            QCOMPARE(r.exitCode(), 4);
            QVERIFY2(r.message.find(field.toStdString()) != std::string::npos, r.message.c_str());
            QVERIFY2(r.message.find("out of range") != std::string::npos ||
                         r.message.find("at most 1024") != std::string::npos,
                     r.message.c_str());
            QVERIFY(!r.compiled);
        }
    }
    void limitsThemselvesAreAccepted()
    {
        Session s = makeSession();
        s.launch.block = {"1024"};
        s.launch.grid = {"1"};
        s.launch.kernel = "scale_serial";
        RunReport r = SessionRunner::run(s, {});
        QVERIFY2(r.status == RunReport::Status::Unchecked, r.toText().c_str()); // it ran
        s.launch.sharedBytes = "227*1024+1"; // past the emulator's capacity: exit 4 before compile
        r = SessionRunner::run(s, {});
        QCOMPARE(r.exitCode(), 4);
        QVERIFY2(r.message.find("launch.sharedBytes: 232449 bytes") != std::string::npos,
                 r.message.c_str());
        QVERIFY(!r.compiled);
    }
};

WB_QTEST_GUILESS_MAIN(TestSessionRunner)
#include "tst_sessionrunner.moc"
