// SPDX-License-Identifier: GPL-3.0-or-later
// compareTimings: faster / slower / no significant difference from two distributions.
#include "core/profiling/TimingComparison.h"
#include "tests/support/SuiteMain.h"

#include <QTest>

#include <cmath>
#include <vector>

using namespace wb::profiling;

namespace {
/// n samples around `centre` with a deterministic ±`spread` relative jitter.
std::vector<double> samples(double centre, double spread, int n, int phase = 0)
{
    std::vector<double> v;
    for (int i = 0; i < n; ++i)
        v.push_back(centre * (1 + spread * std::sin(0.7 * (i + phase) + phase)));
    return v;
}
} // namespace

class TestTimingComparison : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void pValueMatchesTheTextbook()
    {
        // R: wilcox.test(1:5, 6:10, exact = FALSE, correct = TRUE) -> W = 0, p = 0.01219.
        const std::vector<double> a{1, 2, 3, 4, 5}, b{6, 7, 8, 9, 10};
        const TimingComparison c = compareTimings(a, b, 0.05);
        QCOMPARE(c.u, 0.0);
        QVERIFY2(std::fabs(c.pValue - 0.012186) < 1e-5, qPrintable(QString::number(c.pValue)));
        QCOMPARE(c.verdict, TimingVerdict::Slower);
        // Ties share their rank and shrink the variance: W = 9.5, p = 0.0610.
        const std::vector<double> t1{1, 2, 2, 3, 4, 5, 5}, t2{2, 3, 5, 6, 6, 7, 8};
        const TimingComparison t = compareTimings(t1, t2, 0.05);
        QCOMPARE(t.u, 9.5);
        QVERIFY2(std::fabs(t.pValue - 0.061007) < 1e-5, qPrintable(QString::number(t.pValue)));
        QCOMPARE(t.verdict, TimingVerdict::Same); // p > alpha although the medians differ
    }

    void fasterAndSlower()
    {
        const auto base = samples(10.0, 0.02, 30);
        const auto quick = samples(7.0, 0.02, 30, 3);
        QCOMPARE(compareTimings(base, quick).verdict, TimingVerdict::Faster);
        QCOMPARE(compareTimings(quick, base).verdict, TimingVerdict::Slower);
        QVERIFY(compareTimings(base, quick).pValue < 1e-6);
        QVERIFY(
            QString::fromStdString(compareTimings(base, quick).text()).startsWith("faster: 0.7"));
        // Symmetric: a very noisy fast run (80 % noise) against a steady one 50x slower reads
        // "faster" one way round and "slower" the other, never "the same" in one direction.
        const auto noisyFast = samples(1.0, 0.8, 12);
        const auto steadySlow = samples(50.0, 0.05, 12, 1);
        QCOMPARE(compareTimings(noisyFast, steadySlow).verdict, TimingVerdict::Slower);
        QCOMPARE(compareTimings(steadySlow, noisyFast).verdict, TimingVerdict::Faster);
        QCOMPARE(compareTimings(steadySlow, noisyFast).threshold,
                 compareTimings(noisyFast, steadySlow).threshold);
    }

    void mediansAloneAreNotEnough()
    {
        // Medians 14 % apart, but the distributions overlap: no significant difference.
        const std::vector<double> a{1, 2, 3, 4, 5, 6}, b{1.5, 2.5, 3.5, 4.5, 5.5, 6.5};
        const TimingComparison c = compareTimings(a, b);
        QVERIFY(c.ratio > 1.1);
        QCOMPARE(c.verdict, TimingVerdict::Same);
        QVERIFY(c.pValue > 0.1);
    }

    void belowTheNoiseThresholdIsTheSame()
    {
        // A 0.5 % shift with 0.1 % noise is "significant" to the test but below the 1 %
        // threshold: the same, as nvbench's compare would say.
        const auto a = samples(10.0, 0.001, 50);
        const auto b = samples(10.05, 0.001, 50, 1);
        const TimingComparison c = compareTimings(a, b);
        QVERIFY(c.pValue < 0.01);
        QCOMPARE(c.verdict, TimingVerdict::Same);
        // Noisy runs raise the threshold to their noise: 10 % shift, 20 % noise.
        const auto na = samples(10.0, 0.3, 60);
        const auto nb = samples(11.0, 0.3, 60, 2);
        const TimingComparison n = compareTimings(na, nb);
        QVERIFY(n.threshold > 0.15);
        QCOMPARE(n.verdict, TimingVerdict::Same);
    }

    void tooFewSamplesAndIdenticalRuns()
    {
        const std::vector<double> few{1, 2, 3};
        QCOMPARE(compareTimings(few, few).verdict, TimingVerdict::TooFewSamples);
        const std::vector<double> flat(10, 2.0);
        const TimingComparison c = compareTimings(flat, flat);
        QCOMPARE(c.verdict, TimingVerdict::Same);
        QCOMPARE(c.pValue, 1.0);
    }
};

WB_QTEST_APPLESS_MAIN(TestTimingComparison)
#include "tst_timingcomparison.moc"
