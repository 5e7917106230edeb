// SPDX-License-Identifier: GPL-3.0-or-later
// Tests core/profiling/Sweep.*: value lists, the point loop with verdicts, best valid point,
// progress, cancel, and errors at a point.
#include "core/common/Error.h"
#include "core/profiling/Sweep.h"
#include "tests/support/SuiteMain.h"

#include <QTest>

#include <stdexcept>

using namespace wb::profiling;

namespace {
SweepPointOutcome outcome(bool ok, bool valid, const char* verdict, double seconds)
{
    SweepPointOutcome o;
    o.ok = ok;
    o.valid = valid;
    o.verdict = verdict;
    o.timeSeconds = seconds;
    return o;
}
} // namespace

class TestSweep : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void ranges()
    {
        QCOMPARE(SweepParameter::range(32, 128, 32),
                 (std::vector<std::string>{"32", "64", "96", "128"}));
        QCOMPARE(SweepParameter::range(1, 0, -0.25),
                 (std::vector<std::string>{"1", "0.75", "0.5", "0.25", "0"}));
        QCOMPARE(SweepParameter::range(0, 1, 0.3),
                 (std::vector<std::string>{"0", "0.3", "0.6", "0.9"}));
        QCOMPARE(SweepParameter::geometric(32, 1024, 2),
                 (std::vector<std::string>{"32", "64", "128", "256", "512", "1024"}));
        QVERIFY_THROWS_EXCEPTION(wb::Error, SweepParameter::range(0, 10, 0));
        QVERIFY_THROWS_EXCEPTION(wb::Error, SweepParameter::range(0, 10, -1));
        QVERIFY_THROWS_EXCEPTION(wb::Error, SweepParameter::range(0, 1e9, 1));
        QVERIFY_THROWS_EXCEPTION(wb::Error, SweepParameter::geometric(32, 1024, 1));
    }

    void bestValidPoint()
    {
        // A model kernel: time falls with block size until 256, but 512 gives wrong output and
        // 1024 fails to launch. Best valid = 256 even though 512 is faster.
        SweepParameter p{
            SweepParameter::Kind::BlockSize, {}, SweepParameter::geometric(64, 1024, 2)};
        std::vector<std::string> seen;
        std::vector<std::size_t> progress;
        const SweepResult r = runSweep(
            p,
            [&](const SweepParameter& param, const std::string& value) {
                seen.push_back(value);
                if (param.kind != SweepParameter::Kind::BlockSize) throw std::logic_error("kind");
                const int block = std::stoi(value);
                if (block == 1024)
                    throw wb::Error(wb::Error::Kind::InvalidArgument, "too many threads");
                SweepPointOutcome o;
                o.ok = true;
                o.valid = block != 512;
                o.verdict = o.valid ? "pass" : "fail: 3 mismatches";
                o.timeSeconds = 1e-3 * 64.0 / block;
                o.summaries = {{"wb/timing/median", "Median", "duration", o.timeSeconds, ""}};
                return o;
            },
            [&](std::size_t done, std::size_t total, const SweepPoint&) {
                progress.push_back(done);
                QCOMPARE(total, std::size_t{5});
            });
        QCOMPARE(seen, p.values);
        QCOMPARE(progress, (std::vector<std::size_t>{1, 2, 3, 4, 5}));
        QCOMPARE(r.points.size(), std::size_t{5});
        QVERIFY(!r.cancelled);
        QVERIFY(r.best.has_value());
        QCOMPARE(r.points[*r.best].value, std::string("256"));
        QVERIFY(!r.points[4].outcome.ok);
        QCOMPARE(r.points[4].outcome.verdict, std::string("too many threads"));
        const std::string table = r.table();
        QVERIFY(table.find("block size = 256  (best)  [pass]") != std::string::npos);
        QVERIFY(table.find("[fail: 3 mismatches]") != std::string::npos);
    }

    void cancelStops()
    {
        std::atomic<bool> cancel{false};
        std::vector<std::string> names;
        SweepParameter p{SweepParameter::Kind::Define, "TILE", {"8", "16", "32", "64"}};
        const SweepResult r = runSweep(
            p,
            [&](const SweepParameter& param, const std::string& value) -> SweepPointOutcome {
                names.push_back(param.name);
                if (value == "16") cancel = true;
                return outcome(true, true, "pass", 1.0);
            },
            {}, &cancel);
        QVERIFY(r.cancelled);
        QCOMPARE(names, (std::vector<std::string>{"TILE", "TILE"}));
        QCOMPARE(r.points.size(), std::size_t{2});
        QCOMPARE(r.points[*r.best].value, std::string("8")); // equal times: the first stays best
    }

    void noValidPoint()
    {
        SweepParameter p{SweepParameter::Kind::Scalar, "alpha", {"1", "2"}};
        const SweepResult r = runSweep(p, [](const SweepParameter&, const std::string&) {
            return outcome(true, false, "invalid: 3 never-written elements in 'out'", 1.0);
        });
        QVERIFY(!r.best);
        QCOMPARE(r.invalidCount(), std::size_t{2});
        QCOMPARE(r.conclusion(),
                 std::string("no valid point: all 2 points are invalid — nothing to recommend"));
    }

    /// Issue 17 item 8: an invalid point is never "best", however fast it ran, and the
    /// conclusion says how many points were left out.
    void fastestInvalidPointIsNeverBest()
    {
        SweepParameter p{SweepParameter::Kind::BlockSize, {}, {"128", "256", "512"}};
        const SweepResult r = runSweep(p, [](const SweepParameter&, const std::string& v) {
            if (v == "256") return outcome(true, true, "pass", 2e-3);
            // Faster, ran fine, but wrong: unwritten elements / an out-of-bounds write.
            SweepPointOutcome o = outcome(true, false, "invalid: …", 1e-3);
            o.problems = {v == "128" ? "out of bounds at k.cu:5" : "256 never-written elements"};
            return o;
        });
        QVERIFY(r.best.has_value());
        QCOMPARE(r.points[*r.best].value, std::string("256"));
        QCOMPARE(r.invalidCount(), std::size_t{2});
        QCOMPARE(r.conclusion(), std::string("best: block size = 256 (2.000 ms); 2 of 3 points "
                                             "invalid (never recommended)"));
    }

    void parseValues()
    {
        QCOMPARE(SweepParameter::parseValues("32, 64;128 256"),
                 (std::vector<std::string>{"32", "64", "128", "256"}));
        QCOMPARE(SweepParameter::parseValues("32..256 x2"),
                 (std::vector<std::string>{"32", "64", "128", "256"}));
        QCOMPARE(SweepParameter::parseValues("1..7 +3"), (std::vector<std::string>{"1", "4", "7"}));
        QCOMPARE(SweepParameter::parseValues("1..3"), (std::vector<std::string>{"1", "2", "3"}));
        QVERIFY_THROWS_EXCEPTION(wb::Error, SweepParameter::parseValues(""));
        QVERIFY_THROWS_EXCEPTION(wb::Error, SweepParameter::parseValues("1..x"));
        QVERIFY_THROWS_EXCEPTION(wb::Error, SweepParameter::parseValues("a..b"));
    }
};

WB_QTEST_GUILESS_MAIN(TestSweep)
#include "tst_sweep.moc"
