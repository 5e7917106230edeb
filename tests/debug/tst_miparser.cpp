// SPDX-License-Identifier: GPL-3.0-or-later
// debug::parseMiLine: gdb/MI output records, including hostile input (the debugged program
// shares gdb's output, and a kernel's printf can write anything).
#include "core/debug/MiParser.h"
#include "tests/support/SuiteMain.h"

#include <QElapsedTimer>
#include <QTest>

using namespace wb::debug;

class TestMiParser : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void parsesAResultWithTokenAndNestedValues()
    {
        const auto r = parseMiLine("12^done,bkpt={number=\"1\",type=\"breakpoint\",locations=[{"
                                   "number=\"1.1\",line=\"12\"}]}");
        QVERIFY(r);
        QCOMPARE(r->type, MiRecord::Type::Result);
        QCOMPARE(r->token.value_or(0), 12u);
        QCOMPARE(r->cls, std::string("done"));
        const MiValue* b = r->results.find("bkpt");
        QVERIFY(b);
        QCOMPARE(b->kind, MiValue::Kind::Tuple);
        QCOMPARE(b->text("number"), std::string("1"));
        const MiValue* locs = b->find("locations");
        QVERIFY(locs && locs->kind == MiValue::Kind::List);
        QCOMPARE(locs->items.size(), std::size_t(1));
        QCOMPARE(locs->items[0].second.text("line"), std::string("12"));
    }

    void parsesAStopRecord()
    {
        const auto r =
            parseMiLine("*stopped,reason=\"breakpoint-hit\",disp=\"keep\",bkptno=\"1\",frame={addr="
                        "\"0x7f\",func=\"block_sum\",args=[{name=\"in\",value=\"0x7ffff4b25010\"},{"
                        "name=\"n\",value=\"65536\"}],file=\"reduction.cu\",line=\"12\"},thread-id="
                        "\"1\",stopped-threads=\"all\"");
        QVERIFY(r);
        QCOMPARE(r->type, MiRecord::Type::ExecAsync);
        QCOMPARE(r->cls, std::string("stopped"));
        QVERIFY(!r->token);
        QCOMPARE(r->results.text("reason"), std::string("breakpoint-hit"));
        const MiValue* f = r->results.find("frame");
        QVERIFY(f);
        QCOMPARE(f->text("line"), std::string("12"));
        QCOMPARE(f->find("args")->items[1].second.text("value"), std::string("65536"));
        QCOMPARE(r->results.text("stopped-threads"), std::string("all"));
    }

    void listsOfValuesAndEmptyContainers()
    {
        const auto r = parseMiLine("^done,a=[],b={},c=[\"x\",\"y\"],d=[[],{}]");
        QVERIFY(r);
        QCOMPARE(r->results.find("a")->items.size(), std::size_t(0));
        QCOMPARE(r->results.find("b")->kind, MiValue::Kind::Tuple);
        QCOMPARE(r->results.find("c")->items[1].second.string, std::string("y"));
        QCOMPARE(r->results.find("d")->items.size(), std::size_t(2));
    }

    void unescapesStreams()
    {
        const auto r = parseMiLine("~\"a\\\"b\\\\c\\n\\t\\101\\0\"");
        QVERIFY(r);
        QCOMPARE(r->type, MiRecord::Type::ConsoleStream);
        QCOMPARE(r->text, std::string("a\"b\\c\n\tA") + std::string(1, '\0'));
        QCOMPARE(parseMiLine("@\"out\"")->type, MiRecord::Type::TargetStream);
        QCOMPARE(parseMiLine("&\"log\"")->type, MiRecord::Type::LogStream);
    }

    void notifyAndPrompt()
    {
        const auto n = parseMiLine("=thread-group-started,id=\"i1\",pid=\"4242\"");
        QVERIFY(n);
        QCOMPARE(n->type, MiRecord::Type::NotifyAsync);
        QCOMPARE(n->results.text("pid"), std::string("4242"));
        QCOMPARE(parseMiLine("(gdb) ")->type, MiRecord::Type::Prompt);
        QCOMPARE(parseMiLine("(gdb)\r\n")->type, MiRecord::Type::Prompt);
    }

    void refusesProgramOutputAndBrokenRecords_data()
    {
        QTest::addColumn<QByteArray>("line");
        QTest::newRow("program text") << QByteArray("hello from thread 3");
        QTest::newRow("empty") << QByteArray("");
        QTest::newRow("unterminated string") << QByteArray("^done,value=\"abc");
        QTest::newRow("backslash at end") << QByteArray("~\"abc\\");
        QTest::newRow("missing =") << QByteArray("^done,value\"x\"");
        QTest::newRow("unclosed tuple") << QByteArray("^done,a={b=\"1\"");
        QTest::newRow("unclosed list") << QByteArray("^done,a=[\"1\"");
        QTest::newRow("mismatched") << QByteArray("^done,a={b=\"1\"]");
        QTest::newRow("trailing text") << QByteArray("^done,a=\"1\" junk");
        QTest::newRow("no class") << QByteArray("^");
        QTest::newRow("token on stream") << QByteArray("5~\"x\"");
        QTest::newRow("huge token") << QByteArray("123456789012345678901234^done");
        QTest::newRow("bare value") << QByteArray("^done,\"x\"");
        QTest::newRow("text after stream") << QByteArray("~\"x\"y");
        QTest::newRow("NUL in name") << QByteArray("^do\0ne", 6);
    }
    void refusesProgramOutputAndBrokenRecords()
    {
        QFETCH(QByteArray, line);
        std::string why;
        QVERIFY(!parseMiLine(
            std::string_view(line.constData(), static_cast<std::size_t>(line.size())), &why));
        QVERIFY2(!why.empty(), line.constData());
    }

    void deepNestingIsRefusedWithoutOverflow()
    {
        std::string line = "^done,a=";
        for (int i = 0; i < 100'000; ++i)
            line += "[";
        std::string why;
        QVERIFY(!parseMiLine(line, &why));
        QVERIFY(why.find("nesting") != std::string::npos);
        // Just within the limit is fine.
        std::string ok = "^done,a=";
        for (int i = 0; i < kMiMaxDepth - 1; ++i)
            ok += "[";
        for (int i = 0; i < kMiMaxDepth - 1; ++i)
            ok += "]";
        QVERIFY(parseMiLine(ok));
    }

    void longLinesAreLinear()
    {
        // 4 MB of escapes and of list items: parsed quickly (no quadratic behaviour).
        std::string s = "~\"";
        for (int i = 0; i < 1'000'000; ++i)
            s += "\\\"ab";
        s += "\"";
        std::string l = "^done,a=[";
        for (int i = 0; i < 400'000; ++i)
            l += i ? ",\"1\"" : "\"1\"";
        l += "]";
        QElapsedTimer t;
        t.start();
        const auto a = parseMiLine(s);
        const auto b = parseMiLine(l);
        QVERIFY(a && a->text.size() == 3'000'000);
        QVERIFY(b && b->results.find("a")->items.size() == 400'000);
        QVERIFY2(t.elapsed() < 5000, "parsing took too long");
    }

    void randomBytesNeverCrash()
    {
        std::uint32_t seed = 12345;
        const std::string alphabet = "^*+=~@&{}[]\",=\\abc01 \n\t";
        for (int n = 0; n < 20'000; ++n) {
            std::string s;
            const int len = static_cast<int>((seed = seed * 1103515245u + 12345u) >> 24) % 64;
            for (int i = 0; i < len; ++i) {
                seed = seed * 1103515245u + 12345u;
                s += alphabet[(seed >> 16) % alphabet.size()];
            }
            std::string why;
            const auto r = parseMiLine(s, &why);
            QVERIFY(r || !why.empty());
        }
    }

    void quotesArguments()
    {
        QCOMPARE(miQuote("a\"b\\c\nd"), std::string("\"a\\\"b\\\\c\\nd\""));
        // Round trip through the parser.
        const auto r = parseMiLine(std::string("~").append(miQuote("x == \"y\" && z\\1")));
        QVERIFY(r);
        QCOMPARE(r->text, std::string("x == \"y\" && z\\1"));
    }
};

WB_QTEST_APPLESS_MAIN(TestMiParser)
#include "tst_miparser.moc"
