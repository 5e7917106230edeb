// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/teaching/LaunchGeometryView.h"

#include "core/session/Poison.h"

#include <QHelpEvent>
#include <QPainter>
#include <QPainterPath>
#include <QToolTip>

#include <algorithm>
#include <cmath>

namespace wb::ui {

namespace {
QString n(std::uint64_t v)
{
    return QString::fromStdString(session::withThousands(v));
}
constexpr int kHeader = 44; // text lines above the drawing
constexpr int kMargin = 8;
constexpr int kLegend = 22; // legend line below the drawing
} // namespace

LaunchGeometryView::LaunchGeometryView(QWidget* parent)
    : QWidget(parent)
{
    setMouseTracking(true);
    setAccessibleName(tr("Launch geometry"));
    m_launch.grid = {1, 1, 1};
    m_launch.block = {1, 1, 1};
    recompute();
}

void LaunchGeometryView::setLaunch(const LaunchConfig& launch)
{
    m_launch = launch;
    recompute();
}

void LaunchGeometryView::setShape(const std::vector<std::size_t>& shape, const QString& bufferName)
{
    m_shape = shape.empty() ? std::vector<std::size_t>{1} : shape;
    m_buffer = bufferName;
    recompute();
}

void LaunchGeometryView::recompute()
{
    m_geometry = LaunchGeometry::compute(m_launch, m_shape);
    setToolTip(summary());
    update();
    Q_EMIT geometryChanged();
}

QString LaunchGeometryView::summary() const
{
    const LaunchGeometry& g = m_geometry;
    const auto dims = [](const Dim3& d, bool twoD) {
        return twoD ? QStringLiteral("%1×%2").arg(d.x).arg(d.y) : QString::number(d.x);
    };
    // x is the column and y the row: say so, a non-square block reads either way otherwise.
    QString shape = g.twoD ? tr("%1 rows × %2 columns").arg(n(g.rows), n(g.cols))
                           : tr("%1 elements").arg(n(g.cols));
    QString s = tr("grid %1 × block %2%3 over %4%5: %6 of %7 elements covered")
                    .arg(dims(m_launch.grid, g.twoD), dims(m_launch.block, g.twoD),
                         g.twoD ? tr(" (x × y)") : QString(), shape,
                         m_buffer.isEmpty() ? QString() : QStringLiteral(" ('%1')").arg(m_buffer),
                         n(g.covered), n(g.elements));
    if (g.uncovered) s += tr(", %1 never reached").arg(n(g.uncovered));
    if (g.idleThreads)
        s += tr(", %1 of %2 threads outside the data").arg(n(g.idleThreads), n(g.threads));
    return s;
}

double LaunchGeometryView::unitsWide() const
{
    return static_cast<double>(std::max(m_geometry.cols, m_geometry.threadCols));
}

double LaunchGeometryView::unitsHigh() const
{
    return static_cast<double>(std::max(m_geometry.rows, m_geometry.threadRows));
}

QRectF LaunchGeometryView::plotRect() const
{
    const QRectF area(kMargin, kHeader, std::max(10, width() - 2 * kMargin),
                      std::max(10, height() - kHeader - kMargin - kLegend));
    if (!m_geometry.twoD) {
        // 1-D: one strip, at most 60 px high.
        const double h = std::min(60.0, area.height());
        return {area.left(), area.top() + (area.height() - h) / 2, area.width(), h};
    }
    // 2-D: keep the aspect of the element space where it fits.
    const double w = unitsWide(), hh = unitsHigh();
    const double scale = std::min(area.width() / w, area.height() / hh);
    return {area.left(), area.top(), w * scale, hh * scale};
}

bool LaunchGeometryView::blockAt(const QPointF& pos, unsigned& bx, unsigned& by) const
{
    const QRectF r = plotRect();
    if (!r.contains(pos)) return false;
    const double ux = (pos.x() - r.left()) / r.width() * unitsWide();
    const double uy = m_geometry.twoD ? (pos.y() - r.top()) / r.height() * unitsHigh() : 0.0;
    bx = static_cast<unsigned>(ux / m_launch.block.x);
    by = m_geometry.twoD ? static_cast<unsigned>(uy / m_launch.block.y) : 0;
    return bx < m_launch.grid.x && by < (m_geometry.twoD ? m_launch.grid.y : 1u);
}

bool LaunchGeometryView::cellAt(const QPointF& pos, std::uint64_t& row, std::uint64_t& col) const
{
    const QRectF r = plotRect();
    if (!r.contains(pos)) return false;
    const double ux = (pos.x() - r.left()) / r.width() * unitsWide();
    const double uy = m_geometry.twoD ? (pos.y() - r.top()) / r.height() * unitsHigh() : 0.0;
    col = static_cast<std::uint64_t>(ux);
    row = static_cast<std::uint64_t>(uy);
    return row < m_geometry.rows && col < m_geometry.cols;
}

QRectF LaunchGeometryView::cellRect(std::uint64_t row, std::uint64_t col) const
{
    const QRectF r = plotRect();
    const double sx = r.width() / unitsWide();
    if (!m_geometry.twoD)
        return {r.left() + static_cast<double>(col) * sx, r.top(), sx, r.height()};
    const double sy = r.height() / unitsHigh();
    return {r.left() + static_cast<double>(col) * sx, r.top() + static_cast<double>(row) * sy, sx,
            sy};
}

QString LaunchGeometryView::describeCell(std::uint64_t row, std::uint64_t col) const
{
    const QString where =
        m_geometry.twoD ? tr("row %1, column %2").arg(row).arg(col) : tr("element %1").arg(col);
    const auto t = LaunchGeometry::threadOf(m_launch, m_geometry, row, col);
    if (!t) return tr("%1: no thread of the grid reaches it").arg(where);
    if (!m_geometry.twoD)
        return tr("%1: blockIdx.x %2, threadIdx.x %3").arg(where).arg(t->block.x).arg(t->thread.x);
    return tr("%1: blockIdx (%2, %3), threadIdx (%4, %5)")
        .arg(where)
        .arg(t->block.x)
        .arg(t->block.y)
        .arg(t->thread.x)
        .arg(t->thread.y);
}

void LaunchGeometryView::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing, false);
    const QPalette pal = palette();
    p.fillRect(rect(), pal.color(QPalette::Base));
    const LaunchGeometry& g = m_geometry;

    // Header: what is drawn, in words.
    p.setPen(pal.color(QPalette::Text));
    p.drawText(QRect(kMargin, 4, width() - 2 * kMargin, kHeader - 6),
               Qt::AlignLeft | Qt::TextWordWrap, summary());

    const QRectF r = plotRect();
    const double sx = r.width() / unitsWide();
    const double sy = r.height() / unitsHigh();
    const auto toWidget = [&](double col, double row, double cols, double rows) {
        return QRectF(r.left() + col * sx, r.top() + row * sy, cols * sx, rows * sy);
    };
    const double dataRows = g.twoD ? static_cast<double>(g.rows) : unitsHigh();
    const QRectF data = toWidget(0, 0, static_cast<double>(g.cols), dataRows);

    // Uncovered data: red. (Drawn first; covered tiles paint over their part.)
    const QColor red(220, 40, 40);
    p.fillRect(data, red);

    // Blocks: alternating tints where they cover data, hatched where they reach past it.
    const QColor tintA = pal.color(QPalette::Highlight).lighter(150);
    const QColor tintB = pal.color(QPalette::Highlight).lighter(120);
    const unsigned gy = g.twoD ? m_launch.grid.y : 1;
    const double bw = m_launch.block.x * sx;
    const double bh = g.twoD ? m_launch.block.y * sy : r.height();
    const bool drawEachBlock =
        bw >= 2.0 && bh >= 2.0 && static_cast<double>(m_launch.grid.x) * gy <= 250000.0;
    if (drawEachBlock) {
        for (unsigned by = 0; by < gy; ++by) {
            for (unsigned bx = 0; bx < m_launch.grid.x; ++bx) {
                const QRectF whole(r.left() + bx * bw, r.top() + by * bh, bw, bh);
                const LaunchGeometry::Tile t = LaunchGeometry::tileOf(m_launch, g, bx, by);
                const bool inside = t.endCol > t.firstCol && t.endRow > t.firstRow;
                QRectF covered;
                if (inside) {
                    covered =
                        g.twoD
                            ? toWidget(static_cast<double>(t.firstCol),
                                       static_cast<double>(t.firstRow),
                                       static_cast<double>(t.endCol - t.firstCol),
                                       static_cast<double>(t.endRow - t.firstRow))
                            : QRectF(r.left() + static_cast<double>(t.firstCol) * sx, r.top(),
                                     static_cast<double>(t.endCol - t.firstCol) * sx, r.height());
                    p.fillRect(covered, ((bx + by) % 2) ? tintA : tintB);
                }
                if (!inside || covered.width() < whole.width() - 0.5 ||
                    covered.height() < whole.height() - 0.5) {
                    // Over-coverage: the part of the block outside the data.
                    QPainterPath outside;
                    outside.addRect(whole);
                    if (inside) {
                        QPainterPath in;
                        in.addRect(covered);
                        outside = outside.subtracted(in);
                    }
                    p.fillPath(outside, QBrush(pal.color(QPalette::Mid), Qt::BDiagPattern));
                }
                p.setPen(QPen(pal.color(QPalette::Text), 0));
                p.drawRect(whole);
            }
        }
    } else {
        // Too many blocks to draw one by one: the covered area as one tile, hatched past it.
        const QRectF threads = toWidget(0, 0, static_cast<double>(g.threadCols),
                                        g.twoD ? static_cast<double>(g.threadRows) : dataRows);
        p.fillRect(threads.intersected(data), tintA);
        QPainterPath outside;
        outside.addRect(threads);
        QPainterPath in;
        in.addRect(data);
        p.fillPath(outside.subtracted(in), QBrush(pal.color(QPalette::Mid), Qt::BDiagPattern));
        p.setPen(QPen(pal.color(QPalette::Text), 0));
        p.drawRect(threads);
    }
    // The data's outline on top.
    p.setPen(QPen(pal.color(QPalette::WindowText), 2));
    p.setBrush(Qt::NoBrush);
    p.drawRect(data);

    // Legend.
    const int ly = static_cast<int>(r.bottom()) + 8;
    if (ly + 12 <= height()) {
        int x = kMargin;
        const auto item = [&](const QBrush& b, const QString& text) {
            p.fillRect(QRect(x, ly, 12, 12), b);
            p.setPen(pal.color(QPalette::Text));
            p.drawText(QPoint(x + 16, ly + 11), text);
            x += 24 + p.fontMetrics().horizontalAdvance(text);
        };
        item(QBrush(tintA), tr("covered"));
        item(QBrush(red), tr("never reached"));
        item(QBrush(pal.color(QPalette::Mid), Qt::BDiagPattern), tr("threads outside the data"));
    }
}

