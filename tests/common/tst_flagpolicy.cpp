// SPDX-License-Identifier: GPL-3.0-or-later
// wb::FlagPolicy: the compiler flags a project may pass without the user's trust (issue 15).
#include "core/common/FlagPolicy.h"
#include "tests/support/SuiteMain.h"

#include <QTemporaryDir>
#include <QtTest>

#include <filesystem>
#include <fstream>

using namespace wb;

namespace fs = std::filesystem;

class TestFlagPolicy : public QObject {
    Q_OBJECT
    QTemporaryDir m_tmp;
    fs::path m_project; // <tmp>/project, with include/ and a link to the outside
    fs::path m_outside; // <tmp>/outside

    std::vector<FlagRefusal> host(const std::vector<std::string>& flags) const
    {
        return FlagPolicy(m_project).check(FlagPolicy::Compiler::Host, flags, "reference.flags");
    }
    std::vector<FlagRefusal> nvrtc(const std::vector<std::string>& flags) const
    {
        return FlagPolicy(m_project).check(FlagPolicy::Compiler::Nvrtc, flags,
                                           "compileOptions.extraFlags");
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_tmp.isValid());
        m_project = fs::path(m_tmp.path().toStdString()) / "project";
        m_outside = fs::path(m_tmp.path().toStdString()) / "outside";
        fs::create_directories(m_project / "include");
        fs::create_directories(m_outside);
        fs::create_directory_symlink(m_outside, m_project / "escape");
        std::ofstream(m_project / "include" / "config.h") << "#define X 1\n";
    }

    void hostAllowed_data()
    {
        QTest::addColumn<QStringList>("flags");
        QTest::newRow("optimisation") << QStringList{"-O0", "-O2", "-O3", "-Os", "-Ofast", "-Og"};
        QTest::newRow("defines") << QStringList{"-DTILE=16", "-D", "N=4", "-UNDEBUG",
                                                "-DMSG=\"a b\""};
        QTest::newRow("std and arch")
            << QStringList{"-std=c++20", "-std=gnu++17", "-march=native", "-mtune=znver4"};
        QTest::newRow("target options") << QStringList{"-mavx2", "-mfma", "-mno-avx512f"};
        QTest::newRow("warnings") << QStringList{"-Wall", "-Wextra", "-Werror=shadow",
                                                 "-Wno-unused"};
        QTest::newRow("codegen") << QStringList{"-ffast-math", "-funroll-loops",
                                                "-fopenmp",    "-g",
                                                "-pthread",    "-fsanitize=address,undefined"};
        QTest::newRow("include inside") << QStringList{
            "-Iinclude", "-I", "include", "-isystem", "include", "-include", "include/config.h"};
        QTest::newRow("libraries") << QStringList{"-lm", "-Llib"};
        QTest::newRow("param") << QStringList{"--param=max-unroll-times=4", "--param",
                                              "l1-cache-size=32"};
    }
    void hostAllowed()
    {
        QFETCH(QStringList, flags);
        std::vector<std::string> v;
        for (const QString& f : flags)
            v.push_back(f.toStdString());
        const auto refused = host(v);
        QVERIFY2(refused.empty(), FlagPolicy::describe(refused).c_str());
    }

    void hostRefused_data()
    {
        QTest::addColumn<QStringList>("flags");
        QTest::addColumn<QString>("shown");  // the flag as the message names it
        QTest::addColumn<QString>("reason"); // a word of the reason
        QTest::newRow("wrapper") << QStringList{"-wrapper", "/bin/sh,-c,touch /tmp/pwned"}
                                 << "-wrapper /bin/sh,-c,touch /tmp/pwned"
                                 << "runs a program";
        QTest::newRow("plugin") << QStringList{"-fplugin=/tmp/evil.so"} << "-fplugin=/tmp/evil.so"
                                << "plugin";
        QTest::newRow("B joined") << QStringList{"-B/tmp/evil"} << "-B/tmp/evil"
                                  << "programs";
        QTest::newRow("B separate") << QStringList{"-B", "/tmp"} << "-B /tmp"
                                    << "programs";
        QTest::newRow("specs") << QStringList{"-specs=/tmp/x.specs"} << "-specs=/tmp/x.specs"
                               << "specs";
        QTest::newRow("response file") << QStringList{"@/tmp/flags"} << "@/tmp/flags"
                                       << "response file";
        QTest::newRow("output") << QStringList{"-o", "/tmp/x"} << "-o /tmp/x"
                                << "output";
        QTest::newRow("language") << QStringList{"-x", "assembler"} << "-x assembler"
                                  << "language";
        QTest::newRow("linker passthrough")
            << QStringList{"-Wl,-plugin,/tmp/p.so"} << "-Wl,-plugin,/tmp/p.so"
            << "linker";
        QTest::newRow("assembler passthrough")
            << QStringList{"-Wa,--defsym,x=1"} << "-Wa,--defsym,x=1"
            << "assembler";
        QTest::newRow("use-ld") << QStringList{"-fuse-ld=/tmp/ld"} << "-fuse-ld=/tmp/ld"
                                << "linker";
        QTest::newRow("input file") << QStringList{"/tmp/extra.cpp"} << "/tmp/extra.cpp"
                                    << "input";
        QTest::newRow("-I absolute outside") << QStringList{"-I/etc"} << "-I/etc"
                                             << "outside";
        QTest::newRow("-I traversal") << QStringList{"-I../.."} << "-I../.."
                                      << "outside";
        QTest::newRow("-I via symlink") << QStringList{"-Iescape"} << "-Iescape"
                                        << "outside";
        QTest::newRow("-isystem outside") << QStringList{"-isystem", "/usr/include/../../etc"}
                                          << "-isystem /usr/include/../../etc"
                                          << "outside";
        QTest::newRow("-include outside")
            << QStringList{"-include", "/etc/passwd"} << "-include /etc/passwd"
            << "outside";
        QTest::newRow("-L outside") << QStringList{"-L/tmp"} << "-L/tmp"
                                    << "outside";
        QTest::newRow("save-temps") << QStringList{"-save-temps"} << "-save-temps"
                                    << "writes";
        QTest::newRow("dependency file") << QStringList{"-MF/tmp/x.d"} << "-MF/tmp/x.d"
                                         << "writes";
        QTest::newRow("missing argument") << QStringList{"-D"} << "-D"
                                          << "argument";
        QTest::newRow("unknown") << QStringList{"-frecord-gcc-switches"} << "-frecord-gcc-switches"
                                 << "not in the set";
    }
    void hostRefused()
    {
        QFETCH(QStringList, flags);
        QFETCH(QString, shown);
        QFETCH(QString, reason);
        std::vector<std::string> v{"-O2"}; // an allowed flag before it changes nothing
        for (const QString& f : flags)
            v.push_back(f.toStdString());
        const auto refused = host(v);
        QCOMPARE(refused.size(), std::size_t(1));
        QCOMPARE(QString::fromStdString(refused[0].flag), shown);
        QCOMPARE(refused[0].field, std::string("reference.flags"));
        QVERIFY2(QString::fromStdString(refused[0].reason).contains(reason),
                 refused[0].reason.c_str());
        // The message names the field and the flag.
        const std::string text = FlagPolicy::describe(refused);
        QVERIFY(text.find("reference.flags: '" + shown.toStdString() + "'") != std::string::npos);
    }

    void everyRefusalIsListed()
    {
        const auto refused = host({"-wrapper", "/bin/sh", "-fplugin=x.so", "-O2", "-B/tmp"});
        QCOMPARE(refused.size(), std::size_t(3));
    }

    void nvrtcAllowed()
    {
        const auto refused =
            nvrtc({"--use_fast_math", "-lineinfo", "-G", "-arch=sm_90", "--std=c++17", "-DTILE=8",
                   "-Iinclude", "--include-path=include", "--pre-include=include/config.h",
                   "--fmad=false", "-maxrregcount=64", "--ptxas-options=-v", "--diag-suppress=177",
                   "-rdc=true"});
        QVERIFY2(refused.empty(), FlagPolicy::describe(refused).c_str());
    }

    void nvrtcRefused_data()
    {
        QTest::addColumn<QString>("flag");
        QTest::newRow("include outside") << "-I/etc";
        QTest::newRow("include-path traversal") << "--include-path=../../..";
        QTest::newRow("pre-include outside") << "--pre-include=/etc/passwd";
        QTest::newRow("pre-include via symlink") << "-include=escape/x.h";
        QTest::newRow("time file") << "--time=/tmp/t.csv";
        QTest::newRow("ptxas other") << "--ptxas-options=--output-file=/tmp/x";
        QTest::newRow("unknown") << "--something-new";
    }
    void nvrtcRefused()
    {
        QFETCH(QString, flag);
        const auto refused = nvrtc({flag.toStdString()});
        QCOMPARE(refused.size(), std::size_t(1));
        QCOMPARE(QString::fromStdString(refused[0].flag), flag);
        QCOMPARE(refused[0].field, std::string("compileOptions.extraFlags"));
    }

    void includeDirs()
    {
        const FlagPolicy policy(m_project);
        QVERIFY(
            policy.checkIncludeDirs({"include", (m_project / "include").string()}, "f").empty());
        const auto refused = policy.checkIncludeDirs({"/usr/include", "../outside", "escape"},
                                                     "compileOptions.includeDirs");
        QCOMPARE(refused.size(), std::size_t(3));
        QCOMPARE(refused[1].flag, std::string("../outside"));
        QVERIFY(!policy.isInsideProject(""));
        QVERIFY(policy.isInsideProject("."));
        QVERIFY(policy.isInsideProject("not/yet/there"));
        QVERIFY(!policy.isInsideProject("include/../../outside"));
    }
};

WB_QTEST_GUILESS_MAIN(TestFlagPolicy)
#include "tst_flagpolicy.moc"
