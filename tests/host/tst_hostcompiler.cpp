// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/common/DynamicLibrary.h"
#include "core/host/HostCompiler.h"
#include "tests/support/SuiteMain.h"

#include <QtTest/QtTest>

#include <chrono>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sys/stat.h>
#include <unistd.h>

using namespace wb;

namespace {

/// A stand-in for g++ that answers --version like g++ and fails every compile printing `said`
/// (the lines a real g++ prints when it runs out of memory, crashes or finds the disk full).
QString fakeCompiler(const QTemporaryDir& dir, const QString& name, const QString& said)
{
    const QString path = dir.filePath(name);
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly)) return {};
    f.write("#!/bin/sh\n"
            "case \"$1\" in --version) echo 'g++ (Fake) 12.2.0'; exit 0;; esac\n"
            "cat >&2 <<'EOF'\n" +
            said.toUtf8() + "\nEOF\nexit 1\n");
    f.close();
    f.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    return path;
}

/// The HostCompiler that $WARPBENCH_CXX=`exe` finds (the variable is restored).
std::optional<HostCompiler> compilerAt(const QString& exe)
{
    const QByteArray old = qgetenv("WARPBENCH_CXX");
    qputenv("WARPBENCH_CXX", exe.toUtf8());
    auto c = HostCompiler::find();
    if (old.isNull())
        qunsetenv("WARPBENCH_CXX");
    else
        qputenv("WARPBENCH_CXX", old);
    return c;
}

/// The message of the first error diagnostic, or "".
std::string firstError(const HostCompileResult& r)
{
    for (const Diagnostic& d : r.diagnostics)
        if (d.severity == Severity::Error || d.severity == Severity::Fatal) return d.message;
    return {};
}

