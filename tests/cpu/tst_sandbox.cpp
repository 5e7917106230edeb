// SPDX-License-Identifier: GPL-3.0-or-later
// cpu::detail::parseSanitizerReport: AddressSanitizer / UBSan output of a bounds-checked launch
// into a MemoryFinding, linear in the output's length (issue 15: the output quotes the user's
// identifiers and file names, on which std::regex overflowed the stack).
#include "core/cpu/detail/Sandbox.h"
#include "tests/support/SuiteMain.h"

#include <QElapsedTimer>
#include <QTest>

using namespace wb;
using namespace wb::cpu::detail;

namespace {

std::string asanReport(const std::string& function, const std::string& file)
{
    return "WB-SANDBOX at block=(3,0,0) thread=(127,0,0)\n"
           "=================================================================\n"
           "==123==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x602000000050 at "
           "pc 0x7f sp 0x7f\n"
           "WRITE of size 4 at 0x602000000050 thread T0\n"
           "    #0 0x7f1234 in wbcpu::helper() /usr/include/x.h:10\n"
           "    #1 0x7f5678 in " +
           function + "(float*, int) /tmp/build/" + file + ":7\n" +
           "    #2 0x7f9abc in main\n"
           "0x602000000050 is located 0 bytes to the right of 64-byte region\n";
}

} // namespace

class TestSandbox : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void parsesAddressSanitizer()
    {
        const MemoryFinding f = parseSanitizerReport(asanReport("oob", "k.cu"), "oob", "k.cu");
        QCOMPARE(f.kind, MemoryFinding::Kind::OutOfBounds);
        QVERIFY(f.located);
        QCOMPARE(f.block, (Dim3{3, 0, 0}));
        QCOMPARE(f.thread, (Dim3{127, 0, 0}));
        QCOMPARE(f.address, std::uint64_t{0x602000000050});
        QVERIFY(f.isWrite);
        QCOMPARE(f.accessSize, 4u);
        QCOMPARE(f.file, std::string("k.cu"));
        QCOMPARE(f.line, 7);
        QVERIFY2(f.message.find("write of 4 bytes (heap-buffer-overflow): address is located 0 "
                                "bytes to the right") == 0,
                 f.message.c_str());
    }

    void parsesUndefinedBehaviourSanitizer()
    {
        const MemoryFinding f = parseSanitizerReport(
            "WB-SANDBOX at block=(0,1,0) thread=(2,0,0)\n"
            "/tmp/build/k.cu:12:9: runtime error: load of misaligned address 0x55d1 for type "
            "'float', which requires 4 byte alignment\n",
            "k", "k.cu");
        QCOMPARE(f.kind, MemoryFinding::Kind::Misaligned);
        QCOMPARE(f.file, std::string("k.cu"));
        QCOMPARE(f.line, 12);
        QCOMPARE(f.address, std::uint64_t{0x55d1});
        QCOMPARE(f.block, (Dim3{0, 1, 0}));
    }

    void longIdentifiersDoNotCrash()
    {
        const std::string id(50'000, 'k');
        const std::string file = std::string(50'000, 'f') + ".cu";
        MemoryFinding f = parseSanitizerReport(asanReport(id, file), id, file);
        QCOMPARE(f.file, file);
        QCOMPARE(f.line, 7);
        f = parseSanitizerReport("/tmp/" + file +
                                     ":3:1: runtime error: member access within "
                                     "null pointer of type '" +
                                     id + "'\n",
                                 id, file);
        QCOMPARE(f.kind, MemoryFinding::Kind::InvalidAddress);
        QCOMPARE(f.file, file);
        QCOMPARE(f.line, 3);
        QVERIFY(f.message.find(id) != std::string::npos);
    }

    void pathologicalOutputStaysLinear()
    {
        std::string frames;
        for (int i = 0; i < 20'000; ++i)
            frames += "#1 0x1 in ";
        std::string colons;
        for (int i = 0; i < 20'000; ++i)
            colons += "a:1:";
        QElapsedTimer timer;
        timer.start();
        const MemoryFinding f = parseSanitizerReport(
            "ERROR: AddressSanitizer: SEGV on unknown address 0x0\n" + frames + "\n" + colons +
                ": runtime error: x\nk.cu:99999999999999999999:1: runtime error: y\n",
            "k", "k.cu");
        QVERIFY2(timer.elapsed() < 5'000, QByteArray::number(timer.elapsed()));
        QCOMPARE(f.kind, MemoryFinding::Kind::InvalidAddress);
    }
};

WB_QTEST_GUILESS_MAIN(TestSandbox)
#include "tst_sandbox.moc"
