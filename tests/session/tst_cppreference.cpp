// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/common/Error.h"
#include "core/common/Sandbox.h"
#include "core/host/HostCompiler.h"
#include "core/session/CppReference.h"
#include "tests/support/SuiteMain.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QTest>

using namespace wb;
using namespace wb::session;

class TestCppReference : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void parsesParameters()
    {
        const auto p =
            CppReference::parseParameters("// reference(int nope)\nstatic int helper(int);\n"
                                          "void reference(float* __restrict__ dest, const float "
                                          "*a, std::map<int, int> m, int n = 3)\n{ }\n",
                                          "reference");
        QCOMPARE(p.size(), 4u);
        QCOMPARE(p[0].name, std::string("dest"));
        QVERIFY(p[0].isPointer);
        QCOMPARE(p[0].pointee, std::string("float"));
        QCOMPARE(p[1].pointee, std::string("const float"));
        QCOMPARE(p[2].type, std::string("std::map<int, int>"));
        QCOMPARE(p[3].name, std::string("n"));
        QVERIFY(!p[3].isPointer);
        QVERIFY_THROWS_EXCEPTION(wb::Error, CppReference::parseParameters("void f(int) {}", "f"));
        QVERIFY_THROWS_EXCEPTION(wb::Error, CppReference::parseParameters("void g(int x) {}", "f"));
    }
    // Issue 15: a 50,000-character function or parameter name overflowed std::regex's stack.
    /// Qualifiers after the '*' belong to the parameter, not to what it points at.
    void constPointersArePointers()
    {
        const auto p = CppReference::parseParameters(
            "void reference(const double* const a, double* __restrict__ const y, "
            "const float *__restrict__ in, int* volatile const v, const int n) {}",
            "reference");
        QCOMPARE(p.size(), 5u);
        for (std::size_t i = 0; i < 4; ++i)
            QVERIFY2(p[i].isPointer, p[i].type.c_str());
        QCOMPARE(p[0].pointee, std::string("const double"));
        QCOMPARE(p[1].pointee, std::string("double"));
        QCOMPARE(p[2].pointee, std::string("const float"));
        QCOMPARE(p[3].pointee, std::string("int"));
        QVERIFY(!p[4].isPointer);
        QCOMPARE(p[4].type, std::string("const int"));
    }
    void longIdentifiersDoNotCrash()
    {
        const std::string fn(50'000, 'f');
        const std::string param(50'000, 'p');
        const std::string source = "int " + fn +
                                   "_helper(int x) { return x; }\n"
                                   "void " +
                                   fn + "(float* " + param + ", int n)\n{\n}\n";
        const auto params = CppReference::parseParameters(source, fn);
        QCOMPARE(params.size(), std::size_t{2});
        QCOMPARE(params[0].name, param);
        QCOMPARE(params[0].type, std::string("float*"));
        QCOMPARE(params[1].name, std::string("n"));
    }

    void nestedParenthesesStayLinear()
    {
        // 20,000 nested calls of the function before its definition: each candidate used to
        // rescan to its closing parenthesis.
        std::string calls;
        for (int i = 0; i < 20'000; ++i)
            calls += "reference(";
        calls += std::string(20'000, ')');
        const std::string source = "int x = " + calls + ";\nvoid reference(int* out) {}\n";
        QElapsedTimer timer;
        timer.start();
        const auto params = CppReference::parseParameters(source, "reference");
        QVERIFY2(timer.elapsed() < 5'000, QByteArray::number(timer.elapsed()));
        QCOMPARE(params.size(), std::size_t{1});
        QCOMPARE(params[0].name, std::string("out"));
    }

    void nameIsNotAPattern()
    {
        // The function name was pasted into a regex; "." matched any character.
        QVERIFY_THROWS_EXCEPTION(wb::Error,
                                 CppReference::parseParameters("void fxg(int a) {}", "f.g"));
        const auto p = CppReference::parseParameters("void f9(int 9a) {}", "f9");
        QCOMPARE(p.size(), std::size_t{1});
        QCOMPARE(p[0].name, std::string("a"));
    }

    void compilesAndCalls()
    {
        if (!wb::HostCompiler::find()) QSKIP("no host C++ compiler installed");
        CppReference ref;
        const auto b =
            ref.compile("#include <cmath>\n"
                        "void reference(float* dest, const float* a, int n, double s)\n"
                        "{\n    for (int i = 0; i < n; ++i) dest[i] = a[i] * float(s);\n}\n",
                        "ref.cpp", "reference", {"-O1"});
        QVERIFY2(b.ok, b.log.c_str());
        float dest[3] = {}, a[3] = {1, 2, 3};
        int n = 3;
        double s = 2.5;
        ref.call({dest, a, &n, &s}, {sizeof dest, sizeof a, 0, 0});
        QCOMPARE(dest[2], 7.5f);
    }
    void compileErrorsAtTheUsersLine()
    {
        if (!wb::HostCompiler::find()) QSKIP("no host C++ compiler installed");
        CppReference ref;
        const auto b =
            ref.compile("void reference(float* dest)\n{\n    dest[0] = undefined_thing;\n}\n",
                        "my_reference.cpp", "reference", {});
        QVERIFY(!b.ok);
        bool found = false;
        for (const wb::Diagnostic& d : b.diagnostics)
            if (d.severity >= wb::Severity::Error && d.file == "my_reference.cpp" && d.line == 3)
                found = true;
        QVERIFY2(found, b.log.c_str());
    }
    void exceptionsBecomeErrors()
    {
        if (!wb::HostCompiler::find()) QSKIP("no host C++ compiler installed");
        CppReference ref;
        const auto b = ref.compile("#include <stdexcept>\nvoid reference(int* x) { if (*x) throw "
                                   "std::runtime_error(\"boom\"); }\n",
                                   "r.cpp", "reference", {});
        QVERIFY2(b.ok, b.log.c_str());
        int x = 1;
        try {
            ref.call({&x}, {sizeof x});
            QFAIL("no error");
        } catch (const wb::Error& e) {
            QVERIFY(QString(e.what()).contains("boom"));
        }
    }

    /// Confined (as in a runner): the reference runs in a sealed child. Its results come back;
    /// opening a file, starting a program or signalling the parent ends it with "C++ reference
    /// attempted <call>", and its constructors never run in this process.
    void confinedReferenceRunsSealed()
    {
        if (!wb::HostCompiler::find()) QSKIP("no host C++ compiler installed");
        struct Restore {
            ~Restore() { wb::sandbox::setPolicy(wb::sandbox::Policy::Off); }
        } restore;
        wb::sandbox::setPolicy(wb::sandbox::Policy::Confine);
        const QString marker = QDir::temp().filePath(
            QStringLiteral("wb-ref-ctor-%1").arg(QCoreApplication::applicationPid()));
        QFile::remove(marker);
        CppReference ref;
        const std::string src =
            "#include <cstdio>\n#include <cstdlib>\n#include <csignal>\n#include <unistd.h>\n"
            "static int scale = 1;\n"
            "__attribute__((constructor)) static void init() { scale = 3; }\n"
            "void reference(int* out, int mode)\n{\n"
            "    if (mode == 1) { std::FILE* f = std::fopen(\"/etc/passwd\", \"r\"); out[0] = f != "
            "nullptr; }\n"
            "    if (mode == 2) out[0] = std::system(\"touch " +
            marker.toStdString() +
            "\");\n"
            "    if (mode == 3) kill(getppid(), SIGKILL);\n"
            "    if (mode == 4) out[0] = std::getenv(\"PATH\") != nullptr;\n"
            "    out[1] = scale;\n}\n";
        const auto b = ref.compile(src, "r.cpp", "reference", {});
        QVERIFY2(b.ok, b.log.c_str());
        int out[2] = {0, 0};
        int mode = 0;
        ref.call({out, &mode}, {sizeof out, 0});
        QCOMPARE(out[1], 3); // the constructor ran, in the child
        mode = 4;
        ref.call({out, &mode}, {sizeof out, 0});
        QCOMPARE(out[0], 0); // no environment in the sandbox
        const std::pair<int, const char*> attempts[] = {{1, "openat"}, {2, "clone"}, {3, "kill"}};
        for (const auto& [m, call] : attempts) {
            mode = m;
            try {
                ref.call({out, &mode}, {sizeof out, 0});
                QFAIL(qPrintable(QStringLiteral("mode %1 was not stopped").arg(m)));
            } catch (const wb::Error& e) {
                const QString msg = QString::fromUtf8(e.what());
                QVERIFY2(msg.startsWith(QStringLiteral("C++ reference attempted ") + call),
                         e.what());
                QVERIFY2(msg.contains(QStringLiteral("function reference()")), e.what());
            }
        }
        QVERIFY(!QFile::exists(marker));
    }

    /// Issue 29: the empty reference editor shows a stub with the signature the reference
    /// needs — the kernel's parameters bound by name, `in` buffers const — and it compiles.
    void stubHasTheSignatureTheSessionBinds()
    {
        KernelInfo k;
        k.name = "saxpy";
        const auto param = [](const char* name, const char* type, const char* pointee, bool c) {
            KernelParam p;
            p.name = name;
            p.type = type;
            p.pointee = pointee;
            p.isPointer = *pointee != 0;
            p.isConst = c;
            return p;
        };
        k.params = {param("n", "int", "", false), param("a", "const float", "", false),
                    param("x", "const float*", "float", true), param("y", "float*", "float", false),
                    param("h", "__half*", "__half", false)};
        Session s;
        s.scalars = {ScalarSpec("n", ElementType::I32, "1024"),
                     ScalarSpec("a", ElementType::F32, "2")};
        BufferSpec x, y, h;
        x.name = "x";
        x.role = BufferRole::In;
        y.name = "y";
        y.role = BufferRole::InOut;
        h.name = "h";
        h.type = ElementType::F16;
        h.role = BufferRole::Out;
        s.buffers = {x, y, h};
        const std::string stub = CppReference::stub(s, k);
        QVERIFY2(stub.find("void reference(int n, float a, const float* x, float* y, "
                           "std::uint16_t* h)\n{\n    for (int i = 0; i < n; ++i) {\n"
                           "        // y[i] = ...;\n        // h[i] = ...;\n    }\n}\n") !=
                     std::string::npos,
                 stub.c_str());
        QVERIFY2(stub.find("compares the kernel's outputs (y, h) with it") != std::string::npos,
                 stub.c_str());
        const std::vector<CppParam> params = CppReference::parseParameters(stub, "reference");
        QCOMPARE(params.size(), std::size_t{5});
        QCOMPARE(params[2].type, std::string("const float*"));
        if (!wb::HostCompiler::find()) QSKIP("no host C++ compiler installed");
        CppReference ref;
        const auto b = ref.compile(stub, "reference.cpp", "reference", {});
        QVERIFY2(b.ok, b.log.c_str());
    }
};

WB_QTEST_GUILESS_MAIN(TestCppReference)
#include "tst_cppreference.moc"
