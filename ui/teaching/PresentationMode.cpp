// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/teaching/PresentationMode.h"

#include <QAction>
#include <QCoreApplication>
#include <QDockWidget>
#include <QLayout>
#include <QMainWindow>
#include <QMetaObject>
#include <QPalette>
#include <QScreen>
#include <QStatusBar>
#include <QTabBar>
#include <QTimer>
#include <QToolBar>

namespace wb::ui {

namespace {
const char* kActive = "wbPresentationActive";
const char* kFont = "wbPresentationFont";
const char* kPalette = "wbPresentationPalette";
const char* kState = "wbPresentationState";
const char* kIcons = "wbPresentationIcons";
const char* kZoomed = "wbPresentationZoomed";
const char* kGeometry = "wbPresentationGeometry";
const char* kStatusBar = "wbPresentationStatusBar";
const char* kNormalRect = "wbPresentationNormalRect";
const char* kWrapped = "wbPresentationWrapped";
const char* kOrder = "wbPresentationOrder";
const char* kWatcher = "wbPresentationWatcher";
const char* kTitleBar = "wbPresentationTitleBar";

QPalette highContrast()
{
    QPalette p;
    const QColor bg(0, 0, 0), fg(255, 255, 255), accent(255, 214, 0);
    for (auto group : {QPalette::Active, QPalette::Inactive}) {
        p.setColor(group, QPalette::Window, bg);
        p.setColor(group, QPalette::WindowText, fg);
        p.setColor(group, QPalette::Base, bg);
        p.setColor(group, QPalette::AlternateBase, QColor(40, 40, 40));
        p.setColor(group, QPalette::Text, fg);
        p.setColor(group, QPalette::Button, QColor(25, 25, 25));
        p.setColor(group, QPalette::ButtonText, fg);
        p.setColor(group, QPalette::Highlight, accent);
        p.setColor(group, QPalette::HighlightedText, bg);
        p.setColor(group, QPalette::ToolTipBase, accent);
        p.setColor(group, QPalette::ToolTipText, bg);
        p.setColor(group, QPalette::Link, QColor(0, 200, 255));
        p.setColor(group, QPalette::Mid, QColor(160, 160, 160));
        p.setColor(group, QPalette::PlaceholderText, QColor(190, 190, 190));
    }
    p.setColor(QPalette::Disabled, QPalette::Text, QColor(150, 150, 150));
    p.setColor(QPalette::Disabled, QPalette::WindowText, QColor(150, 150, 150));
    p.setColor(QPalette::Disabled, QPalette::ButtonText, QColor(150, 150, 150));
    return p;
}

/// Editors keep their own fonts (lexers): zoom them through their slot where they have one.
/// QPlainTextEdit's zoom sets an explicit font on it; QScintilla's changes a zoom level.
void zoomEditors(QMainWindow* w, bool in)
{
    const char* kOwnFont = "wbPresentationOwnFont";
    if (in) {
        QVariantList zoomed;
        for (QWidget* child : w->findChildren<QWidget*>()) {
            if (child->metaObject()->indexOfMethod("zoomIn(int)") < 0 ||
                child->property("wbPresentationNoZoom").toBool())
                continue;
            const bool ownFont = child->testAttribute(Qt::WA_SetFont);
            if (QMetaObject::invokeMethod(child, "zoomIn",
                                          Q_ARG(int, PresentationMode::kEditorZoom))) {
                child->setProperty(kOwnFont, ownFont);
                zoomed << QVariant::fromValue(static_cast<QObject*>(child));
                if (child->metaObject()->indexOfMethod("setMinimumLinesOnScreen(int)") >= 0)
                    QMetaObject::invokeMethod(child, "setMinimumLinesOnScreen",
                                              Q_ARG(int, PresentationMode::kEditorLines));
            }
        }
        w->setProperty(kZoomed, zoomed);
    } else {
        for (const QVariant& v : w->property(kZoomed).toList()) {
            auto* child = qobject_cast<QWidget*>(v.value<QObject*>());
            if (!child) continue;
            QMetaObject::invokeMethod(child, "zoomOut", Q_ARG(int, PresentationMode::kEditorZoom));
            if (child->metaObject()->indexOfMethod("setMinimumLinesOnScreen(int)") >= 0)
                QMetaObject::invokeMethod(child, "setMinimumLinesOnScreen", Q_ARG(int, 0));
            // The zoom gave it a font of its own: let it inherit the window's again.
            if (!child->property(kOwnFont).toBool() && child->testAttribute(Qt::WA_SetFont))
                child->setFont(QFont());
            child->setProperty(kOwnFont, QVariant());
        }
        w->setProperty(kZoomed, QVariant());
    }
}
/// Banners and similar strips: headline only while presenting.
void compactStrips(QMainWindow* w, bool compact)
{
    for (QWidget* child : w->findChildren<QWidget*>())
        if (child->metaObject()->indexOfMethod("setCompact(bool)") >= 0)
            QMetaObject::invokeMethod(child, "setCompact", Q_ARG(bool, compact));
}

/// The column's panels, most wanted first (kOrder): what the teacher was looking at first.
QList<QDockWidget*> columnOrder(const QMainWindow* w)
{
    QList<QDockWidget*> docks;
    for (const QVariant& v : w->property(kOrder).toList())
        if (auto* d = qobject_cast<QDockWidget*>(v.value<QObject*>())) docks << d;
    return docks;
}

/// The tab bar of the window that holds `dock`'s tab; null when it has none (alone).
QTabBar* tabBarOf(QMainWindow* w, const QDockWidget* dock)
{
    for (QTabBar* bar : w->findChildren<QTabBar*>(QString(), Qt::FindDirectChildrenOnly)) {
        if (!bar->isVisible()) continue;
        for (int i = 0; i < bar->count(); ++i)
            if (bar->tabText(i) == dock->windowTitle()) return bar;
    }
    return nullptr;
}

/// Every tab of the column whole at the large font, none scrolled out of view or cut at an
/// edge: the least wanted panels (kOrder's end) are put away until the tabs fit; `keep` (the
/// one just brought up) and the raised one stay. View's panel toggles bring any back.
void fitColumnTabs(QMainWindow* w, QDockWidget* keep)
{
    const QList<QDockWidget*> order = columnOrder(w);
    for (qsizetype i = order.size() - 1; i >= 0; --i) {
        if (auto* layout = w->layout()) layout->activate();
        QTabBar* bar = keep ? tabBarOf(w, keep) : nullptr;
        if (!bar || bar->sizeHint().width() <= keep->width()) return;
        QDockWidget* d = order[i];
        // (The raised one is its bar's current tab; not its visible region, empty when an
        // opaque panel fills a dock without a title bar.)
        if (d == keep || d->isHidden() || bar->tabText(bar->currentIndex()) == d->windowTitle())
            continue;
        d->hide();
    }
}

/// The projector layout: every docked, visible panel becomes a tab of one column on the right;
/// the one on top at the bottom (results) is raised. As many tabs as fit whole, the panels the
/// user was looking at first, then the Guide, then the rest in their order.
QDockWidget* layOutForProjector(QMainWindow* w)
{
    QList<QDockWidget*> onScreen, behind;
    QDockWidget* shown = nullptr; // the bottom panel the user was looking at
    for (QDockWidget* d : w->findChildren<QDockWidget*>()) {
        if (d->isFloating() || d->isHidden() || w->dockWidgetArea(d) == Qt::NoDockWidgetArea)
            continue;
        // (A tab behind another is moved off the window, not hidden.)
        const bool seen = !d->visibleRegion().isEmpty();
        if (!shown && w->dockWidgetArea(d) == Qt::BottomDockWidgetArea && seen) shown = d;
        (seen || d->objectName() == QLatin1String("guideDock") ? onScreen : behind) << d;
    }
    QList<QDockWidget*> docks = onScreen + behind;
    if (docks.isEmpty()) return nullptr;
    if (shown) docks.move(docks.indexOf(shown), 0);
    QVariantList order;
    for (QDockWidget* d : docks)
        order << QVariant::fromValue(static_cast<QObject*>(d));
    w->setProperty(kOrder, order);
    QDockWidget* anchor = docks.front();
    w->addDockWidget(Qt::RightDockWidgetArea, anchor);
    for (QDockWidget* d : docks.mid(1))
        w->tabifyDockWidget(anchor, d);
    anchor->raise();
    // The tabs name the panels: no title bar above each (its height is the table's rows').
    for (QDockWidget* d : docks)
        if (!d->titleBarWidget()) {
            d->setTitleBarWidget(new QWidget(d));
            d->setProperty(kTitleBar, true);
        }
    w->resizeDocks({anchor}, {w->width() * PresentationMode::kPanelColumnPercent / 100},
                   Qt::Horizontal);
    // Whole panel names (never "H…", "S…"), as many as fit.
    for (QTabBar* bar : w->findChildren<QTabBar*>(QString(), Qt::FindDirectChildrenOnly)) {
        bar->setElideMode(Qt::ElideNone);
        bar->setUsesScrollButtons(true);
    }
    fitColumnTabs(w, anchor);
    // A panel the teacher brings up (View menu), put away here or hidden before, joins the
    // column's tabs, on top; the least wanted others make room for it.
    auto* watcher = new QObject(w);
    watcher->setObjectName(QLatin1String(kWatcher));
    for (QDockWidget* d : w->findChildren<QDockWidget*>())
        QObject::connect(d->toggleViewAction(), &QAction::triggered, watcher,
                         [w, d, anchor](bool on) {
                             if (!on || d->isFloating()) return;
                             if (d != anchor && !w->tabifiedDockWidgets(anchor).contains(d)) {
                                 w->tabifyDockWidget(anchor, d);
                                 if (!d->titleBarWidget()) {
                                     d->setTitleBarWidget(new QWidget(d));
                                     d->setProperty(kTitleBar, true);
                                 }
                             }
                             // Once the layout has given it its tab.
                             QTimer::singleShot(0, d, [w, d]() {
                                 if (!PresentationMode::isActive(w) || d->isHidden()) return;
                                 d->raise();
                                 fitColumnTabs(w, d);
                                 d->raise(); // (putting a tab away may have raised another)
                             });
                         });
    return anchor;
}

/// Code is never cut: the editor gets the width its widest line needs (the panels' column
/// gives it up, down to kMinPanelColumnPercent of the window), or, when even that is too
/// little, wraps at words with an arrow at each wrap while the panels keep their column.
/// Editors with `widthForLongestLine()`.
void fitEditorsForProjector(QMainWindow* w, QDockWidget* column)
{
    if (auto* layout = w->layout()) layout->activate();
    QList<QWidget*> editors;
    QWidget* shown = nullptr;
    for (QWidget* child : w->findChildren<QWidget*>()) {
        if (child->metaObject()->indexOfMethod("widthForLongestLine()") < 0) continue;
        editors << child;
        if (!shown && child->isVisible()) shown = child;
    }
    if (editors.isEmpty()) return;
    // Every editor of the central area has the visible one's width.
    int have = shown ? shown->width() : w->width() / 2;
    auto need = [](QWidget* e) {
        int width = 0;
        QMetaObject::invokeMethod(e, "widthForLongestLine", Q_RETURN_ARG(int, width));
        return width;
    };
    if (shown && column && !column->isFloating()) {
        const int extra = need(shown) - have;
        const int minColumn = w->width() * PresentationMode::kMinPanelColumnPercent / 100;
        if (extra > 0 && column->width() - extra >= minColumn) {
            w->resizeDocks({column}, {column->width() - extra}, Qt::Horizontal);
            if (auto* layout = w->layout()) layout->activate();
            have = shown->width();
        }
        // Otherwise the editor wraps and the panels keep their column.
    }
    QVariantList wrapped;
    for (QWidget* e : editors) {
        if (need(e) <= have) continue;
        QMetaObject::invokeMethod(e, "setPresentationWrap", Q_ARG(bool, true));
        wrapped << QVariant::fromValue(static_cast<QObject*>(e));
    }
    w->setProperty(kWrapped, wrapped);
}

void unwrapEditors(QMainWindow* w)
{
    for (const QVariant& v : w->property(kWrapped).toList())
        if (QObject* e = v.value<QObject*>())
            QMetaObject::invokeMethod(e, "setPresentationWrap", Q_ARG(bool, false));
    w->setProperty(kWrapped, QVariant());
}

/// A window wider or taller than its screen comes back onto it.
void keepOnScreen(QMainWindow* w)
{
    const QScreen* screen = w->screen();
    if (!screen || (w->windowState() & (Qt::WindowMaximized | Qt::WindowFullScreen))) return;
    const QRect room = screen->availableGeometry();
    if (w->width() > room.width() || w->height() > room.height())
        w->resize(w->size().boundedTo(room.size()));
}
} // namespace

bool PresentationMode::isActive(const QMainWindow* window)
{
    return window && window->property(kActive).toBool();
}

QByteArray PresentationMode::geometryBefore(const QMainWindow* window)
{
    return isActive(window) ? window->property(kGeometry).toByteArray() : QByteArray();
}

QByteArray PresentationMode::stateBefore(const QMainWindow* window)
{
    return isActive(window) ? window->property(kState).toByteArray() : QByteArray();
}

void PresentationMode::apply(QMainWindow* w, bool on)
{
    if (!w || isActive(w) == on) return;
    if (on) {
        w->setProperty(kFont, w->font());
        w->setProperty(kPalette, w->palette());
        w->setProperty(kState, w->saveState());
        w->setProperty(kIcons, w->iconSize());
        w->setProperty(kGeometry, w->saveGeometry());
        w->setProperty(kNormalRect, w->geometry());
        QFont f = w->font();
        f.setPointSize(std::max(kPointSize, f.pointSize()));
        w->setFont(f);
        w->setPalette(highContrast());
        w->setIconSize(QSize(40, 40));
        compactStrips(w, true);
        // The status bar's versions and paths are for the desk, not the class: the editor
        // gets its height.
        if (auto* bar = w->findChild<QStatusBar*>(QString(), Qt::FindDirectChildrenOnly)) {
            w->setProperty(kStatusBar, bar->isVisible());
            bar->hide();
        }
        QDockWidget* column = layOutForProjector(w);
        zoomEditors(w, true);
        keepOnScreen(w);
        fitEditorsForProjector(w, column);
        w->setProperty(kActive, true);
    } else {
        delete w->findChild<QObject*>(QLatin1String(kWatcher), Qt::FindDirectChildrenOnly);
        for (QDockWidget* d : w->findChildren<QDockWidget*>()) {
            if (!d->property(kTitleBar).toBool()) continue;
            QWidget* bar = d->titleBarWidget();
            d->setTitleBarWidget(nullptr);
            delete bar;
            d->setProperty(kTitleBar, QVariant());
        }
        w->setProperty(kOrder, QVariant());
        w->setFont(w->property(kFont).value<QFont>());
        unwrapEditors(w);
        zoomEditors(w, false);
        compactStrips(w, false);
        if (auto* bar = w->findChild<QStatusBar*>(QString(), Qt::FindDirectChildrenOnly))
            bar->setVisible(w->property(kStatusBar).toBool());
        w->setPalette(w->property(kPalette).value<QPalette>());
        w->setIconSize(w->property(kIcons).toSize());
        // The toolbar, status bar and panels at their normal sizes before the docks get theirs.
        QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
        if (auto* layout = w->layout()) layout->activate();
        // Exactly the geometry from before: restoreGeometry() alone places a window by its
        // frame, which moves it where the frame is not what it was (no window manager: y = 20).
        w->restoreGeometry(w->property(kGeometry).toByteArray());
        if (!(w->windowState() & (Qt::WindowMaximized | Qt::WindowFullScreen)))
            w->setGeometry(w->property(kNormalRect).toRect());
        keepOnScreen(w);
        const QByteArray state = w->property(kState).toByteArray();
        w->restoreState(state);
        w->setProperty(kActive, false);
        w->setProperty(kGeometry, QVariant());
        w->setProperty(kState, QVariant());
    }
}

} // namespace wb::ui
