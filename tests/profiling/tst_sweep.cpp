// SPDX-License-Identifier: GPL-3.0-or-later
// Tests core/profiling/Sweep.*: value lists, the point loop with verdicts, best valid point,
// progress, cancel, and errors at a point.
#include "core/common/Error.h"
#include "core/profiling/Sweep.h"
#include "tests/support/SuiteMain.h"

#include <QTest>

#include <stdexcept>

using namespace wb::profiling;

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
                return SweepPointOutcome{true, true, "pass", 1.0, {}};
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
            return SweepPointOutcome{true, false, "fail", 1.0, {}};
        });
        QVERIFY(!r.best);
    }
};

WB_QTEST_GUILESS_MAIN(TestSweep)
#include "tst_sweep.moc"
