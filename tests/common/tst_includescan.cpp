// SPDX-License-Identifier: GPL-3.0-or-later
// scanIncludes: how every compiler of Warpbench resolves #include (issues 24, 25 and 26).
#include "core/common/IncludeScan.h"
#include "tests/support/SuiteMain.h"

#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QtTest/QtTest>

#include <sys/stat.h>
#include <sys/types.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

using wb::IncludePaths;
using wb::IncludeScan;
using wb::UserHeader;

namespace fs = std::filesystem;

namespace {

void writeFile(const fs::path& path, const std::string& text)
{
    fs::create_directories(path.parent_path());
    std::ofstream(path, std::ios::binary) << text;
}

std::string nameOf(std::size_t i, const UserHeader&)
{
    std::string name = "H";
    name += std::to_string(i); // not "H" + ...: GCC 12 warns falsely (-Wrestrict) on that
    return name;
}

int lines(const std::string& s)
{
    return static_cast<int>(std::count(s.begin(), s.end(), '\n'));
}

} // namespace

class TestIncludeScan : public QObject {
    Q_OBJECT

    QTemporaryDir m_tmp;
    fs::path m_project;
    fs::path m_outside;
    IncludePaths m_paths;

    IncludeScan scan(const std::string& source) const
    {
        return wb::scanIncludes(source, "kernel.cu", m_paths, nameOf);
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_tmp.isValid());
        const fs::path root = m_tmp.path().toStdString();
        m_project = root / "project";
        m_outside = root / "outside";
        writeFile(m_project / "src" / "kernel.cu", "");
        writeFile(m_project / "src" / "near.cuh", "#include \"shared.cuh\"\nint near;\n");
        writeFile(m_project / "shared.cuh", "#pragma once\nint shared;\n");
        writeFile(m_project / "inc" / "lib.h", "#include <cstdio>\nint lib;\n");
        writeFile(m_project / "inc" / "sub" / "deep.h", "#include \"../lib.h\"\n");
        writeFile(m_outside / "secret.txt", "root:x:0:0:secret line\n");
        writeFile(root / "system" / "stdio.h", "// stand-in\n");
        fs::create_directory_symlink(m_outside, m_project / "linked");
        m_paths.projectDir = m_project;
        m_paths.sourceDir = m_project / "src";
        m_paths.includeDirs = {m_project / "inc"};
        m_paths.systemDirs = {root / "system"};
    }

    /// Quoted: next to the including file, then the project folder, then includeDirs; angle:
    /// includeDirs. Each user header once, its directives pointed at the vetted copy.
    void resolvesInOrder()
    {
        const std::string src = "#include \"near.cuh\"\n"
                                "#include <lib.h>\n"
                                "  #  include \"sub/deep.h\" // a comment\n"
                                "__global__ void k() {}\n";
        const IncludeScan r = scan(src);
        QVERIFY(r.errors.empty());
        QCOMPARE(r.headers.size(), std::size_t{4});
        QCOMPARE(r.headers[0].displayName, std::string("src/near.cuh"));
        QCOMPARE(r.headers[1].displayName, std::string("inc/lib.h"));
        QCOMPARE(r.headers[2].displayName, std::string("inc/sub/deep.h"));
        QCOMPARE(r.headers[3].displayName, std::string("shared.cuh"));
        QCOMPARE(r.rewritten, std::string("#include \"H0\"\n"
                                          "#include \"H1\"\n"
                                          "  #  include \"H2\" // a comment\n"
                                          "__global__ void k() {}\n"));
        QCOMPARE(r.headers[0].rewritten, std::string("#include \"H3\"\nint near;\n"));
        QCOMPARE(r.headers[2].rewritten, std::string("#include \"H1\"\n"));
        // <cstdio> is found nowhere in user places: the compiler's business.
        QCOMPARE(r.headers[1].rewritten, r.headers[1].text);
        QVERIFY(std::find(r.systemIncludes.begin(), r.systemIncludes.end(), "cstdio") !=
                r.systemIncludes.end());
    }

    /// A quoted name found in no user place becomes an angle include, so that no compiler looks
    /// for it next to a file or in its working directory; system headers stay.
    void unresolvedQuotedBecomesAngle()
    {
        const IncludeScan r =
            scan("#include \"stdio.h\"\n#include \"missing.h\"\n#include <x.h>\n");
        QVERIFY(r.errors.empty());
        QCOMPARE(r.rewritten,
                 std::string("#include <stdio.h>\n#include <missing.h>\n#include <x.h>\n"));
    }

    /// Issue 25: nothing outside the project, its includeDirs and the system folders, however
    /// it is named; the message names the rule, never the file's contents.
    void outsideIsRefused_data()
    {
        QTest::addColumn<QString>("directive");
        QTest::newRow("absolute") << "#include \"/etc/passwd\"";
        QTest::newRow("absolute angle") << "#include </etc/passwd>";
        QTest::newRow("parents") << "#include \"../../../../../../../../etc/passwd\"";
        QTest::newRow("parents angle") << "#include <../../../../../../../../etc/passwd>";
        QTest::newRow("symbolic link") << "#include \"linked/secret.txt\"";
        QTest::newRow("parent of the project") << "#include \"../../outside/secret.txt\"";
        QTest::newRow("missing with parents") << "#include \"../../nowhere/x.h\"";
    }
    void outsideIsRefused()
    {
        QFETCH(QString, directive);
        const std::string src =
            "// line 1\n" + directive.toStdString() + "\n__global__ void k() {}\n";
        const IncludeScan r = scan(src);
        QCOMPARE(r.errors.size(), std::size_t{1});
        const wb::Diagnostic& d = r.errors[0];
        QCOMPARE(d.file, std::string("kernel.cu"));
        QCOMPARE(d.line, 2);
        QCOMPARE(d.severity, wb::Severity::Error);
        QVERIFY2(d.message.find("#include") == 0, d.message.c_str());
        QVERIFY2(d.message.find("project folder") != std::string::npos, d.message.c_str());
        QVERIFY(d.message.find("root:x") == std::string::npos);
        QVERIFY(r.headers.empty());
    }

    /// The rule holds in headers too, at the header's line.
    void refusedInsideAHeader()
    {
        writeFile(m_project / "bad.cuh", "\n\n#include \"/etc/hostname\"\n");
        const IncludeScan r = scan("#include \"../bad.cuh\"\n");
        QCOMPARE(r.errors.size(), std::size_t{1});
        QCOMPARE(r.errors[0].file, std::string("bad.cuh"));
        QCOMPARE(r.errors[0].line, 3);
    }

    /// Issue 26: a FIFO (or a directory, or a device) is refused at once, never opened for a
    /// blocking read.
    void specialFilesAreRefusedQuickly_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("kind");
        QTest::newRow("fifo") << "pipe.cuh"
                              << "FIFO";
        QTest::newRow("directory") << "folder.cuh"
                                   << "directory";
    }
    void specialFilesAreRefusedQuickly()
    {
        QFETCH(QString, name);
        QFETCH(QString, kind);
        const fs::path path = m_project / "src" / name.toStdString();
        if (!fs::exists(path)) {
            if (kind == "FIFO")
                QCOMPARE(::mkfifo(path.c_str(), 0600), 0);
            else
                fs::create_directory(path);
        }
        QElapsedTimer timer;
        timer.start();
        const IncludeScan r = scan("\n#include \"" + name.toStdString() + "\"\n");
        QVERIFY2(timer.elapsed() < 2000, QByteArray::number(timer.elapsed()));
        QCOMPARE(r.errors.size(), std::size_t{1});
        QCOMPARE(r.errors[0].line, 2);
        QVERIFY2(r.errors[0].message.find(kind.toStdString()) != std::string::npos,
                 r.errors[0].message.c_str());
    }

    /// A macro naming a header is followed when the scanned files define it; any other
    /// computed include is refused, naming what to write instead.
    void computedIncludes()
    {
        const IncludeScan ok = scan("#define HEADER \"near.cuh\"\n#include HEADER\n");
        QVERIFY(ok.errors.empty());
        QCOMPARE(ok.headers.size(), std::size_t{2});
        QCOMPARE(ok.rewritten, std::string("#define HEADER \"near.cuh\"\n#include \"H0\"\n"));
        const IncludeScan bad = scan("#include SOMEWHERE(x)\n");
        QCOMPARE(bad.errors.size(), std::size_t{1});
        QVERIFY(bad.errors[0].message.find("computed #include") != std::string::npos);
    }

    /// `#if 0` groups and comments include nothing; every other branch is followed.
    void disabledTextIncludesNothing()
    {
        const std::string src =
            "#if 0\n#include \"/etc/passwd\"\n#else\n#include \"near.cuh\"\n"
            "#endif\n/* #include \"/etc/passwd\" */\n// #include </etc/shadow>\n"
            "#ifdef SOMETHING\n#include <lib.h>\n#endif\n";
        const IncludeScan r = scan(src);
        QVERIFY(r.errors.empty());
        QCOMPARE(r.headers.size(), std::size_t{3}); // near, shared, lib
        QCOMPARE(lines(r.rewritten), lines(src));
    }

    /// Without a project folder the source's own folder stands for it.
    void pathsOfOptions()
    {
        wb::CompileOptions o;
        o.includeDirs = {"inc"};
        o.projectDir = m_project.string();
        const IncludePaths p = wb::includePathsOf(o, "kernel.cu", {});
        QCOMPARE(p.projectDir, m_project);
        QCOMPARE(p.sourceDir, m_project);
        QCOMPARE(p.includeDirs, (std::vector<fs::path>{m_project / "inc"}));
        const IncludePaths named =
            wb::includePathsOf({}, (m_project / "src" / "k.cu").string(), {});
        QCOMPARE(named.projectDir, m_project / "src");
    }
};

WB_QTEST_GUILESS_MAIN(TestIncludeScan)
#include "tst_includescan.moc"
