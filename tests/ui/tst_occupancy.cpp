// SPDX-License-Identifier: GPL-3.0-or-later
// The occupancy formula against values from NVIDIA's CUDA Occupancy Calculator.
#include "tests/support/SuiteMain.h"
#include "ui/launch/Occupancy.h"

#include <QTest>

using wb::ui::Occupancy;
using wb::ui::SmLimits;

class TestOccupancy : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void archTable()
    {
        QVERIFY(SmLimits::forArch(QStringLiteral("sm_90")).has_value());
        QCOMPARE(SmLimits::forArch(QStringLiteral("sm_90"))->maxWarpsPerSm, 64);
        QCOMPARE(SmLimits::forArch(QStringLiteral("compute_86"))->maxWarpsPerSm, 48);
        QCOMPARE(SmLimits::forArch(QStringLiteral("sm_75"))->maxWarpsPerSm, 32);
        QCOMPARE(SmLimits::forArch(QStringLiteral("sm_120"))->major, 12);
        QCOMPARE(SmLimits::forArch(QStringLiteral("sm_100"))->major, 10);
        QVERIFY(!SmLimits::forArch(QStringLiteral("sm_52")).has_value());
        QVERIFY(!SmLimits::forArch(QStringLiteral("x86_64")).has_value());
    }

    void formula_data()
    {
        QTest::addColumn<QString>("arch");
        QTest::addColumn<int>("threads");
        QTest::addColumn<int>("registers");
        QTest::addColumn<int>("shared");
        QTest::addColumn<int>("blocks");
        QTest::addColumn<double>("occupancy");
        QTest::addColumn<int>("limit");
        using L = Occupancy::Limit;
        // H100/H200: 64 warps, 32 blocks, 64K registers, 228 KB shared, 1 KB reserved per block.
        QTest::newRow("sm90 256t 32r") << "sm_90" << 256 << 32 << 0 << 8 << 1.0 << int(L::Threads);
        QTest::newRow("sm90 256t 64r")
            << "sm_90" << 256 << 64 << 0 << 4 << 0.5 << int(L::Registers);
        QTest::newRow("sm90 256t 40r")
            << "sm_90" << 256 << 40 << 0 << 6 << 0.75 << int(L::Registers);
        QTest::newRow("sm90 32t") << "sm_90" << 32 << 16 << 0 << 32 << 0.5 << int(L::Blocks);
        QTest::newRow("sm90 400t (hello_gpu)")
            << "sm_90" << 400 << 16 << 0 << 4 << 0.8125 << int(L::Threads);
        QTest::newRow("sm90 128t 48KB")
            << "sm_90" << 128 << 32 << 48 * 1024 << 4 << 0.25 << int(L::SharedMemory);
        QTest::newRow("sm90 1024t") << "sm_90" << 1024 << 32 << 0 << 2 << 1.0 << int(L::Threads);
        // RTX 30xx (8.6): 48 warps, 16 blocks.
        QTest::newRow("sm86 256t 32r") << "sm_86" << 256 << 32 << 0 << 6 << 1.0 << int(L::Threads);
        QTest::newRow("sm86 64t") << "sm_86" << 64 << 32 << 0 << 16 << 32.0 / 48.0
                                  << int(L::Blocks);
        // Turing (7.5): 32 warps, 16 blocks, 64 KB shared.
        QTest::newRow("sm75 128t 16KB")
            << "sm_75" << 128 << 32 << 16 * 1024 << 4 << 0.5 << int(L::SharedMemory);
    }

    void formula()
    {
        QFETCH(QString, arch);
        QFETCH(int, threads);
        QFETCH(int, registers);
        QFETCH(int, shared);
        QFETCH(int, blocks);
        QFETCH(double, occupancy);
        QFETCH(int, limit);
        const Occupancy o =
            Occupancy::compute(*SmLimits::forArch(arch), threads, registers, shared);
        QCOMPARE(o.activeBlocksPerSm, blocks);
        QVERIFY2(std::abs(o.occupancy - occupancy) < 1e-9, qPrintable(o.summary()));
        QCOMPARE(int(o.limitedBy), limit);
    }

    void invalidLaunches()
    {
        const SmLimits sm = *SmLimits::forArch(QStringLiteral("sm_90"));
        QCOMPARE(Occupancy::compute(sm, 2048, 32, 0).limitedBy, Occupancy::Limit::Invalid);
        QVERIFY(Occupancy::compute(sm, 2048, 32, 0).problem.contains(QStringLiteral("1024")));
        QCOMPARE(Occupancy::compute(sm, 0, 32, 0).limitedBy, Occupancy::Limit::Invalid);
        QCOMPARE(Occupancy::compute(sm, 128, 32, 300 * 1024).limitedBy, Occupancy::Limit::Invalid);
        QCOMPARE(Occupancy::compute(sm, 128, 300, 0).limitedBy, Occupancy::Limit::Invalid);
    }
};

WB_QTEST_APPLESS_MAIN(TestOccupancy)
#include "tst_occupancy.moc"
