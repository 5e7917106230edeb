// SPDX-License-Identifier: GPL-3.0-or-later
// Tests of core/testing/WarpbenchTest.*: the verdicts of checkProject()/checkSession() in this
// process, and the WB_VERIFY_* macros and project data rows through a child Qt Test program
// (sdk_child), whose pass, failure and skip lines are checked here.
#include "core/session/ProjectFile.h"
#include "core/testing/WarpbenchTest.h"
#include "tests/support/SuiteMain.h"

#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

namespace {

const QString kData = QStringLiteral(WB_TEST_DATA_DIR);
std::string data(const char* relative)
{
    return (kData + QLatin1Char('/') + QLatin1String(relative)).toStdString();
}

const wb::testing::RunOptions kCpu = wb::testing::RunOptions::on(wb::BackendKind::Cpu);

struct ChildRun {
    int exitCode = -1;
    QString output;
};

/// Runs one function of sdk_child with `vars` added to a clean copy of this environment.
ChildRun runChild(const QString& function, const QList<QPair<QString, QString>>& vars)
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    for (const char* name : {"WARPBENCH_TEST_BACKEND", "WARPBENCH_TEST_FALLBACK",
                             "WB_CHILD_PROJECT", "WB_CHILD_FOLDER"})
        env.remove(QLatin1String(name));
    for (const auto& [name, value] : vars)
        env.insert(name, value);
    QProcess child;
    child.setProcessEnvironment(env);
    child.setProcessChannelMode(QProcess::MergedChannels);
    child.start(QStringLiteral(WB_SDK_CHILD), {function});
    ChildRun r;
    if (!child.waitForFinished(300000)) {
        child.kill();
        child.waitForFinished();
        r.output =
            QStringLiteral("(sdk_child did not finish)\n") + QString::fromUtf8(child.readAll());
        return r;
    }
    r.output = QString::fromUtf8(child.readAll());
    r.exitCode = child.exitStatus() == QProcess::NormalExit ? child.exitCode() : -1;
    return r;
}

QString project(const char* relative)
{
    return QString::fromStdString(data(relative));
}

} // namespace

