// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QScrollArea>

namespace wb::ui {

/// What a dock holds: its panel inside a frameless scroll area that gives the panel the whole
/// dock while it fits and scrolls once the dock is smaller than the panel's minimum. So no
/// panel (large fonts in Presentation Mode included) forces the window wider or taller than
/// the screen, and every part of a panel stays reachable.
class DockScrollArea : public QScrollArea {
    Q_OBJECT
public:
    explicit DockScrollArea(QWidget* panel, QWidget* parent = nullptr);

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;
};

} // namespace wb::ui