bool LaunchGeometryView::event(QEvent* e)
{
    if (e->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(e);
        unsigned bx = 0, by = 0;
        if (blockAt(help->pos(), bx, by)) {
            const LaunchGeometry::Tile t = LaunchGeometry::tileOf(m_launch, m_geometry, bx, by);
            QString text = m_geometry.twoD ? tr("blockIdx (%1, %2)").arg(bx).arg(by)
                                           : tr("blockIdx.x %1").arg(bx);
            if (t.endCol > t.firstCol && t.endRow > t.firstRow)
                text += m_geometry.twoD ? tr("\nrows %1–%2, columns %3–%4")
                                              .arg(t.firstRow)
                                              .arg(t.endRow - 1)
                                              .arg(t.firstCol)
                                              .arg(t.endCol - 1)
                                        : tr("\nelements %1–%2").arg(t.firstCol).arg(t.endCol - 1);
            else
                text += tr("\nentirely outside the data: every thread must return early");
            std::uint64_t row = 0, col = 0;
            if (cellAt(help->pos(), row, col)) text += QLatin1Char('\n') + describeCell(row, col);
            QToolTip::showText(help->globalPos(), text, this);
        } else {
            QToolTip::showText(help->globalPos(), summary(), this);
        }
        return true;
    }
    return QWidget::event(e);
}

} // namespace wb::ui
