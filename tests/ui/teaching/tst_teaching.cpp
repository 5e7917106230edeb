// SPDX-License-Identifier: GPL-3.0-or-later
// The teaching widgets offscreen: launch geometry for 1-D and 2-D launches (computed coverage,
// hover text, a screenshot), the trace overlay's marks and tooltips, presentation mode on a
// plain QMainWindow with docks. Set WB_SCREENSHOT_DIR to keep the screenshots.
#include "tests/support/SuiteMain.h"
#include "ui/teaching/GuidePanel.h"
#include "ui/teaching/LaunchGeometry.h"
#include "ui/teaching/LaunchGeometryView.h"
#include "ui/teaching/PresentationMode.h"
#include "ui/teaching/TraceOverlayView.h"

#include <QApplication>
#include <QDir>
#include <QDockWidget>
#include <QLabel>
#include <QMainWindow>
#include <QPlainTextEdit>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QToolBar>

#include <sys/stat.h>

using wb::ui::LaunchGeometry;
using wb::ui::LaunchGeometryView;
using wb::ui::PresentationMode;
using wb::ui::TraceOverlayView;

namespace {
wb::LaunchConfig launchOf(wb::Dim3 grid, wb::Dim3 block)
{
    wb::LaunchConfig c;
    c.grid = grid;
    c.block = block;
    return c;
}

void keepScreenshot(QWidget& w, const QString& name)
{
    const QImage img = w.grab().toImage();
    QVERIFY(!img.isNull());
    const QByteArray dir = qgetenv("WB_SCREENSHOT_DIR");
    if (!dir.isEmpty()) QVERIFY(img.save(QDir(QString::fromLocal8Bit(dir)).filePath(name)));
}
} // namespace

