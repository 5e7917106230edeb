// SPDX-License-Identifier: GPL-3.0-or-later
// The kernel editor: CUDA word lists, diagnostics as markers/squiggles/annotations, navigation,
// find/replace and go-to-line, and the Problems model.
#include "tests/support/SuiteMain.h"
#include "ui/editor/CudaLexer.h"
#include "ui/editor/CudaWords.h"
#include "ui/editor/FindReplaceBar.h"
#include "ui/editor/KernelEditor.h"
#include "ui/results/DiagnosticsModel.h"

#include <QLineEdit>
#include <QSpinBox>
#include <QTest>

using namespace wb;
using namespace wb::ui;

namespace {
const char* kSource = "__global__ void multiply_them(float *dest, float *a, float *b)\n"
                      "{\n"
                      "  const int i = threadIdx.x;\n"
                      "  dest[i] = a[i] * bb[i];\n"
                      "}\n";

Diagnostic diag(int line, int column, Severity s, const char* message,
                const char* file = "kernel.cu")
{
    Diagnostic d;
    d.file = file;
    d.line = line;
    d.column = column;
    d.severity = s;
    d.message = message;
    return d;
}
} // namespace

class TestKernelEditor : public QObject {
    Q_OBJECT
private Q_SLOTS:
    /// Issue 29 item 6: a race is marked with its own symbol (a bookmark), not the red dot of
    /// an error or a breakpoint; the next compile's diagnostics clear it.
    void racesHaveTheirOwnMarker()
    {
        KernelEditor editor(KernelEditor::Language::Cuda);
        editor.setText(QString::fromUtf8(kSource));
        const Diagnostic race = diag(3, 0, Severity::Error, "data race on shared cache[1]");
        editor.setDiagnostics({race});
        editor.markRaces({race});
        QVERIFY(editor.hasRaceMarker(3));
        QVERIFY(!editor.hasErrorMarker(3));
        QCOMPARE(editor.raceMarkerSymbol(), static_cast<int>(QsciScintilla::Bookmark));
        QVERIFY(editor.raceMarkerSymbol() != static_cast<int>(QsciScintilla::Circle));
        QVERIFY(editor.annotationText(3).contains(QStringLiteral("data race")));
        editor.setDiagnostics({});
        QVERIFY(!editor.hasRaceMarker(3));
    }

    /// Issue 29 item 6: a `}` typed alone on its line goes to its `{` line's indentation.
    void closingBraceIsDedented()
    {
        KernelEditor editor(KernelEditor::Language::Cuda);
        editor.show();
        QVERIFY(QTest::qWaitForWindowExposed(&editor));
        editor.setText(QStringLiteral("__global__ void k(float* p)\n{\n    if (p) {\n"
                                      "        p[0] = 1;\n        "));
        editor.setCursorPosition(4, 8);
        QTest::keyClicks(&editor, QStringLiteral("}"));
        QCOMPARE(editor.text(4), QStringLiteral("    }"));
        int line = 0, column = 0;
        editor.getCursorPosition(&line, &column);
        QCOMPARE(line, 4);
        QCOMPARE(column, 5); // after the brace
        // The kernel's closing brace: to column 0. A brace after code stays where it is.
        QTest::keyClick(&editor, Qt::Key_Return);
        QTest::keyClicks(&editor, QStringLiteral("}"));
        QCOMPARE(editor.text(5), QStringLiteral("}"));
        editor.setText(QStringLiteral("{\n    int a[] = {1, 2"));
        editor.setCursorPosition(1, 19);
        QTest::keyClicks(&editor, QStringLiteral("}"));
        QCOMPARE(editor.text(1), QStringLiteral("    int a[] = {1, 2}"));
    }

