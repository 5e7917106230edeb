// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/DockScrollArea.h"

#include <QScrollBar>

namespace wb::ui {

DockScrollArea::DockScrollArea(QWidget* panel, QWidget* parent)
    : QScrollArea(parent)
{
    setObjectName(QStringLiteral("dockScrollArea"));
    setFrameShape(QFrame::NoFrame);
    setWidgetResizable(true);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    setVerticalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    setWidget(panel);
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

} // namespace wb::ui
