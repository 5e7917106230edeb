// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Issue 16 ("Exact values"): one table of `warpbench-cli run` cases over tests/app/data/exact,
// run on the CPU emulator by tst_cli and on CUDA by tst_cli_gpu.

#include "CliProcess.h"

#include <QStringList>
#include <QTest>

/// Adds the rows: project, exit code, texts the output must hold.
inline void addExactCases()
{
    QTest::addColumn<QString>("project");
    QTest::addColumn<int>("code");
    QTest::addColumn<QStringList>("texts");
    // (5) A session without buffers runs; a bad binding there is the binding error.
    // (no reference: it runs, nothing is compared — exit 0, never PASS)
    QTest::newRow("noBuffers") << "no_buffers.wbproj" << 0
                               << QStringList{"Result    RAN, NOT CHECKED"};
    QTest::newRow("noBuffersUnbound")
        << "no_buffers_unbound.wbproj" << 4
        << QStringList{"kernel fill: parameter 'out' is not bound: no buffer or scalar named "
                       "'out'"};
    // (4) bool scalars; the binding error names both types.
    QTest::newRow("boolScalar") << "bool_scalar.wbproj" << 0 << QStringList{"out          PASS"};
    QTest::newRow("scalarForPointer")
        << "scalar_for_pointer.wbproj" << 4
        << QStringList{"parameter 'counts' is int* but 'counts' is a scalar of type f32"};
    // (2) Integer outputs are compared exactly and printed exactly.
    QTest::newRow("u64Diff") << "u64_diff.wbproj" << 1
                             << QStringList{"out          FAIL",
                                            "got 501427843000000001 expected 501427843000000000 "
                                            "|diff| 1"};
    // (1) 64-bit scalars carry their exact value; hex and exact integer expressions.
    QTest::newRow("u64Scalars") << "u64_scalars.wbproj" << 0
                                << QStringList{"out          PASS", "Result    PASS"};
    QTest::newRow("u8OutOfRange")
        << "u8_out_of_range.wbproj" << 4
        << QStringList{"scalars[0].value: scalar 'v' of type u8: \"255 + 1\" = 256 is out of range "
                       "(0 to 255)"};
    QTest::newRow("u64Inexact") << "u64_inexact.wbproj" << 4
                                << QStringList{"scalars[0].value: scalar 'v' of type u64: "
                                               "\"floor(2^64 / 3)\" cannot be evaluated exactly"};
    // (6) A float64 reference is used as given, not rounded to the f32 output first.
    QTest::newRow("f64Reference") << "f64_reference.wbproj" << 1
                                  << QStringList{"out          FAIL", "1.49e-09"};
    // (3) Structs by value: members laid out as C does, checked against the kernel's size.
    QTest::newRow("structAffine") << "struct_affine.wbproj" << 0
                                  << QStringList{"y            PASS", "Result    PASS"};
    QTest::newRow("structMixed") << "struct_mixed.wbproj" << 0
                                 << QStringList{"z            PASS", "s            PASS"};
    QTest::newRow("structWrongSize")
        << "struct_wrong_size.wbproj" << 4
        << QStringList{"parameter 'p' (Params) takes 12 bytes but scalar 'p' is struct {f32 a, "
                       "f32 b} (8 bytes)"};
}

/// Runs the current row's project with `backend` and checks its exit code and output.
inline void runExactCase(const char* backend)
{
    QFETCH(QString, project);
    QFETCH(int, code);
    QFETCH(QStringList, texts);
    const CliRun r = runCli({"run", QStringLiteral(WB_TEST_DATA_DIR "/exact/") + project,
                             "--backend", QLatin1String(backend)});
    const QString all = r.out + r.err;
    QVERIFY2(r.exitCode == code, qPrintable(QString("exit %1\n%2").arg(r.exitCode).arg(all)));
    for (const QString& t : texts)
        QVERIFY2(all.contains(t), qPrintable("missing: " + t + "\n" + all));
}
