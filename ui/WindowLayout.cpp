// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/WindowLayout.h"

#include "ui/teaching/PresentationMode.h"

#include <QAction>
#include <QDockWidget>
#include <QMainWindow>
#include <QScreen>
#include <QSettings>
#include <QTimer>

#include <algorithm>

namespace wb::ui {

WindowLayout::WindowLayout(QMainWindow* window, QDockWidget* launch, QDockWidget* buffers,
                           QDockWidget* results)
    : QObject(window)
    , m_window(window)
    , m_launch(launch)
    , m_buffers(buffers)
    , m_results(results)
{
}

void WindowLayout::restore()
{
    // The first-start layout (View → Reset Layout returns to it), then the one remembered
    // between sessions. The window starts no larger than the screen.
    m_defaultState = m_window->saveState();
    QSettings settings;
    m_window->resize(defaultWindowSize());
    m_window->restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray());
    // A geometry remembered from a larger screen (or an older version) is cut to this one.
    if (const QScreen* s = m_window->screen();
        s && !(m_window->windowState() & Qt::WindowMaximized)) {
        const QRect room = s->availableGeometry();
        if (m_window->width() > room.width() || m_window->height() > room.height()) {
            m_window->resize(m_window->size().boundedTo(room.size()));
            m_window->move(room.topLeft());
        }
    }
    m_restored =
        m_window->restoreState(settings.value(QStringLiteral("window/state")).toByteArray());
}

void WindowLayout::save() const
{
    // Closed while presenting: the layout from before it, never the projector's.
    const QByteArray geometry = PresentationMode::geometryBefore(m_window);
    const QByteArray state = PresentationMode::stateBefore(m_window);
    QSettings settings;
    settings.setValue(QStringLiteral("window/geometry"),
                      geometry.isEmpty() ? m_window->saveGeometry() : geometry);
    settings.setValue(QStringLiteral("window/state"),
                      state.isEmpty() ? m_window->saveState() : state);
}

void WindowLayout::shown()
{
    if (m_shownOnce) return;
    m_shownOnce = true;
    fitFrameToScreen();
    // A window manager adds its frame (title bar) a moment after the window is shown: the
    // window fitted again, and a first start's docks sized again for the new size.
    QTimer::singleShot(250, this, [this] {
        if (fitFrameToScreen() && !m_restored)
            QTimer::singleShot(0, this, &WindowLayout::applyDefaultDockSizes);
    });
    if (m_restored) return;
    // Once the window is laid out (resizeDocks needs the final geometry).
    QTimer::singleShot(0, this, &WindowLayout::applyDefaultDockSizes);
}

bool WindowLayout::fitFrameToScreen()
{
    const QScreen* s = m_window->screen();
    if (!s || (m_window->windowState() &
               (Qt::WindowMaximized | Qt::WindowFullScreen | Qt::WindowMinimized)))
        return false;
    // The window with its frame (title bar, borders) inside the available geometry.
    const QRect room = s->availableGeometry();
    const QRect frame = m_window->frameGeometry();
    const QSize margins = frame.size() - m_window->geometry().size();
    const QSize before = m_window->size();
    const QSize size = before.boundedTo(room.size() - margins);
    if (size != before) m_window->resize(size);
    const QSize outer = size + margins;
    const QPoint at(
        std::max(room.left(), std::min(frame.x(), room.left() + room.width() - outer.width())),
        std::max(room.top(), std::min(frame.y(), room.top() + room.height() - outer.height())));
    if (at != frame.topLeft()) m_window->move(at); // move() places the frame
    return size != before;
}

QSize WindowLayout::defaultWindowSize() const
{
    const QScreen* s = m_window->screen();
    // The frame (title bar) is part of what must fit; known once the window is shown.
    const QSize frame = m_window->isVisible()
                            ? m_window->frameGeometry().size() - m_window->geometry().size()
                            : QSize(0, 0);
    const QSize room = s ? s->availableGeometry().size() - frame : QSize(1400, 900);
    return QSize(1400, 900).boundedTo(room);
}

void WindowLayout::applyDefaultDockSizes()
{
    // First start: the editor gets most of the width, results a good third of the height.
    const int width = m_window->width(), height = m_window->height();
    m_window->resizeDocks({m_launch}, {std::max(440, width * 36 / 100)}, Qt::Horizontal);
    // On a 720-line projector a little more: the diff table keeps 8 rows in view.
    m_window->resizeDocks({m_results}, {std::max(340, height * (height < 800 ? 53 : 44) / 100)},
                          Qt::Vertical);
    m_window->resizeDocks({m_launch, m_buffers}, {height * 64 / 100, height * 36 / 100},
                          Qt::Vertical);
}

void WindowLayout::reset(QAction* presentation)
{
    // Presentation Mode would restore its own saved layout when turned off: leave it first.
    if (presentation && presentation->isChecked()) presentation->setChecked(false);
    m_window->restoreState(m_defaultState);
    if (!(m_window->windowState() & (Qt::WindowMaximized | Qt::WindowFullScreen))) {
        const QSize size = defaultWindowSize();
        const bool resized = m_window->size() != size;
        if (resized) m_window->resize(size);
        // Not where it was moved to (nor where an older version left it): centred.
        centreOnScreen(size);
        if (resized) {
            // resizeDocks needs the new size laid out.
            QTimer::singleShot(0, this, &WindowLayout::applyDefaultDockSizes);
            return;
        }
    }
    applyDefaultDockSizes();
}

void WindowLayout::centreOnScreen(QSize size)
{
    const QScreen* s = m_window->screen();
    if (!s) return;
    const QRect room = s->availableGeometry();
    const QSize margins = m_window->frameGeometry().size() - m_window->geometry().size();
    const QSize outer = size + margins;
    m_window->move(room.left() + std::max(0, (room.width() - outer.width()) / 2),
                   room.top() + std::max(0, (room.height() - outer.height()) / 2));
}

} // namespace wb::ui
