// SPDX-License-Identifier: GPL-3.0-or-later
// The issue 16 `warpbench-cli run` cases (ExactCases.h) on the CUDA backend, and runs under
// compute-sanitizer (issue 25 item 3).
#include "CliProcess.h"
#include "ExactCases.h"
#include "tests/support/SuiteMain.h"

#include <QTest>

#include <cstdio>

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

    /// Issue 25 (3): every example with a C++ reference ended with "the runner exited
    /// unexpectedly with status 11" under compute-sanitizer; a correct example passes there.
    void sanitizerRunsCorrectExamples_data()
    {
        QTest::addColumn<QString>("example");
        QTest::addColumn<QString>("tool");
        for (const char* e :
             {"hello_gpu", "vector_add", "saxpy", "reduction", "histogram", "image_blur",
              "matmul_naive", "template_scale", "matmul_tiled", "transpose"})
            QTest::newRow((std::string(e) + "/memcheck").c_str()) << e << "memcheck";
        for (const char* e : {"reduction", "vector_add"})
            QTest::newRow((std::string(e) + "/racecheck").c_str()) << e << "racecheck";
    }
    void sanitizerRunsCorrectExamples()
    {
        const QString why = cudaUnavailable();
        if (!why.isEmpty()) QSKIP(qPrintable(why));
        QFETCH(QString, example);
        QFETCH(QString, tool);
        const CliRun r =
            runCli({QStringLiteral("run"),
                    QStringLiteral(WB_SOURCE_DIR "/resources/examples/%1/%1.wbproj").arg(example),
                    QStringLiteral("--backend"), QStringLiteral("cuda"),
                    QStringLiteral("--memcheck"), tool});
        QVERIFY2(r.exitCode == 0 && r.out.contains(QLatin1String("Result    PASS")),
                 qPrintable(QStringLiteral("exit %1\n%2%3").arg(r.exitCode).arg(r.out, r.err)));
    }

    /// racecheck's shared-memory hazard fails the run (exit 3) and names the kernel's line.
    void racecheckHazardFailsTheRun()
    {
        const QString why = cudaUnavailable();
        if (!why.isEmpty()) QSKIP(qPrintable(why));
        const CliRun r =
            runCli({QStringLiteral("run"),
                    QStringLiteral(WB_SOURCE_DIR "/resources/examples/bugs/missing_syncthreads/"
                                                 "missing_syncthreads.wbproj"),
                    QStringLiteral("--backend"), QStringLiteral("cuda"),
                    QStringLiteral("--memcheck"), QStringLiteral("racecheck")});
        std::printf("%s\n%s\n", qPrintable(r.out), qPrintable(r.err));
        QVERIFY2(r.exitCode == 3 && r.out.contains(QLatin1String("compute-sanitizer found")) &&
                     r.out.contains(QLatin1String("missing_syncthreads.cu:11")),
                 qPrintable(QStringLiteral("exit %1\n%2%3").arg(r.exitCode).arg(r.out, r.err)));
    }
};

WB_QTEST_GUILESS_MAIN(TestCliGpu)
#include "tst_cli_gpu.moc"
