// SPDX-License-Identifier: GPL-3.0-or-later
// `warpbench-cli debug` on a file of several kernels (tests/debug/data/multi_kernel, launching
// tile_scale), issue 27: an unknown --print name is refused at once with gdb's message and exit
// 4; shared memory lists the stopped kernel's arrays only, without gdb's -var-create errors;
// locals whose declaration has not run are marked.
#include "CliProcess.h"
#include "tests/support/SuiteMain.h"

#include <QElapsedTimer>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTest>

namespace {
const QString kProject =
    QStringLiteral(WB_SOURCE_DIR "/tests/debug/data/multi_kernel/multi_kernel.wbproj");
}

class TestCliDebug : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        if (qEnvironmentVariableIsEmpty("WARPBENCH_GDB") &&
            QStandardPaths::findExecutable(QStringLiteral("gdb")).isEmpty())
            QSKIP("the thread debugger needs gdb (.ci/setup installs it)");
        if (const QString why = cpuUnavailable(); !why.isEmpty()) QSKIP(qPrintable(why));
    }

    void anUnknownPrintNameIsRefusedAtOnce()
    {
        QElapsedTimer timer;
        timer.start();
        const CliRun r = runCli({"debug", kProject, "--break", "44", "--cond",
                                 "blockIdx.x == 1 && threadIdx.x == 3", "--print", "nosuchvar"});
        const qint64 wall = timer.elapsed();
        QVERIFY2(r.exitCode == 4,
                 qPrintable(QString("exit %1\n%2%3").arg(r.exitCode).arg(r.out, r.err)));
        QVERIFY2(r.err.contains(QStringLiteral(
                     "--print nosuchvar: No symbol \"nosuchvar\" in current context.")),
                 qPrintable(r.err));
        QVERIFY2(r.out.contains(QStringLiteral("stopped at multi_kernel.cu:44 in tile_scale, "
                                               "block (1,0,0), thread (3,0,0)")),
                 qPrintable(r.out));
        QVERIFY(!r.out.contains(QStringLiteral("all threads")));
        // After the first stop (prepare, compile, gdb, run: printed), the refusal is a few gdb
        // round trips; the bound is a generous hang guard (it used to wait 60 s).
        const QRegularExpressionMatch m =
            QRegularExpression(QStringLiteral("first stop after (\\d+) ms")).match(r.out);
        QVERIFY2(m.hasMatch(), qPrintable(r.out));
        const qint64 afterStop = wall - m.captured(1).toLongLong();
        QVERIFY2(afterStop < 10'000, qPrintable(QString("%1 ms after the stop").arg(afterStop)));
    }

    void sharedMemoryAndLocalsOfTheStoppedKernel()
    {
        const CliRun r =
            runCli({"debug", kProject, "--break", "33", "--cond",
                    "blockIdx.x == 1 && threadIdx.x == 3", "--next", "1", "--print", "mine"});
        QVERIFY2(r.exitCode == 0,
                 qPrintable(QString("exit %1\n%2%3").arg(r.exitCode).arg(r.out, r.err)));
        const QString out = r.out;
        // Only tile_scale's shared arrays and the file's, once each, at both stops.
        QCOMPARE(out.count(QStringLiteral("shared cache (float [32]): 33 34 35 ")), 2);
        QCOMPARE(out.count(QStringLiteral("shared total (float [2]): ")), 2);
        QCOMPARE(out.count(QStringLiteral("shared launches_seen (int [2]): ")), 2);
        QCOMPARE(out.count(QStringLiteral("shared ")), 6);
        for (const char* absent :
             {"shared tile", "shared counts", "-var-create", "unable to create"})
            QVERIFY2(!out.contains(QLatin1String(absent)), absent);
        // At line 33, t's declaration has not run; after the step it has. mine (line 44) has
        // not at either stop, and the all-threads table of `mine` says so.
        QVERIFY2(out.contains(QStringLiteral("const unsigned int t = (not yet initialised: "
                                             "declared at line 33; its memory holds ")),
                 qPrintable(out));
        QVERIFY2(out.contains(QStringLiteral("const unsigned int t = 3\n")), qPrintable(out));
        QCOMPARE(out.count(QStringLiteral(
                     "const float mine = (not yet initialised: declared at line 44;")),
                 2);
        QVERIFY2(out.contains(QStringLiteral("(mine is not yet initialised at line 33: its values "
                                             "are what its memory held)")),
                 qPrintable(out));
        QVERIFY(out.contains(QStringLiteral("(mine is not yet initialised at line 34")));
        QVERIFY(!out.contains(QStringLiteral("const float * in = (not yet")));
    }
};

WB_QTEST_GUILESS_MAIN(TestCliDebug)
#include "tst_cli_debug.moc"