    /// Issue 29 item 1: an empty editor shows its hint (reference.cpp's stub) under the first
    /// line; typing hides it, emptying the text brings it back.
    void emptyEditorShowsItsHint()
    {
        KernelEditor editor(KernelEditor::Language::Cpp);
        const QString hint = QStringLiteral("void reference(int n, float* y)\n{\n}");
        editor.setEmptyHint(hint);
        QVERIFY(editor.emptyHintShown());
        QCOMPARE(editor.annotationText(1), hint);
        editor.setText(QStringLiteral("void reference("));
        QVERIFY(!editor.emptyHintShown());
        QCOMPARE(editor.annotationText(1), QString());
        editor.setText(QString());
        QVERIFY(editor.emptyHintShown());
        editor.setDiagnostics({}); // clears annotations: the hint stays
        QCOMPARE(editor.annotationText(1), hint);
    }

    void wordLists()
    {
        const CudaWords& w = CudaWords::instance();
        QVERIFY(w.keywords.contains(QStringLiteral("__global__")));
        QVERIFY(w.builtins.contains(QStringLiteral("threadIdx")));
        QVERIFY(w.intrinsics.contains(QStringLiteral("__shfl_down_sync")));
        QVERIFY(w.intrinsics.contains(QStringLiteral("atomicAdd")));
        QVERIFY(w.types.contains(QStringLiteral("float4")));
        QVERIFY(!w.all().contains(QStringLiteral("# SPDX-License-Identifier: GPL-3.0-or-later")));
        CudaLexer lexer(true);
        QVERIFY(QByteArray(lexer.keywords(1)).contains("__shared__"));
        QVERIFY(QByteArray(lexer.keywords(1)).contains("while")); // C++ keywords stay
        QVERIFY(QByteArray(lexer.keywords(2)).contains("blockIdx"));
        QVERIFY(QByteArray(lexer.keywords(4)).contains("dim3"));
        QCOMPARE(QByteArray(lexer.language()), QByteArray("CUDA"));
    }

    void highlightingStyles()
    {
        KernelEditor editor(KernelEditor::Language::Cuda);
        editor.setText(QString::fromUtf8(kSource));
        editor.recolor();
        // "__global__" at the very start is styled as a keyword, "threadIdx" as a CUDA built-in.
        const auto styleAt = [&](int line, int index) {
            const long pos = editor.positionFromLineIndex(line, index);
            return static_cast<int>(editor.SendScintilla(QsciScintillaBase::SCI_GETSTYLEAT,
                                                         static_cast<unsigned long>(pos)));
        };
        QCOMPARE(styleAt(0, 2), int(QsciLexerCPP::Keyword));
        QCOMPARE(styleAt(2, 17), int(QsciLexerCPP::KeywordSet2));
    }

    void completesCudaWords()
    {
        KernelEditor editor(KernelEditor::Language::Cuda);
        editor.show();
        QVERIFY(QTest::qWaitForWindowExposed(&editor));
        editor.setText(QStringLiteral("__global__ void k(float* my_values)\n{\n    \n}\n"));
        editor.setCursorPosition(2, 4);
        QTest::keyClicks(&editor, QStringLiteral("__syncthr"));
        QVERIFY(editor.SendScintilla(QsciScintillaBase::SCI_AUTOCACTIVE) != 0);
        editor.SendScintilla(QsciScintillaBase::SCI_AUTOCCOMPLETE);
        QVERIFY(editor.text(2).startsWith(QStringLiteral("    __syncthreads")));
        // The document's own identifiers are offered too.
        editor.setText(QStringLiteral("__global__ void k(float* my_values)\n{\n    \n}\n"));
        editor.setCursorPosition(2, 4);
        QTest::keyClicks(&editor, QStringLiteral("my_"));
        QVERIFY(editor.SendScintilla(QsciScintillaBase::SCI_AUTOCACTIVE) != 0);
        editor.SendScintilla(QsciScintillaBase::SCI_AUTOCCOMPLETE);
        QCOMPARE(editor.text(2).trimmed(), QStringLiteral("my_values"));
    }

