// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/common/DockScrollArea.h"

#include <QEvent>
#include <QScrollBar>
#include <QStyle>

namespace wb::ui {

DockScrollArea::DockScrollArea(QWidget* panel, QWidget* parent, Fit fit)
    : QScrollArea(parent)
    , m_fit(fit)
{
    setObjectName(QStringLiteral("dockScrollArea"));
    setFrameShape(QFrame::NoFrame);
    setWidgetResizable(false);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    setVerticalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    setWidget(panel);
    panel->installEventFilter(this);
}

QSize DockScrollArea::sizeHint() const
{
    // The panel's own preferred size (QScrollArea caps it at 36 × 24 font heights).
    const QWidget* w = widget();
    return w ? w->sizeHint().expandedTo(minimumSizeHint()) : QScrollArea::sizeHint();
}

QSize DockScrollArea::minimumSizeHint() const
{
    // Room for a few lines and the scroll bars; the panel scrolls below its own minimum.
    const int line = fontMetrics().height();
    return {std::min(12 * line, 160) + verticalScrollBar()->sizeHint().width(),
            std::min(4 * line, 80) + horizontalScrollBar()->sizeHint().height()};
}

void DockScrollArea::resizeEvent(QResizeEvent* event)
{
    QScrollArea::resizeEvent(event);
    fitPanel();
}

bool DockScrollArea::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == widget() && event->type() == QEvent::LayoutRequest) fitPanel();
    return QScrollArea::eventFilter(watched, event);
}

void DockScrollArea::fitPanel()
{
    QWidget* panel = widget();
    if (!panel) return;
    QSize min = panel->minimumSizeHint().expandedTo(panel->minimumSize());
    if (m_fit == Fit::Natural) min.setHeight(std::max(min.height(), panel->sizeHint().height()));
    const QSize room = maximumViewportSize(); // without scroll bars
    const int bar = style()->pixelMetric(QStyle::PM_ScrollBarExtent, nullptr, this);
    int width = room.width(), height = room.height();
    // A scroll bar in one direction takes room from the other.
    const bool horizontal = min.width() > width;
    if (horizontal) height -= bar;
    const bool vertical = min.height() > height;
    if (vertical) width -= bar;
    if (!horizontal && min.width() > width) height -= bar;
    panel->resize(std::max(width, min.width()), std::max(height, min.height()));
}

} // namespace wb::ui