/// Whether a process whose command line mentions `needle` is alive (zombies have none).
bool processMentioning(const std::string& needle)
{
    for (const auto& e : std::filesystem::directory_iterator("/proc")) {
        const std::string name = e.path().filename().string();
        if (name.find_first_not_of("0123456789") != std::string::npos) continue;
        std::ifstream in(e.path() / "cmdline", std::ios::binary);
        std::string cmdline((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        if (cmdline.find(needle) != std::string::npos && name != std::to_string(::getpid()))
            return true;
    }
    return false;
}

/// Mounts a tmpfs of `size` (with `options`) on `dir`; false where this process may not.
bool mountTmpfs(const QString& dir, const QString& options)
{
    QProcess p;
    p.start(QStringLiteral("mount"), {QStringLiteral("-t"), QStringLiteral("tmpfs"),
                                      QStringLiteral("-o"), options, QStringLiteral("tmpfs"), dir});
    return p.waitForFinished(10000) && p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0;
}

void unmount(const QString& dir)
{
    QProcess::execute(QStringLiteral("umount"), {dir});
}

} // namespace

class TestHostCompiler : public QObject {
    Q_OBJECT

private:
    static HostCompiler compiler()
    {
        auto c = HostCompiler::find();
        if (!c) qFatal("no host compiler: %s", HostCompiler::unavailableReason().c_str());
        return *c;
    }

    QTemporaryDir m_cache;

private Q_SLOTS:
    void initTestCase()
    {
        // A fresh cache per run, so "first compile is a miss" holds on every run.
        QVERIFY(m_cache.isValid());
        qputenv("WARPBENCH_CACHE_DIR", m_cache.path().toUtf8());
    }

    void findsCompiler()
    {
        auto c = HostCompiler::find();
        QVERIFY2(c.has_value(), HostCompiler::unavailableReason().c_str());
        QVERIFY(std::filesystem::exists(c->executable()));
        QVERIFY2(c->version().rfind("g++ ", 0) == 0 || c->version().rfind("clang++ ", 0) == 0,
                 c->version().c_str());
        QVERIFY(HostCompiler::unavailableReason().empty());
    }

    void compilesLoadsAndCalls()
    {
        HostCompileRequest req;
        req.sourceName = "adder.cpp";
        req.source = "extern \"C\" int wb_add(int a, int b) { return a * 10 + b; }\n";
        req.flags = {"-O2"};
        const HostCompileResult r = compiler().compileSharedLibrary(req);
        QVERIFY2(r.ok, r.log.c_str());
        QVERIFY(!r.cacheHit);
        QVERIFY(r.diagnostics.empty());
        QVERIFY(r.commandLine.find("-shared") != std::string::npos);
        QVERIFY(std::filesystem::exists(r.libraryPath));
        DynamicLibrary lib = DynamicLibrary::open({r.libraryPath});
        QVERIFY2(lib.isOpen(), lib.error().c_str());
        auto fn = lib.function<int (*)(int, int)>("wb_add");
        QVERIFY(fn != nullptr);
        QCOMPARE(fn(4, 2), 42);
        QCOMPARE(fn(-1, 7), -3);
    }

    void definesAndIncludeDirsArePassed()
    {
        const QTemporaryDir inc;
        QVERIFY(inc.isValid());
        {
            QFile h(inc.filePath("wb_probe.h"));
            QVERIFY(h.open(QIODevice::WriteOnly));
            h.write("#define WB_FROM_HEADER 5\n");
        }
        HostCompileRequest req;
        req.sourceName = "defs.cpp";
        req.source = "#include \"wb_probe.h\"\nextern \"C\" int wb_value() { return WB_FROM_HEADER "
                     "+ WB_DEF + WB_FLAG; }\n";
        req.includeDirs = {inc.path().toStdString()};
        req.defines = {{"WB_DEF", "30"}, {"WB_FLAG", ""}};
        const HostCompileResult r = compiler().compileSharedLibrary(req);
        QVERIFY2(r.ok, r.log.c_str());
        DynamicLibrary lib = DynamicLibrary::open({r.libraryPath});
        QVERIFY2(lib.isOpen(), lib.error().c_str());
        auto fn = lib.function<int (*)()>("wb_value");
        QVERIFY(fn != nullptr);
        QCOMPARE(fn(), 36); // -DWB_FLAG defines it as 1
    }

    void errorAtUserLineAndColumn_data()
    {
        QTest::addColumn<QString>("cxx");
        QTest::newRow("g++") << QStringLiteral("g++");
        QTest::newRow("clang++") << QStringLiteral("clang++");
    }

    void errorAtUserLineAndColumn()
    {
        QFETCH(QString, cxx);
        if (QStandardPaths::findExecutable(cxx).isEmpty())
            QSKIP(qPrintable(cxx + " is not installed here"));
        const QByteArray old = qgetenv("WARPBENCH_CXX");
        qputenv("WARPBENCH_CXX", cxx.toUtf8());
        const auto found = HostCompiler::find();
        if (old.isNull())
            qunsetenv("WARPBENCH_CXX");
        else
            qputenv("WARPBENCH_CXX", old);
        QVERIFY2(found.has_value(), HostCompiler::unavailableReason().c_str());
        QCOMPARE(found->isClang(), cxx == QStringLiteral("clang++"));
        HostCompileRequest req;
        req.sourceName = "wrapper.cpp";
        req.source = "// generated preamble\nstatic int helper() { return 1; }\n"
                     "#line 1 \"kernel.cu\"\n"
                     "int f()\n"
                     "{\n"
                     "    return helper() + undeclared_thing;\n"
                     "}\n";
        const HostCompileResult r = found->compileSharedLibrary(req);
        QVERIFY(!r.ok);
        QVERIFY(r.libraryPath.empty());
        QVERIFY(hasErrors(r.diagnostics));
        const Diagnostic* err = nullptr;
        for (const Diagnostic& d : r.diagnostics)
            if (d.severity == Severity::Error && !err) err = &d;
        QVERIFY(err);
        QCOMPARE(QString::fromStdString(err->file), QStringLiteral("kernel.cu"));
        QCOMPARE(err->line, 3);
        QCOMPARE(err->column, 23);
        QVERIFY2(err->message.find("undeclared_thing") != std::string::npos, err->message.c_str());
    }

    void parsesGccFormats()
    {
        const std::string log = "kernel.cu: In instantiation of 'void f(T) [with T = int]':\n"
                                "kernel.cu:10:6:   required from here\n"
                                "kernel.cu:3:7: error: 'x' was not declared in this scope\n"
                                "    3 |   int y = x;\n"
                                "      |       ^\n"
                                "kernel.cu:2:6: note: declared here\n"
                                "kernel.cu:5:9: warning: unused variable 'z' [-Wunused-variable]\n"
                                "kernel.cu:7: error: no column here\n"
                                "cc1plus: fatal error: something.h: No such file or directory\n"
                                "/usr/bin/ld: cannot find -lnothing: No such file or directory\n"
                                "collect2: error: ld returned 1 exit status\n";
        const auto ds = parseGccDiagnostics(log);
        QCOMPARE(ds.size(), std::size_t{6});
        QCOMPARE(ds[0].line, 3);
        QCOMPARE(ds[0].column, 7);
        QCOMPARE(ds[0].severity, Severity::Error);
        QCOMPARE(ds[0].context.size(), std::size_t{2});
        QVERIFY(ds[0].context[0].find("In instantiation of") != std::string::npos);
        QVERIFY(ds[0].context[1].find("required from here") != std::string::npos);
        QCOMPARE(ds[1].severity, Severity::Note);
        QCOMPARE(ds[1].line, 2);
        QCOMPARE(ds[2].severity, Severity::Warning);
        QCOMPARE(QString::fromStdString(ds[2].code), QStringLiteral("-Wunused-variable"));
        QCOMPARE(QString::fromStdString(ds[2].message), QStringLiteral("unused variable 'z'"));
        QCOMPARE(ds[3].line, 7);
        QCOMPARE(ds[3].column, 0);
        QCOMPARE(ds[4].severity, Severity::Fatal);
        QCOMPARE(ds[4].line, 0);
        QVERIFY(ds[5].message.find("cannot find -lnothing") != std::string::npos);
    }

    // Issue 15: user text (identifiers, file names) of any length is parsed in linear time;
    // std::regex recursed per character and died with SIGSEGV on a 50,000-character identifier.
    void longIdentifiersDoNotCrash()
    {
        const std::string id(50'000, 'a');
        const std::string log =
            id + ".cpp: In function 'void " + id + "()':\n" + id + ".cpp:3:7: error: '" + id +
            "' was not declared in this " + "scope [-Wtemplate-body]\n" + "In file included from " +
            id + ".h:1,\n" + "                 from " + id + ".cpp:1:\n" + id +
            ".h:2:5: warning: unused '" + id + "'\n" + "cc1plus: error: " + id + "\n" +
            "/usr/bin/ld: " + id + "\n" + std::string(100'000, ':') + "\n";
        const auto ds = parseGccDiagnostics(log);
        QCOMPARE(ds.size(), std::size_t{4});
        QCOMPARE(ds[0].file, id + ".cpp");
        QCOMPARE(ds[0].line, 3);
        QCOMPARE(ds[0].column, 7);
        QCOMPARE(ds[0].code, std::string("-Wtemplate-body"));
        QCOMPARE(ds[0].message, "'" + id + "' was not declared in this scope");
        QCOMPARE(ds[0].context.size(), std::size_t{1});
        QCOMPARE(ds[1].severity, Severity::Warning);
        QCOMPARE(ds[1].context.size(), std::size_t{2});
        QCOMPARE(ds[2].message, id);
        QCOMPARE(ds[3].message, id);
    }

    void pathologicalLinesStayLinear()
    {
        // Many candidate "file:line:" splits, none of which is a diagnostic, and a line number
        // that does not fit an int (std::stoi threw std::out_of_range on it).
        std::string colons;
        for (int i = 0; i < 50'000; ++i)
            colons += "1:";
        std::string brackets = "f.cpp:1:1: warning: x";
        for (int i = 0; i < 50'000; ++i)
            brackets += " [";
        brackets += "-Wx]";
        QElapsedTimer timer;
        timer.start();
        const auto ds =
            parseGccDiagnostics(colons + "\n" + colons + " x\n" +
                                "f.cpp:99999999999999999999: error: big\n" + brackets + "\n");
        QVERIFY2(timer.elapsed() < 5'000, QByteArray::number(timer.elapsed()));
        QCOMPARE(ds.size(), std::size_t{1});
        QCOMPARE(ds[0].code, std::string("-Wx"));
    }

    void sourceNameIsNeverAnOption()
    {
        HostCompileRequest req;
        req.sourceName = "-o";
        req.source = "extern \"C\" int seven() { return 7; }\n";
        const HostCompileResult r = compiler().compileSharedLibrary(req);
        QVERIFY2(r.ok, r.log.c_str());
        QVERIFY2(r.commandLine.find(" ./-o ") != std::string::npos, r.commandLine.c_str());
    }

    void parsesClangFormats()
    {
        const std::string log =
            "kernel.cu:3:13: error: use of undeclared identifier 'x'\n"
            "    int y = x;\n"
            "            ^\n"
            "kernel.cu:10:5: note: in instantiation of function template specialization "
            "'f<int>' requested here\n"
            "    f(1);\n"
            "    ^\n"
            "1 error generated.\n";
        const auto ds = parseGccDiagnostics(log);
        QCOMPARE(ds.size(), std::size_t{1});
        QCOMPARE(ds[0].column, 13);
        QCOMPARE(ds[0].context.size(), std::size_t{1});
        QVERIFY(ds[0].context[0].find("kernel.cu:10:5") != std::string::npos);
    }

    void realTemplateErrorCarriesInstantiationContext()
    {
        HostCompileRequest req;
        req.sourceName = "tmpl.cpp";
        req.source = "#line 1 \"kernel.cu\"\n"
                     "template <typename T> int f(T t) { return t.missing; }\n"
                     "int g() { return f(1); }\n";
        const HostCompileResult r = compiler().compileSharedLibrary(req);
        QVERIFY(!r.ok);
        QVERIFY(!r.diagnostics.empty());
        const Diagnostic& d = r.diagnostics.front();
        QCOMPARE(d.severity, Severity::Error);
        QCOMPARE(d.line, 1);
        QVERIFY2(!d.context.empty(), r.log.c_str());
        bool mentionsCaller = false;
        for (const std::string& c : d.context)
            mentionsCaller = mentionsCaller || c.find("kernel.cu:2") != std::string::npos;
        QVERIFY2(mentionsCaller, r.log.c_str());
    }

    void precompiledHeaderIsFoundFirst()
    {
        const HostCompiler c = compiler();
        const QTemporaryDir src;
        QVERIFY(src.isValid());
        QDir(src.path()).mkpath(QStringLiteral("lib"));
        {
            QFile h(src.filePath(QStringLiteral("lib/big.h")));
            QVERIFY(h.open(QIODevice::WriteOnly));
            h.write("#pragma once\n#include <vector>\n#include \"lib/helper.h\"\ninline int big() "
                    "{ return helper() + 1; }\n");
            QFile g(src.filePath(QStringLiteral("lib/helper.h")));
            QVERIFY(g.open(QIODevice::WriteOnly));
            g.write("#pragma once\ninline int helper() { return 41; }\n");
        }
        HostCompileRequest req;
        req.flags = {"-O2"};
        req.includeDirs = {src.path().toStdString()};
        const std::string dir = c.precompileHeader(
            src.filePath(QStringLiteral("lib/big.h")).toStdString(), "lib/big.h", req);
        if (c.isClang()) {
            QVERIFY(dir.empty());
            return;
        }
        QVERIFY(!dir.empty());
        QVERIFY(std::filesystem::exists(std::filesystem::path(dir) / "lib" / "big.h.gch"));
        QCOMPARE(c.precompileHeader(src.filePath(QStringLiteral("lib/big.h")).toStdString(),
                                    "lib/big.h", req),
                 dir);
        // Used by a compile with the same flags, the header included twice.
        req.sourceName = "use.cpp";
        req.source = "#include \"lib/big.h\"\n#include \"lib/big.h\"\nextern \"C\" int wb_big() { "
                     "return big(); }\n";
        req.flags = {"-I", dir, "-O2", "-Winvalid-pch"};
        const HostCompileResult r = c.compileSharedLibrary(req);
        QVERIFY2(r.ok, r.log.c_str());
        QVERIFY2(r.diagnostics.empty(), r.log.c_str()); // -Winvalid-pch: the .gch was accepted
        DynamicLibrary lib = DynamicLibrary::open({r.libraryPath});
        auto fn = lib.function<int (*)()>("wb_big");
        QVERIFY(fn != nullptr);
        QCOMPARE(fn(), 42);
    }

    void missingCompilerHasClearReason()
    {
        const QByteArray old = qgetenv("WARPBENCH_CXX");
        qputenv("WARPBENCH_CXX", "/nonexistent/c++");
        const auto c = HostCompiler::find();
        const std::string why = HostCompiler::unavailableReason();
        if (old.isNull())
            qunsetenv("WARPBENCH_CXX");
        else
            qputenv("WARPBENCH_CXX", old);
        QVERIFY(!c.has_value());
        QVERIFY2(why.find("/nonexistent/c++") != std::string::npos, why.c_str());
        QVERIFY2(why.find("WARPBENCH_CXX") != std::string::npos, why.c_str());
    }

    void cacheHitReturnsSameLibrary()
    {
        HostCompileRequest req;
        req.sourceName = "cached.cpp";
        req.source = "extern \"C\" int wb_cached() { return 7; }\n"
                     "#warning cached warning\n";
        const HostCompiler c = compiler();
        const HostCompileResult first = c.compileSharedLibrary(req);
        QVERIFY2(first.ok, first.log.c_str());
        QVERIFY(!first.cacheHit);
        QCOMPARE(first.diagnostics.size(), std::size_t{1});
        const HostCompileResult second = c.compileSharedLibrary(req);
        QVERIFY(second.ok);
        QVERIFY(second.cacheHit);
        QCOMPARE(second.libraryPath, first.libraryPath);
        QCOMPARE(second.diagnostics, first.diagnostics); // warnings survive a cache hit
        QVERIFY(second.compileMs < first.compileMs);

        req.flags = {"-O1"}; // other flags, other library
        const HostCompileResult third = c.compileSharedLibrary(req);
        QVERIFY(third.ok);
        QVERIFY(!third.cacheHit);
        QVERIFY(third.libraryPath != first.libraryPath);
        // No temporary build folders are left behind.
        int leftovers = 0;
        for (const auto& e : std::filesystem::directory_iterator(
                 std::filesystem::path(first.libraryPath).parent_path()))
            leftovers += e.path().filename().string().rfind("build-", 0) == 0 ? 1 : 0;
        QCOMPARE(leftovers, 0);
    }

    void damagedCachedLibraryIsRebuilt()
    {
        // A truncated .so in the cache used to be "hit" forever: every later load failed (or
        // SIGBUS once mapped). Now it is checked against its size, ELF header and .sum.
        HostCompileRequest req;
        req.sourceName = "damaged.cpp";
        req.source = "extern \"C\" int wb_damaged() { return 11; }\n";
        const HostCompiler c = compiler();
        const HostCompileResult first = c.compileSharedLibrary(req);
        QVERIFY2(first.ok, first.log.c_str());
        const std::filesystem::path lib = first.libraryPath;
        const auto size = std::filesystem::file_size(lib);
        std::filesystem::resize_file(lib, size / 2);
        const HostCompileResult second = c.compileSharedLibrary(req);
        QVERIFY2(second.ok, second.log.c_str());
        QVERIFY(!second.cacheHit);
        QCOMPARE(std::filesystem::file_size(lib), size);
        {
            DynamicLibrary loaded = DynamicLibrary::open({second.libraryPath});
            QVERIFY2(loaded.isOpen(), loaded.error().c_str());
            QCOMPARE(loaded.function<int (*)()>("wb_damaged")(), 11);
        }
        QVERIFY(c.compileSharedLibrary(req).cacheHit); // valid again: a hit

        // Same size, one byte flipped: the checksum notices.
        {
            std::fstream f(lib, std::ios::in | std::ios::out | std::ios::binary);
            f.seekp(static_cast<std::streamoff>(size / 2));
            f.put('\x5a');
        }
        QVERIFY(!c.compileSharedLibrary(req).cacheHit);
        // Not an ELF file at all.
        {
            std::ofstream f(lib, std::ios::binary | std::ios::trunc);
            f << std::string(static_cast<std::size_t>(size), 'x');
        }
        const HostCompileResult rebuilt = c.compileSharedLibrary(req);
        QVERIFY(rebuilt.ok && !rebuilt.cacheHit);
    }

    void cacheIsTrimmedToItsLimit()
    {
        namespace fs = std::filesystem;
        const fs::path dir = fs::path(m_cache.path().toStdString()) / "host";
        fs::create_directories(dir);
        // Two old 600 KiB entries and a 1 MiB limit: building a third trims the oldest.
        const auto plant = [&dir](const std::string& key, int hoursAgo) {
            for (const char* ext : {".so", ".sum", ".log"}) {
                std::ofstream(dir / (key + ext), std::ios::binary)
                    << std::string(std::string(ext) == ".so" ? 600 * 1024 : 10, 'x');
                fs::last_write_time(dir / (key + ext), fs::file_time_type::clock::now() -
                                                           std::chrono::hours(hoursAgo));
            }
        };
        plant("oldest", 3);
        plant("older", 2);
        qputenv("WARPBENCH_CACHE_MAX_MB", "1");
        HostCompileRequest req;
        req.sourceName = "trim.cpp";
        req.source = "extern \"C\" int wb_trim() { return 1; }\n";
        const HostCompileResult r = compiler().compileSharedLibrary(req);
        qunsetenv("WARPBENCH_CACHE_MAX_MB");
        QVERIFY2(r.ok, r.log.c_str());
        QVERIFY(fs::exists(r.libraryPath)); // the new entry always stays
        QVERIFY(!fs::exists(dir / "oldest.so"));
        QVERIFY(!fs::exists(dir / "oldest.sum"));
        QVERIFY(!fs::exists(dir / "oldest.log"));
        std::uintmax_t total = 0;
        for (const auto& e : fs::directory_iterator(dir))
            if (e.is_regular_file()) total += e.file_size();
        QVERIFY2(total <= std::uintmax_t{1} << 20, std::to_string(total).c_str());
    }

    // Issue 26: the compiler's own fatal lines say why it failed, not an exit code alone.
    void fatalCompilerLinesPassThrough()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const auto oom = compilerAt(fakeCompiler(
            dir, "oom-g++",
            "cc1plus: out of memory allocating 2147483664 bytes after a total of 1234 bytes"));
        QVERIFY2(oom.has_value(), HostCompiler::unavailableReason().c_str());
        HostCompileRequest req;
        req.sourceName = "oom.cpp";
        req.source = "int x;\n";
        HostCompileResult r = oom->compileSharedLibrary(req);
        QVERIFY(!r.ok);
        QVERIFY(r.environmentError.empty()); // the compiler's failure, not the cache's
        QCOMPARE(QString::fromStdString(firstError(r)),
                 QStringLiteral("the host compiler failed with exit code 1: cc1plus: out of "
                                "memory allocating 2147483664 bytes after a total of 1234 bytes"));

        const auto ice = compilerAt(fakeCompiler(
            dir, "ice-g++",
            "oom.cpp: In function 'int f()':\n"
            "oom.cpp:3:1: internal compiler error: Segmentation fault\n"
            "0x7f1234 crash_signal\n"
            "Please submit a full bug report, with preprocessed source (by using "
            "-freport-bug).\nSee <file:///usr/share/doc/gcc-12/README.Bugs> for instructions."));
        QVERIFY(ice.has_value());
        r = ice->compileSharedLibrary(req);
        const QString message = QString::fromStdString(firstError(r));
        QVERIFY2(message.startsWith("the host compiler failed with exit code 1: ") &&
                     message.contains("internal compiler error: Segmentation fault") &&
                     !message.contains("Please submit"),
                 qPrintable(message));

        const auto killed = compilerAt(
            fakeCompiler(dir, "killed-g++",
                         "g++: fatal error: Killed signal terminated program cc1plus\ncompilation "
                         "terminated."));
        QVERIFY(killed.has_value());
        r = killed->compileSharedLibrary(req);
        QVERIFY2(QString::fromStdString(firstError(r))
                     .contains("Killed signal terminated program "
                               "cc1plus"),
                 firstError(r).c_str());
    }

    // Issue 26: a full disk in the cache is said as such, never as a compile error.
    void fullCacheIsNotACompileError()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const auto full = compilerAt(fakeCompiler(
            dir, "full-g++",
            "/usr/bin/ld: final link failed: No space left on device\ncollect2: error: ld "
            "returned 1 exit status"));
        QVERIFY(full.has_value());
        HostCompileRequest req;
        req.sourceName = "full.cpp";
        req.source = "int y;\n";
        const HostCompileResult r = full->compileSharedLibrary(req);
        QVERIFY(!r.ok);
        const QString why = QString::fromStdString(r.environmentError);
        QVERIFY2(why.startsWith("no space left on device in the cache ") &&
                     why.contains(m_cache.path()),
                 qPrintable(why));
        // The user's own #error that happens to say so is a compile error like any other.
        const auto userError = compilerAt(
            fakeCompiler(dir, "user-g++", "full.cpp:1:2: error: #error No space left on device"));
        QVERIFY(userError.has_value());
        const HostCompileResult u = userError->compileSharedLibrary(req);
        QVERIFY(!u.ok);
        QVERIFY(u.environmentError.empty());
        QVERIFY(hasErrors(u.diagnostics));
    }

    // The same with a real 1 MiB file system as the cache (where this process may mount one).
    void reallyFullCache()
    {
        QTemporaryDir mnt;
        QVERIFY(mnt.isValid());
        if (!mountTmpfs(mnt.path(), QStringLiteral("size=1m")))
            QSKIP("cannot mount a tmpfs here (needs root): fullCacheIsNotACompileError covers "
                  "the mechanism");
        struct Unmount {
            QString dir;
            ~Unmount() { unmount(dir); }
        } unmountLater{mnt.path()};
        const QByteArray old = qgetenv("WARPBENCH_CACHE_DIR");
        qputenv("WARPBENCH_CACHE_DIR", mnt.path().toUtf8());
        HostCompileRequest req;
        req.sourceName = "big.cpp";
        // A 4 MiB initialised array: the library cannot fit in 1 MiB.
        req.source = "extern \"C\" { char wb_big[4 << 20] = {1}; }\n";
        const HostCompileResult r = compiler().compileSharedLibrary(req);
        qputenv("WARPBENCH_CACHE_DIR", old);
        QVERIFY(!r.ok);
        QVERIFY2(QString::fromStdString(r.environmentError)
                     .startsWith("no space left on device in the cache " + mnt.path()),
                 (r.environmentError + " | " + r.log).c_str());
    }

    // Issue 26: a cache folder that cannot be written is replaced by a private temporary one
    // (every compile used to fail as a "compile error").
    void readOnlyCacheFallsBackToATemporaryOne()
    {
        QTemporaryDir mnt;
        QVERIFY(mnt.isValid());
        if (!mountTmpfs(mnt.path(), QStringLiteral("ro,size=1m")))
            QSKIP("cannot mount a read-only tmpfs here (needs root); tst_paths covers a cache "
                  "folder that cannot be created");
        struct Unmount {
            QString dir;
            ~Unmount() { unmount(dir); }
        } unmountLater{mnt.path()};
        QTemporaryDir tmp;
        const QByteArray oldCache = qgetenv("WARPBENCH_CACHE_DIR");
        const QByteArray oldTmp = qgetenv("TMPDIR");
        qputenv("WARPBENCH_CACHE_DIR", mnt.path().toUtf8());
        qputenv("TMPDIR", tmp.path().toUtf8());
        HostCompileRequest req;
        req.sourceName = "ro.cpp";
        req.source = "extern \"C\" int wb_ro() { return 3; }\n";
        const HostCompileResult r = compiler().compileSharedLibrary(req);
        qputenv("WARPBENCH_CACHE_DIR", oldCache);
        qputenv("TMPDIR", oldTmp);
        QVERIFY2(r.ok, (r.environmentError + " | " + r.log).c_str());
        QVERIFY2(QString::fromStdString(r.libraryPath)
                     .startsWith(tmp.path() + "/warpbench-cache-" + QString::number(::geteuid())),
                 r.libraryPath.c_str());
    }

    // Issue 26: at its time limit the compiler dies with every process it started (a cc1plus
    // blocked reading a FIFO used to stay behind).
    void timeLimitKillsTheCompilersWholeTree()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::string fifo = (dir.path() + "/blocked.h").toStdString();
        QCOMPARE(::mkfifo(fifo.c_str(), 0600), 0);
        HostCompileRequest req;
        const std::string name = "wb-fifo-" + std::to_string(::getpid()) + ".cpp";
        req.sourceName = name;
        req.source = "#include \"" + fifo + "\"\nint z;\n";
        req.timeoutMs = 1500;
        QElapsedTimer timer;
        timer.start();
        const HostCompileResult r = compiler().compileSharedLibrary(req);
        QVERIFY(!r.ok);
        QVERIFY2(QString::fromStdString(firstError(r))
                     .contains("did not finish within 1 s and was stopped (with every process "
                               "it started)"),
                 firstError(r).c_str());
        QVERIFY(timer.elapsed() < 15000);
        // Killed processes are reaped by init at once; allow it a moment.
        bool left = true;
        for (int i = 0; i < 50 && left; ++i) {
            left = processMentioning(name);
            if (left) QTest::qWait(100);
        }
        if (left) {
            // Unblock it, so that the suite does not leave it behind either.
            const int fd = ::open(fifo.c_str(), O_WRONLY | O_NONBLOCK);
            if (fd >= 0) ::close(fd);
        }
        QVERIFY2(!left, "a compiler process outlived the time limit");
    }
};

WB_QTEST_GUILESS_MAIN(TestHostCompiler)
#include "tst_hostcompiler.moc"
