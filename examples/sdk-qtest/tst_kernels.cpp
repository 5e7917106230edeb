// SPDX-License-Identifier: GPL-3.0-or-later
// Checks the kernels of this repository with the Warpbench engine: each .wbproj names a kernel,
// its buffers and a reference; a check passes when every output matches the reference.
#include "core/testing/WarpbenchTest.h"

#include <QObject>
#include <QTest>

class TstKernels : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // One project: on the GPU, or on the CPU emulator where there is none (opt-in fallback;
    // without it the test is skipped with the reason).
    void saxpy()
    {
        using wb::testing::RunOptions;
        WB_VERIFY_PROJECT(
            KERNELS_DIR "/saxpy.wbproj",
            RunOptions::fromEnvironment(RunOptions::on(wb::BackendKind::Cuda).withFallbackToCpu()));
    }

    // Every project under kernels/, one data row each; the backend is Auto (the GPU when
    // usable, else the CPU emulator) unless $WARPBENCH_TEST_BACKEND says otherwise.
    void everyKernel_data() { wb::testing::addProjectRows(KERNELS_DIR); }
    void everyKernel()
    {
        QFETCH(QString, project);
        WB_VERIFY_PROJECT(project);
    }
};

QTEST_GUILESS_MAIN(TstKernels)
#include "tst_kernels.moc"
