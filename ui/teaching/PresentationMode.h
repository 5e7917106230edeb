// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>

class QMainWindow;

namespace wb::ui {

/// One switch for teaching on a projector: large fonts in every panel (editors zoomed in
/// through their `zoomIn(int)` slot: QPlainTextEdit, QScintilla), a high-contrast palette,
/// bigger toolbar icons, banners cut to their headline (children with a `setCompact(bool)`
/// slot), no status bar, and a projector layout: the editor keeps the whole height on the left (≥
/// 20 lines of the large font on a 1280×720 projector) and the docked panels are tabs of one
/// column on the right (no title bars), the panel that was on top at the bottom (the results)
/// raised: as many as have whole names in the column (those on screen before, the Guide, then
/// the rest); the others are put away until the teacher brings one up (View menu), when it
/// joins the tabs and the least wanted make room. The editor gets the width its widest line
/// needs, or wraps with an arrow at each wrap when that cannot be had. The window never grows
/// past its screen. Turning it off restores the window's own font, palette, icon size, wrapping,
/// dock layout and exact geometry.
class PresentationMode {
public:
    /// Font size used for the panels while presenting (points).
    static constexpr int kPointSize = 18;
    /// Steps passed to each editor's zoomIn()/zoomOut().
    static constexpr int kEditorZoom = 8;
    /// Lines an editor that can keep them (KernelEditor::setMinimumLinesOnScreen) keeps on
    /// screen in Presentation Mode, whatever its monospace font's line spacing.
    static constexpr int kEditorLines = 20;
    /// Share of the window's width the right column of panels gets (percent).
    static constexpr int kPanelColumnPercent = 44;
    /// The least share of the width the column keeps when the editor's widest line asks for
    /// more room (beyond it the editor wraps, with an arrow at each wrap).
    static constexpr int kMinPanelColumnPercent = 34;

    static void apply(QMainWindow* window, bool on);
    static bool isActive(const QMainWindow* window);
    /// While presenting: the window's saveGeometry()/saveState() from before (what a session
    /// remembers, never the projector layout); empty when not presenting.
    static QByteArray geometryBefore(const QMainWindow* window);
    static QByteArray stateBefore(const QMainWindow* window);
};

} // namespace wb::ui
