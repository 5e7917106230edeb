// SPDX-License-Identifier: GPL-3.0-or-later
// Bounded mutation fuzzing of the runner protocol's decoding functions: framing
// (Protocol::take, Frame::json) and the report codec (session::reportFromJson, findingFromJson,
// arrayFromHeader) on mutated streams of valid frames. Every input decodes or is refused with
// a wb::Error; a crash, a hang or any other exception fails the test. The framing is also fed
// in random chunk sizes, which must not change what comes out. A few seconds in CI;
// $WB_FUZZ_SECONDS for longer (tests/fuzz/FuzzMutator.h).
#include "core/common/Error.h"
#include "core/runner/BufferCodec.h"
#include "core/runner/Protocol.h"
#include "core/session/ProjectFile.h"
#include "core/session/ReportJson.h"
#include "core/session/RunReport.h"
#include "tests/fuzz/FuzzMutator.h"
#include "tests/support/SuiteMain.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

using namespace wb;
using namespace wb::runner;

namespace {

// std::string(...) on the right: GCC 12's -Wrestrict misfires on `str = "literal"` here.
session::RunReport sampleReport()
{
    session::RunReport r;
    r.status = session::RunReport::Status::Mismatch;
    r.message = std::string("outputs differ");
    r.project = std::string("p");
    r.backend = BackendKind::Cpu;
    r.device.name = std::string("CPU");
    r.compiled = true;
    r.diagnostics.push_back(Diagnostic{"k.cu", 3, 7, Severity::Warning, "177-D", "unused", {"c"}});
    r.kernel.name = std::string("k");
    r.kernel.params.push_back(KernelParam{"a", "float*", 8, 0, 8, true, "float", true});
    r.launch.grid = {4, 2, 1};
    r.launch.block = {128, 1, 1};
    r.timing = session::TimingStats::of({0.1, 0.2, 0.3});
    session::OutputResult o;
    o.buffer = std::string("out");
    o.compared = true;
    o.stats.count = 10;
    o.stats.mismatches = 1;
    o.stats.firstMismatches.push_back(session::Mismatch{3, {3}, 1.5, 2.5, 1.0, 99});
    o.stats.histogram.assign(64, 0);
    r.outputs.push_back(o);
    return r;
}

/// A stream of one frame of each type, as the two sides send them.
std::string sampleStream()
{
    std::vector<char> s;
    const auto add = [&s](const std::vector<char>& f) { s.insert(s.end(), f.begin(), f.end()); };
    add(Protocol::encode(Protocol::Type::Hello,
                         QJsonObject{{"version", 1}, {"pid", 42}, {"transport", "shm"}}));
    session::Session session =
        session::ProjectFile::load(WB_SOURCE_DIR "/resources/examples/saxpy/saxpy.wbproj");
    add(Protocol::encode(
        Protocol::Type::Run,
        QJsonObject{{"session", QString::fromStdString(session::ProjectFile::toJson(session))},
                    {"baseDir", "/tmp"},
                    {"name", "saxpy.wbproj"},
                    {"backend", "cpu"}}));
    MemoryFinding finding;
    finding.kind = MemoryFinding::Kind::Misaligned;
    finding.message = std::string("m");
    const session::HostArray out(session::ElementType::F32, {4, 2});
    QJsonObject buffer = BufferCodec::arrayHeader(out);
    buffer["bytes"] = static_cast<double>(out.bytes());
    add(Protocol::encode(Protocol::Type::Blob, "\x78\x9c\x03\x00\x00\x00\x00\x01", 8));
    session::RunReport report = sampleReport();
    report.memoryFindings.push_back(finding); // findings travel in the report
    add(Protocol::encode(
        Protocol::Type::Report,
        QJsonObject{{"report", session::reportToJson(report, session::ReportSections::All)},
                    {"buffers", QJsonArray{buffer}}}));
    add(Protocol::encode(Protocol::Type::Progress,
                         QJsonObject{{"phase", "launch"}, {"kernel", "k"}}));
    // What a run prints, as it arrives (issue 26).
    add(Protocol::encode(Protocol::Type::Progress,
                         QJsonObject{{"phase", "output"}, {"text", "line 0\n"}, {"moreLines", 3}}));
    add(Protocol::encode(Protocol::Type::Error, QJsonObject{{"message", "boom"}}));
    add(Protocol::encode(Protocol::Type::Quit, QJsonObject{}));
    return std::string(s.begin(), s.end());
}

/// Everything the receiving sides decode from one frame.
void decode(const Protocol::Frame& f)
{
    if (f.type == Protocol::Type::Blob) return; // compressed bytes: qUncompress's business
    const QJsonObject j = f.json();
    switch (f.type) {
    case Protocol::Type::Run:
        session::ProjectFile::fromJson(j["session"].toString().toStdString(),
                                       j["baseDir"].toString().toStdString(),
                                       j["name"].toString().toStdString());
        break;
    case Protocol::Type::Report:
        session::reportFromJson(j["report"].toObject());
        for (const QJsonValue& v : j["buffers"].toArray())
            // As the client does: no more than the bytes that arrived (a fuzz stream: < 1 MiB).
            BufferCodec::arrayFromHeader(v.toObject(), std::uint64_t{1} << 20);
        break;
    default:
        break;
    }
}

/// All frames of `stream`, fed in chunks of random sizes; the decoding of each stops at the
/// first wb::Error (as the client and runner do).
std::vector<Protocol::Frame> frames(const std::string& stream, wb::fuzz::Mutator& m)
{
    std::vector<Protocol::Frame> out;
    std::vector<char> buffer;
    std::size_t pos = 0;
    while (pos < stream.size()) {
        const std::size_t n = std::min(stream.size() - pos, 1 + m.below(64));
        buffer.insert(buffer.end(), stream.begin() + static_cast<std::ptrdiff_t>(pos),
                      stream.begin() + static_cast<std::ptrdiff_t>(pos + n));
        pos += n;
        Protocol::Frame f;
        while (Protocol::take(buffer, f))
            out.push_back(f);
    }
    return out;
}

} // namespace

