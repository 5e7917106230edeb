// SPDX-License-Identifier: GPL-3.0-or-later
// Tests core/profiling/Statistics.*: order statistics, moments and the running noise estimate.
#include "core/profiling/Statistics.h"
#include "tests/support/SuiteMain.h"

#include <QTest>

#include <cmath>
#include <random>
#include <vector>

using namespace wb::profiling;

class TestStatistics : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void empty()
    {
        const Statistics s = computeStatistics({});
        QCOMPARE(s.count, std::size_t{0});
        QCOMPARE(s.mean, 0.0);
        QCOMPARE(s.relativeNoise, 0.0);
    }

    void single()
    {
        const std::vector<double> v{4.0};
        const Statistics s = computeStatistics(v);
        QCOMPARE(s.count, std::size_t{1});
        QCOMPARE(s.min, 4.0);
        QCOMPARE(s.median, 4.0);
        QCOMPARE(s.p25, 4.0);
        QCOMPARE(s.stdev, 0.0);
    }

    void knownValues()
    {
        // 1..10 shuffled: numpy.percentile(range(1, 11), [25, 50, 75]) = 3.25, 5.5, 7.75;
        // sample stdev = sqrt(55/6) = 3.0276503540974917.
        const std::vector<double> v{7, 1, 10, 3, 5, 2, 9, 4, 8, 6};
        const Statistics s = computeStatistics(v);
        QCOMPARE(s.count, std::size_t{10});
        QCOMPARE(s.min, 1.0);
        QCOMPARE(s.max, 10.0);
        QCOMPARE(s.mean, 5.5);
        QCOMPARE(s.median, 5.5);
        QCOMPARE(s.p25, 3.25);
        QCOMPARE(s.p75, 7.75);
        QVERIFY(std::fabs(s.stdev - 3.0276503540974917) < 1e-12);
        QVERIFY(std::fabs(s.relativeNoise - 3.0276503540974917 / 5.5) < 1e-12);
    }

    void oddCountMedianIsMiddle()
    {
        const std::vector<double> v{9, 1, 5};
        const Statistics s = computeStatistics(v);
        QCOMPARE(s.median, 5.0);
        QCOMPARE(s.p25, 3.0); // between 1 and 5
        QCOMPARE(s.p75, 7.0); // between 5 and 9
    }

    void quantileEnds()
    {
        const std::vector<double> sorted{1, 2, 3, 4};
        QCOMPARE(quantileSorted(sorted, 0.0), 1.0);
        QCOMPARE(quantileSorted(sorted, 1.0), 4.0);
        QCOMPARE(quantileSorted(sorted, -1.0), 1.0);
        QCOMPARE(quantileSorted(sorted, 2.0), 4.0);
        QCOMPARE(quantileSorted(sorted, 1.0 / 3.0), 2.0);
    }

    void runningMatchesBatch()
    {
        std::mt19937 rng(42);
        std::normal_distribution<double> dist(100.0, 3.0);
        std::vector<double> v;
        RunningStatistics running;
        for (int i = 0; i < 5000; ++i) {
            v.push_back(dist(rng));
            running.add(v.back());
        }
        double mean = 0;
        for (double x : v)
            mean += x;
        mean /= static_cast<double>(v.size());
        double ss = 0;
        for (double x : v)
            ss += (x - mean) * (x - mean);
        const double stdev = std::sqrt(ss / static_cast<double>(v.size() - 1));
        QVERIFY(std::fabs(running.mean() - mean) < 1e-9);
        QVERIFY(std::fabs(running.stdev() - stdev) < 1e-9);
        // Drawn with sigma 3 around 100: the estimate is close to 3 %.
        QVERIFY(std::fabs(running.relativeNoise() - 0.03) < 0.002);
    }

    void zeroMeanHasNoRelativeNoise()
    {
        RunningStatistics running;
        running.add(-1);
        running.add(1);
        QCOMPARE(running.relativeNoise(), 0.0);
        QVERIFY(running.stdev() > 0);
    }
};

WB_QTEST_GUILESS_MAIN(TestStatistics)
#include "tst_statistics.moc"
