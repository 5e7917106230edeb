// SPDX-License-Identifier: GPL-3.0-or-later
// Tests core/profiling/Hotspots.*, SassListing.*, PtxLineMap.* and the hotspot part of
// ProfileCodec on the CPU: aggregation of per-PC samples into instructions and lines, the CLI's
// text and JSON top lines (fed with a hand-made sample set — a unit test of formatting, not a
// measurement), nvdisasm's listing and NVRTC's PTX of matmul_tiled.cu as recorded on the H200
// (tests/profiling/data), and the codec's validation.
#include "core/common/Error.h"
#include "core/profiling/Hotspots.h"
#include "core/profiling/ProfileCodec.h"
#include "core/profiling/PtxLineMap.h"
#include "core/profiling/SassListing.h"
#include "tests/support/SuiteMain.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QTest>

#include <functional>

using namespace wb::profiling;

namespace {

std::string readData(const char* name)
{
    QFile f(QStringLiteral(WB_TEST_DATA_DIR "/") + QLatin1String(name));
    if (!f.open(QIODevice::ReadOnly)) return {};
    return f.readAll().toStdString();
}

/// Two launches' worth of records of a kernel whose line 7 is hot: the same PC appears once per
/// launch, as CUPTI returns it per stop.
std::vector<SampledPc> recordedSamples()
{
    return {
        {"_Z3hotPfii", 0x530, "hot.cu", 7, {{"not selected", 300}, {"wait", 60}}},
        {"_Z3hotPfii", 0x540, "hot.cu", 7, {{"not selected", 250}, {"dispatch stall", 20}}},
        {"_Z3hotPfii", 0x560, "hot.cu", 6, {{"branch resolving", 290}, {"wait", 130}}},
        {"_Z3hotPfii", 0x0c0, "hot.cu", 5, {{"long scoreboard", 15}}},
        {"_Z3hotPfii", 0x530, "hot.cu", 7, {{"not selected", 310}, {"wait", 40}, {"selected", 5}}},
        {"_Z3hotPfii", 0x6e0, "hot.cu", 9, {{"drain", 0}}}, // no samples: left out
    };
}

HotspotReport recordedReport()
{
    HotspotReport r = HotspotReport::aggregate(recordedSamples());
    r.kernel = "_Z3hotPfii";
    r.totalSamples = 1500;
    r.droppedSamples = 80;
    r.samplingPeriodLog2 = 8;
    r.launches = 2;
    r.collectMs = 312.5;
    return r;
}

const char* kHotSource = "__global__ void hot(float* x, int n, int iters)\n"
                         "{\n"
                         "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                         "    if (i >= n) return;\n"
                         "    float v = x[i];\n"
                         "    for (int k = 0; k < iters; ++k)\n"
                         "        v = sqrtf(v * 1.0001f + 0.5f);\n"
                         "    x[i] = v;\n"
                         "}\n";

} // namespace

