// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

class QMainWindow;

namespace wb::ui {

/// One switch for teaching on a projector: large fonts in every panel (editors zoomed in
/// through their `zoomIn(int)` slot: QPlainTextEdit, QScintilla), a high-contrast palette,
/// bigger toolbar icons, and the bottom (results) dock area given half the window's height.
/// Turning it off restores the window's own font, palette, icon size and dock layout.
class PresentationMode {
public:
    /// Font size used for the panels while presenting (points).
    static constexpr int kPointSize = 18;
    /// Steps passed to each editor's zoomIn()/zoomOut().
    static constexpr int kEditorZoom = 6;

    static void apply(QMainWindow* window, bool on);
    static bool isActive(const QMainWindow* window);
};

} // namespace wb::ui
