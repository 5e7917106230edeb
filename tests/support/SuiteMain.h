// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The main() of every Qt Test suite in tests/: runs the suite like QTEST_MAIN and then tells
// CTest whether it tested anything. Qt Test counts initTestCase/cleanupTestCase (and init/cleanup)
// as passes, so "Totals: 2 passed, 0 failed, 5 skipped" can mean that nothing was tested; such a
// suite exits with kSkippedExitCode (the tests' SKIP_RETURN_CODE) and prints its skip reasons.

#include <QtTest>

class QObject;

namespace wb::test {

/// CTest reads this exit code as "Skipped" (SKIP_RETURN_CODE on every wb_add_qtest test).
inline constexpr int kSkippedExitCode = 77;

/// Runs `suite` with the command line and returns the exit code: Qt Test's (failures) or
/// kSkippedExitCode when no test function passed or failed and at least one skipped.
int runSuite(QObject& suite, int argc, char** argv);

} // namespace wb::test

/// QTEST_MAIN / QTEST_GUILESS_MAIN / QTEST_APPLESS_MAIN (same application set-up, from Qt's own
/// macros) with the honest-skip exit code.
#define WB_QTEST_MAIN_WRAPPER(TestObject, ...)                                                     \
    int main(int argc, char* argv[])                                                               \
    {                                                                                              \
        QT_PREPEND_NAMESPACE(QTest::Internal::callInitMain)<TestObject>();                         \
        __VA_ARGS__                                                                                \
        TestObject tc;                                                                             \
        QTEST_SET_MAIN_SOURCE_PATH                                                                 \
        return wb::test::runSuite(tc, argc, argv);                                                 \
    }
#define WB_QTEST_MAIN(TestObject) WB_QTEST_MAIN_WRAPPER(TestObject, QTEST_MAIN_SETUP())
#define WB_QTEST_GUILESS_MAIN(TestObject)                                                          \
    WB_QTEST_MAIN_WRAPPER(TestObject, QTEST_QAPP_SETUP(QCoreApplication))
#define WB_QTEST_APPLESS_MAIN(TestObject) WB_QTEST_MAIN_WRAPPER(TestObject)