class TestHotspots : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void aggregatesInstructionsAndLines()
    {
        const HotspotReport r = recordedReport();
        QCOMPARE(r.instructions.size(), std::size_t(4)); // 0x6e0 had no samples
        // By offset; 0x530's two launches summed, stall reasons summed and sorted.
        QCOMPARE(r.instructions[0].pcOffset, std::uint64_t(0x0c0));
        QCOMPARE(r.instructions[1].pcOffset, std::uint64_t(0x530));
        QCOMPARE(r.instructions[1].samples, std::uint64_t(715));
        QCOMPARE(r.instructions[1].stalls.front(), (StallCount{"not selected", 610}));
        QCOMPARE(r.instructions[1].stalls[1], (StallCount{"wait", 100}));
        QCOMPARE(r.instructions[1].stalls[2], (StallCount{"selected", 5}));
        // Lines, hottest first: 7 = 715 + 270, 6 = 420, 5 = 15.
        QCOMPARE(r.lines.size(), std::size_t(3));
        QCOMPARE(r.lines[0].line, 7);
        QCOMPARE(r.lines[0].samples, std::uint64_t(985));
        QCOMPARE(r.lines[0].topStall(), std::string("not selected"));
        QCOMPARE(r.lines[1].line, 6);
        QCOMPARE(r.lines[1].topStall(), std::string("branch resolving"));
        QCOMPARE(r.lines[2].line, 5);
        QCOMPARE(r.attributedSamples(), std::uint64_t(1420));
        QVERIFY(std::abs(r.share(r.lines[0]) - 985.0 / 1420.0) < 1e-12);
        // Lines are found by file name, whatever directory the line table gives.
        QVERIFY(r.findLine("/home/u/project/hot.cu", 6) == &r.lines[1]);
        QVERIFY(r.findLine("", 5) == &r.lines[2]);
        QVERIFY(r.findLine("other.cu", 6) == nullptr);
        QVERIFY(r.findLine("hot.cu", 8) == nullptr);
    }

    void stallReasonNames()
    {
        QCOMPARE(stallReasonLabel("smsp__pcsamp_warps_issue_stalled_long_scoreboard"),
                 std::string("long scoreboard"));
        QCOMPARE(stallReasonLabel("smsp__pcsamp_warps_issue_stalled_math_pipe_throttle"),
                 std::string("math pipe throttle"));
        QCOMPARE(stallReasonLabel("smsp__pcsamp_sample_count"), std::string("sample count"));
        QVERIFY(isNotIssuedStallReason("smsp__pcsamp_warps_issue_stalled_barrier_not_issued"));
        QVERIFY(!isNotIssuedStallReason("smsp__pcsamp_warps_issue_stalled_barrier"));
    }

    void textPrintsTopLines()
    {
        const HotspotReport r = recordedReport();
        const std::string text = r.toText(2, kHotSource);
        QVERIFY2(text.find("1420 samples, 80 dropped") != std::string::npos, text.c_str());
        QVERIFY2(text.find("every 2^8 cycles per SM, 2 launches") != std::string::npos,
                 text.c_str());
        const std::size_t l7 = text.find("  7 ");
        const std::size_t l6 = text.find("  6 ");
        QVERIFY2(l7 != std::string::npos && l6 != std::string::npos && l7 < l6, text.c_str());
        QVERIFY2(text.find("69.4%") != std::string::npos, text.c_str()); // 985 / 1420
        QVERIFY2(text.find("not selected 87%, wait 10%, dispatch stall 2%") != std::string::npos,
                 text.c_str()); // 860, 100, 20 of 985
        QVERIFY2(text.find("| v = sqrtf(v * 1.0001f + 0.5f);") != std::string::npos, text.c_str());
        QVERIFY2(text.find("  5 ") == std::string::npos, "only the top 2 lines");
        QCOMPARE(sourceLineText(kHotSource, 5), std::string("float v = x[i];"));
        QCOMPARE(sourceLineText(kHotSource, 99), std::string());
    }

    void jsonTopLines()
    {
        const QJsonArray top = ProfileCodec::topLinesToJson(recordedReport(), kHotSource, 2);
        QCOMPARE(top.size(), 2);
        const QJsonObject first = top[0].toObject();
        QCOMPARE(first["line"].toInt(), 7);
        QCOMPARE(first["samples"].toDouble(), 985.0);
        QCOMPARE(first["share"].toDouble(), 985.0 / 1420.0);
        QCOMPARE(first["topStall"].toString(), QStringLiteral("not selected"));
        QCOMPARE(first["source"].toString(), QStringLiteral("v = sqrtf(v * 1.0001f + 0.5f);"));
        QCOMPARE(top[1].toObject()["line"].toInt(), 6);
    }

    void codecRoundTrip()
    {
        ProfileReport p = ProfileReport::notProfiled({});
        p.hotspotStatus = ProfilerStatus::success();
        p.hotspots = recordedReport();
        p.hotspots->warnings = {"80 of 1500 samples were dropped"};
        const QJsonObject j = ProfileCodec::toJson(p);
        const ProfileReport back =
            ProfileCodec::fromJson(QJsonDocument::fromJson(QJsonDocument(j).toJson()).object());
        QVERIFY(back.hotspots.has_value());
        QVERIFY(back.hotspotStatus && back.hotspotStatus->ok());
        QCOMPARE(back.hotspots->instructions, p.hotspots->instructions);
        QCOMPARE(back.hotspots->lines, p.hotspots->lines);
        QCOMPARE(back.hotspots->totalSamples, std::uint64_t(1500));
        QCOMPARE(back.hotspots->droppedSamples, std::uint64_t(80));
        QCOMPARE(back.hotspots->launches, 2);
        QCOMPARE(back.hotspots->samplingPeriodLog2, 8);
        QCOMPARE(back.hotspots->collectMs, 312.5);
        QCOMPARE(back.hotspots->warnings, p.hotspots->warnings);
        // A report without hotspots has neither key.
        const QJsonObject plain = ProfileCodec::toJson(ProfileReport::notProfiled({}));
        QVERIFY(!plain.contains("hotspots") && !plain.contains("hotspotStatus"));
        QVERIFY(!ProfileCodec::fromJson(plain).hotspotStatus.has_value());
        // Options: hotspots travels, and is off by default.
        SessionProfileOptions o;
        QVERIFY(!ProfileCodec::optionsFromJson(ProfileCodec::optionsToJson(o)).hotspots);
        o.hotspots = true;
        QVERIFY(ProfileCodec::optionsFromJson(ProfileCodec::optionsToJson(o)).hotspots);
    }

    void codecRefusesInconsistentHotspots_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QJsonValue>("value");
        QTest::addColumn<QString>("message");
        QTest::newRow("line samples not the sum of its stalls")
            << "lines/0/samples" << QJsonValue(986) << "not the sum of its stall reasons";
        QTest::newRow("instruction samples not the sum")
            << "instructions/1/samples" << QJsonValue(714) << "not the sum of its stall reasons";
        QTest::newRow("negative count")
            << "lines/0/stalls/0/samples" << QJsonValue(-3) << "is not a count";
        QTest::newRow("fractional offset")
            << "instructions/0/pcOffset" << QJsonValue(1.5) << "is not a count";
        QTest::newRow("period out of range")
            << "samplingPeriodLog2" << QJsonValue(40) << "not 5..31";
        QTest::newRow("more attributed than taken")
            << "totalSamples" << QJsonValue(1000) << "more samples attributed than taken";
        QTest::newRow("more dropped than taken")
            << "droppedSamples" << QJsonValue(2000) << "more samples dropped than taken";
        QTest::newRow("a line dropped") << "lines/2" << QJsonValue() << "the hotspot lines hold";
        QTest::newRow("stall without a name")
            << "lines/1/stalls/0/reason" << QJsonValue("") << "has no name";
    }

    void codecRefusesInconsistentHotspots()
    {
        QFETCH(QString, path);
        QFETCH(QJsonValue, value);
        QFETCH(QString, message);
        ProfileReport p = ProfileReport::notProfiled({});
        p.hotspotStatus = ProfilerStatus::success();
        p.hotspots = recordedReport();
        QJsonObject h = ProfileCodec::hotspotsToJson(*p.hotspots);
        // Set (or, for a null value, remove) the element at `path` ("lines/0/samples").
        const QStringList parts = path.split('/');
        std::function<QJsonValue(QJsonValue, int)> edit = [&](QJsonValue node, int depth) {
            const QString key = parts[depth];
            const bool last = depth == parts.size() - 1;
            if (node.isArray()) {
                QJsonArray a = node.toArray();
                const int i = key.toInt();
                if (last && value.isNull())
                    a.removeAt(i);
                else
                    a[i] = last ? value : edit(a[i], depth + 1);
                return QJsonValue(a);
            }
            QJsonObject o = node.toObject();
            o[key] = last ? value : edit(o[key], depth + 1);
            return QJsonValue(o);
        };
        h = edit(h, 0).toObject();
        QJsonObject j = ProfileCodec::toJson(p);
        j["hotspots"] = h;
        try {
            ProfileCodec::fromJson(j);
            QFAIL("malformed hotspots were accepted");
        } catch (const wb::Error& e) {
            QCOMPARE(e.kind(), wb::Error::Kind::Internal);
            QVERIFY2(QString::fromUtf8(e.what()).contains(message), e.what());
        }
    }

    void codecRefusesHotspotsWithoutStatus()
    {
        ProfileReport p = ProfileReport::notProfiled({});
        p.hotspotStatus = ProfilerStatus::success();
        p.hotspots = recordedReport();
        QJsonObject j = ProfileCodec::toJson(p);
        j.remove("hotspotStatus");
        QVERIFY_THROWS_EXCEPTION(wb::Error, ProfileCodec::fromJson(j));
        j["hotspotStatus"] = QJsonObject{{"state", "insufficient privileges"}, {"message", "x"}};
        QVERIFY_THROWS_EXCEPTION(wb::Error, ProfileCodec::fromJson(j));
    }

    void parsesRecordedNvdisasmListing()
    {
        // nvdisasm -g -hex -c of NVRTC's CUBIN of resources/examples/matmul_tiled (sm_90,
        // -lineinfo), CUDA 13.0, recorded on the H200.
        const std::string text = readData("matmul_tiled.nvdisasm-g-hex.txt");
        QVERIFY(!text.empty());
        const SassListing listing = SassListing::parse(text);
        QCOMPARE(listing.functions().size(), std::size_t(2));
        QVERIFY(listing.hasLineInfo());
        const SassFunction* tiled = listing.function("_Z12matmul_tiledPKfS0_Pfi");
        QVERIFY(tiled);
        QVERIFY(listing.function("_Z12matmul_naivePKfS0_Pfi"));
        QVERIFY(tiled->instructions.size() > 50);
        for (std::size_t i = 0; i < tiled->instructions.size(); ++i) {
            QCOMPARE(tiled->instructions[i].offset, std::uint64_t(16 * i)); // contiguous
            QVERIFY(tiled->instructions[i].control.has_value());
            QVERIFY(!tiled->instructions[i].text.empty());
        }
        // Every instruction of the kernel lies on a line of the kernel (5..22).
        for (const SassInstruction& i : tiled->instructions) {
            QVERIFY2(i.line >= 5 && i.line <= 22, i.text.c_str());
            QVERIFY(i.file.ends_with("matmul_tiled.cu"));
        }
        // The inner product (line 18) is FFMAs; the loads of line 15 include an LDG.
        const auto l18 = listing.offsetsForLine(tiled->name, "matmul_tiled.cu", 18);
        QVERIFY(l18.size() >= 16);
        int ffma = 0;
        for (const SassInstruction& i : tiled->instructions)
            if (i.line == 18 && i.text.rfind("FFMA", 0) == 0) ++ffma;
        QVERIFY(ffma >= 16);
        bool ldg15 = false;
        for (const SassInstruction& i : tiled->instructions)
            ldg15 = ldg15 || (i.line == 15 && i.text.find("LDG") != std::string::npos);
        QVERIFY(ldg15);
        QVERIFY(listing.offsetsForLine(tiled->name, "other.cu", 18).empty());
        // The naive kernel's first instruction: LDC R1, c[0x0][0x28] with 0x000fe20000000800.
        const SassFunction* naive = listing.function("_Z12matmul_naivePKfS0_Pfi");
        QCOMPARE(naive->instructions[0].text, std::string("LDC R1, c[0x0][0x28] ;"));
        QCOMPARE(naive->instructions[0].line, 24);
        QCOMPARE(*naive->instructions[0].control, SassControl::fromHighWord(0x000fe20000000800));
    }

    void decodesControlBits()
    {
        // LDC R1: stall 1, yield bit, no barriers.
        SassControl c = SassControl::fromHighWord(0x000fe20000000800);
        QCOMPARE(c.stall, 1);
        QVERIFY(c.yield);
        QCOMPARE(c.writeBarrier, -1);
        QCOMPARE(c.readBarrier, -1);
        QCOMPARE(c.waitMask, 0u);
        QCOMPARE(c.toText(), std::string("S01 Y W- R-"));
        // S2R R0, SR_TID.X (variable latency): sets write barrier 0, stall 7.
        c = SassControl::fromHighWord(0x000e2e0000002100);
        QCOMPARE(c.stall, 7);
        QCOMPARE(c.writeBarrier, 0);
        QCOMPARE(c.toText(), std::string("S07 Y W0 R-"));
        // IMAD R5, R5, UR4, R0 waits on barrier 0 for R0.
        c = SassControl::fromHighWord(0x001fe2000f8e0200);
        QCOMPARE(c.waitMask, 1u);
        QCOMPARE(c.toText(), std::string("S01 Y W- R- wait{0}"));
    }

    void listingWithoutLineInfoOrEncoding()
    {
        const SassListing l =
            SassListing::parse("//--------------------- .text.k --------------------------\n"
                               "k:\n"
                               "        /*0000*/                   LDC R1, c[0x0][0x28] ;\n"
                               "        /*0010*/                   EXIT ;\n"
                               ".L_x_0:\n"
                               "        /*0020*/                   BRA `(.L_x_0) ;\n"
                               "garbage /* 0xzz */\n");
        QCOMPARE(l.functions().size(), std::size_t(1));
        QCOMPARE(l.functions()[0].instructions.size(), std::size_t(3));
        QVERIFY(!l.hasLineInfo());
        QVERIFY(!l.functions()[0].instructions[0].control.has_value());
        QCOMPARE(l.functions()[0].instructions[2].text, std::string("BRA `(.L_x_0) ;"));
        QVERIFY(SassListing::parse("not a listing\n/*zz*/ x\n").functions().empty());
    }

    void mapsPtxLinesToSource()
    {
        // NVRTC's PTX of matmul_tiled.cu with -lineinfo (.loc directives, .file at the end).
        const std::string ptx = readData("matmul_tiled.lineinfo.ptx");
        QVERIFY(!ptx.empty());
        const PtxLineMap map = PtxLineMap::parse(ptx);
        QVERIFY(!map.empty());
        const std::vector<int> l18 = map.ptxLinesFor("matmul_tiled.cu", 18);
        QVERIFY(l18.size() >= 16); // the unrolled inner product
        // Each of them is an instruction of that line, and maps back to it.
        QStringList lines = QString::fromStdString(ptx).split('\n');
        for (int p : l18) {
            QCOMPARE(map.sourceLine(p), 18);
            QVERIFY(map.sourceFile(p).ends_with("matmul_tiled.cu"));
            QVERIFY2(!lines[p - 1].trimmed().startsWith('.'), qPrintable(lines[p - 1]));
        }
        bool fma = false;
        for (int p : l18)
            fma = fma || lines[p - 1].contains(QLatin1String("fma.rn.f32"));
        QVERIFY(fma);
        // The line after ".loc 1 9 5" is "mov.u32 %r17, %ctaid.y;" → source line 9.
        const int loc9 =
            static_cast<int>(lines.indexOf(QRegularExpression("\\s*\\.loc\\s+1 9 5"))) + 1;
        QVERIFY(loc9 > 0);
        QCOMPARE(map.sourceLine(loc9 + 1), 9);
        QVERIFY(map.ptxLinesFor("other.cu", 18).empty());
        QCOMPARE(map.sourceLine(1), 0); // the header
        QCOMPARE(map.sourceLine(100000), 0);
    }
};

WB_QTEST_GUILESS_MAIN(TestHotspots)
#include "tst_hotspots.moc"
