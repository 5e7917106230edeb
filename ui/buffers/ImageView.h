// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ui/buffers/Colormap.h"
#include "ui/common/ArrayView.h"

#include <QColor>
#include <QImage>
#include <QWidget>

#include <cstdint>
#include <vector>

namespace wb::ui {

/// A 2-D buffer drawn as an image: a heatmap through a colormap and a value range, or true
/// colour for RGB(A) planes ([3|4, H, W]) and interleaved pixels ([H, W, 3|4]). Large arrays
/// are sampled to at most maxSide() pixels a side (nearest element). Hovering or clicking
/// reports the element under the mouse; its tooltip names its row and column (x = column).
class ImageView : public QWidget {
    Q_OBJECT
public:
    explicit ImageView(QWidget* parent = nullptr);

    void setArray(ArrayView array);
    const ArrayView& array() const noexcept { return m_array; }
    void setColormap(Colormap::Kind kind);
    /// Values mapped to the ends of the colormap.
    void setRange(double lo, double hi);
    double rangeLow() const noexcept { return m_lo; }
    double rangeHigh() const noexcept { return m_hi; }
    void setTitle(const QString& title);
    /// Show RGB(A) arrays as colour (default) or as a heatmap of all planes.
    void setTrueColour(bool on);
    bool isTrueColour() const noexcept;
    /// Elements to paint in `colour` whatever their value (one byte per element, 1 = marked;
    /// e.g. RunReport::unwrittenMask). Empty clears it; setArray() keeps it only if it fits.
    void setMask(std::vector<std::uint8_t> mask, QColor colour);

    /// Marks element `index` (a box and cross-hairs over the picture: Next ▶ / F8 in the diff
    /// show the mismatch here too); -1 clears it. setArray() clears it.
    void setHighlight(qint64 index);
    qint64 highlight() const noexcept { return m_highlight; }

    /// The rendered image (sampled), for tests and screenshots.
    const QImage& image() const noexcept { return m_image; }
    int imageWidth() const noexcept;  ///< in elements
    int imageHeight() const noexcept; ///< in elements

    /// The element under a widget position (colour images: the first channel's), -1 if none.
    qint64 elementAt(QPointF pos) const { return elementAtPos(pos); }
    /// Where element `index` is drawn (its column across, its row down), in widget
    /// coordinates; empty when nothing is shown or the index is outside the picture.
    QRectF elementRect(qint64 index) const;
    /// The tooltip of an element: "row 53, column 14: 0.25" (1-D: "element 7: …"), "never
    /// written" for a masked one.
    QString describeElement(qint64 index) const;

    /// Renders `array` to an image of at most maxSide × maxSide pixels.
    static QImage render(const ArrayView& array, const Colormap& map, double lo, double hi,
                         bool trueColour, int maxSide = 2048);

    QSize sizeHint() const override { return {360, 300}; }
    QSize minimumSizeHint() const override { return {120, 100}; }

Q_SIGNALS:
    void elementHovered(qint64 index);
    void elementClicked(qint64 index);

protected:
    void paintEvent(QPaintEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    bool event(QEvent* event) override;

private:
    void rerender();
    QRect imageRect() const;
    qint64 elementAtPos(QPointF pos) const;

    ArrayView m_array;
    Colormap m_map;
    double m_lo = 0, m_hi = 1;
    bool m_trueColour = true;
    QString m_title;
    QImage m_image;
    std::vector<std::uint8_t> m_mask;
    QColor m_maskColour;
    qint64 m_highlight = -1;
};

} // namespace wb::ui
