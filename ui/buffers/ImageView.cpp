// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/buffers/ImageView.h"

#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>
#include <cmath>

namespace wb::ui {

namespace {

enum class Layout { Scalar, Planes, Interleaved };

Layout layoutOf(const ArrayView& a)
{
    const auto& s = a.shape();
    if (s.size() == 3 && (s[0] == 3 || s[0] == 4)) return Layout::Planes;
    if (s.size() == 3 && (s[2] == 3 || s[2] == 4)) return Layout::Interleaved;
    return Layout::Scalar;
}

struct Geometry {
    std::size_t width, height, channels;
    Layout layout;
};

Geometry geometryOf(const ArrayView& a, bool trueColour)
{
    const auto& s = a.shape();
    const Layout layout = trueColour ? layoutOf(a) : Layout::Scalar;
    switch (layout) {
    case Layout::Planes:
        return {s[2], s[1], s[0], layout};
    case Layout::Interleaved:
        return {s[1], s[0], s[2], layout};
    default:
        return {a.width(), a.height(), 1, layout};
    }
}

} // namespace

ImageView::ImageView(QWidget* parent)
    : QWidget(parent)
{
    setMouseTracking(true);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
}

void ImageView::setArray(ArrayView array)
{
    m_array = std::move(array);
    m_highlight = -1;
    rerender();
}

void ImageView::setColormap(Colormap::Kind kind)
{
    m_map = Colormap(kind);
    rerender();
}

void ImageView::setRange(double lo, double hi)
{
    m_lo = lo;
    m_hi = hi;
    rerender();
}

void ImageView::setTitle(const QString& title)
{
    m_title = title;
    update();
}

void ImageView::setTrueColour(bool on)
{
    m_trueColour = on;
    rerender();
}

bool ImageView::isTrueColour() const noexcept
{
    return m_trueColour && layoutOf(m_array) != Layout::Scalar;
}

int ImageView::imageWidth() const noexcept
{
    return m_array.isNull() ? 0 : static_cast<int>(geometryOf(m_array, m_trueColour).width);
}

int ImageView::imageHeight() const noexcept
{
    return m_array.isNull() ? 0 : static_cast<int>(geometryOf(m_array, m_trueColour).height);
}

QImage ImageView::render(const ArrayView& a, const Colormap& map, double lo, double hi,
                         bool trueColour, int maxSide)
{
    if (a.isNull() || a.size() == 0) return {};
    const Geometry g = geometryOf(a, trueColour);
    if (g.width == 0 || g.height == 0) return {};
    const auto side = static_cast<std::size_t>(maxSide);
    const std::size_t stepX = (g.width + side - 1) / side;
    const std::size_t stepY = (g.height + side - 1) / side;
    const int w = static_cast<int>((g.width + stepX - 1) / stepX);
    const int h = static_cast<int>((g.height + stepY - 1) / stepY);
    QImage image(w, h, QImage::Format_ARGB32);
    const double span = hi > lo ? hi - lo : 1.0;
    // 8-bit images are shown as they are; floats are taken to lie in [lo, hi].
    auto channel = [&](double v) {
        return static_cast<int>(std::clamp((v - lo) / span, 0.0, 1.0) * 255.0 + 0.5);
    };
    for (int y = 0; y < h; ++y) {
        auto* line = reinterpret_cast<QRgb*>(image.scanLine(y));
        const std::size_t sy = static_cast<std::size_t>(y) * stepY;
        for (int x = 0; x < w; ++x) {
            const std::size_t sx = static_cast<std::size_t>(x) * stepX;
            if (g.layout == Layout::Scalar) {
                const double v = a.value(sy * g.width + sx);
                line[x] = std::isfinite(v) ? map.map((v - lo) / span) : map.nonFinite();
                continue;
            }
            int c[4] = {0, 0, 0, 255};
            for (std::size_t k = 0; k < g.channels; ++k) {
                const std::size_t i = g.layout == Layout::Planes
                                          ? (k * g.height + sy) * g.width + sx
                                          : (sy * g.width + sx) * g.channels + k;
                c[k] = channel(a.value(i));
            }
            line[x] = qRgba(c[0], c[1], c[2], c[3]);
        }
    }
    return image;
}

void ImageView::setMask(std::vector<std::uint8_t> mask, QColor colour)
{
    m_mask = std::move(mask);
    m_maskColour = colour;
    rerender();
}

void ImageView::rerender()
{
    m_image = render(m_array, m_map, m_lo, m_hi, m_trueColour);
    // Marked elements in their own colour (sampled like render(): element at (y·stepY, x·stepX)).
    if (!m_image.isNull() && m_mask.size() == m_array.size()) {
        const Geometry g = geometryOf(m_array, m_trueColour);
        if (g.layout == Layout::Scalar) {
            const std::size_t stepX = (g.width + 2047) / 2048, stepY = (g.height + 2047) / 2048;
            const QRgb colour = m_maskColour.rgba();
            for (int y = 0; y < m_image.height(); ++y) {
                auto* line = reinterpret_cast<QRgb*>(m_image.scanLine(y));
                const std::size_t row = static_cast<std::size_t>(y) * stepY * g.width;
                for (int x = 0; x < m_image.width(); ++x)
                    if (m_mask[row + static_cast<std::size_t>(x) * stepX]) line[x] = colour;
            }
        }
    }
    update();
}

QRect ImageView::imageRect() const
{
    if (m_image.isNull()) return {};
    const int titleHeight = m_title.isEmpty() ? 0 : fontMetrics().height() + 4;
    const int barWidth = isTrueColour() ? 0 : 56;
    QRect area = rect().adjusted(4, 4 + titleHeight, -4 - barWidth, -4);
    QSize size(imageWidth(), imageHeight());
    size.scale(area.size(), Qt::KeepAspectRatio);
    // Small images are enlarged by whole factors so every element stays a crisp square.
    QRect r(QPoint(0, 0), size);
    r.moveCenter(area.center());
    return r;
}

void ImageView::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.fillRect(rect(), palette().color(QPalette::Base));
    if (!m_title.isEmpty()) {
        p.setPen(palette().color(QPalette::Text));
        p.drawText(QRect(4, 2, width() - 8, fontMetrics().height() + 2), Qt::AlignCenter, m_title);
    }
    if (m_image.isNull()) {
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(rect(), Qt::AlignCenter, tr("No data"));
        return;
    }
    const QRect r = imageRect();
    p.setRenderHint(QPainter::SmoothPixmapTransform, false);
    p.drawImage(r, m_image);
    p.setPen(palette().color(QPalette::Mid));
    p.drawRect(r.adjusted(0, 0, -1, -1));
    if (const QRectF e = elementRect(m_highlight); !e.isEmpty()) {
        // Cross-hairs through the element and a box at least 9 px wide, in white over black so
        // it shows on every colour of the map.
        const QPointF c = e.center();
        const QRectF box =
            e.adjusted(-std::max(0.0, (9 - e.width()) / 2), -std::max(0.0, (9 - e.height()) / 2),
                       std::max(0.0, (9 - e.width()) / 2), std::max(0.0, (9 - e.height()) / 2));
        for (const auto& [colour, width] :
             {std::pair{QColor(Qt::black), 3.0}, std::pair{QColor(Qt::white), 1.0}}) {
            p.setPen(QPen(colour, width));
            p.drawLine(QPointF(r.left(), c.y()), QPointF(box.left(), c.y()));
            p.drawLine(QPointF(box.right(), c.y()), QPointF(r.right(), c.y()));
            p.drawLine(QPointF(c.x(), r.top()), QPointF(c.x(), box.top()));
            p.drawLine(QPointF(c.x(), box.bottom()), QPointF(c.x(), r.bottom()));
            p.drawRect(box);
        }
    }
    if (isTrueColour()) return;
    // Colour bar with the range.
    const QRect bar(r.right() + 10, r.top(), 12, r.height());
    for (int y = 0; y < bar.height(); ++y) {
        const double t = 1.0 - static_cast<double>(y) / std::max(1, bar.height() - 1);
        p.setPen(QColor::fromRgb(m_map.map(t)));
        p.drawLine(bar.left(), bar.top() + y, bar.right(), bar.top() + y);
    }
    p.setPen(palette().color(QPalette::Text));
    const QFontMetrics fm = fontMetrics();
    p.drawText(QPoint(bar.right() + 3, bar.top() + fm.ascent()), QString::number(m_hi, 'g', 3));
    p.drawText(QPoint(bar.right() + 3, bar.bottom()), QString::number(m_lo, 'g', 3));
}

