// SPDX-License-Identifier: GPL-3.0-or-later
// Tests core/profiling/LineDiff.*: the LCS line diff and its unified (diff -u) rendering.
#include "core/profiling/LineDiff.h"
#include "tests/support/SuiteMain.h"

#include <QTest>

using namespace wb::profiling;
using K = DiffLine::Kind;

class TestLineDiff : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void equalTexts()
    {
        const std::string text = "a\nb\nc\n";
        const auto lines = diffLines(text, text);
        QCOMPARE(lines.size(), std::size_t{3});
        for (const DiffLine& l : lines)
            QCOMPARE(l.kind, K::Same);
        QVERIFY(unifiedDiff(text, text).empty());
    }

    void changedLine()
    {
        const auto lines = diffLines("a\nb\nc\n", "a\nB\nc\n");
        const std::vector<DiffLine> expected{{K::Same, "a", 1, 1},
                                             {K::Removed, "b", 2, 0},
                                             {K::Added, "B", 0, 2},
                                             {K::Same, "c", 3, 3}};
        QCOMPARE(lines.size(), expected.size());
        for (std::size_t i = 0; i < expected.size(); ++i)
            QVERIFY(lines[i] == expected[i]);
    }

    void lcsIsMinimal()
    {
        // Classic example: ABCABBA → CBABAC has an LCS of length 4, so 3 removals + 2 additions.
        const auto lines = diffLines("A\nB\nC\nA\nB\nB\nA\n", "C\nB\nA\nB\nA\nC\n");
        int same = 0, removed = 0, added = 0;
        for (const DiffLine& l : lines)
            (l.kind == K::Same ? same : l.kind == K::Removed ? removed : added)++;
        QCOMPARE(same, 4);
        QCOMPARE(removed, 3);
        QCOMPARE(added, 2);
    }

    void unifiedMatchesDiffU()
    {
        // Same output as `diff -u` (GNU diffutils) on these files, minus the timestamps.
        std::string before, after;
        for (int i = 1; i <= 20; ++i)
            before += "line " + std::to_string(i) + "\n";
        after = before;
        after.replace(after.find("line 10\n"), 8, "line ten\n");
        after += "line 21\n";
        const std::string expected = "--- old.cu\n+++ new.cu\n"
                                     "@@ -7,7 +7,7 @@\n line 7\n line 8\n line 9\n-line 10\n"
                                     "+line ten\n line 11\n line 12\n line 13\n"
                                     "@@ -18,3 +18,4 @@\n line 18\n line 19\n line 20\n+line 21\n";
        QCOMPARE(unifiedDiff(before, after, "old.cu", "new.cu"), expected);
    }

    void singleLineRangesAsGnuDiff()
    {
        // diff -u of "a\nb\n" and "a\nc\n": "@@ -1,2 +1,2 @@"; of "b\n" and "c\n": "@@ -1 +1 @@".
        QCOMPARE(unifiedDiff("b\n", "c\n"), std::string("--- a\n+++ b\n@@ -1 +1 @@\n-b\n+c\n"));
    }

    void nearbyChangesShareAHunk()
    {
        const std::string before = "1\n2\n3\n4\n5\n6\n7\n8\n";
        const std::string after = "1\nX\n3\n4\n5\nY\n7\n8\n";
        const std::string diff = unifiedDiff(before, after);
        QCOMPARE(diff, std::string("--- a\n+++ b\n@@ -1,8 +1,8 @@\n 1\n-2\n+X\n 3\n 4\n 5\n-6\n+Y\n"
                                   " 7\n 8\n"));
    }

    void fromAndToEmpty()
    {
        QCOMPARE(unifiedDiff("", "x\ny\n"), std::string("--- a\n+++ b\n@@ -0,0 +1,2 @@\n+x\n+y\n"));
        QCOMPARE(unifiedDiff("x\n", ""), std::string("--- a\n+++ b\n@@ -1 +0,0 @@\n-x\n"));
    }
};

WB_QTEST_GUILESS_MAIN(TestLineDiff)
#include "tst_linediff.moc"
