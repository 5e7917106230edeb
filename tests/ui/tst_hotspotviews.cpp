// SPDX-License-Identifier: GPL-3.0-or-later
// The window's hotspot views with recorded data (no GPU): the kernel editor's heat margin
// (bar and share per line, samples and stall reasons on hover) and the Inspect panel's
// source ↔ PTX/SASS linking and per-instruction samples, on NVRTC's PTX and nvdisasm's listing
// of matmul_tiled.cu as recorded on the H200 (tests/profiling/data).
#include "core/profiling/Hotspots.h"
#include "tests/support/SuiteMain.h"
#include "ui/editor/KernelEditor.h"
#include "ui/results/InspectPanel.h"

#include <QFile>
#include <QPlainTextEdit>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTest>
#include <QTextBlock>

#include <memory>
#include <vector>

using namespace wb;
using namespace wb::ui;
using wb::profiling::HotspotReport;
using wb::profiling::SampledPc;

namespace {

const char* kTiled = "_Z12matmul_tiledPKfS0_Pfi";

QString readData(const char* name)
{
    QFile f(QStringLiteral(WB_SOURCE_DIR "/tests/profiling/data/") + QLatin1String(name));
    if (!f.open(QIODevice::ReadOnly)) return {};
    return QString::fromUtf8(f.readAll());
}

QString readSource()
{
    QFile f(QStringLiteral(WB_SOURCE_DIR "/resources/examples/matmul_tiled/matmul_tiled.cu"));
    if (!f.open(QIODevice::ReadOnly)) return {};
    return QString::fromUtf8(f.readAll());
}

/// A hand-made sample set on matmul_tiled's lines 18 (hot), 15 and 17; offsets as in the
/// recorded listing. Formatting input, not a measurement.
HotspotReport samples()
{
    const std::string file = "/work/x/matmul_tiled.cu";
    HotspotReport r = HotspotReport::aggregate({
        {kTiled, 0x3b0, file, 18, {{"short scoreboard", 600}, {"mio throttle", 150}}},
        {kTiled, 0x380, file, 15, {{"long scoreboard", 200}}},
        {kTiled, 0x3a0, file, 17, {{"barrier", 50}}},
        {"other", 0x10, "/x/other.cu", 3, {{"wait", 1000}}}, // another file: not in this editor
    });
    r.samplingPeriodLog2 = 8;
    r.launches = 1;
    r.totalSamples = r.attributedSamples();
    return r;
}

/// The viewport point of the middle of text row `row` of `view`.
QPoint rowPoint(QPlainTextEdit* view, int row)
{
    QTextCursor c(view->document()->findBlockByNumber(row));
    view->setTextCursor(c);
    view->ensureCursorVisible();
    return view->cursorRect(c).center() + QPoint(20, 0);
}

} // namespace