qint64 ImageView::elementAtPos(QPointF pos) const
{
    const QRect r = imageRect();
    if (r.isEmpty() || !r.contains(pos.toPoint())) return -1;
    const int w = imageWidth(), h = imageHeight();
    const auto x = static_cast<qint64>((pos.x() - r.left()) * w / r.width());
    const auto y = static_cast<qint64>((pos.y() - r.top()) * h / r.height());
    if (x < 0 || y < 0 || x >= w || y >= h) return -1;
    const Geometry g = geometryOf(m_array, m_trueColour);
    // For colour images report the first channel's element.
    if (g.layout == Layout::Interleaved) return (y * w + x) * static_cast<qint64>(g.channels);
    return y * w + x;
}

void ImageView::setHighlight(qint64 index)
{
    if (index == m_highlight) return;
    m_highlight = index;
    update();
}

QRectF ImageView::elementRect(qint64 index) const
{
    const QRect r = imageRect();
    const int w = imageWidth(), h = imageHeight();
    if (r.isEmpty() || w <= 0 || h <= 0 || index < 0) return {};
    const Geometry g = geometryOf(m_array, m_trueColour);
    const qint64 pixel =
        g.layout == Layout::Interleaved ? index / static_cast<qint64>(g.channels) : index;
    const qint64 x = pixel % w, y = pixel / w;
    if (y >= h) return {};
    const double cw = static_cast<double>(r.width()) / w, ch = static_cast<double>(r.height()) / h;
    return {r.left() + static_cast<double>(x) * cw, r.top() + static_cast<double>(y) * ch, cw, ch};
}