class TstWarpbenchTest : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        // The checks run on the CPU emulator, which compiles with the host C++ compiler.
        if (const auto why = wb::testing::backendUnavailableReason(wb::BackendKind::Cpu))
            QSKIP(why->c_str());
    }

    // ---- verdicts, in process
    void passingProjectPasses()
    {
        const auto v = wb::testing::checkProject(data("pass/scale.wbproj"), kCpu);
        QVERIFY2(v.passed(), v.message.c_str());
        QCOMPARE(v.report.backend, wb::BackendKind::Cpu);
        QCOMPARE(v.report.outputs.size(), std::size_t(1));
        QVERIFY(v.report.outputs[0].compared);
        QCOMPARE(v.report.outputs[0].stats.count, std::size_t(1000));
        QCOMPARE(v.report.outputs[0].stats.mismatches, std::size_t(0));
    }

    /// Issue 29: a project with no reference compared nothing: it fails, saying so.
    void projectWithoutReferenceFails()
    {
        wb::session::Session s = wb::session::ProjectFile::load(data("pass/scale.wbproj"));
        s.reference = wb::session::ReferenceSpec{};
        const auto v = wb::testing::checkSession(s, kCpu);
        QVERIFY(!v.passed());
        QCOMPARE(v.report.status, wb::session::RunReport::Status::Unchecked);
        QVERIFY2(v.message.find("unchecked - the project has no reference") != std::string::npos,
                 v.message.c_str());
    }

    void mismatchCarriesTheDiffTable()
    {
        const auto v = wb::testing::checkProject(data("mismatch/offbyone.wbproj"), kCpu);
        QCOMPARE(v.outcome, wb::testing::Verdict::Outcome::Failed);
        QCOMPARE(v.report.status, wb::session::RunReport::Status::Mismatch);
        const QString m = QString::fromStdString(v.message);
        // Table header and the row of `out`: 2 of 4 x 8 elements off, by 7.
        for (const char* text :
             {"output", "mismatches", "max abs", "max rel", "tolerance", "2 of 32",
              "atol 0, rtol 0", "first mismatches of 'out'", "compile log"})
            QVERIFY2(m.contains(QLatin1String(text)),
                     qPrintable(QStringLiteral("no \"%1\" in:\n%2").arg(QLatin1String(text), m)));
        // The planted elements with their 2-D coordinates, values and error.
        QVERIFY2(m.contains(QRegularExpression(QStringLiteral(R"(\[1, 3\]\s+110\s+103\s+7)"))),
                 qPrintable(m));
        QVERIFY2(m.contains(QRegularExpression(QStringLiteral(R"(\[2, 5\]\s+212\s+205\s+7)"))),
                 qPrintable(m));
        QVERIFY2(m.contains(
                     QRegularExpression(QStringLiteral(R"(out\s+FAIL\s+2 of 32 \(6.25%\)\s+7\s)"))),
                 qPrintable(m));
    }

    void compileErrorCarriesTheDiagnostics()
    {
        const auto v = wb::testing::checkProject(data("broken/broken.wbproj"), kCpu);
        QCOMPARE(v.outcome, wb::testing::Verdict::Outcome::Failed);
        QCOMPARE(v.report.status, wb::session::RunReport::Status::CompileError);
        const QString m = QString::fromStdString(v.message);
        QVERIFY2(m.contains(QLatin1String("kernel diagnostics:")), qPrintable(m));
        QVERIFY2(m.contains(QRegularExpression(
                     QStringLiteral(R"(broken\.cu:6:\d+: error: .*undeclared_scale)"))),
                 qPrintable(m));
        QVERIFY2(m.contains(QLatin1String("compile log")), qPrintable(m));
    }

    void unloadableProjectFails()
    {
        const auto missing = wb::testing::checkProject(data("no/such.wbproj"), kCpu);
        QCOMPARE(missing.outcome, wb::testing::Verdict::Outcome::Failed);
        QVERIFY2(missing.message.find("cannot load project") != std::string::npos,
                 missing.message.c_str());
        const auto folder = wb::testing::checkProject(data("folder"), kCpu);
        QCOMPARE(folder.outcome, wb::testing::Verdict::Outcome::Failed);
        QVERIFY2(folder.message.find("is a folder") != std::string::npos, folder.message.c_str());
    }

    void cudaWithoutGpuSkipsOrFallsBack()
    {
        const auto reason = wb::cudaUnavailableReason();
        if (!reason) QSKIP("a GPU is usable here: nothing to skip or fall back from");
        const auto skipped = wb::testing::checkProject(
            data("pass/scale.wbproj"), wb::testing::RunOptions::on(wb::BackendKind::Cuda));
        QCOMPARE(skipped.outcome, wb::testing::Verdict::Outcome::Skipped);
        QVERIFY2(skipped.message.find(*reason) != std::string::npos, skipped.message.c_str());
        QVERIFY2(skipped.message.find("fallbackToCpu") != std::string::npos,
                 skipped.message.c_str());

        const auto fellBack = wb::testing::checkProject(
            data("pass/scale.wbproj"),
            wb::testing::RunOptions::on(wb::BackendKind::Cuda).withFallbackToCpu());
        QVERIFY2(fellBack.passed(), fellBack.message.c_str());
        QCOMPARE(fellBack.report.backend, wb::BackendKind::Cpu);
        QVERIFY2(fellBack.message.find("ran on the CPU emulator instead of CUDA") !=
                     std::string::npos,
                 fellBack.message.c_str());
    }

    void optionsFromEnvironment()
    {
        qputenv("WARPBENCH_TEST_BACKEND", "cpu");
        qputenv("WARPBENCH_TEST_FALLBACK", "cpu");
        auto o = wb::testing::RunOptions::fromEnvironment();
        QCOMPARE(o.backend, wb::BackendKind::Cpu);
        QVERIFY(o.fallbackToCpu);
        qputenv("WARPBENCH_TEST_BACKEND", "tpu");
        qunsetenv("WARPBENCH_TEST_FALLBACK");
        o = wb::testing::RunOptions::fromEnvironment(
            wb::testing::RunOptions::on(wb::BackendKind::Cuda));
        QCOMPARE(o.backend, wb::BackendKind::Cuda); // an unknown value keeps the default
        QVERIFY(!o.fallbackToCpu);
        qunsetenv("WARPBENCH_TEST_BACKEND");
        QCOMPARE(wb::testing::RunOptions::fromEnvironment().backend, wb::BackendKind::Auto);
        QCOMPARE(wb::testing::RunOptions::fromEnvironment().iterations, std::optional<int>(1));
    }

    // ---- the macros, in a child test program
    void macroPasses()
    {
        const ChildRun r =
            runChild(QStringLiteral("project"), {{"WB_CHILD_PROJECT", project("pass/scale.wbproj")},
                                                 {"WARPBENCH_TEST_BACKEND", "cpu"}});
        QVERIFY2(r.output.contains(QLatin1String("PASS   : SdkChild::project()")),
                 qPrintable(r.output));
        QCOMPARE(r.exitCode, 0);
    }

    void macroFailsWithTheDiffTable()
    {
        const ChildRun r = runChild(QStringLiteral("project"),
                                    {{"WB_CHILD_PROJECT", project("mismatch/offbyone.wbproj")},
                                     {"WARPBENCH_TEST_BACKEND", "cpu"}});
        QCOMPARE(r.exitCode, 1); // Qt Test: the number of failed functions
        QVERIFY2(r.output.contains(QLatin1String(
                     "FAIL!  : SdkChild::project() 'WB_VERIFY_PROJECT(env(\"WB_CHILD_PROJECT\"))' "
                     "returned FALSE.")),
                 qPrintable(r.output));
        for (const char* text : {"project 'offbyone' on cpu", "mismatch", "2 of 32", "max abs",
                                 "first mismatches of 'out'", "[1, 3]", "[2, 5]", "compile log"})
            QVERIFY2(
                r.output.contains(QLatin1String(text)),
                qPrintable(QStringLiteral("no \"%1\" in:\n%2").arg(QLatin1String(text), r.output)));
        // Qt Test points at the line of the macro.
        QVERIFY2(r.output.contains(
                     QRegularExpression(QStringLiteral(R"(Loc: \[.*sdk_child\.cpp\(\d+\)\])"))),
                 qPrintable(r.output));
    }

    void macroFailsWithTheCompileLog()
    {
        const ChildRun r = runChild(QStringLiteral("project"),
                                    {{"WB_CHILD_PROJECT", project("broken/broken.wbproj")},
                                     {"WARPBENCH_TEST_BACKEND", "cpu"}});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.output.contains(QLatin1String("FAIL!  : SdkChild::project()")),
                 qPrintable(r.output));
        QVERIFY2(r.output.contains(QLatin1String("compile-error")), qPrintable(r.output));
        QVERIFY2(r.output.contains(QLatin1String("undeclared_scale")), qPrintable(r.output));
    }

    void macroSkipsOrFallsBackWithoutGpu()
    {
        const auto reason = wb::cudaUnavailableReason();
        if (!reason) QSKIP("a GPU is usable here: nothing to skip or fall back from");
        const ChildRun skipped =
            runChild(QStringLiteral("project"), {{"WB_CHILD_PROJECT", project("pass/scale.wbproj")},
                                                 {"WARPBENCH_TEST_BACKEND", "cuda"}});
        QCOMPARE(skipped.exitCode, 0);
        QVERIFY2(skipped.output.contains(QLatin1String(
                     "SKIP   : SdkChild::project() cuda backend unavailable: no usable GPU: ")),
                 qPrintable(skipped.output));
        QVERIFY2(skipped.output.contains(QString::fromStdString(*reason)),
                 qPrintable(skipped.output));

        // Opted in: the CPU emulator runs it; a mismatch there is still reported as such.
        const ChildRun fellBack = runChild(
            QStringLiteral("project"), {{"WB_CHILD_PROJECT", project("mismatch/offbyone.wbproj")},
                                        {"WARPBENCH_TEST_BACKEND", "cuda"},
                                        {"WARPBENCH_TEST_FALLBACK", "cpu"}});
        QCOMPARE(fellBack.exitCode, 1);
        QVERIFY2(fellBack.output.contains(QLatin1String("project 'offbyone' on cpu")),
                 qPrintable(fellBack.output));
        QVERIFY2(fellBack.output.contains(QLatin1String("ran on the CPU emulator instead of CUDA")),
                 qPrintable(fellBack.output));
    }

    void explicitOptionsWin()
    {
        // projectOnCpu passes RunOptions{.backend = Cpu}: the environment's "cuda" is not used.
        const ChildRun r = runChild(QStringLiteral("projectOnCpu"),
                                    {{"WB_CHILD_PROJECT", project("pass/scale.wbproj")},
                                     {"WARPBENCH_TEST_BACKEND", "cuda"}});
        QVERIFY2(r.output.contains(QLatin1String("PASS   : SdkChild::projectOnCpu()")),
                 qPrintable(r.output));
        QCOMPARE(r.exitCode, 0);
    }

    void dataRowsFromAFolder()
    {
        const ChildRun r =
            runChild(QStringLiteral("folder"),
                     {{"WB_CHILD_FOLDER", kData + "/folder"}, {"WARPBENCH_TEST_BACKEND", "cpu"}});
        QVERIFY2(r.output.contains(QLatin1String("PASS   : SdkChild::folder(scale_again)")),
                 qPrintable(r.output));
        QVERIFY2(r.output.contains(QLatin1String("FAIL!  : SdkChild::folder(sub/offbyone_again)")),
                 qPrintable(r.output));
        QVERIFY2(r.output.contains(QLatin1String("project 'offbyone_again' on cpu")),
                 qPrintable(r.output));
        QVERIFY2(r.output.contains(QLatin1String("[2, 5]")), qPrintable(r.output));
        QCOMPARE(r.output.count(QLatin1String("SdkChild::folder(")), 2);
        QCOMPARE(r.exitCode, 1);
    }

    void emptyFolderFails()
    {
        QTemporaryDir empty;
        QVERIFY(empty.isValid());
        const ChildRun r = runChild(QStringLiteral("folder"), {{"WB_CHILD_FOLDER", empty.path()},
                                                               {"WARPBENCH_TEST_BACKEND", "cpu"}});
        QVERIFY2(r.output.contains(QLatin1String("FAIL!  : SdkChild::folder((no projects))")),
                 qPrintable(r.output));
        QVERIFY2(r.output.contains(QLatin1String("is a folder, not a .wbproj project")),
                 qPrintable(r.output));
        QCOMPARE(r.exitCode, 1);
    }

    void sessionBuiltInCode()
    {
        const ChildRun pass =
            runChild(QStringLiteral("inCodePass"), {{"WARPBENCH_TEST_BACKEND", "cpu"}});
        QVERIFY2(pass.output.contains(QLatin1String("PASS   : SdkChild::inCodePass()")),
                 qPrintable(pass.output));
        QCOMPARE(pass.exitCode, 0);
        const ChildRun fail =
            runChild(QStringLiteral("inCodeMismatch"), {{"WARPBENCH_TEST_BACKEND", "cpu"}});
        QVERIFY2(fail.output.contains(
                     QLatin1String("FAIL!  : SdkChild::inCodeMismatch() "
                                   "'WB_VERIFY_SESSION(inCodeSession(false))' returned FALSE.")),
                 qPrintable(fail.output));
        QVERIFY2(fail.output.contains(QLatin1String("1 of 100")), qPrintable(fail.output));
        QVERIFY2(fail.output.contains(
                     QRegularExpression(QStringLiteral(R"(\[42\]\s+42\.5\s+43\.5\s+1)"))),
                 qPrintable(fail.output));
        QCOMPARE(fail.exitCode, 1);
    }
};

WB_QTEST_GUILESS_MAIN(TstWarpbenchTest)
#include "tst_warpbenchtest.moc"
