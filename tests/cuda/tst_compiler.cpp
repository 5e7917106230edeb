// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/cuda/Compiler.h"

#include <QTest>

using wb::CompileOptions;
using wb::CompileResult;
using wb::cuda::Compiler;

class TestCompiler : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        Compiler& c = Compiler::instance();
        if (!c.available()) QFAIL(c.unavailableReason().c_str());
        QVERIFY(c.version().rfind("NVRTC ", 0) == 0);
        c.setCacheEnabled(false);
    }

    void validSource()
    {
        const std::string src = "extern \"C\" __global__ void add(float* a, const float* b, int n)\n"
                                "{ int i = threadIdx.x; if (i < n) a[i] += b[i]; }\n";
        const CompileResult r = Compiler::instance().compile(src, "kernel.cu", {}, "sm_90");
        QVERIFY2(r.ok, r.log.c_str());
        QCOMPARE(r.target, std::string("sm_90"));
        QVERIFY(r.ptx.find(".entry add") != std::string::npos);
        QVERIFY(!r.binary.empty());
        QCOMPARE(r.kernels.size(), std::size_t(1));
        QCOMPARE(r.kernels[0].name, std::string("add"));
        QVERIFY(r.kernels[0].resources.known);
    }
};

QTEST_GUILESS_MAIN(TestCompiler)
#include "tst_compiler.moc"