class TestTeaching : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void geometry1DTail()
    {
        // vector_add with the grid rounded down: 3 blocks of 256 over 1000 elements.
        const LaunchGeometry g = LaunchGeometry::compute(launchOf({3, 1, 1}, {256, 1, 1}), {1000});
        QVERIFY(!g.twoD);
        QCOMPARE(g.elements, 1000u);
        QCOMPARE(g.covered, 768u);
        QCOMPARE(g.uncovered, 232u);
        QCOMPARE(g.uncoveredCols, 232u);
        QCOMPARE(g.idleThreads, 0u);
        // Rounded up: everything covered, 24 idle threads in the last block.
        const LaunchGeometry up = LaunchGeometry::compute(launchOf({4, 1, 1}, {256, 1, 1}), {1000});
        QCOMPARE(up.uncovered, 0u);
        QCOMPARE(up.idleThreads, 24u);
        const LaunchGeometry::Tile last =
            LaunchGeometry::tileOf(launchOf({4, 1, 1}, {256, 1, 1}), up, 3, 0);
        QCOMPARE(last.firstCol, 768u);
        QCOMPARE(last.endCol, 1000u);
    }

    void geometry2DView()
    {
        // matmul_naive with n = 130 and the grid rounded down to 8x8 blocks of 16x16, then up.
        LaunchGeometryView view;
        QSignalSpy changed(&view, &LaunchGeometryView::geometryChanged);
        view.resize(520, 440);
        view.setShape({130, 130}, QStringLiteral("C"));
        view.setLaunch(launchOf({8, 8, 1}, {16, 16, 1}));
        QCOMPARE(changed.count(), 2);
        const LaunchGeometry& g = view.geometry();
        QVERIFY(g.twoD);
        QCOMPARE(g.rows, 130u);
        QCOMPARE(g.cols, 130u);
        QCOMPARE(g.covered, 128u * 128u);
        QCOMPARE(g.uncovered, 130u * 130u - 128u * 128u);
        QCOMPARE(g.uncoveredRows, 2u);
        QCOMPARE(g.uncoveredCols, 2u);
        QVERIFY(view.summary().contains("16,384 of 16,900 elements covered"));
        QVERIFY(view.summary().contains("516 never reached"));

        view.setLaunch(launchOf({9, 9, 1}, {16, 16, 1}));
        QCOMPARE(view.geometry().uncovered, 0u);
        QCOMPARE(view.geometry().idleThreads, 144u * 144u - 130u * 130u);
        const LaunchGeometry::Tile corner =
            LaunchGeometry::tileOf(view.launch(), view.geometry(), 8, 8);
        QCOMPARE(corner.firstRow, 128u);
        QCOMPARE(corner.endRow, 130u);
        QCOMPARE(corner.firstCol, 128u);
        QCOMPARE(corner.endCol, 130u);

        // A 2-D buffer with a 1-D-shaped launch (a common mistake): only the first row is reached.
        const LaunchGeometry row =
            LaunchGeometry::compute(launchOf({9, 1, 1}, {16, 1, 1}), {130, 130});
        QCOMPARE(row.covered, 130u);
        QCOMPARE(row.uncoveredRows, 129u);

        // Hit-testing follows the drawing: the top-left corner is block (0, 0), the bottom-right
        // corner of the drawing is block (8, 8).
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        unsigned bx = 99, by = 99;
        QVERIFY(view.blockAt(QPointF(10, 46), bx, by));
        QCOMPARE(bx, 0u);
        QCOMPARE(by, 0u);
        // The screenshot: 100x100 under 7x5 blocks of 16x16 — 20 rows never reached (red),
        // 12 columns of threads past the data (hatched).
        view.setShape({100, 100}, QStringLiteral("C"));
        view.setLaunch(launchOf({7, 5, 1}, {16, 16, 1}));
        QCOMPARE(view.geometry().uncoveredRows, 20u);
        QCOMPARE(view.geometry().uncoveredCols, 0u);
        QCOMPARE(view.geometry().covered, 80u * 100u);
        QCOMPARE(view.geometry().idleThreads, 112u * 80u - 80u * 100u);
        keepScreenshot(view, QStringLiteral("geometry.png"));
    }

    void traceOverlayMarks()
    {
        wb::WriteTrace t;
        t.buffer = "out";
        t.shape = {2, 4};
        t.elementSize = 4;
        t.grid = {2, 1, 1};
        t.block = {4, 1, 1};
        t.lastWriter.assign(8, wb::WriteTrace::kNoWriter);
        t.writes.assign(8, 0);
        t.atomicWrites.assign(8, 0);
        t.multipleWriters.assign(8, 0);
        t.untracedMask.assign(8, 0);
        for (std::uint64_t i = 0; i < 6; ++i) {
            t.lastWriter[i] = ((i / 4) << 32) | (i % 4);
            t.writes[i] = 1;
        }
        t.writes[2] = 2; // two threads, plain stores: a race
        t.multipleWriters[2] = 1;
        t.writes[3] = 5; // five threads, all atomic: fine
        t.atomicWrites[3] = 5;
        t.multipleWriters[3] = 1;
        wb::session::HostArray values(wb::session::ElementType::F32, {2, 4});
        for (std::size_t i = 0; i < 8; ++i)
            values.set(i, 1.5 * static_cast<double>(i));

        TraceOverlayView view;
        view.resize(400, 240);
        view.setTrace(t, values);
        using Mark = TraceOverlayView::Mark;
        QCOMPARE(view.markOf(0), Mark::Written);
        QCOMPARE(view.markOf(2), Mark::Race);
        QCOMPARE(view.markOf(3), Mark::Atomic);
        QCOMPARE(view.markOf(6), Mark::Unwritten);
        QCOMPARE(view.colourOf(6), TraceOverlayView::unwrittenColour());
        QCOMPARE(view.colourOf(2), TraceOverlayView::raceColour());
        // Colour by block: elements of one block share a colour, different blocks differ.
        QCOMPARE(view.colourOf(0), view.colourOf(1));
        QVERIFY(view.colourOf(0) != view.colourOf(4));
        view.setColourBy(TraceOverlayView::ColourBy::Thread);
        QVERIFY(view.colourOf(0) != view.colourOf(1));
        QCOMPARE(view.colourOf(0), view.colourOf(4)); // thread 0 of blocks 0 and 1
        QCOMPARE(view.image().size(), QSize(4, 2));
        QCOMPARE(QColor(view.image().pixel(2, 1)), TraceOverlayView::unwrittenColour());

        const QString tip = view.describe(5);
        QVERIFY2(tip.contains("out row 1, column 1") && tip.contains("blockIdx (1, 0, 0)") &&
                     tip.contains("threadIdx (1, 0, 0)") && tip.contains("value 7.5"),
                 qPrintable(tip));
        QVERIFY(view.describe(2).contains("RACE"));
        QVERIFY(view.describe(3).contains("5 atomic"));
        QVERIFY(view.describe(7).contains("never written"));
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        const auto hit = view.elementAt(QPointF(8 + 1, 24 + 1));
        QVERIFY(hit.has_value());
        QCOMPARE(*hit, std::size_t{0});
        keepScreenshot(view, QStringLiteral("trace-overlay.png"));
    }

    void guidePanelShowsTheExampleGuide()
    {
        wb::ui::GuidePanel panel;
        QVERIFY(panel.showGuideFor(
            QStringLiteral(WB_SOURCE_DIR "/resources/examples/matmul_tiled/matmul_tiled.wbproj")));
        QVERIFY(panel.hasGuide());
        QVERIFY2(panel.toPlainText().contains("Change TILE to 32"),
                 qPrintable(panel.toPlainText()));
        QVERIFY(!panel.toPlainText().contains("**")); // rendered, not raw Markdown
        QTemporaryDir dir;
        QVERIFY(!panel.showGuideFor(dir.filePath("nothing.wbproj")));
        QVERIFY(panel.toPlainText().contains("no guide"));
        // A FIFO named GUIDE.md used to block the window in open(); now a message at once.
        QCOMPARE(::mkfifo(dir.filePath("GUIDE.md").toLocal8Bit().constData(), 0600), 0);
        QVERIFY(panel.showGuideFor(dir.filePath("fifo.wbproj")));
        QVERIFY2(panel.toPlainText().contains("not a regular file"),
                 qPrintable(panel.toPlainText()));
    }

    void presentationModeToggles()
    {
        QMainWindow w;
        auto* editor = new QPlainTextEdit(QStringLiteral("__global__ void k() {}"));
        w.setCentralWidget(editor);
        auto* results = new QDockWidget(QStringLiteral("Results"), &w);
        results->setObjectName("results");
        results->setWidget(new QLabel(QStringLiteral("PASS")));
        w.addDockWidget(Qt::BottomDockWidgetArea, results);
        auto* side = new QDockWidget(QStringLiteral("Launch"), &w);
        side->setObjectName("launch");
        side->setWidget(new QLabel(QStringLiteral("grid")));
        w.addDockWidget(Qt::RightDockWidgetArea, side);
        auto* tb = w.addToolBar(QStringLiteral("main"));
        tb->setObjectName("main");
        w.resize(780, 560); // within the offscreen screen (800×600): nothing to shrink
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));

        const QFont font = w.font();
        const QPalette palette = w.palette();
        const int editorPoints = editor->font().pointSize();
        const int dockHeight = results->height();
        const QByteArray state = w.saveState();

        PresentationMode::apply(&w, true);
        QVERIFY(PresentationMode::isActive(&w));
        QVERIFY(w.font().pointSize() >= PresentationMode::kPointSize);
        QVERIFY(results->widget()->font().pointSize() >= PresentationMode::kPointSize); // inherited
        QVERIFY(editor->font().pointSize() > editorPoints);                             // zoomed
        QCOMPARE(w.palette().color(QPalette::Window), QColor(0, 0, 0));
        QCOMPARE(w.palette().color(QPalette::WindowText), QColor(255, 255, 255));
        QCOMPARE(w.iconSize(), QSize(40, 40));
        QTest::qWait(50);
        // The projector layout: the editor keeps the height, the panels are tabs on the right
        // with the results on top and taller than before.
        QCOMPARE(w.dockWidgetArea(results), Qt::RightDockWidgetArea);
        QCOMPARE(w.tabifiedDockWidgets(results), QList<QDockWidget*>{side});
        QVERIFY(!results->visibleRegion().isEmpty());
        QVERIFY(side->visibleRegion().isEmpty()); // a tab behind (moved off the window)
        QVERIFY(editor->height() > w.height() * 2 / 3);
        QVERIFY2(results->height() > dockHeight,
                 qPrintable(QString("%1 -> %2").arg(dockHeight).arg(results->height())));
        PresentationMode::apply(&w, true); // idempotent
        keepScreenshot(w, QStringLiteral("presentation-plain-window.png"));

        PresentationMode::apply(&w, false);
        QVERIFY(!PresentationMode::isActive(&w));
        QCOMPARE(w.font(), font);
        QCOMPARE(w.palette().color(QPalette::Window), palette.color(QPalette::Window));
        QCOMPARE(editor->font().pointSize(), editorPoints);
        QCOMPARE(w.saveState(), state);
        QCOMPARE(w.size(), QSize(780, 560));
    }
};

WB_QTEST_MAIN(TestTeaching)
#include "tst_teaching.moc"
