// SPDX-License-Identifier: GPL-3.0-or-later
// How the variadic call sorts its arguments (no GPU needed: nothing is launched).
#include "core/cuda/Kernel.h"
#include "tests/support/SuiteMain.h"

#include <QTest>

#include <vector>

using namespace wb::cuda;
using Kind = KernelArg::Kind;

class TestKernelArg : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void transfersDescribeHostMemory()
    {
        std::vector<float> a(400), dest(400);
        const std::vector<double> c(3);
        const KernelArg in = In(a).arg();
        QCOMPARE(in.kind, Kind::In);
        QCOMPARE(in.data, static_cast<const void*>(a.data()));
        QCOMPARE(in.size, std::size_t{1600});
        QCOMPARE(QString(in.typeName), QString("float"));
        QVERIFY(in.isTransfer() && in.isPointer());
        QCOMPARE(Out(dest).arg().kind, Kind::Out);
        QCOMPARE(InOut(dest).arg().kind, Kind::InOut);
        QCOMPARE(In(c).arg().size, std::size_t{24});
        QCOMPARE(QString(In(c).arg().typeName), QString("double"));
        std::span<float> part(dest.data() + 10, 5);
        QCOMPARE(Out(part).arg().data, static_cast<const void*>(dest.data() + 10));
        QCOMPARE(Out(part).arg().size, std::size_t{20});
    }

    void scalarsPassByValue()
    {
        const float f = 2.5f;
        const int n = 7;
        const KernelArg af = detail::toKernelArg(f);
        QCOMPARE(af.kind, Kind::Value);
        QCOMPARE(af.size, sizeof(float));
        QCOMPARE(af.data, static_cast<const void*>(&f));
        QVERIFY(!af.isPointer());
        QCOMPARE(QString(detail::toKernelArg(n).typeName), QString("int"));
        struct Pair {
            int a;
            float b;
        };
        const Pair p{1, 2};
        QCOMPARE(detail::toKernelArg(p).size, sizeof(Pair));
        QVERIFY(detail::toKernelArg(p).typeName == nullptr);
        const DevicePointer ptr{0x1000};
        const KernelArg ap = detail::toKernelArg(ptr);
        QCOMPARE(ap.kind, Kind::DevicePointer);
        QCOMPARE(*static_cast<const CUdeviceptr*>(ap.data), CUdeviceptr{0x1000});
    }

    void emptyBuffersPassTheirAddress()
    {
        const DeviceBuffer buffer;
        const KernelArg arg = detail::toKernelArg(buffer);
        QCOMPARE(arg.kind, Kind::DevicePointer);
        QCOMPARE(arg.data, static_cast<const void*>(buffer.ptrAddress()));
        const DeviceArray<int> array;
        QCOMPARE(QString(detail::toKernelArg(array).typeName), QString("int"));
    }

    void tagsSetTheLaunchShape()
    {
        std::vector<float> a(4), dest(4);
        const float s = 3;
        static_assert(detail::kArgCount<Out, In, Block, Grid, const float&, SharedBytes> == 3);
        detail::CallBuilder<3> b{};
        const Out out(dest);
        const In in(a);
        b.add(out);
        b.add(Block{400, 1, 1});
        b.add(in);
        b.add(Grid{2, 3});
        b.add(s);
        b.add(SharedBytes{128});
        QCOMPARE(b.count, std::size_t{3});
        QCOMPARE(b.config.block, (wb::Dim3{400, 1, 1}));
        QCOMPARE(b.config.grid, (wb::Dim3{2, 3, 1}));
        QCOMPARE(b.config.sharedBytes, 128u);
        QVERIFY(!b.config.hasCluster());
        QCOMPARE(b.span()[0].kind, Kind::Out);
        QCOMPARE(b.span()[1].kind, Kind::In);
        QCOMPARE(b.span()[2].kind, Kind::Value);
        b.add(Cluster{2, 1, 1});
        QVERIFY(b.config.hasCluster());
        b.add(wb::LaunchConfig{{5, 1, 1}, {64, 1, 1}});
        QCOMPARE(b.config.grid.x, 5u);
        QCOMPARE(b.count, std::size_t{3});
        static_assert(detail::kArgCount<wb::LaunchConfig, const Stream&, In> == 1);
    }
};

WB_QTEST_GUILESS_MAIN(TestKernelArg)
#include "tst_kernelarg.moc"