    void diagnosticsShowAtTheLine()
    {
        KernelEditor editor(KernelEditor::Language::Cuda);
        editor.setText(QString::fromUtf8(kSource));
        editor.setDiagnostics(
            {diag(4, 20, Severity::Error, "identifier \"bb\" is undefined"),
             diag(3, 13, Severity::Warning, "variable \"i\" was declared but never referenced"),
             diag(2, 1, Severity::Error, "other file", "reference.cpp")});
        QVERIFY(editor.hasErrorMarker(4));
        QVERIFY(!editor.hasErrorMarker(2)); // another file's message is not ours
        QVERIFY(editor.hasWarningMarker(3));
        QVERIFY(!editor.hasErrorMarker(3));
        QVERIFY(
            editor.annotationText(4).contains(QStringLiteral("identifier \"bb\" is undefined")));
        QVERIFY(editor.annotationText(4).startsWith(QStringLiteral("error:")));
        QVERIFY(editor.annotationText(3).startsWith(QStringLiteral("warning:")));
        QCOMPARE(editor.diagnostics().size(), std::size_t(2));
        // The squiggle covers "bb" from the caret column (20) to the end of the word.
        const long start = editor.positionFromLineIndex(3, 19);
        const auto on = [&](long pos) {
            return editor.SendScintilla(QsciScintillaBase::SCI_INDICATORVALUEAT, 8UL, pos) != 0;
        };
        QVERIFY(!on(start - 1));
        QVERIFY(on(start));
        QVERIFY(on(start + 1));
        QVERIFY(!on(start + 2));
        editor.clearDiagnostics();
        QVERIFY(!editor.hasErrorMarker(4));
        QVERIFY(editor.annotationText(4).isEmpty());
    }

    void diagnosticNavigation()
    {
        KernelEditor editor(KernelEditor::Language::Cuda);
        editor.setText(QString::fromUtf8(kSource));
        editor.setDiagnostics(
            {diag(4, 20, Severity::Error, "a"), diag(2, 1, Severity::Warning, "b")});
        editor.setCursorPosition(0, 0);
        QVERIFY(editor.goToNextDiagnostic(false));
        int line = 0, index = 0;
        editor.getCursorPosition(&line, &index);
        QCOMPARE(line, 1);
        QVERIFY(editor.goToNextDiagnostic(false));
        editor.getCursorPosition(&line, &index);
        QCOMPARE(line, 3);
        QCOMPARE(index, 19);
        QVERIFY(editor.goToNextDiagnostic(false)); // wraps
        editor.getCursorPosition(&line, &index);
        QCOMPARE(line, 1);
        QVERIFY(editor.goToNextDiagnostic(true));
        editor.getCursorPosition(&line, &index);
        QCOMPARE(line, 3);
    }

    void findReplaceAndGoToLine()
    {
        KernelEditor editor(KernelEditor::Language::Cuda);
        editor.setText(QString::fromUtf8(kSource));
        FindReplaceBar bar;
        bar.setEditor(&editor);
        bar.showReplace();
        auto edits = bar.findChildren<QLineEdit*>();
        QVERIFY(edits.size() >= 2);
        QTest::keyClicks(edits[0], QStringLiteral("bb"));
        edits[1]->setText(QStringLiteral("b"));
        QCOMPARE(bar.replaceAll(), 1);
        QVERIFY(!editor.text().contains(QStringLiteral("bb[")));
        QVERIFY(editor.text().contains(QStringLiteral("a[i] * b[i]")));
        bar.showGoToLine();
        auto* spin = bar.findChild<QSpinBox*>();
        QVERIFY(spin);
        QCOMPARE(spin->maximum(), editor.lines());
    }