class TestFuzzProtocol : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void sampleStreamDecodes()
    {
        wb::fuzz::Mutator m(1);
        const std::vector<Protocol::Frame> all = frames(sampleStream(), m);
        QCOMPARE(all.size(), std::size_t{8});
        for (const Protocol::Frame& f : all)
            decode(f);
    }

    void mutatedStreams()
    {
        const std::string stream = sampleStream();
        wb::fuzz::Mutator split(0);
        const std::vector<Protocol::Frame> valid = frames(stream, split);
        std::vector<std::string> payloads;
        for (const Protocol::Frame& f : valid)
            payloads.emplace_back(f.payload.begin(), f.payload.end());
        const wb::fuzz::Budget budget = wb::fuzz::Budget::fromEnvironment(3);
        wb::fuzz::Mutator m(budget.seed);
        QElapsedTimer timer;
        timer.start();
        std::uint64_t runs = 0, decoded = 0;
        while (timer.elapsed() < static_cast<qint64>(budget.seconds * 1000)) {
            std::string input;
            if (m.chance(50)) {
                input = m.mutate(stream, {stream});
            } else {
                // One frame's payload mutated and framed again with its new length, so that
                // the decoders behind the framing see it.
                const std::size_t target = m.below(valid.size());
                for (std::size_t i = 0; i < valid.size(); ++i) {
                    const std::string payload =
                        i == target ? m.mutate(payloads[i], payloads) : payloads[i];
                    const std::vector<char> f =
                        Protocol::encode(valid[i].type, payload.data(), payload.size());
                    input.append(f.begin(), f.end());
                }
            }
            ++runs;
            std::string failure;
            try {
                for (const Protocol::Frame& f : frames(input, m)) {
                    try {
                        decode(f);
                        ++decoded;
                    } catch (const Error&) {
                        // A refused frame: the receiving side reports a protocol error.
                    }
                }
            } catch (const Error&) {
                // Bad magic or an oversized length: the stream is refused.
            } catch (const std::exception& e) {
                failure = std::string("unexpected exception: ") + e.what();
            }
            if (!failure.empty()) {
                const QString path = wb::fuzz::saveArtifact(
                    input, QStringLiteral("fuzz-protocol-%1-%2.bin").arg(budget.seed).arg(runs));
                QFAIL(
                    qPrintable(QString::fromStdString(failure) + " (input saved as " + path + ")"));
            }
        }
        qInfo("runner protocol: %llu streams in %.1f s (seed %llu), %llu frames decoded",
              static_cast<unsigned long long>(runs), static_cast<double>(timer.elapsed()) / 1000,
              static_cast<unsigned long long>(budget.seed),
              static_cast<unsigned long long>(decoded));
        QVERIFY(runs > 0);
    }
};

WB_QTEST_GUILESS_MAIN(TestFuzzProtocol)
#include "tst_fuzzprotocol.moc"
