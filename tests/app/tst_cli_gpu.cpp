// SPDX-License-Identifier: GPL-3.0-or-later
// The issue 16 `warpbench-cli run` cases (ExactCases.h) on the CUDA backend.
#include "CliProcess.h"
#include "ExactCases.h"
#include "tests/support/SuiteMain.h"

#include <QTest>

namespace {
/// Why the CUDA backend cannot run here (empty when it can), from `warpbench-cli devices`.
QString cudaUnavailable()
{
    const CliRun r = runCli({QStringLiteral("devices")});
    if (r.exitCode != 0) return QStringLiteral("warpbench-cli devices failed: ") + r.err;
    for (const QString& line : r.out.split('\n'))
        if (line.startsWith(QLatin1String("cuda: unavailable"))) return line;
    return {};
}
} // namespace

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
