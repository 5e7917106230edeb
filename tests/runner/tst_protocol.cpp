// SPDX-License-Identifier: GPL-3.0-or-later
// Framing, the report codec and the shared-memory region of core/runner.
#include "core/common/Error.h"
#include "core/runner/Protocol.h"
#include "core/runner/SharedMemory.h"
#include "core/session/ReportJson.h"
#include "core/session/RunReport.h"
#include "tests/support/SuiteMain.h"

#include <QJsonArray>
#include <QTest>

#include <cmath>
#include <cstring>
#include <limits>
#include <sys/stat.h>
#include <unistd.h>

using namespace wb;
using namespace wb::runner;

class TstProtocol : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void framesSplitAnywhere()
    {
        std::vector<char> stream;
        for (int i = 0; i < 3; ++i) {
            const auto f = Protocol::encode(Protocol::Type::Stats, QJsonObject{{"i", i}});
            stream.insert(stream.end(), f.begin(), f.end());
        }
        const auto blob = Protocol::encode(Protocol::Type::Blob, "\0\1\2", 3);
        stream.insert(stream.end(), blob.begin(), blob.end());
        // Feed byte by byte: frames come out whole and in order.
        std::vector<char> buffer;
        std::vector<Protocol::Frame> got;
        for (char c : stream) {
            buffer.push_back(c);
            Protocol::Frame f;
            while (Protocol::take(buffer, f))
                got.push_back(f);
        }
        QCOMPARE(got.size(), std::size_t{4});
        for (int i = 0; i < 3; ++i) {
            QCOMPARE(got[static_cast<std::size_t>(i)].type, Protocol::Type::Stats);
            QCOMPARE(got[static_cast<std::size_t>(i)].version, Protocol::kVersion);
            QCOMPARE(got[static_cast<std::size_t>(i)].json()["i"].toInt(), i);
        }
        QCOMPARE(got[3].type, Protocol::Type::Blob);
        QCOMPARE(got[3].payload, (std::vector<char>{0, 1, 2}));
        QVERIFY(buffer.empty());
    }

    void versionTravelsAndBadMagicIsRefused()
    {
        auto f = Protocol::encode(Protocol::Type::Hello, QJsonObject{}, 7);
        Protocol::Frame fr;
        QVERIFY(Protocol::take(f, fr));
        QCOMPARE(fr.version, std::uint16_t{7});
        std::vector<char> junk(32, 'x');
        QVERIFY_THROWS_EXCEPTION(Error, Protocol::take(junk, fr));
    }

    /// take() judges a header before its payload arrives: too long for its type, an unknown
    /// type, or bytes that cannot begin a frame are errors at once, not a wait for 1 GiB.
    void headersAreJudgedBeforeThePayload()
    {
        Protocol::Frame fr;
        auto header = [](Protocol::Type type, std::uint64_t length) {
            std::vector<char> h = Protocol::encode(type, nullptr, 0);
            for (int i = 0; i < 8; ++i)
                h[static_cast<std::size_t>(8 + i)] = static_cast<char>((length >> (8 * i)) & 0xff);
            return h;
        };
        auto big = header(Protocol::Type::Hello, Protocol::kMaxSmallPayload + 1);
        try {
            Protocol::take(big, fr);
            QFAIL("an oversized hello was accepted");
        } catch (const Error& e) {
            QVERIFY2(QByteArray(e.what()).contains("a frame of type hello with 1048577 bytes"),
                     e.what());
        }
        auto report = header(Protocol::Type::Report, Protocol::kMaxSmallPayload + 1);
        QVERIFY(!Protocol::take(report, fr)); // a Report may be that long: wait for it
        auto report2 = header(Protocol::Type::Report, Protocol::kMaxDocumentPayload + 1);
        QVERIFY_THROWS_EXCEPTION(Error, Protocol::take(report2, fr));
        auto blob = header(Protocol::Type::Blob, Protocol::kMaxDocumentPayload + 1);
        QVERIFY(!Protocol::take(blob, fr));
        auto unknown = header(Protocol::Type::Hello, 0);
        unknown[6] = 99;
        QVERIFY_THROWS_EXCEPTION(Error, Protocol::take(unknown, fr));
        std::vector<char> greeting{'W', 'e', 'l'}; // fewer bytes than a header
        try {
            Protocol::take(greeting, fr);
            QFAIL("text was taken for the start of a frame");
        } catch (const Error& e) {
            QVERIFY2(QByteArray(e.what()).contains("not a Warpbench runner: it sent \"Wel\""),
                     e.what());
        }
        std::vector<char> start{'W', 'B'}; // may still become a frame
        QVERIFY(!Protocol::take(start, fr));
    }

    void pipeRoundTrip()
    {
        int p[2];
        QCOMPARE(::pipe(p), 0);
        Protocol::writeAll(p[1], Protocol::encode(Protocol::Type::Quit, QJsonObject{{"x", "y"}}));
        ::close(p[1]);
        Protocol::Frame f;
        QVERIFY(Protocol::readFrame(p[0], f));
        QCOMPARE(f.type, Protocol::Type::Quit);
        QCOMPARE(f.json()["x"].toString(), QStringLiteral("y"));
        QVERIFY(!Protocol::readFrame(p[0], f)); // end of stream
        ::close(p[0]);
    }

    void reportRoundTrip()
    {
        session::RunReport r;
        r.status = session::RunReport::Status::Mismatch;
        r.message = std::string("outputs differ");
        r.project = std::string("p");
        r.backend = BackendKind::Cpu;
        r.device.name = std::string("CPU");
        r.device.totalMemoryBytes = 1ull << 40;
        r.device.peakBandwidthGBs = 12.5;
        r.compiled = true;
        r.compileMs = 1.0 / 3.0;
        r.diagnostics.push_back(
            Diagnostic{"k.cu", 3, 7, Severity::Warning, "177-D", "unused", {"ctx"}});
        r.kernel.name = std::string("k");
        r.kernel.params.push_back(KernelParam{"a", "float*", 8, 0, 8, true, "float", true});
        r.kernel.resources.registers = 12;
        r.kernel.resources.known = true;
        r.launch.grid = {4, 2, 1};
        r.launch.block = {128, 1, 1};
        r.launch.sharedBytes = 256;
        r.timing = session::TimingStats::of({0.1, 0.2, 0.3});
        r.bytesMoved = 123456789012345ull;
        r.h2dMs = 0.125;
        r.d2hMs = 0.25;
        r.h2dBytes = 4096;
        r.d2hBytes = 1ull << 33;
        r.referenceKind = session::ReferenceSpec::Kind::Cpp;
        session::OutputResult o;
        o.buffer = std::string("out");
        o.compared = true;
        o.stats.count = 10;
        o.stats.maxRel = std::numeric_limits<double>::infinity();
        o.stats.mismatches = 1;
        o.stats.firstMismatches.push_back(session::Mismatch{3, {3}, 1.5, 2.5, 1.0, 99});
        o.stats.histogram.assign(64, 0);
        o.stats.histogram[5] = 7;
        r.outputs.push_back(o);
        // Grade mode, speed of light and clocks (issue 20).
        r.graded = true;
        r.coldSamples = true;
        r.freshInputs = true;
        r.checkSeed = 18446744073709551557ull; // above 2^53: must not pass through a double
        r.checks.push_back(session::LaunchCheck{"timed launch 3 of 5", 4, false, 7, 1000, 2,
                                                "out: 1,000 never written"});
        r.speedOfLight = session::SpeedOfLight{4800,  "driver", 6900,  true, true, "impossible",
                                               66908, "FP32",   70000, true, true};
        r.flopsPerLaunch = 2e9;
        r.gflops = 70000;
        r.device.peakFp32Gflops = 66908;
        r.conditionsBefore = DeviceConditions{1980, 3201, 33, "nvml"};
        r.conditionsAfter.source = "libnvidia-ml.so.1 not found";
        const session::RunReport back =
            session::reportFromJson(session::reportToJson(r, session::ReportSections::All));
        QCOMPARE(back.checkSeed, r.checkSeed);
        QCOMPARE(back.checks.size(), std::size_t{1});
        QCOMPARE(back.checks[0].unwritten, std::uint64_t{1000});
        QCOMPARE(back.conditionsBefore.temperatureC, 33);
        QCOMPARE(back.conditionsAfter.smClockMHz, -1);
        QVERIFY(back.speedOfLight.impossible);
        QVERIFY(back.speedOfLight.flopsImpossible);
        QCOMPARE(back.speedOfLight.peakGflops, 66908.0);
        QCOMPARE(back.speedOfLight.achievedGflops, 70000.0);
        QCOMPARE(back.gflops, 70000.0);
        QCOMPARE(back.flopsPerLaunch, 2e9);
        QCOMPARE(back.device.peakFp32Gflops, 66908.0);
        QCOMPARE(back.toJson(), r.toJson());
        QCOMPARE(back.toText(), r.toText());
        QCOMPARE(back.kernel, r.kernel);
        QCOMPARE(back.diagnostics, r.diagnostics);
        QCOMPARE(back.timing.samplesMs, r.timing.samplesMs);
        QVERIFY(std::isinf(back.outputs[0].stats.maxRel));
        QCOMPARE(back.outputs[0].stats.histogram, r.outputs[0].stats.histogram);
        QCOMPARE(back.bytesMoved, r.bytesMoved);
        QCOMPARE(back.h2dMs, r.h2dMs);
        QCOMPARE(back.d2hMs, r.d2hMs);
        QCOMPARE(back.h2dBytes, r.h2dBytes);
        QCOMPARE(back.d2hBytes, r.d2hBytes);
        // A report without them (a runner from before transfer timing): not measured.
        QJsonObject old = session::reportToJson(r, session::ReportSections::All);
        old.remove(QStringLiteral("transfers"));
        QCOMPARE(session::reportFromJson(old).h2dMs, -1.0);
    }

    void findingRoundTrip()
    {
        MemoryFinding f;
        f.kind = MemoryFinding::Kind::Misaligned;
        f.kernel = std::string("k");
        f.file = std::string("k.cu");
        f.line = 9;
        f.block = {1, 2, 3};
        f.thread = {4, 5, 6};
        f.located = true;
        f.address = 0x7f0000000001ull;
        f.isWrite = true;
        f.accessSize = 4;
        f.message = std::string("m");
        const MemoryFinding b = session::findingFromJson(session::findingToJson(f));
        QCOMPARE(b.kind, f.kind);
        QCOMPARE(b.address, f.address);
        QCOMPARE(b.thread, f.thread);
        QCOMPARE(b.block, f.block);
        QCOMPARE(b.message, f.message);
        QCOMPARE(b.line, 9);
    }

    void sharedMemoryIsPrivateAndVisibleThroughProc()
    {
        SharedMemory m = SharedMemory::create(10000);
        QVERIFY(m.size() >= 10000);
        struct stat st {};
        QCOMPARE(::fstat(m.fd(), &st), 0);
        QCOMPARE(st.st_mode & 0777, 0600u);
        std::memset(m.data(), 0x5a, 10000);
        m.reserve(1 << 20); // grows, keeps content
        QCOMPARE(m.data()[9999], static_cast<unsigned char>(0x5a));
        const SharedMemory view = SharedMemory::openOf(::getpid(), m.fd(), m.size());
        QCOMPARE(view.data()[0], static_cast<unsigned char>(0x5a));
        m.data()[1] = 0x11;
        QCOMPARE(view.data()[1], static_cast<unsigned char>(0x11));
        QVERIFY_THROWS_EXCEPTION(Error, SharedMemory::openOf(::getpid(), 9999, 4096));
    }
};

WB_QTEST_GUILESS_MAIN(TstProtocol)
#include "tst_protocol.moc"
