// SPDX-License-Identifier: GPL-3.0-or-later
// Typed arrays, the virtualized table (100M elements), decimated plots and the image view.
#include "tests/support/SuiteMain.h"
#include "ui/buffers/ArraySummary.h"
#include "ui/buffers/ArrayTableModel.h"
#include "ui/buffers/BufferViewer.h"
#include "ui/buffers/ImageView.h"
#include "ui/common/ArrayView.h"
#include "ui/common/VirtualTableView.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QHeaderView>
#include <QMouseEvent>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>

#include <cmath>
#include <random>

using namespace wb::ui;

class TestBufferViewer : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void elementConversions()
    {
        QCOMPARE(halfToFloat(0x3c00), 1.0f);
        QCOMPARE(halfToFloat(0xc000), -2.0f);
        QCOMPARE(halfToFloat(0x7bff), 65504.0f);
        QCOMPARE(halfToFloat(0x0001), std::ldexp(1.0f, -24)); // smallest subnormal
        QVERIFY(std::isinf(halfToFloat(0x7c00)));
        QVERIFY(std::isnan(halfToFloat(0x7e00)));
        QCOMPARE(bfloat16ToFloat(0x3f80), 1.0f);
        QCOMPARE(bfloat16ToFloat(0x4049), 3.140625f);

        const std::int64_t big[] = {std::numeric_limits<std::int64_t>::min(), 42};
        const ArrayView v = ArrayView::copyOf(big, 2, ElementKind::I64, {2});
        QCOMPARE(v.text(0), QStringLiteral("-9223372036854775808")); // exact, not via double
        const float f[] = {0.1f};
        QCOMPARE(ArrayView::copyOf(f, 1, ElementKind::F32, {1}).text(0).toFloat(),
                 0.1f); // round-trips
        const float grid[12] = {};
        const ArrayView g = ArrayView::copyOf(grid, 12, ElementKind::F32, {2, 3, 2});
        QCOMPARE(g.coordinates(7), QStringLiteral("[1, 0, 1]"));
        QCOMPARE(g.width(), std::size_t(2));
        QCOMPARE(g.height(), std::size_t(6));
    }

    void hundredMillionRows()
    {
        constexpr std::size_t n = 100'000'000;
        auto bytes = std::make_shared<std::vector<std::uint8_t>>(n);
        for (std::size_t i = 0; i < n; i += 4096)
            (*bytes)[i] = static_cast<std::uint8_t>(i / 4096 % 251);
        (*bytes)[n - 1] = 77;
        ArrayView view(bytes, reinterpret_cast<const std::byte*>(bytes->data()), n, ElementKind::U8,
                       {n});

        ArrayTableModel model;
        model.setArray(view);
        VirtualTableView table;
        table.resize(400, 600);
        table.setModel(&model);
        table.show();
        QVERIFY(QTest::qWaitForWindowExposed(&table));
        QCOMPARE(model.totalRows(), std::int64_t(n));
        QVERIFY(model.rowCount() > 5);
        QVERIFY(model.rowCount() < 100); // only what is on screen
        QCOMPARE(model.index(0, 0).data().toString(), QStringLiteral("0"));

        // Jump around: every jump reads only the visible cells.
        std::mt19937_64 rng(1);
        QElapsedTimer timer;
        timer.start();
        constexpr int jumps = 2000;
        for (int k = 0; k < jumps; ++k) {
            const auto row = static_cast<std::int64_t>(rng() % n);
            table.scrollToRow(row);
            QVERIFY(row >= model.firstRow() && row < model.firstRow() + model.windowRows());
        }
        const double perJumpUs = static_cast<double>(timer.nsecsElapsed()) / 1000.0 / jumps;
        qInfo("virtual table: %d jumps over 100M rows, %.1f us per jump (window %d rows)", jumps,
              perJumpUs, model.windowRows());

        table.scrollToRow(std::int64_t(n) - 1);
        QCOMPARE(model.firstRow() + model.windowRows(), std::int64_t(n));
        const int last = model.windowRows() - 1;
        QCOMPARE(model.index(last, 0).data().toString(), QStringLiteral("77"));
        QCOMPARE(model.headerData(last, Qt::Vertical, Qt::DisplayRole).toString(),
                 QString::number(n - 1));
        QCOMPARE(table.currentRow(), std::int64_t(n) - 1);

        // Wheel and keys move the window by rows, not pixels.
        table.scrollToRow(5000);
        const std::int64_t before = model.firstRow();
        QTest::keyClick(table.table(), Qt::Key_PageDown);
        QCOMPARE(table.currentRow(), std::int64_t(5000) + model.windowRows());
        QVERIFY(model.firstRow() > before);
        QTest::keyClick(table.table(), Qt::Key_Home, Qt::ControlModifier);
        QCOMPARE(model.firstRow(), std::int64_t(0));
    }

    void gridLayout()
    {
        std::vector<float> data(6 * 4);
        for (std::size_t i = 0; i < data.size(); ++i)
            data[i] = static_cast<float>(i);
        ArrayTableModel model;
        model.setArray(ArrayView::copyOf(data.data(), data.size(), ElementKind::F32, {6, 4}));
        QVERIFY(model.canShowGrid());
        model.setGrid(true);
        model.setWindow(0, 6);
        QCOMPARE(model.columnCount(), 4);
        QCOMPARE(model.totalRows(), std::int64_t(6));
        QCOMPARE(model.index(2, 3).data().toString(), QStringLiteral("11"));
        QCOMPARE(model.elementAt(2, 3), std::int64_t(11));
        QCOMPARE(model.cellOf(11), std::make_pair(std::int64_t(2), 3));
    }

    void decimatedOutline()
    {
        std::vector<float> data(1'000'000);
        for (std::size_t i = 0; i < data.size(); ++i)
            data[i] = std::sin(static_cast<float>(i) * 1e-3f);
        data[123456] = 5.0f; // a spike the envelope must keep
        data[500] = std::nanf("");
        const ArraySummary s = ArraySummary::compute(
            ArrayView::copyOf(data.data(), data.size(), ElementKind::F32, {data.size()}), 2000);
        QVERIFY(s.outline.size() <= 4000);
        QCOMPARE(s.max, 5.0);
        QVERIFY(s.min < -0.99);
        QCOMPARE(s.nonFinite, std::uint64_t(1));
        bool spike = false;
        for (const QPointF& p : s.outline)
            spike = spike || p.y() == 5.0;
        QVERIFY(spike);
    }

    void twoDimensionalOpensAsImage()
    {
        constexpr std::size_t h = 48, w = 64;
        std::vector<float> data(h * w);
        for (std::size_t y = 0; y < h; ++y)
            for (std::size_t x = 0; x < w; ++x)
                data[y * w + x] = static_cast<float>(x) / w;
        BufferViewer viewer;
        viewer.resize(600, 500);
        viewer.show();
        QVERIFY(QTest::qWaitForWindowExposed(&viewer));
        QSignalSpy summary(&viewer, &BufferViewer::summaryComputed);
        viewer.setBuffer(QStringLiteral("img"),
                         ArrayView::copyOf(data.data(), data.size(), ElementKind::F32, {h, w}));
        QCOMPARE(viewer.currentPage(), BufferViewer::Page::Image);
        QVERIFY(summary.wait(5000));
        QCOMPARE(viewer.imageView()->imageWidth(), int(w));
        QCOMPARE(viewer.imageView()->imageHeight(), int(h));
        const QImage& image = viewer.imageView()->image();
        QCOMPARE(image.size(), QSize(int(w), int(h)));
        // Auto range: the left column is the low end of the colormap, the right the high end.
        const Colormap viridis;
        QCOMPARE(image.pixel(0, 10), viridis.map(0.0));
        QCOMPARE(image.pixel(int(w) - 1, 10), viridis.map(1.0));
        // The picker names coordinates and value.
        QVERIFY(viewer.goToElement(QStringLiteral("3, 32")));
        QVERIFY(viewer.pickerText().contains(QStringLiteral("[3, 32] = 0.5")));
        QVERIFY(!viewer.goToElement(QStringLiteral("48, 0")));
        // Hovering the image reports the element under the mouse.
        viewer.showPage(BufferViewer::Page::Image);
        QSignalSpy hovered(viewer.imageView(), &ImageView::elementHovered);
        const QPointF centre = QRectF(viewer.imageView()->rect()).center();
        QMouseEvent move(QEvent::MouseMove, centre, viewer.imageView()->mapToGlobal(centre),
                         Qt::NoButton, Qt::NoButton, Qt::NoModifier);
        QApplication::sendEvent(viewer.imageView(), &move);
        QCOMPARE(hovered.count(), 1);
        const qint64 index = hovered.first().first().toLongLong();
        QVERIFY(index >= 0 && index < qint64(h * w));
        QVERIFY(viewer.pickerText().startsWith(QStringLiteral("img [")));
    }

    void rgbPlanesAsColour()
    {
        std::vector<std::uint8_t> planes(3 * 2 * 2, 0);
        planes[0] = 255;     // R of pixel (0,0)
        planes[4 + 1] = 255; // G of pixel (0,1)
        const ArrayView v =
            ArrayView::copyOf(planes.data(), planes.size(), ElementKind::U8, {3, 2, 2});
        const QImage image = ImageView::render(v, Colormap(), 0, 255, true);
        QCOMPARE(image.size(), QSize(2, 2));
        QCOMPARE(image.pixel(0, 0), qRgb(255, 0, 0));
        QCOMPARE(image.pixel(1, 0), qRgb(0, 255, 0));
        QCOMPARE(image.pixel(0, 1), qRgb(0, 0, 0));
    }
};

WB_QTEST_MAIN(TestBufferViewer)
#include "tst_bufferviewer.moc"
