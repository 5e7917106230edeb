// SPDX-License-Identifier: GPL-3.0-or-later
// The issue 16 `warpbench-cli run` cases (ExactCases.h) on the CUDA backend.
#include "CliProcess.h"
#include "ExactCases.h"
#include "tests/support/SuiteMain.h"

#include <QTest>

class TestCliGpu : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void exactValues_data() { addExactCases(); }
    void exactValues()
    {
        const QString why = cudaUnavailable();
        if (!why.isEmpty()) QSKIP(qPrintable(why));
        runExactCase("cuda");
    }
};

WB_QTEST_GUILESS_MAIN(TestCliGpu)
#include "tst_cli_gpu.moc"
