// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/common/WriteTrace.h"
#include "core/session/HostArray.h"

#include <QImage>
#include <QWidget>

#include <optional>

namespace wb::ui {

/// A 1-D or 2-D output coloured by the block (or thread) that last wrote each element, from
/// the CPU emulator's trace mode. Elements never written are black, elements written by more
/// than one thread non-atomically (races) red; hovering an element shows its blockIdx,
/// threadIdx, write count and the value written.
class TraceOverlayView : public QWidget {
    Q_OBJECT
public:
    enum class ColourBy { Block, Thread };
    enum class Mark { Written, Unwritten, Race, Atomic };

    explicit TraceOverlayView(QWidget* parent = nullptr);

    /// `values`: the buffer's result (same element count) for the tooltip; may be empty.
    void setTrace(WriteTrace trace, session::HostArray values = {});
    void setColourBy(ColourBy by);
    ColourBy colourBy() const noexcept { return m_colourBy; }
    const WriteTrace& trace() const noexcept { return m_trace; }

    Mark markOf(std::size_t index) const;
    QColor colourOf(std::size_t index) const;
    /// The element under a widget position.
    std::optional<std::size_t> elementAt(const QPointF& pos) const;
    /// Where element `index` is drawn, in widget coordinates (its row and column: x = column).
    QRectF cellRect(std::size_t index) const;
    /// The tooltip text for an element: "C row 53, column 14", blockIdx, threadIdx, writes.
    QString describe(std::size_t index) const;
    /// One pixel per element (rows × columns; 1-D: one row).
    const QImage& image() const noexcept { return m_image; }

    static QColor unwrittenColour() { return QColor(0, 0, 0); }
    static QColor raceColour() { return QColor(230, 0, 0); }

    QSize sizeHint() const override { return {480, 320}; }

protected:
    void paintEvent(QPaintEvent* event) override;
    bool event(QEvent* event) override;

private:
    void rebuild();
    QRectF plotRect() const;
    std::size_t rows() const;
    std::size_t cols() const;

    WriteTrace m_trace;
    session::HostArray m_values;
    ColourBy m_colourBy = ColourBy::Block;
    QImage m_image;
};

} // namespace wb::ui