QString ImageView::describeElement(qint64 index) const
{
    if (index < 0 || static_cast<std::size_t>(index) >= m_array.size()) return {};
    const int w = std::max(1, imageWidth());
    const Geometry g = geometryOf(m_array, m_trueColour);
    const qint64 pixel =
        g.layout == Layout::Interleaved ? index / static_cast<qint64>(g.channels) : index;
    const QString where = m_array.is2D() ? tr("row %1, column %2").arg(pixel / w).arg(pixel % w)
                                         : tr("element %1").arg(index);
    if (m_mask.size() == m_array.size() && m_mask[static_cast<std::size_t>(index)])
        return tr("%1: never written").arg(where);
    return tr("%1: %2").arg(where).arg(m_array.value(static_cast<std::size_t>(index)), 0, 'g', 6);
}

bool ImageView::event(QEvent* e)
{
    if (e->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(e);
        const qint64 i = elementAtPos(help->pos());
        if (i >= 0)
            QToolTip::showText(help->globalPos(), describeElement(i), this);
        else
            QToolTip::hideText();
        return true;
    }
    return QWidget::event(e);
}

void ImageView::mouseMoveEvent(QMouseEvent* event)
{
    const qint64 i = elementAtPos(event->position());
    if (i >= 0) Q_EMIT elementHovered(i);
}

void ImageView::mousePressEvent(QMouseEvent* event)
{
    const qint64 i = elementAtPos(event->position());
    if (i >= 0) Q_EMIT elementClicked(i);
}

} // namespace wb::ui
