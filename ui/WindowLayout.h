// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QObject>
#include <QSize>

class QAction;
class QDockWidget;
class QMainWindow;

namespace wb::ui {

/// Where the window and its docks are: the first start's layout (1400 × 900 or the screen's
/// available size, the editor wide, results a good third of the height), the layout remembered
/// between sessions (cut to a smaller screen), and View → Reset Layout back to the first
/// start's.
class WindowLayout : public QObject {
    Q_OBJECT
public:
    WindowLayout(QMainWindow* window, QDockWidget* launch, QDockWidget* buffers,
                 QDockWidget* results);

    /// Once every dock is in place: remembers it as the first start's layout, then restores
    /// the one saved by the last session.
    void restore();
    /// Before the window closes: its geometry and docks for the next session (in Presentation
    /// Mode, those from before it).
    void save() const;
    /// The window was shown (the first time: fitted with its frame to the available geometry,
    /// and the first start's dock sizes once laid out).
    void shown();
    /// The first start's docks and size, centred on the screen (a moved position is not kept);
    /// `presentation` (checked) is left first, as it would
    /// restore its own saved layout when turned off.
    void reset(QAction* presentation);

private:
    /// 1400 × 900, or the screen's available size when that is smaller.
    QSize defaultWindowSize() const;
    /// The window and its frame (title bar) inside the screen's available geometry: smaller
    /// when it is too large (then true), moved in when it sticks out.
    bool fitFrameToScreen();
    /// The window of `size` with its frame in the middle of the available geometry (at its
    /// top left when it fills it).
    void centreOnScreen(QSize size);
    /// The first start's dock sizes for the window's current size.
    void applyDefaultDockSizes();

    QMainWindow* m_window;
    QDockWidget* m_launch;
    QDockWidget* m_buffers;
    QDockWidget* m_results;
    QByteArray m_defaultState; ///< the docks before any saved layout: Reset Layout's target
    bool m_restored = false;   ///< a saved dock layout was restored (else size docks when shown)
    bool m_shownOnce = false;
};

} // namespace wb::ui