class TestHotspotViews : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void heatMargin()
    {
        KernelEditor editor(KernelEditor::Language::Cuda);
        editor.setSourceName(QStringLiteral("matmul_tiled.cu"));
        editor.setText(readSource());
        editor.resize(900, 600);
        editor.show();
        QVERIFY(QTest::qWaitForWindowExposed(&editor));
        QVERIFY(!editor.hasHotspots());
        QCOMPARE(editor.marginWidth(3), 0);

        const HotspotReport r = samples();
        editor.setHotspots(&r);
        QVERIFY(editor.hasHotspots());
        QVERIFY(editor.marginWidth(3) > 0);
        // Shares of all 2000 samples: line 18 37.5 %, 15 10 %, 17 2.5 %; other.cu's line 3
        // is not this file's.
        QVERIFY2(editor.heatText(18).endsWith(QLatin1String("38%")),
                 qPrintable(editor.heatText(18)));
        QVERIFY(editor.heatText(18).startsWith(QString(2, QChar(0x2588))));
        QVERIFY2(editor.heatText(15).endsWith(QLatin1String("10%")),
                 qPrintable(editor.heatText(15)));
        QVERIFY2(editor.heatText(17).endsWith(QLatin1String("2.5%")),
                 qPrintable(editor.heatText(17)));
        QVERIFY(editor.heatText(3).isEmpty());
        QVERIFY(editor.heatText(16).isEmpty());
        // A hotter line has a longer bar.
        QVERIFY(editor.heatText(18).count(QChar(0x2588)) >
                editor.heatText(17).count(QChar(0x2588)));
        const QString tip = editor.heatToolTip(18);
        QVERIFY2(tip.contains(QLatin1String("37.5% of the PC samples (750)")), qPrintable(tip));
        QVERIFY2(tip.contains(QLatin1String("Top stall reason: short scoreboard")),
                 qPrintable(tip));
        QVERIFY2(tip.contains(QLatin1String("mio throttle  20%")), qPrintable(tip));
        QVERIFY(editor.heatToolTip(16).isEmpty());

        // Hovering: the heat margin's column at line 18's height is line 18.
        int left = 0;
        for (int m = 0; m < 3; ++m)
            left += editor.marginWidth(m);
        const long pos = editor.SendScintilla(QsciScintilla::SCI_POSITIONFROMLINE, 17UL);
        const int y = static_cast<int>(
                          editor.SendScintilla(QsciScintilla::SCI_POINTYFROMPOSITION, 0UL, pos)) +
                      editor.textHeight(17) / 2;
        QCOMPARE(editor.heatLineAt(QPoint(left + editor.marginWidth(3) / 2, y)), 18);
        QCOMPARE(editor.heatLineAt(QPoint(1, y)), 0); // the line-number margin
        if (const QString dir = qEnvironmentVariable("WARPBENCH_SCREENSHOT_DIR"); !dir.isEmpty())
            QVERIFY(editor.grab().save(dir + QStringLiteral("/heat-margin-recorded.png")));

        editor.setHotspots(nullptr);
        QVERIFY(!editor.hasHotspots());
        QVERIFY(editor.heatText(18).isEmpty());
        QCOMPARE(editor.marginWidth(3), 0);
    }

    /// The heat margin is drawn in every editor of the process, not only the first few: its
    /// styles once came from QScintilla's process-wide pool of 24 style numbers, and from the
    /// third editor on the hottest levels had none and drew nothing.
    void heatMarginDrawnInEveryEditor()
    {
        const HotspotReport r = samples();
        std::vector<std::unique_ptr<KernelEditor>> editors;
        for (int i = 0; i < 5; ++i) {
            auto editor = std::make_unique<KernelEditor>(KernelEditor::Language::Cuda);
            editor->setSourceName(QStringLiteral("matmul_tiled.cu"));
            editor->setText(readSource());
            editor->resize(900, 600);
            editor->show();
            QVERIFY(QTest::qWaitForWindowExposed(editor.get()));
            editor->setHotspots(&r);
            editors.push_back(std::move(editor));
        }
        for (std::size_t i = 0; i < editors.size(); ++i) {
            KernelEditor& editor = *editors[i];
            int left = 0;
            for (int m = 0; m < 3; ++m)
                left += editor.marginWidth(m);
            const long pos = editor.SendScintilla(QsciScintilla::SCI_POSITIONFROMLINE, 17UL);
            const int top = static_cast<int>(
                editor.SendScintilla(QsciScintilla::SCI_POINTYFROMPOSITION, 0UL, pos));
            const QImage shot = editor.grab().toImage();
            const QColor background = editor.palette().color(QPalette::Window);
            // Line 18 holds 37.5 % of the samples: a bar in a warm colour (red well above blue).
            int warm = 0;
            for (int y = top; y < top + editor.textHeight(17); ++y)
                for (int x = left; x < left + editor.marginWidth(3); ++x) {
                    const QColor c = shot.pixelColor(x, y);
                    if (c != background && c.red() - c.blue() > 80) ++warm;
                }
            QVERIFY2(warm > 20, qPrintable(QStringLiteral("editor %1: %2 warm pixels in line "
                                                          "18's heat margin")
                                               .arg(i)
                                               .arg(warm)));
        }
    }

    void editorLineHighlightsInstructionsAndBack()
    {
        InspectPanel panel;
        auto result = std::make_shared<CompileResult>();
        result->ok = true;
        result->ptx = readData("matmul_tiled.lineinfo.ptx").toStdString();
        QVERIFY(!result->ptx.empty());
        panel.setCompileResult(result);
        // The SASS tab first: with no CUBIN in this result it would replace the listing below.
        panel.showSass();
        panel.setSassListing(readData("matmul_tiled.nvdisasm-g-hex.txt"));
        panel.resize(1000, 600);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        QCOMPARE(panel.listing().functions().size(), std::size_t(2));
        // One row per instruction plus a header per function, each with its control bits.
        const QString sass = panel.sassView()->toPlainText();
        QVERIFY(sass.contains(QLatin1String("// _Z12matmul_tiledPKfS0_Pfi")));
        QVERIFY2(sass.contains(QLatin1String("S01 Y W- R-")), qPrintable(sass.left(400)));
        QVERIFY(sass.contains(QLatin1String("// line 18")));

        // Clicking line 18 in the editor highlights its FFMAs in both views.
        KernelEditor editor(KernelEditor::Language::Cuda);
        editor.setSourceName(QStringLiteral("matmul_tiled.cu"));
        editor.setText(readSource());
        connect(&editor, &KernelEditor::sourceLineSelected, &panel,
                [&panel](int line) { panel.highlightSourceLine(line, "matmul_tiled.cu"); });
        editor.show();
        QVERIFY(QTest::qWaitForWindowExposed(&editor));
        editor.setCursorPosition(17, 4); // QScintilla reports the move when it updates the view
        QTRY_VERIFY(panel.highlightedSassRows() > 0);
        QVERIFY2(panel.highlightedSassRows() >= 16,
                 QByteArray::number(panel.highlightedSassRows()));
        QVERIFY2(panel.highlightedPtxLines() >= 16,
                 QByteArray::number(panel.highlightedPtxLines()));
        for (const QTextEdit::ExtraSelection& s : panel.sassView()->extraSelections())
            QCOMPARE(panel.sourceLineOfSassRow(s.cursor.blockNumber()), 18);
        for (const QTextEdit::ExtraSelection& s : panel.ptxView()->extraSelections())
            QCOMPARE(panel.sourceLineOfPtxRow(s.cursor.blockNumber()), 18);
        // Another file's line 18 has no instructions here.
        panel.highlightSourceLine(18, QStringLiteral("reference.cpp"));
        QCOMPARE(panel.highlightedSassRows(), 0);
        QCOMPARE(panel.highlightedPtxLines(), 0);
        panel.highlightSourceLine(0);
        QVERIFY(panel.sassView()->extraSelections().isEmpty());

        // Clicking an instruction goes back to its source line.
        QSignalSpy activated(&panel, &InspectPanel::sourceLineActivated);
        int ldgRow = -1;
        const QStringList rows = sass.split(u'\n');
        for (int i = 0; i < rows.size() && ldgRow < 0; ++i)
            if (rows[i].contains(QLatin1String("LDG")) && panel.sourceLineOfSassRow(i) == 15)
                ldgRow = i;
        QVERIFY(ldgRow > 0);
        QTest::mouseClick(panel.sassView()->viewport(), Qt::LeftButton, {},
                          rowPoint(panel.sassView(), ldgRow));
        QCOMPARE(activated.size(), 1);
        QCOMPARE(activated.takeFirst().at(0).toInt(), 15);
        const QStringList ptxRows = panel.ptxView()->toPlainText().split(u'\n');
        int fmaRow = -1;
        for (int i = 0; i < ptxRows.size() && fmaRow < 0; ++i)
            if (ptxRows[i].contains(QLatin1String("fma.rn.f32"))) fmaRow = i;
        QVERIFY(fmaRow > 0);
        QCOMPARE(panel.sourceLineOfPtxRow(fmaRow), 18);
        QTabWidget* tabs = panel.findChild<QTabWidget*>();
        tabs->setCurrentIndex(0);
        QTest::mouseClick(panel.ptxView()->viewport(), Qt::LeftButton, {},
                          rowPoint(panel.ptxView(), fmaRow));
        QCOMPARE(activated.size(), 1);
        QCOMPARE(activated.takeFirst().at(0).toInt(), 18);
    }

    void samplesBesideInstructions()
    {
        InspectPanel panel;
        panel.setSassListing(readData("matmul_tiled.nvdisasm-g-hex.txt"));
        QVERIFY(!panel.sassView()->toPlainText().contains(QLatin1String("short scoreboard")));
        const HotspotReport r = samples();
        panel.setHotspots(&r);
        const QStringList rows = panel.sassView()->toPlainText().split(u'\n');
        bool hot = false, cold = false, inTiled = false;
        for (const QString& row : rows) {
            if (row.startsWith(QLatin1String("// "))) inTiled = row.endsWith(QLatin1String(kTiled));
            if (!inTiled) continue;
            if (row.startsWith(QLatin1String("/*03b0*/"))) {
                // 750 of 2000 samples, top stall reason, control bits, the instruction.
                hot = row.contains(QLatin1String(" 37.5% short scoreboard")) &&
                      row.contains(QLatin1String("LDS"));
                QVERIFY2(hot, qPrintable(row));
            }
            if (row.startsWith(QLatin1String("/*03c0*/"))) cold = !row.contains(u'%');
        }
        QVERIFY(hot);
        QVERIFY(cold);
        if (const QString dir = qEnvironmentVariable("WARPBENCH_SCREENSHOT_DIR"); !dir.isEmpty()) {
            panel.resize(1100, 500);
            panel.showSass();
            panel.highlightSourceLine(18, QStringLiteral("matmul_tiled.cu"));
            QVERIFY(panel.grab().save(dir + QStringLiteral("/sass-recorded.png")));
        }
        panel.setHotspots(nullptr);
        QVERIFY(!panel.sassView()->toPlainText().contains(QLatin1String("short scoreboard")));
    }
};

WB_QTEST_MAIN(TestHotspotViews)
#include "tst_hotspotviews.moc"
