// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/common/Error.h"
#include "core/session/Diff.h"
#include "tests/support/SuiteMain.h"

#include <QTest>

#include <cmath>
#include <cstring>
#include <limits>

using namespace wb::session;

namespace {
HostArray f32(std::vector<float> v, std::vector<std::size_t> shape = {})
{
    if (shape.empty()) shape = {v.size()};
    HostArray a(ElementType::F32, shape);
    std::memcpy(a.data(), v.data(), a.bytes());
    return a;
}
constexpr float kNan = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr float kDenormMin = std::numeric_limits<float>::denorm_min();
} // namespace

class TestDiff : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void basicStatistics()
    {
        const HostArray a = f32({1, 2, 3, 4.5f}, {2, 2});
        const HostArray b = f32({1, 2, 3, 4}, {2, 2});
        Tolerance t;
        const DiffStats s = computeDiff(a, b, t);
        QCOMPARE(s.count, 4u);
        QCOMPARE(s.compared, 4u);
        QCOMPARE(s.maxAbs, 0.5);
        QCOMPARE(s.maxRel, 0.125);
        QCOMPARE(s.meanAbs, 0.125);
        QCOMPARE(s.rms, std::sqrt(0.25 / 4));
        QCOMPARE(s.mismatches, 1u);
        QCOMPARE(s.mismatchFraction, 0.25);
        QVERIFY(!s.passed());
        QCOMPARE(s.firstMismatches.size(), 1u);
        QCOMPARE(s.firstMismatches[0].coordinates, (std::vector<std::size_t>{1, 1}));
        QCOMPARE(s.firstMismatches[0].actual, 4.5);
        QCOMPARE(s.firstMismatches[0].expected, 4.0);
        // 4.5 - 4 = 0.5 ulp steps of 2^-21 in [4, 8): 2^20 ulps.
        QCOMPARE(s.maxUlp, std::uint64_t{1} << 20);
        // Histogram: three exact, one in [2^-1, 2^0).
        QCOMPARE(s.histogram[0], 3u);
        const int bin = -1 - DiffStats::kHistogramMinExp + 1;
        QCOMPARE(s.histogram[static_cast<std::size_t>(bin)], 1u);
        QCOMPARE(DiffStats::binLowerEdge(bin), 0.5);
    }
    void allCloseFormulaIsNumpys()
    {
        // |a - b| <= atol + rtol * |b|, asymmetric in b like numpy.allclose.
        Tolerance t;
        t.atol = 0;
        t.rtol = 0.1;
        QVERIFY(computeDiff(f32({110}), f32({100}), t).passed());    // 10 <= 10
        QVERIFY(!computeDiff(f32({100}), f32({90.9f}), t).passed()); // 9.1 > 9.09
        t.atol = 1;
        t.rtol = 0;
        QVERIFY(computeDiff(f32({0.5f}), f32({-0.5f}), t).passed());
        QVERIFY(!computeDiff(f32({0.5f}), f32({-0.51f}), t).passed());
    }
    void nanHandling()
    {
        const HostArray a = f32({kNan, 1, kNan});
        const HostArray b = f32({kNan, kNan, 2});
        Tolerance t;
        t.nanEqual = true;
        DiffStats s = computeDiff(a, b, t);
        QCOMPARE(s.nanActual, 2u);
        QCOMPARE(s.nanExpected, 2u);
        QCOMPARE(s.mismatches, 2u); // NaN == NaN counts as equal; NaN vs number does not
        QCOMPARE(s.compared, 0u);
        QCOMPARE(s.firstMismatches[0].index, 1u);
        t.nanEqual = false;
        s = computeDiff(a, b, t);
        QCOMPARE(s.mismatches, 3u);
    }
    void infHandling()
    {
        const HostArray a = f32({kInf, -kInf, kInf, 1});
        const HostArray b = f32({kInf, kInf, 5, 1});
        const DiffStats s = computeDiff(a, b, Tolerance{});
        QCOMPARE(s.infActual, 3u);
        QCOMPARE(s.infExpected, 2u);
        QCOMPARE(s.mismatches, 2u);
        QCOMPARE(s.compared, 1u);
        QCOMPARE(s.maxAbs, 0.0);
        QVERIFY(std::isinf(s.firstMismatches[0].absError));
    }
    void signedZeroAndUlpAcrossSign()
    {
        Tolerance ulp;
        ulp.mode = Tolerance::Mode::Ulp;
        ulp.maxUlp = 0;
        DiffStats s = computeDiff(f32({-0.0f}), f32({0.0f}), ulp);
        QVERIFY(s.passed());
        QCOMPARE(s.maxUlp, 0u);
        // Smallest denormals on each side of zero are 2 ulps apart.
        s = computeDiff(f32({-kDenormMin}), f32({kDenormMin}), ulp);
        QCOMPARE(s.maxUlp, 2u);
        QVERIFY(!s.passed());
        ulp.maxUlp = 2;
        QVERIFY(computeDiff(f32({-kDenormMin}), f32({kDenormMin}), ulp).passed());
        // -1 and +1: each is 0x3f800000 steps from zero.
        s = computeDiff(f32({-1.0f}), f32({1.0f}), ulp);
        QCOMPARE(s.maxUlp, 2ull * 0x3f800000ull);
        // Next float up from 1.
        s = computeDiff(f32({std::nextafter(1.0f, 2.0f)}), f32({1.0f}), ulp);
        QCOMPARE(s.maxUlp, 1u);
        // max rel where the reference is zero.
        s = computeDiff(f32({kDenormMin}), f32({0.0f}), Tolerance{});
        QVERIFY(std::isinf(s.maxRel));
        QVERIFY(s.passed()); // within atol
        QCOMPARE(s.maxAbs, static_cast<double>(kDenormMin));
    }
    void doublesHalvesAndIntegers()
    {
        HostArray a(ElementType::F64, {2}), b(ElementType::F64, {2});
        a.set(0, 1.0);
        b.set(0, std::nextafter(1.0, 0.0));
        a.set(1, -2.0);
        b.set(1, -2.0);
        Tolerance ulp;
        ulp.mode = Tolerance::Mode::Ulp;
        ulp.maxUlp = 1;
        QCOMPARE(computeDiff(a, b, ulp).maxUlp, 1u);

        HostArray h1(ElementType::F16, {1}), h2(ElementType::F16, {1});
        h1.set(0, 1.0);
        h2.set(0, 1.0 + 1.0 / 1024); // next half after 1
        QCOMPARE(computeDiff(h1, h2, ulp).maxUlp, 1u);

        HostArray i1(ElementType::I32, {3}), i2(ElementType::I32, {3});
        i1.set(0, -5);
        i2.set(0, 5);
        i1.set(1, 7);
        i2.set(1, 7);
        const DiffStats s = computeDiff(i1, i2, ulp);
        QCOMPARE(s.maxUlp, 10u);
        QCOMPARE(s.maxAbs, 10.0);
        QCOMPARE(s.mismatches, 1u);

        HostArray u1(ElementType::U64, {1}), u2(ElementType::U64, {1});
        *u1.as<std::uint64_t>() = 0;
        *u2.as<std::uint64_t>() = ~std::uint64_t{0};
        QCOMPARE(computeDiff(u1, u2, ulp).maxUlp, ~std::uint64_t{0});
    }
    void firstKInIndexOrderAcrossThreads()
    {
        const std::size_t n = 1 << 20;
        HostArray a(ElementType::F32, {16, 256, 256}), b(ElementType::F32, {16, 256, 256});
        for (std::size_t i = 0; i < n; ++i)
            a.as<float>()[i] = static_cast<float>(i % 97);
        std::memcpy(b.data(), a.data(), a.bytes());
        const std::size_t bad[] = {5, 70000, 500000, 900000, 1048575};
        for (std::size_t i : bad)
            b.as<float>()[i] += 1.0f;
        DiffOptions o;
        o.threads = 4;
        o.firstK = 3;
        const DiffStats s = computeDiff(a, b, Tolerance{}, o);
        QCOMPARE(s.mismatches, 5u);
        QCOMPARE(s.firstMismatches.size(), 3u);
        QCOMPARE(s.firstMismatches[0].index, 5u);
        QCOMPARE(s.firstMismatches[1].index, 70000u);
        QCOMPARE(s.firstMismatches[2].index, 500000u);
        QCOMPARE(s.firstMismatches[1].coordinates, (std::vector<std::size_t>{1, 17, 112}));
        o.threads = 1;
        const DiffStats one = computeDiff(a, b, Tolerance{}, o);
        QCOMPARE(one.mismatches, s.mismatches);
        QCOMPARE(one.maxAbs, s.maxAbs);
        QCOMPARE(one.histogram, s.histogram);
        QCOMPARE(s.compared, n);
    }
    void integersAreComparedExactly()
    {
        // Two u64 near 5e17 that differ by 1 and by 21 are the same double.
        HostArray a(ElementType::U64, {3}), b(ElementType::U64, {3});
        const std::uint64_t base = 501427843000000000ull;
        a.as<std::uint64_t>()[0] = base + 1;
        b.as<std::uint64_t>()[0] = base;
        a.as<std::uint64_t>()[1] = base + 21;
        b.as<std::uint64_t>()[1] = base;
        a.as<std::uint64_t>()[2] = b.as<std::uint64_t>()[2] = ~std::uint64_t{0};
        Tolerance exact;
        exact.atol = 0;
        exact.rtol = 0;
        const DiffStats s = computeDiff(a, b, exact);
        QCOMPARE(s.mismatches, 2u);
        QCOMPARE(s.maxAbs, 21.0);
        QCOMPARE(s.maxUlp, 21u);
        QCOMPARE(s.firstMismatches.size(), 2u);
        QCOMPARE(s.firstMismatches[0].absError, 1.0);
        QCOMPARE(s.firstMismatches[0].actualText, std::string("501427843000000001"));
        QCOMPARE(s.firstMismatches[0].expectedText, std::string("501427843000000000"));
        QCOMPARE(s.firstMismatches[1].ulp, 21u);
        // i64 extremes: the difference is exact, not rounded.
        HostArray c(ElementType::I64, {1}), d(ElementType::I64, {1});
        c.as<std::int64_t>()[0] = std::numeric_limits<std::int64_t>::max();
        d.as<std::int64_t>()[0] = std::numeric_limits<std::int64_t>::max() - 1;
        const DiffStats t = computeDiff(c, d, exact);
        QCOMPARE(t.mismatches, 1u);
        QCOMPARE(t.firstMismatches[0].actualText, std::string("9223372036854775807"));
        // Floating-point buffers carry no exact text.
        QVERIFY(computeDiff(f32({1}), f32({2}), exact).firstMismatches[0].actualText.empty());
    }
    void widerReferenceIsUsedAsGiven()
    {
        // A float32 result against a float64 truth: 0.1f is 1.49e-9 away from 0.1.
        HostArray truth(ElementType::F64, {1});
        truth.set(0, 0.1);
        Tolerance tight;
        tight.atol = 1e-9;
        tight.rtol = 0;
        const DiffStats s = computeDiff(f32({0.1f}), truth, tight);
        QCOMPARE(s.mismatches, 1u);
        QVERIFY(std::fabs(s.maxAbs - (static_cast<double>(0.1f) - 0.1)) < 1e-20);
        QCOMPARE(s.maxUlp, 0u); // 0.1 rounds to 0.1f: 0 float32 ULPs
        QCOMPARE(s.firstMismatches.at(0).ulp, 0u);
        QCOMPARE(s.firstMismatches.at(0).expected, 0.1);
        tight.atol = 2e-9;
        QVERIFY(computeDiff(f32({0.1f}), truth, tight).passed());
        // ULP mode still counts float32 ULPs against the rounded reference.
        Tolerance ulp;
        ulp.mode = Tolerance::Mode::Ulp;
        ulp.maxUlp = 0;
        QVERIFY(computeDiff(f32({0.1f}), truth, ulp).passed());
    }
    void mixedTypesAndSizeMismatch()
    {
        HostArray exp(ElementType::F64, {2});
        exp.set(0, 1.0);
        exp.set(1, 2.0);
        QVERIFY(computeDiff(f32({1, 2}), exp, Tolerance{}).passed());
        QVERIFY_THROWS_EXCEPTION(wb::Error, computeDiff(f32({1, 2, 3}), exp, Tolerance{}));
    }
};

WB_QTEST_GUILESS_MAIN(TestDiff)
#include "tst_diff.moc"
