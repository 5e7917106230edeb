// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/WindowLayout.h"

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
    QSettings settings;
    settings.setValue(QStringLiteral("window/geometry"), m_window->saveGeometry());
    settings.setValue(QStringLiteral("window/state"), m_window->saveState());
}

void WindowLayout::shown()
{
    if (m_shownOnce) return;
    m_shownOnce = true;
    if (m_restored) return;
    // Once the window is laid out (resizeDocks needs the final geometry).
    QTimer::singleShot(0, this, &WindowLayout::applyDefaultDockSizes);
}

QSize WindowLayout::defaultWindowSize() const
{
    const QScreen* s = m_window->screen();
    const QSize room = s ? s->availableGeometry().size() : QSize(1400, 900);
    return QSize(1400, 900).boundedTo(room);
}

void WindowLayout::applyDefaultDockSizes()
{
    // First start: the editor gets most of the width, results a good third of the height.
    const int width = m_window->width(), height = m_window->height();
    m_window->resizeDocks({m_launch}, {std::max(440, width * 36 / 100)}, Qt::Horizontal);
    // On a 720-line projector a little more: the diff table keeps 8 rows in view.
    m_window->resizeDocks({m_results}, {std::max(340, height * (height < 800 ? 50 : 44) / 100)},
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
        if (m_window->size() != size) {
            m_window->resize(size);
            // resizeDocks needs the new size laid out.
            QTimer::singleShot(0, this, &WindowLayout::applyDefaultDockSizes);
            return;
        }
    }
    applyDefaultDockSizes();
}

} // namespace wb::ui
