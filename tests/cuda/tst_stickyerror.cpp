// SPDX-License-Identifier: GPL-3.0-or-later
// A kernel writing through a null pointer: a sticky error, reported as a lost context. This
// poisons the process's context, so it has its own executable.
#include "core/backend/Backend.h"
#include "core/cuda/CudaError.h"
#include "core/cuda/SourceModule.h"
#include "tests/support/SuiteMain.h"

#include <QTest>

using wb::Error;
using namespace wb::cuda;

class TestStickyError : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        if (const auto reason = wb::cudaUnavailableReason()) QSKIP(reason->c_str());
    }

    void nullPointerWriteLosesTheContext()
    {
        const Context ctx = Context::primary(0);
        SourceModule mod(ctx, R"(extern "C" __global__ void write_null(int* p) { *p = 42; })");
        const Kernel writeNull = mod.function("write_null");
        DeviceBuffer survivor(ctx, 1024, "survivor");
        try {
            writeNull(DevicePointer{0}, Block{1}, Grid{1});
            ctx.synchronize();
            QFAIL("writing through a null pointer went unnoticed");
        } catch (const CudaError& e) {
            qInfo("%s", e.what());
            QCOMPARE(e.kind(), Error::Kind::ContextLost);
            QVERIFY(CudaError::isSticky(e.result()));
            QVERIFY2(std::string(e.what()).find("the context is lost; restart required") !=
                         std::string::npos,
                     e.what());
        }
        // Sticky: the next operation fails the same way; nothing is retried.
        try {
            int v = 1;
            survivor.upload(&v, sizeof v);
            QFAIL("the context still worked after a sticky error");
        } catch (const CudaError& e) {
            QCOMPARE(e.kind(), Error::Kind::ContextLost);
        }
        // The handles are released at the end of the scope without throwing.
    }
};

WB_QTEST_GUILESS_MAIN(TestStickyError)
#include "tst_stickyerror.moc"
