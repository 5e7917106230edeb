// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ui/teaching/LaunchGeometry.h"

#include <QWidget>

namespace wb::ui {

/// The grid and its blocks drawn over the data shape: which block covers which tile of a 1-D
/// or 2-D buffer, the uncovered part in red, blocks reaching past the data hatched (their
/// threads must return early). Updates whenever the launch or the shape changes; hovering a
/// block names it and the elements it covers.
class LaunchGeometryView : public QWidget {
    Q_OBJECT
public:
    explicit LaunchGeometryView(QWidget* parent = nullptr);

    void setLaunch(const LaunchConfig& launch);
    void setShape(const std::vector<std::size_t>& shape, const QString& bufferName = {});
    const LaunchConfig& launch() const noexcept { return m_launch; }
    /// The numbers behind the picture.
    const LaunchGeometry& geometry() const noexcept { return m_geometry; }
    /// One line: "grid 9×9 × block 16×16 (x × y) over 130 rows × 130 columns: 16,900 of
    /// 16,900 elements covered, …".
    QString summary() const;
    /// The block under a widget position, or false.
    bool blockAt(const QPointF& pos, unsigned& bx, unsigned& by) const;
    /// The data element under a widget position (1-D: row 0), or false.
    bool cellAt(const QPointF& pos, std::uint64_t& row, std::uint64_t& col) const;
    /// Where element (row, col) is drawn, in widget coordinates (1-D: the strip's height).
    QRectF cellRect(std::uint64_t row, std::uint64_t col) const;
    /// "row 53, column 14: blockIdx (1, 3), threadIdx (6, 5)" (x = column, y = row), or
    /// "…: no thread of the grid reaches it".
    QString describeCell(std::uint64_t row, std::uint64_t col) const;

    QSize sizeHint() const override { return {480, 360}; }
    QSize minimumSizeHint() const override { return {200, 140}; }

Q_SIGNALS:
    void geometryChanged();

protected:
    void paintEvent(QPaintEvent* event) override;
    bool event(QEvent* event) override;

private:
    /// Element-space rectangle drawn, and the widget rectangle it maps to.
    QRectF plotRect() const;
    double unitsWide() const;
    double unitsHigh() const;
    void recompute();

    LaunchConfig m_launch;
    std::vector<std::size_t> m_shape{1};
    QString m_buffer;
    LaunchGeometry m_geometry;
};

} // namespace wb::ui
