// SPDX-License-Identifier: GPL-3.0-or-later
// CudaError's classification and message, CU_CHECK's lazy context. No GPU needed.
#include "core/cuda/CudaError.h"
#include "core/cuda/detail/ContextState.h"
#include "tests/support/SuiteMain.h"

#include <QTest>

using wb::Error;
using wb::cuda::CudaError;

namespace {
int g_contextBuilds = 0;
std::string expensiveContext()
{
    ++g_contextBuilds;
    return "allocating buffer 'dest' (1.6 MB)";
}
CUresult succeed()
{
    return CUDA_SUCCESS;
}
CUresult outOfMemory()
{
    return CUDA_ERROR_OUT_OF_MEMORY;
}
} // namespace

class TestCudaError : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void stickyErrorsLoseTheContext_data()
    {
        QTest::addColumn<int>("result");
        QTest::addColumn<bool>("sticky");
        QTest::newRow("illegal address") << int(CUDA_ERROR_ILLEGAL_ADDRESS) << true;
        QTest::newRow("launch failed") << int(CUDA_ERROR_LAUNCH_FAILED) << true;
        QTest::newRow("misaligned") << int(CUDA_ERROR_MISALIGNED_ADDRESS) << true;
        QTest::newRow("stack") << int(CUDA_ERROR_HARDWARE_STACK_ERROR) << true;
        QTest::newRow("instruction") << int(CUDA_ERROR_ILLEGAL_INSTRUCTION) << true;
        QTest::newRow("pc") << int(CUDA_ERROR_INVALID_PC) << true;
        QTest::newRow("assert") << int(CUDA_ERROR_ASSERT) << true;
        QTest::newRow("out of memory") << int(CUDA_ERROR_OUT_OF_MEMORY) << false;
        QTest::newRow("invalid value") << int(CUDA_ERROR_INVALID_VALUE) << false;
    }
    void stickyErrorsLoseTheContext()
    {
        QFETCH(int, result);
        QFETCH(bool, sticky);
        const CudaError e(static_cast<CUresult>(result), "cuCtxSynchronize()",
                          "running kernel 'k'");
        QCOMPARE(CudaError::isSticky(e.result()), sticky);
        QCOMPARE(e.kind() == Error::Kind::ContextLost, sticky);
        const std::string text = e.what();
        QCOMPARE(text.find("the context is lost; restart required") != std::string::npos, sticky);
        QVERIFY(text.rfind("running kernel 'k': cuCtxSynchronize() failed with ", 0) == 0);
    }

    void kinds()
    {
        QCOMPARE(CudaError::kindOf(CUDA_ERROR_OUT_OF_MEMORY), Error::Kind::OutOfMemory);
        QCOMPARE(CudaError::kindOf(CUDA_ERROR_NO_DEVICE), Error::Kind::Unavailable);
        QCOMPARE(CudaError::kindOf(CUDA_ERROR_STUB_LIBRARY), Error::Kind::Unavailable);
        QCOMPARE(CudaError::kindOf(CUDA_ERROR_INVALID_VALUE), Error::Kind::InvalidArgument);
        QCOMPARE(CudaError::kindOf(CUDA_ERROR_UNKNOWN), Error::Kind::Runtime);
    }

    void carriesItsParts()
    {
        const CudaError e(CUDA_ERROR_OUT_OF_MEMORY, "cuMemAlloc(&ptr, bytes)", expensiveContext());
        QCOMPARE(e.result(), CUDA_ERROR_OUT_OF_MEMORY);
        QCOMPARE(e.call(), std::string("cuMemAlloc(&ptr, bytes)"));
        QCOMPARE(e.context(), std::string("allocating buffer 'dest' (1.6 MB)"));
        QVERIFY(!e.resultName().empty());
        // With a driver the name comes from cuGetErrorName; without one it is the number.
        QVERIFY(e.resultName() == "CUDA_ERROR_OUT_OF_MEMORY" || e.resultName() == "CUresult 2");
        QVERIFY(std::string(e.what()).find(e.resultName()) != std::string::npos);
        QVERIFY(std::string(e.what()).find("'dest'") != std::string::npos);
    }

    void checkBuildsTheMessageOnlyOnFailure()
    {
        g_contextBuilds = 0;
        CU_CHECK(succeed(), expensiveContext());
        QCOMPARE(g_contextBuilds, 0);
        try {
            CU_CHECK(outOfMemory(), expensiveContext());
            QFAIL("CU_CHECK did not throw");
        } catch (const CudaError& e) {
            QCOMPARE(g_contextBuilds, 1);
            QCOMPARE(e.kind(), Error::Kind::OutOfMemory);
            QCOMPARE(e.call(), std::string("outOfMemory()"));
        }
    }

    void formatsBytes()
    {
        using wb::cuda::detail::formatBytes;
        QCOMPARE(formatBytes(400), std::string("400 B"));
        QCOMPARE(formatBytes(1'600'000), std::string("1.6 MB"));
        QCOMPARE(formatBytes(1'000'000'000'000'000), std::string("1.0 PB"));
    }
};

WB_QTEST_GUILESS_MAIN(TestCudaError)
#include "tst_cudaerror.moc"
