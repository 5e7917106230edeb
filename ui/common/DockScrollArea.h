// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QScrollArea>

namespace wb::ui {

/// What a dock holds: its panel inside a frameless scroll area that gives the panel the whole
/// dock while it fits and scrolls once the dock is smaller than the panel's minimum. So no
/// panel (large fonts in Presentation Mode included) forces the window wider or taller than
/// the screen, and every part of a panel stays reachable.
///
/// The panel is sized here, not by QScrollArea::setWidgetResizable: that one takes a panel's
/// preferred height-for-width (wrapping labels over tabs of tall pages) as its minimum and
/// scrolls the lower part of a panel (charts) out of a dock it would fit.
class DockScrollArea : public QScrollArea {
    Q_OBJECT
public:
    /// `Squeeze`: the panel shrinks to its minimum before it scrolls (tables, charts);
    /// `Natural`: a form keeps its preferred height and scrolls (every field stays usable).
    enum class Fit { Squeeze, Natural };
    explicit DockScrollArea(QWidget* panel, QWidget* parent = nullptr, Fit fit = Fit::Squeeze);

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void resizeEvent(QResizeEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    /// The panel at the viewport's size, or at its minimum where that is larger.
    void fitPanel();

    Fit m_fit = Fit::Squeeze;
};

} // namespace wb::ui
