// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/teaching/TraceOverlayView.h"

#include "core/session/Poison.h"

#include <QHelpEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>
#include <cmath>

namespace wb::ui {

namespace {
constexpr int kHeader = 24;
constexpr int kMargin = 8;

QString dimText(const Dim3& d)
{
    return QStringLiteral("(%1, %2, %3)").arg(d.x).arg(d.y).arg(d.z);
}

/// Distinct, stable colours for consecutive indices (golden-ratio hue steps).
QColor indexColour(std::uint32_t i)
{
    const double hue = std::fmod(0.13 + 0.6180339887498949 * i, 1.0);
    return QColor::fromHsvF(static_cast<float>(hue), 0.55f, 0.95f);
}
} // namespace

TraceOverlayView::TraceOverlayView(QWidget* parent)
    : QWidget(parent)
{
    setMouseTracking(true);
    setAccessibleName(tr("Write trace"));
}

void TraceOverlayView::setTrace(WriteTrace trace, session::HostArray values)
{
    m_trace = std::move(trace);
    m_values = values.count() == m_trace.count() ? std::move(values) : session::HostArray{};
    rebuild();
}

void TraceOverlayView::setColourBy(ColourBy by)
{
    m_colourBy = by;
    rebuild();
}

std::size_t TraceOverlayView::cols() const
{
    return m_trace.shape.empty() ? m_trace.count() : m_trace.shape.back();
}
std::size_t TraceOverlayView::rows() const
{
    const std::size_t c = cols();
    return c ? m_trace.count() / c : 0;
}

TraceOverlayView::Mark TraceOverlayView::markOf(std::size_t i) const
{
    if (!m_trace.written(i)) return Mark::Unwritten;
    if (m_trace.isRace(i)) return Mark::Race;
    if (m_trace.multipleWriters[i] && m_trace.isAtomic(i)) return Mark::Atomic;
    return Mark::Written;
}

QColor TraceOverlayView::colourOf(std::size_t i) const
{
    switch (markOf(i)) {
    case Mark::Unwritten:
        return unwrittenColour();
    case Mark::Race:
        return raceColour();
    case Mark::Atomic:
    case Mark::Written:
        break;
    }
    if (m_trace.writes[i] == 0) return QColor(128, 128, 128); // changed through a raw pointer
    return indexColour(m_colourBy == ColourBy::Block ? m_trace.lastBlockLinear(i)
                                                     : m_trace.lastThreadLinear(i));
}

void TraceOverlayView::rebuild()
{
    const std::size_t r = rows(), c = cols();
    m_image = QImage(static_cast<int>(std::max<std::size_t>(c, 1)),
                     static_cast<int>(std::max<std::size_t>(r, 1)), QImage::Format_RGB32);
    m_image.fill(palette().color(QPalette::Base));
    for (std::size_t y = 0; y < r; ++y) {
        auto* line = reinterpret_cast<QRgb*>(m_image.scanLine(static_cast<int>(y)));
        for (std::size_t x = 0; x < c; ++x)
            line[x] = colourOf(y * c + x).rgb();
    }
    update();
}

QRectF TraceOverlayView::plotRect() const
{
    const QRectF area(kMargin, kHeader, std::max(10, width() - 2 * kMargin),
                      std::max(10, height() - kHeader - kMargin));
    const double c = static_cast<double>(std::max<std::size_t>(cols(), 1));
    const double r = static_cast<double>(std::max<std::size_t>(rows(), 1));
    if (r == 1) return {area.left(), area.top(), area.width(), std::min(40.0, area.height())};
    const double scale = std::min(area.width() / c, area.height() / r);
    return {area.left(), area.top(), c * scale, r * scale};
}

std::optional<std::size_t> TraceOverlayView::elementAt(const QPointF& pos) const
{
    const QRectF r = plotRect();
    if (!r.contains(pos) || m_trace.count() == 0) return std::nullopt;
    const auto x =
        static_cast<std::size_t>((pos.x() - r.left()) / r.width() * static_cast<double>(cols()));
    const auto y =
        static_cast<std::size_t>((pos.y() - r.top()) / r.height() * static_cast<double>(rows()));
    const std::size_t i = std::min(y, rows() - 1) * cols() + std::min(x, cols() - 1);
    return i < m_trace.count() ? std::optional<std::size_t>(i) : std::nullopt;
}

QRectF TraceOverlayView::cellRect(std::size_t i) const
{
    const QRectF r = plotRect();
    const double cw = r.width() / static_cast<double>(std::max<std::size_t>(cols(), 1)),
                 ch = r.height() / static_cast<double>(std::max<std::size_t>(rows(), 1));
    const std::size_t c = std::max<std::size_t>(cols(), 1);
    return {r.left() + static_cast<double>(i % c) * cw, r.top() + static_cast<double>(i / c) * ch,
            cw, ch};
}

QString TraceOverlayView::describe(std::size_t i) const
{
    QString where = rows() > 1 ? tr("row %1, column %2").arg(i / cols()).arg(i % cols())
                               : QStringLiteral("[%1]").arg(i);
    QString s = tr("%1 %2").arg(QString::fromStdString(m_trace.buffer), where);
    if (!m_trace.written(i)) return s + tr("\nnever written");
    if (m_trace.writes[i] == 0)
        s += tr("\nchanged through a raw pointer (not traced)");
    else
        s += tr("\nblockIdx %1  threadIdx %2\n%3 write(s)%4")
                 .arg(dimText(m_trace.lastBlock(i)), dimText(m_trace.lastThread(i)))
                 .arg(m_trace.writes[i])
                 .arg(m_trace.atomicWrites[i] ? tr(", %1 atomic").arg(m_trace.atomicWrites[i])
                                              : QString());
    if (m_trace.isRace(i)) s += tr("\nRACE: several threads wrote here non-atomically");
    if (m_values.count()) s += tr("\nvalue %1").arg(m_values.at(i), 0, 'g', 9);
    return s;
}

void TraceOverlayView::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    const QPalette pal = palette();
    p.fillRect(rect(), pal.color(QPalette::Base));
    p.setPen(pal.color(QPalette::Text));
    const QString head = m_trace.count() == 0
                             ? tr("No trace: run on the CPU emulator in trace mode")
                             : tr("'%1' coloured by writing %2 — %3 races, %4 never written")
                                   .arg(QString::fromStdString(m_trace.buffer),
                                        m_colourBy == ColourBy::Block ? tr("block") : tr("thread"))
                                   .arg(m_trace.races())
                                   .arg(m_trace.unwritten());
    p.drawText(QRect(kMargin, 2, width() - 2 * kMargin, kHeader - 4),
               Qt::AlignLeft | Qt::AlignVCenter, head);
    if (m_trace.count() == 0) return;
    const QRectF r = plotRect();
    p.setRenderHint(QPainter::SmoothPixmapTransform, false);
    p.drawImage(r, m_image);
    // Big enough cells: cross out races, so they read without colour vision too.
    const double cw = r.width() / static_cast<double>(cols()),
                 ch = r.height() / static_cast<double>(rows());
    if (cw >= 8 && ch >= 8) {
        p.setPen(QPen(Qt::white, 1));
        for (std::size_t i = 0; i < m_trace.count(); ++i) {
            if (markOf(i) != Mark::Race) continue;
            const QRectF cell(r.left() + static_cast<double>(i % cols()) * cw,
                              r.top() + static_cast<double>(i / cols()) * ch, cw, ch);
            p.drawLine(cell.topLeft(), cell.bottomRight());
            p.drawLine(cell.topRight(), cell.bottomLeft());
        }
    }
}

bool TraceOverlayView::event(QEvent* e)
{
    if (e->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(e);
        if (const auto i = elementAt(help->pos()))
            QToolTip::showText(help->globalPos(), describe(*i), this);
        else
            QToolTip::hideText();
        return true;
    }
    return QWidget::event(e);
}

} // namespace wb::ui
