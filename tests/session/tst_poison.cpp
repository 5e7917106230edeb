// SPDX-License-Identifier: GPL-3.0-or-later
// Unwritten-output detection: the poison patterns, the mask API, and SessionRunner finding the
// tail an off-by-one grid leaves unwritten (CPU backend), in the report's text and JSON.
#include "core/backend/Backend.h"
#include "core/common/Error.h"
#include "core/session/Poison.h"
#include "core/session/SessionRunner.h"
#include "tests/support/SuiteMain.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <cmath>
#include <cstring>

using namespace wb::session;

namespace {
const char* kSource = R"cu(
__global__ void copy(float* dest, const float* in, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) dest[i] = in[i];
}
__global__ void copy_int(int* dest, const int* in, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) dest[i] = in[i];
}
)cu";

Session makeSession(const std::string& grid, ElementType type = ElementType::F32)
{
    Session s;
    s.name = "poison";
    s.kernelSource = kSource;
    s.scalars = {ScalarSpec{"n", ElementType::I32, "1000"}};
    BufferSpec in;
    in.name = "in";
    in.type = type;
    in.shape = {"n"};
    in.init.kind = Initialiser::Kind::Iota;
    BufferSpec out;
    out.name = "dest";
    out.type = type;
    out.shape = {"n"};
    out.role = BufferRole::Out;
    s.buffers = {in, out};
    s.launch.kernel = type == ElementType::F32 ? "copy" : "copy_int";
    s.launch.grid = {grid};
    s.launch.block = {"256"};
    s.iterations = 1;
    s.backend = wb::BackendKind::Cpu;
    s.reference.kind = ReferenceSpec::Kind::Cpp;
    s.reference.source = type == ElementType::F32
                             ? "void reference(const float* in, float* dest, int n) { for (int i = "
                               "0; i < n; ++i) dest[i] = in[i]; }"
                             : "void reference(const int* in, int* dest, int n) { for (int i = 0; "
                               "i < n; ++i) dest[i] = in[i]; }";
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

class TestPoison : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void patternsAreMarkedNaNsAndIntegers()
    {
        HostArray f(ElementType::F32, {4});
        Poison::fill(f);
        for (std::size_t i = 0; i < 4; ++i) {
            QVERIFY(std::isnan(f.as<float>()[i]));
            std::uint32_t bits = 0;
            std::memcpy(&bits, &f.as<float>()[i], 4);
            QCOMPARE(bits, 0x7fc0deadu);
            QVERIFY(Poison::holds(f, i));
        }
        // A NaN computed by arithmetic is not the poison.
        f.as<float>()[1] = std::nanf("");
        QVERIFY(!Poison::holds(f, 1));
        HostArray d(ElementType::F64, {2});
        Poison::fill(d);
        QVERIFY(std::isnan(d.as<double>()[0]));
        HostArray h(ElementType::F16, {2});
        Poison::fill(h);
        QVERIFY(std::isnan(halfToFloat(h.as<std::uint16_t>()[0])));
        HostArray b(ElementType::BF16, {2});
        Poison::fill(b);
        QVERIFY(std::isnan(bfloat16ToFloat(b.as<std::uint16_t>()[0])));
        HostArray u(ElementType::U32, {2});
        Poison::fill(u);
        QCOMPARE(u.as<std::uint32_t>()[1], 0xdeadbeefu);
    }

    void maskAndCountWithAmbiguousIntegers()
    {
        HostArray r(ElementType::I32, {2, 5});
        Poison::fill(r);
        HostArray e(ElementType::I32, {2, 5});
        for (std::size_t i = 0; i < 10; ++i)
            e.as<std::int32_t>()[i] = static_cast<std::int32_t>(i);
        for (std::size_t i = 0; i < 7; ++i)
            r.as<std::int32_t>()[i] = static_cast<std::int32_t>(i);
        // Element 8: the reference itself holds the marked value, so it is not "unwritten".
        std::memcpy(&e.as<std::int32_t>()[8], "\xef\xbe\xad\xde", 4);
        const CoverageStats c = Poison::check(r, &e);
        QCOMPARE(c.unwritten, std::size_t{2});
        QCOMPARE(c.ambiguous, std::size_t{1});
        QCOMPARE(c.firstUnwritten, std::size_t{7});
        QCOMPARE(c.lastUnwritten, std::size_t{9});
        QVERIFY(!c.tailOnly); // 8 is excluded, so 7 and 9 are not one tail
        const auto mask = Poison::unwrittenMask(r, &e);
        QCOMPARE(mask, (std::vector<std::uint8_t>{0, 0, 0, 0, 0, 0, 0, 1, 0, 1}));
        QCOMPARE(Poison::unwrittenIndices(r, &e), (std::vector<std::size_t>{7, 9}));
        QVERIFY(QString::fromStdString(c.message("m"))
                    .startsWith("2 of 10 elements of 'm' were never written"));
    }

    /// A 2-D hole is named by row and column (x = column, y = row), not "[r, c]".
    void twoDimensionalHoleNamesRowAndColumn()
    {
        HostArray r(ElementType::F32, {3, 5});
        Poison::fill(r);
        for (std::size_t i = 0; i < 15; ++i)
            if (i % 5 < 2) r.as<float>()[i] = 1.0f; // columns 0 and 1 written
        const CoverageStats c = Poison::check(r, nullptr);
        QCOMPARE(c.unwritten, std::size_t{9});
        QVERIFY2(c.hint.rfind("first at row 0, column 2 of a 3x5 array (3 rows × 5 columns)", 0) ==
                     0,
                 c.hint.c_str());
    }

    void offByOneGridLeavesTheTailUnwritten()
    {
        const QString why = cpuUnavailable();
        if (!why.isEmpty()) QSKIP(qPrintable(why));
        // floor(1000/256) = 3 blocks: 768 threads for 1000 elements.
        const RunReport rep = SessionRunner::run(makeSession("floor(n/256)"), {});
        QCOMPARE(rep.status, RunReport::Status::Mismatch);
        QCOMPARE(rep.outputs.size(), std::size_t{1});
        const CoverageStats& c = rep.outputs[0].coverage;
        QVERIFY(c.checked);
        QCOMPARE(c.total, std::size_t{1000});
        QCOMPARE(c.unwritten, std::size_t{232});
        QCOMPARE(c.firstUnwritten, std::size_t{768});
        QVERIFY(c.tailOnly);
        const std::string msg = c.message("dest");
        QVERIFY2(msg.rfind("232 of 1,000 elements of 'dest' were never written — last block does "
                           "not cover the tail?",
                           0) == 0,
                 msg.c_str());
        QVERIFY2(msg.find("768 threads for 1,000 elements") != std::string::npos, msg.c_str());
        // The text report and the JSON carry it; the mask marks exactly the tail.
        QVERIFY(QString::fromStdString(rep.toText()).contains("were never written"));
        const QJsonObject cov = QJsonDocument::fromJson(QByteArray::fromStdString(rep.toJson()))
                                    .object()["outputs"]
                                    .toArray()[0]
                                    .toObject()["coverage"]
                                    .toObject();
        QCOMPARE(cov["unwritten"].toInt(), 232);
        QCOMPARE(cov["firstIndex"].toInt(), 768);
        QCOMPARE(cov["tailOnly"].toBool(), true);
        const auto mask = rep.unwrittenMask("dest");
        QCOMPARE(mask.size(), std::size_t{1000});
        for (std::size_t i = 0; i < 1000; ++i)
            QCOMPARE(mask[i], std::uint8_t(i >= 768 ? 1 : 0));
    }

    void fullGridWritesEverything()
    {
        const QString why = cpuUnavailable();
        if (!why.isEmpty()) QSKIP(qPrintable(why));
        for (ElementType t : {ElementType::F32, ElementType::I32}) {
            const RunReport rep = SessionRunner::run(makeSession("ceil(n/256)", t), {});
            QCOMPARE(rep.status, RunReport::Status::Passed);
            QVERIFY(rep.outputs[0].coverage.checked);
            QCOMPARE(rep.outputs[0].coverage.unwritten, std::size_t{0});
            QVERIFY(rep.outputs[0].coverage.message("dest").empty());
        }
    }

    void integerOutputsAreCheckedToo()
    {
        const QString why = cpuUnavailable();
        if (!why.isEmpty()) QSKIP(qPrintable(why));
        const RunReport rep = SessionRunner::run(makeSession("3", ElementType::I32), {});
        QVERIFY2(rep.outputs.size() == 1, rep.message.c_str());
        QCOMPARE(rep.outputs[0].coverage.unwritten, std::size_t{232});
    }

    void poisonCanBeTurnedOff()
    {
        const QString why = cpuUnavailable();
        if (!why.isEmpty()) QSKIP(qPrintable(why));
        Session s = makeSession("floor(n/256)");
        s.poisonOutputs = false;
        RunReport rep = SessionRunner::run(s, {});
        QVERIFY(!rep.outputs[0].coverage.checked);
        QVERIFY(rep.unwrittenMask("dest").empty());
        // Unpoisoned, the unwritten tail keeps the buffer's init (zeros): still a mismatch.
        QCOMPARE(rep.status, RunReport::Status::Mismatch);
        QCOMPARE(rep.results.at("dest").at(999), 0.0);
        s.buffers[1].poison = true; // per buffer wins over the session default
        rep = SessionRunner::run(s, {});
        QCOMPARE(rep.outputs[0].coverage.unwritten, std::size_t{232});
    }
};

WB_QTEST_GUILESS_MAIN(TestPoison)
#include "tst_poison.moc"