    /// setMinimumLinesOnScreen takes the room the font leaves above and below its glyphs, no
    /// more (Presentation Mode: 20 lines at 1280×720 whatever the monospace font), follows
    /// zoom, and gives the room back at 0. A zoom also widens the line numbers.
    void minimumLinesOnScreen()
    {
        KernelEditor editor(KernelEditor::Language::Cuda);
        QString text;
        for (int i = 0; i < 200; ++i)
            text += QStringLiteral("int x%1 = %1; // gjpqy_[]{}\n").arg(i);
        editor.setText(text);
        editor.resize(600, 400);
        editor.show();
        QVERIFY(QTest::qWaitForWindowExposed(&editor));
        editor.zoomIn(8);
        const auto textHeight = [&] {
            return static_cast<int>(
                editor.SendScintilla(QsciScintillaBase::SCI_TEXTHEIGHT, 0UL, 0L));
        };
        const auto onScreen = [&] {
            return static_cast<int>(editor.SendScintilla(QsciScintillaBase::SCI_LINESONSCREEN));
        };
        const int natural = textHeight();
        const int fits = onScreen();
        QVERIFY(fits > 3);
        // One more line than fits: the line gets shorter, and that many lines fit.
        editor.setMinimumLinesOnScreen(fits + 1);
        QCOMPARE(editor.minimumLinesOnScreen(), fits + 1);
        QVERIFY2(textHeight() < natural && onScreen() >= fits + 1,
                 qPrintable(QStringLiteral("%1 -> %2 px, %3 -> %4 lines")
                                .arg(natural)
                                .arg(textHeight())
                                .arg(fits)
                                .arg(onScreen())));
        // Far more than any spacing allows: only the spare room goes (above 0.8 em, below
        // 0.25 em), never the glyphs' own.
        editor.setMinimumLinesOnScreen(1000);
        QVERIFY(editor.extraAscent() <= 0 && editor.extraDescent() <= 0);
        const int trimmed = natural - textHeight();
        QVERIFY2(trimmed > 0 && trimmed < natural / 4,
                 qPrintable(QStringLiteral("%1 of %2").arg(trimmed).arg(natural)));
        // A zoom keeps the rule; 0 gives the room back.
        editor.zoomOut(4);
        QVERIFY(editor.extraAscent() <= 0);
        editor.setMinimumLinesOnScreen(0);
        QCOMPARE(editor.extraAscent(), 0);
        QCOMPARE(editor.extraDescent(), 0);
        // The line-number margin holds "200" at the zoomed size.
        const int digits = static_cast<int>(editor.SendScintilla(
            QsciScintillaBase::SCI_TEXTWIDTH, QsciScintillaBase::STYLE_LINENUMBER, "200"));
        QVERIFY2(editor.marginWidth(0) > digits,
                 qPrintable(QStringLiteral("%1 <= %2").arg(editor.marginWidth(0)).arg(digits)));
    }

    void problemsModel()
    {
        DiagnosticsModel model;
        model.setDiagnostics(QStringLiteral("kernel"), {diag(4, 20, Severity::Error, "x"),
                                                        diag(2, 0, Severity::Warning, "y")});
        model.setDiagnostics(QStringLiteral("reference"),
                             {diag(7, 3, Severity::Error, "z", "reference.cpp")});
        QCOMPARE(model.rowCount(), 3);
        QCOMPARE(model.columnCount(), int(DiagnosticsModel::ColumnCount));
        QCOMPARE(model.errorCount(), 2);
        QCOMPARE(model.warningCount(), 1);
        QCOMPARE(model.index(0, DiagnosticsModel::LocationColumn).data().toString(),
                 QStringLiteral("kernel.cu:2"));
        QCOMPARE(model.index(1, DiagnosticsModel::LocationColumn).data().toString(),
                 QStringLiteral("kernel.cu:4:20"));
        model.setDiagnostics(QStringLiteral("kernel"), {});
        QCOMPARE(model.rowCount(), 1);
        QCOMPARE(model.source(0), QStringLiteral("reference"));
    }
};

WB_QTEST_MAIN(TestKernelEditor)
#include "tst_kerneleditor.moc"
