// SPDX-License-Identifier: GPL-3.0-or-later
// The real main window on a projector (issue 17): offscreen screens of 1280×720 and 1280×800
// ($WB_TEST_SCREENS may name another screen file: data/desk-screen.json, 1600×1000, gives
// anExampleOnEachScreen's screenshots at that size). Long messages never widen the window past the
// screen, Presentation Mode fits a 720p projector, View → Reset Layout gives the first-start
// layout, and the charts' labels are readable. Writes screenshots when $WARPBENCH_SCREENSHOT_DIR is
// set.
#include "core/common/Paths.h"
#include "core/host/HostCompiler.h"
#include "tests/support/SuiteMain.h"
#include "tests/support/WindowTesting.h"
#include "ui/MainWindow.h"
#include "ui/StatusBanner.h"
#include "ui/buffers/BufferPanel.h"
#include "ui/buffers/ImageView.h"
#include "ui/common/RunController.h"
#include "ui/common/SessionDocument.h"
#include "ui/common/VirtualTableView.h"
#include "ui/editor/KernelEditor.h"
#include "ui/launch/LaunchPanel.h"
#include "ui/profiling/HistoryPanel.h"
#include "ui/profiling/ProfilingDocks.h"
#include "ui/profiling/SweepPanel.h"
#include "ui/results/DiffView.h"
#include "ui/results/ResultsPanel.h"
#include "ui/results/TimingCharts.h"
#include "ui/teaching/GuidePanel.h"
#include "ui/teaching/PresentationMode.h"

#include <QAbstractButton>
#include <QAbstractScrollArea>
#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDockWidget>
#include <QFileInfo>
#include <QGraphicsItem>
#include <QGraphicsScene>
#include <QGraphicsSimpleTextItem>
#include <QGraphicsTextItem>
#include <QHash>
#include <QHeaderView>
#include <QImage>
#include <QLabel>
#include <QPixmap>
#include <QPlainTextEdit>
#include <QScreen>
#include <QScrollBar>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTabBar>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBlock>
#include <QTextDocumentFragment>
#include <QWheelEvent>
#include <QtCharts/QChartView>
#include <QtCharts/QXYSeries>

using namespace wb;
using namespace wb::ui;

namespace {

/// Visible widgets under `root` whose minimum width exceeds `limit` (for failure messages).
QString wideWidgets(QWidget* root, int limit)
{
    QStringList out;
    for (QWidget* w : root->findChildren<QWidget*>()) {
        if (!w->isVisibleTo(root)) continue;
        const int min = std::max(w->minimumSizeHint().width(), w->minimumWidth());
        if (min <= limit || w->sizePolicy().horizontalPolicy() == QSizePolicy::Ignored) continue;
        QString chain;
        for (QWidget* p = w; p && p != root; p = p->parentWidget())
            chain += QStringLiteral("%1(%2) < ")
                         .arg(QString::fromLatin1(p->metaObject()->className()), p->objectName());
        out << QStringLiteral("%1 min %2").arg(chain).arg(min);
    }
    return out.join(u'\n');
}

/// The window fits its screen: its size, its minimum and every docked panel's place.
void checkOnScreen(MainWindow& w, const char* when)
{
    QApplication::processEvents();
    QTest::qWait(50);
    const QRect room = w.screen()->availableGeometry();
    const QSize min = w.minimumSizeHint().expandedTo(w.minimumSize());
    QVERIFY2(w.width() <= room.width() && w.height() <= room.height(),
             qPrintable(QStringLiteral("%1: window %2×%3 on a %4×%5 screen\n%6")
                            .arg(QLatin1String(when))
                            .arg(w.width())
                            .arg(w.height())
                            .arg(room.width())
                            .arg(room.height())
                            .arg(wideWidgets(&w, room.width() / 2))));
    QVERIFY2(min.width() <= room.width() && min.height() <= room.height(),
             qPrintable(QStringLiteral("%1: minimum %2×%3\n%4")
                            .arg(QLatin1String(when))
                            .arg(min.width())
                            .arg(min.height())
                            .arg(wideWidgets(&w, room.width() / 2))));
    // Every panel shown (not a tab behind another) lies inside the window: reachable.
    for (QDockWidget* d : w.findChildren<QDockWidget*>()) {
        if (d->isHidden() || d->isFloating() || d->visibleRegion().isEmpty()) continue;
        const QRect r(d->mapTo(&w, QPoint(0, 0)), d->size());
        QVERIFY2(w.rect().contains(r), qPrintable(QStringLiteral("%1: %2 at %3,%4 %5×%6")
                                                      .arg(QLatin1String(when), d->objectName())
                                                      .arg(r.x())
                                                      .arg(r.y())
                                                      .arg(r.width())
                                                      .arg(r.height())));
    }
}

QAction* presentationAction(MainWindow& w)
{
    return w.findChild<QAction*>(QStringLiteral("presentationModeAction"));
}

/// Where every dock is: area, floating, hidden, on top (not a tab behind), geometry, tab mates.
QStringList dockLayout(MainWindow& w)
{
    QStringList out;
    for (QDockWidget* d : w.findChildren<QDockWidget*>()) {
        QStringList mates;
        for (QDockWidget* m : w.tabifiedDockWidgets(d))
            mates << m->objectName();
        mates.sort();
        const QRect g = d->visibleRegion().isEmpty() ? QRect() : d->geometry();
        out << QStringLiteral("%1 area %2 floating %3 hidden %4 geometry %5,%6 %7×%8 tabs [%9]")
                   .arg(d->objectName())
                   .arg(static_cast<int>(w.dockWidgetArea(d)))
                   .arg(d->isFloating())
                   .arg(d->isHidden())
                   .arg(g.x())
                   .arg(g.y())
                   .arg(g.width())
                   .arg(g.height())
                   .arg(mates.join(u','));
    }
    out.sort();
    out << QStringLiteral("window %1×%2").arg(w.width()).arg(w.height());
    return out;
}

/// The texts a chart draws (title, axis titles and labels, legend).
QStringList chartTexts(QChartView* view)
{
    QStringList texts;
    for (QGraphicsItem* item : view->scene()->items()) {
        if (!item->isVisible()) continue;
        if (auto* t = dynamic_cast<QGraphicsTextItem*>(item)) texts << t->toPlainText();
        if (auto* t = dynamic_cast<QGraphicsSimpleTextItem*>(item)) texts << t->text();
    }
    return texts;
}

/// Qt Charts shortens a label that does not fit with "..." (or "…").
QString elidedLabels(const QStringList& texts)
{
    QStringList cut;
    for (const QString& t : texts)
        if (t.contains(QStringLiteral("...")) || t.contains(QChar(0x2026))) cut << t;
    return cut.join(QStringLiteral(" | "));
}

/// WCAG contrast ratio of two colours.
double contrast(const QColor& a, const QColor& b)
{
    auto lum = [](const QColor& c) {
        auto ch = [](double v) {
            return v <= 0.03928 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4);
        };
        return 0.2126 * ch(c.redF()) + 0.7152 * ch(c.greenF()) + 0.0722 * ch(c.blueF());
    };
    const double x = lum(a), y = lum(b);
    return (std::max(x, y) + 0.05) / (std::min(x, y) + 0.05);
}

void screenshot(QWidget& w, const QString& name)
{
    const QString dir = qEnvironmentVariable("WARPBENCH_SCREENSHOT_DIR");
    if (dir.isEmpty()) return;
    QApplication::processEvents();
    const QString path = dir + u'/' + name + QStringLiteral(".png");
    // Under a window manager the whole screen: the title bar and where the window lies on it.
    const QPixmap shot = qEnvironmentVariableIsEmpty("WB_TEST_WINDOW_MANAGER")
                             ? w.grab()
                             : w.screen()->grabWindow(0);
    QVERIFY(shot.save(path));
    qInfo("screenshot: %s", qPrintable(path));
}

/// A path of class names and object names from `root` down to `w` (for failure messages).
QString widgetPath(const QWidget* w, const QWidget* root)
{
    QStringList chain;
    for (const QWidget* p = w; p && p != root; p = p->parentWidget())
        chain.prepend(QStringLiteral("%1(%2)").arg(
            QString::fromLatin1(p->metaObject()->className()), p->objectName()));
    return chain.join(QStringLiteral(" > "));
}

/// Text-bearing widgets on screen (their visible region not empty) narrower or lower than their
/// text needs: a label cut or elided (one that wraps: lower than its text at its width), a
/// combo box narrower than its contents, a button narrower than its text, a tab bar whose tabs
/// do not all fit (scrolled, a tab cut at an edge). Empty when every one is whole.
QStringList cutTexts(QWidget* root)
{
    QStringList cut;
    for (QWidget* w : root->findChildren<QWidget*>()) {
        if (!w->isVisible() || w->visibleRegion().isEmpty()) continue;
        const QString where = widgetPath(w, root);
        if (auto* label = qobject_cast<QLabel*>(w)) {
            if (label->text().isEmpty() || label->pixmap().cacheKey() != 0) continue;
            if (label->wordWrap()) {
                const int need = label->heightForWidth(label->width());
                if (label->height() < need)
                    cut << QStringLiteral("%1 '%2': %3 px high, needs %4")
                               .arg(where, label->text().left(40))
                               .arg(label->height())
                               .arg(need);
            } else if (label->width() < label->minimumSizeHint().width()) {
                cut << QStringLiteral("%1 '%2': %3 px wide, needs %4")
                           .arg(where, label->text().left(40))
                           .arg(label->width())
                           .arg(label->minimumSizeHint().width());
            }
        } else if (auto* combo = qobject_cast<QComboBox*>(w)) {
            if (combo->currentText().isEmpty()) continue;
            const int need =
                combo->isEditable() ? combo->minimumSizeHint().width() : combo->sizeHint().width();
            if (combo->width() < need)
                cut << QStringLiteral("%1 '%2': %3 px wide, needs %4")
                           .arg(where, combo->currentText())
                           .arg(combo->width())
                           .arg(need);
        } else if (auto* button = qobject_cast<QAbstractButton*>(w)) {
            if (button->text().isEmpty() || qobject_cast<QTabBar*>(w->parentWidget())) continue;
            if (button->width() < button->sizeHint().width())
                cut << QStringLiteral("%1 '%2': %3 px wide, needs %4")
                           .arg(where, button->text())
                           .arg(button->width())
                           .arg(button->sizeHint().width());
        } else if (auto* bar = qobject_cast<QTabBar*>(w)) {
            const bool across = bar->shape() == QTabBar::RoundedNorth ||
                                bar->shape() == QTabBar::RoundedSouth ||
                                bar->shape() == QTabBar::TriangularNorth ||
                                bar->shape() == QTabBar::TriangularSouth;
            const int have = across ? bar->width() : bar->height();
            const int need = across ? bar->sizeHint().width() : bar->sizeHint().height();
            QStringList names;
            for (int i = 0; i < bar->count(); ++i)
                names << bar->tabText(i);
            if (need > have)
                cut << QStringLiteral("%1 tabs [%2]: %3 px, need %4")
                           .arg(where, names.join(u','))
                           .arg(have)
                           .arg(need);
        }
    }
    return cut;
}

/// Every widget's font, size and visibility and every scroll bar's range and position in the
/// window (of a panel behind another's tab: fonts and positions), one line each: what leaving
/// Presentation Mode must give back exactly.
QStringList widgetStates(QMainWindow& w)
{
    QStringList out;
    QHash<QString, int> seen;
    for (QWidget* c : w.findChildren<QWidget*>()) {
        if (c->window() != &w) continue; // menus, tool tips, pop-ups and what they hold
        QString path = widgetPath(c, &w);
        // The window's dock tab bars are a pool, in no order: named by their tabs, the unused
        // ones (hidden or without a tab) left out.
        if (auto* bar = qobject_cast<QTabBar*>(c); bar && bar->parentWidget() == &w) {
            if (!bar->isVisible() || bar->count() == 0) continue;
            for (int i = 0; i < bar->count(); ++i)
                path += u' ' + bar->tabText(i);
        }
        if (auto* bar = qobject_cast<QTabBar*>(c->parentWidget());
            bar && bar->parentWidget() == &w && (!bar->isVisible() || bar->count() == 0))
            continue;
        path += QStringLiteral("#%1").arg(seen[path]++);
        // A panel behind another's tab keeps whatever size it had last (nothing shows it):
        // its font and scroll positions only.
        QDockWidget* dock = nullptr;
        for (QWidget* p = c; p && !dock; p = p->parentWidget())
            dock = qobject_cast<QDockWidget*>(p);
        const bool behind = dock && dock->isVisible() && dock->visibleRegion().isEmpty();
        if (!c->isVisible() && !behind) {
            out << path + QStringLiteral(" hidden");
            continue;
        }
        QString line = QStringLiteral("%1 font %2").arg(path, c->font().toString());
        if (!behind) line += QStringLiteral(" %1×%2").arg(c->width()).arg(c->height());
        if (auto* bar = qobject_cast<QScrollBar*>(c)) {
            if (!behind)
                line += QStringLiteral(" range %1..%2").arg(bar->minimum()).arg(bar->maximum());
            line += QStringLiteral(" at %1").arg(bar->value());
        }
        out << line;
    }
    return out;
}

/// The lines of `after` that differ from `before` (for failure messages).
QString changedLines(const QStringList& before, const QStringList& after)
{
    QStringList gone, added;
    for (const QString& l : before)
        if (!after.contains(l)) gone << QStringLiteral("- ") + l;
    for (const QString& l : after)
        if (!before.contains(l)) added << QStringLiteral("+ ") + l;
    return (gone.mid(0, 25) + added.mid(0, 25)).join(u'\n');
}

std::shared_ptr<const RunOutcome> runAndWait(MainWindow& w)
{
    QSignalSpy finished(w.runController(), &RunController::runFinished);
    if (!w.run()) return {};
    if (!finished.wait(300000)) return {};
    return w.runController()->lastOutcome();
}

} // namespace

class TestWindowLayout : public QObject {
    Q_OBJECT
public:
    static void initMain()
    {
        // Under tests/ui/with-window-manager.sh: Xvfb's 1280×720 screen on the xcb platform,
        // openbox managing the windows.
        if (!qEnvironmentVariableIsEmpty("WB_TEST_WINDOW_MANAGER")) return;
        // Projector-sized screens (1280×720, 1280×800), before the application exists.
        const QByteArray screens = qEnvironmentVariableIsEmpty("WB_TEST_SCREENS")
                                       ? QByteArray(WB_TEST_DATA_DIR "/projector-screens.json")
                                       : qgetenv("WB_TEST_SCREENS");
        qputenv("QT_QPA_PLATFORM", "offscreen:configfile=" + screens);
    }

private Q_SLOTS:
    void initTestCase()
    {
        m_desk = !qEnvironmentVariableIsEmpty("WB_TEST_SCREENS");
        m_wm = !qEnvironmentVariableIsEmpty("WB_TEST_WINDOW_MANAGER");
        // (Settings of their own: the offscreen and the window manager's run may run at once.)
        isolateWindowSuite(m_wm ? "tst_windowlayout_wm" : "tst_windowlayout", m_autosave);
        if (m_wm) {
            // One real X screen of 1280×720 (no panel: all of it available), a window manager.
            QCOMPARE(QGuiApplication::platformName(), QStringLiteral("xcb"));
            QCOMPARE(QGuiApplication::primaryScreen()->availableGeometry().size(),
                     QSize(1280, 720));
        } else if (!m_desk) {
            QCOMPARE(QGuiApplication::screens().size(), 2);
            QCOMPARE(QGuiApplication::primaryScreen()->availableGeometry().size(),
                     QSize(1280, 720));
            QCOMPARE(QGuiApplication::screens()[1]->availableGeometry().size(), QSize(1280, 800));
        }
        m_hasHostCompiler = HostCompiler::find().has_value();
        // Under a window manager nothing may be skipped: the CPU emulator runs the examples.
        if (m_wm) QVERIFY2(m_hasHostCompiler, "no host C++ compiler for the CPU emulator");
    }

    /// Every start is a first start (no remembered layout).
    void init()
    {
        QSettings().clear();
        if (m_desk && QString::fromLatin1(QTest::currentTestFunction()) != u"anExampleOnEachScreen")
            QSKIP("$WB_TEST_SCREENS is set: only anExampleOnEachScreen runs on other screens");
    }

    void firstStartFitsEachProjector()
    {
        for (QScreen* screen : QGuiApplication::screens()) {
            MainWindow w;
            w.setScreen(screen);
            w.move(screen->availableGeometry().topLeft());
            w.show();
            QVERIFY(QTest::qWaitForWindowExposed(&w));
            QCOMPARE(w.screen(), screen);
            checkOnScreen(w, qPrintable(screen->name()));
            // With its frame (title bar) inside the available geometry (issue 29 item 3).
            QTest::qWait(300);
            QVERIFY2(screen->availableGeometry().contains(w.frameGeometry()),
                     qPrintable(QStringLiteral("frame %1,%2 %3×%4")
                                    .arg(w.frameGeometry().x())
                                    .arg(w.frameGeometry().y())
                                    .arg(w.frameGeometry().width())
                                    .arg(w.frameGeometry().height())));
            // Under a window manager: a title bar, and the status bar above the screen's edge.
            if (m_wm) {
                QVERIFY2(w.frameGeometry().height() > w.height(), "no title bar");
                QStatusBar* status = w.statusBar();
                QVERIFY(status->isVisible());
                const QRect bar(status->mapToGlobal(QPoint(0, 0)), status->size());
                QVERIFY2(
                    screen->availableGeometry().contains(bar),
                    qPrintable(
                        QStringLiteral("status bar at y %1..%2").arg(bar.top()).arg(bar.bottom())));
                screenshot(w, QStringLiteral("first-start-openbox-1280x720"));
            }
            // The editor and both right-hand panels are on screen at the first start.
            for (QWidget* panel :
                 {static_cast<QWidget*>(w.launchPanel()), static_cast<QWidget*>(w.bufferPanel()),
                  static_cast<QWidget*>(w.resultsPanel())})
                QVERIFY(!panel->visibleRegion().isEmpty());
        }
    }

    /// A geometry remembered from a larger screen (2000×1300) starts cut to this screen.
    void rememberedGeometryFitsTheScreen()
    {
        QByteArray big;
        {
            MainWindow w;
            w.setGeometry(0, 0, 2000, 1300);
            big = w.saveGeometry();
        }
        QSettings().setValue(QStringLiteral("window/geometry"), big);
        for (QScreen* screen : QGuiApplication::screens()) {
            MainWindow w;
            w.setScreen(screen);
            w.show();
            QVERIFY(QTest::qWaitForWindowExposed(&w));
            const QRect room = w.screen()->availableGeometry();
            QVERIFY2(w.width() <= room.width() && w.height() <= room.height(),
                     qPrintable(QStringLiteral("%1×%2 on %3×%4")
                                    .arg(w.width())
                                    .arg(w.height())
                                    .arg(room.width())
                                    .arg(room.height())));
        }
    }

    /// A timeout's or a crash's long words, a long path in the banner and Presentation Mode
    /// never push the window past the 1280×720 screen; leaving the mode gives its size back.
    void longMessagesKeepTheWindowOnTheScreen()
    {
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QTest::qWait(400); // a window manager's frame: fitted again 250 ms after the first show
        QVERIFY(w.openProject(example("saxpy")));
        checkOnScreen(w, "opened");
        const QSize before = w.size();

        // 2000 characters, words of every length (one of 300 with no break at all).
        QString words;
        for (int i = 0; words.size() < 1700; ++i)
            words += QString(1 + i % 23, QChar(u'a' + i % 26)) + u' ';
        const QString message = QStringLiteral("the runner did not answer within 10 s while "
                                               "running kernel 'saxpy' (") +
                                QString(300, u'x') + QStringLiteral(") ") + words;
        QVERIFY(message.size() >= 2000);
        auto outcome = std::make_shared<RunOutcome>();
        outcome->report.status = session::RunReport::Status::RuntimeError;
        outcome->report.message = message.toStdString();
        outcome->report.device.name = std::string(200, 'D');
        w.resultsPanel()->setOutcome(outcome, w.document()->runnableSession());
        w.banner()->setMessages({{StatusBanner::Level::Error,
                                  QStringLiteral("<b>Cannot open</b> /") + QString(2000, u'p')}});
        QVERIFY(!w.openProject(QStringLiteral("/nonexistent/") + QString(600, u'q') +
                               QStringLiteral(".wbproj")));
        checkOnScreen(w, "after a 2000-character message");
        QCOMPARE(w.size(), before);
        // Shortened in the verdict, whole on hover and in the Log.
        const QString verdict = w.resultsPanel()->verdictText();
        QVERIFY2(verdict.size() < 1000 && verdict.contains(QStringLiteral("Log tab")),
                 qPrintable(verdict.left(300)));
        QVERIFY(w.resultsPanel()
                    ->findChild<QLabel*>(QStringLiteral("verdict"))
                    ->toolTip()
                    .contains(QString(300, u'x')));
        QVERIFY(w.resultsPanel()->logView()->toPlainText().contains(QString(300, u'x')));

        presentationAction(w)->setChecked(true);
        QVERIFY(PresentationMode::isActive(&w));
        checkOnScreen(w, "in Presentation Mode");
        w.resultsPanel()->setOutcome(outcome, w.document()->runnableSession());
        checkOnScreen(w, "a long message in Presentation Mode");
        presentationAction(w)->setChecked(false);
        checkOnScreen(w, "after Presentation Mode");
        QCOMPARE(w.size(), before);
        w.document()->setModified(false);
    }

    /// Issue 29 item 6 at 1280×720: the "Running…" line starts with an icon (an image), not a
    /// glyph the bundled font lacks; the wheel over the Results panel does not scroll its dock
    /// away from the verdict.
    void resultsVerdictStaysInView()
    {
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        auto* verdict = w.resultsPanel()->findChild<QLabel*>(QStringLiteral("verdict"));
        QVERIFY(verdict);
        w.resultsPanel()->setRunning(true, QStringLiteral("Running…"));
        const QString running = w.resultsPanel()->verdictText();
        QVERIFY2(running.contains(QStringLiteral("<img src=':/warpbench/icons/running.svg'")),
                 qPrintable(running));
        QVERIFY(!QImage(QStringLiteral(":/warpbench/icons/running.svg")).isNull());
        const QString shown = QTextDocumentFragment::fromHtml(running).toPlainText();
        const QFontMetrics fm(verdict->font());
        for (const QChar c : shown)
            if (!c.isSpace() && c != QChar::ObjectReplacementCharacter)
                QVERIFY2(fm.inFont(c), qPrintable(QStringLiteral("U+%1 is not in %2")
                                                      .arg(c.unicode(), 4, 16, QLatin1Char('0'))
                                                      .arg(verdict->font().family())));

        // A short Results dock scrolls; the wheel over its texts leaves it where it is.
        auto* dock = w.findChild<QDockWidget*>(QStringLiteral("resultsDock"));
        auto* scroll = qobject_cast<QAbstractScrollArea*>(dock->widget());
        QVERIFY(scroll);
        w.resizeDocks({dock}, {140}, Qt::Vertical);
        QApplication::processEvents();
        QScrollBar* bar = scroll->verticalScrollBar();
        QVERIFY2(bar->maximum() > 0, qPrintable(QString::number(dock->height())));
        bar->setValue(0);
        for (QWidget* target :
             {static_cast<QWidget*>(verdict), static_cast<QWidget*>(w.resultsPanel())}) {
            const QPointF at(target->width() / 2.0, 2.0);
            QWheelEvent wheel(at, target->mapToGlobal(at), QPoint(), QPoint(0, -240), Qt::NoButton,
                              Qt::NoModifier, Qt::NoScrollPhase, false);
            QApplication::sendEvent(target, &wheel);
            QApplication::processEvents();
            QCOMPARE(bar->value(), 0);
        }
        // The scroll bar itself still scrolls it.
        QWheelEvent onBar(QPointF(2, 2), bar->mapToGlobal(QPointF(2, 2)), QPoint(), QPoint(0, -120),
                          Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
        QApplication::sendEvent(bar, &onBar);
        QVERIFY(bar->value() > 0);
    }

    /// Issue 29 item 6: the Sweep dock's chart at 1280×720 draws its title, axis titles and
    /// labels whole (nothing squeezed to "…").
    void sweepChartIsReadableAt720p()
    {
        if (!m_hasHostCompiler)
            QSKIP("no host C++ compiler: the CPU backend cannot build kernels here");
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(w.openProject(example("saxpy")));
        selectBackend(w, "cpu");
        SweepPanel* sweep = w.findChild<ProfilingDocks*>()->sweep();
        auto* dock = w.findChild<QDockWidget*>(QStringLiteral("sweepDock"));
        dock->show();
        dock->raise();
        sweep->setParameter(profiling::SweepParameter::Kind::BlockSize, {},
                            QStringLiteral("64, 128, 256, 512"));
        QSignalSpy finished(sweep, &SweepPanel::sweepFinished);
        QVERIFY(sweep->start());
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 300000);
        QApplication::processEvents();
        auto* view = sweep->findChild<QChartView*>();
        QVERIFY(view);
        screenshot(w, QStringLiteral("sweep-1280x720"));
        QVERIFY(view->isVisible());
        QVERIFY2(view->width() >= 300, qPrintable(QString::number(view->width())));
        QTRY_VERIFY2_WITH_TIMEOUT(
            elidedLabels(chartTexts(view)).isEmpty(),
            qPrintable(chartTexts(view).join(QStringLiteral(" | ")) +
                       QStringLiteral(" in %1×%2").arg(view->width()).arg(view->height())),
            5000);
        // Another project: the sweep of this one is not its result (issue 29 item 2's rule).
        QVERIFY(sweep->table()->rowCount() > 0);
        w.document()->setModified(false);
        QVERIFY(w.openProject(example("hello_gpu")));
        QCOMPARE(sweep->table()->rowCount(), 0);
    }

    /// Issue 29 item 5 at 1280×720: the diff table shows at least 8 rows; each Next ▶ / F8
    /// step scrolls it to the mismatch (the selected row inside the part of the table on
    /// screen) and marks it on the heatmap; the row labels stay inside the table.
    void mismatchNavigationAt720p()
    {
        if (!m_hasHostCompiler)
            QSKIP("no host C++ compiler: the CPU backend cannot build kernels here");
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(w.openProject(example("hello_gpu")));
        selectBackend(w, "cpu");
        // A mismatch every 37 elements of 400: rows 5, 42, 79, …
        QString text = w.kernelEditor()->text();
        text.replace(QStringLiteral("dest[i] = a[i] * b[i];"),
                     QStringLiteral("dest[i] = i % 37 == 5 ? -1.0f : a[i] * b[i];"));
        w.kernelEditor()->setText(text);
        const auto outcome = runAndWait(w);
        QVERIFY(outcome);
        QVERIFY2(outcome->report.status == session::RunReport::Status::Mismatch,
                 outcome->report.message.c_str());
        w.resultsPanel()->showTab(ResultsPanel::Tab::Diff);
        QApplication::processEvents();
        DiffView* diff = w.resultsPanel()->diffView();
        auto* virtualTable = diff->findChild<VirtualTableView*>();
        QTableView* table = virtualTable->table();
        const int rowHeight = table->verticalHeader()->defaultSectionSize();
        // The part of the table's cells on screen (the dock may scroll the panel).
        const auto shownRect = [&]() { return table->viewport()->visibleRegion().boundingRect(); };
        QVERIFY2(shownRect().height() >= 8 * rowHeight,
                 qPrintable(QStringLiteral("%1 px shown, rows of %2 px; table %3 px")
                                .arg(shownRect().height())
                                .arg(rowHeight)
                                .arg(table->height())));
        std::int64_t previous = virtualTable->currentRow(); // the run may show the first
        for (int step = 0; step < 8; ++step) {
            w.goToNext(false); // F8
            QApplication::processEvents();
            const std::int64_t row = virtualTable->currentRow();
            QCOMPARE(row, previous < 5 ? std::int64_t{5} : ((previous - 5) / 37 + 1) * 37 + 5);
            previous = row;
            const QRect cell = table->visualRect(table->currentIndex());
            QVERIFY2(shownRect().contains(cell),
                     qPrintable(QStringLiteral("step %1: row %2 at y %3, shown %4..%5")
                                    .arg(step)
                                    .arg(row)
                                    .arg(cell.y())
                                    .arg(shownRect().top())
                                    .arg(shownRect().bottom())));
            QCOMPARE(diff->errorHeatmap()->highlight(), row);
            // Row labels: inside the table's own rectangle, never over what lies below it.
            QHeaderView* labels = table->verticalHeader();
            const QRect labelsInWindow(labels->mapTo(&w, QPoint(0, 0)), labels->size());
            const QRect tableInWindow(table->mapTo(&w, QPoint(0, 0)), table->size());
            QVERIFY(tableInWindow.contains(labelsInWindow));
            const QRect shownLabels = labels->viewport()->visibleRegion().boundingRect().translated(
                labels->viewport()->mapTo(&w, QPoint(0, 0)));
            for (QTabBar* bar : w.findChildren<QTabBar*>()) {
                if (!bar->isVisible() || bar->isAncestorOf(table)) continue;
                const QRect barInWindow(bar->mapTo(&w, QPoint(0, 0)), bar->size());
                QVERIFY2(!shownLabels.intersects(barInWindow),
                         qPrintable(QStringLiteral("labels %1,%2 %3×%4 over a tab bar at %5,%6")
                                        .arg(shownLabels.x())
                                        .arg(shownLabels.y())
                                        .arg(shownLabels.width())
                                        .arg(shownLabels.height())
                                        .arg(barInWindow.x())
                                        .arg(barInWindow.y())));
            }
        }
        screenshot(w, QStringLiteral("mismatch-navigation-1280x720"));
        w.document()->setModified(false);
    }

    /// Presentation Mode after a run, on the 1280×720 screen: ≥ 20 editor lines at the large
    /// font, the diff table and its labels at the large font, whole statistics, never-written
    /// rows visible on the black background, and readable charts.
    void presentationModeOnA720pProjector()
    {
        if (!m_hasHostCompiler)
            QSKIP("no host C++ compiler: the CPU backend cannot build kernels here");
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(w.openProject(example("hello_gpu")));
        selectBackend(w, "cpu");
        // Leave the last 10 elements unwritten: a FAIL only because of them.
        QString text = w.kernelEditor()->text();
        text.replace(QStringLiteral("dest[i] = a[i] * b[i];"),
                     QStringLiteral("if (i < 390) dest[i] = a[i] * b[i];"));
        w.kernelEditor()->setText(text);
        const auto outcome = runAndWait(w);
        QVERIFY(outcome);
        QVERIFY2(outcome->report.status == session::RunReport::Status::Mismatch,
                 outcome->report.message.c_str());
        DiffView* diff = w.resultsPanel()->diffView();
        QCOMPARE(diff->badgeText(), QStringLiteral("FAIL"));
        // The FAIL says why, before statistics that are all 0 for the written elements.
        QVERIFY2(diff->statsText().startsWith(QStringLiteral(
                     "FAIL only because 10 of 400 elements of 'dest' were never written")),
                 qPrintable(diff->statsText()));
        QVERIFY(!diff->statsText().contains(QStringLiteral("max abs")));
        QVERIFY(diff->statsText(true).contains(QStringLiteral("mismatches 10/400")));
        screenshot(w, QStringLiteral("never-written-fail"));

        presentationAction(w)->setChecked(true);
        checkOnScreen(w, "Presentation Mode after a run");
        const int large = QFontInfo(w.font()).pixelSize();
        QVERIFY(QFontInfo(w.font()).pointSize() >= PresentationMode::kPointSize);

        // The editor: at least the window's large font, at least 20 lines on screen.
        KernelEditor* editor = w.kernelEditor();
        const long textHeight = editor->SendScintilla(QsciScintillaBase::SCI_TEXTHEIGHT, 0UL, 0L);
        const long lines = editor->SendScintilla(QsciScintillaBase::SCI_LINESONSCREEN);
        qInfo("Presentation Mode at 1280×720: editor %ld lines of %ld px (window font %d px), "
              "window %d×%d",
              lines, textHeight, large, w.width(), w.height());
        QVERIFY2(textHeight >= large, qPrintable(QString::number(textHeight)));
        QVERIFY2(lines >= 20, qPrintable(QString::number(lines)));

        // The results are in view, the diff table and its header at the large font.
        w.resultsPanel()->showTab(ResultsPanel::Tab::Diff);
        QApplication::processEvents();
        QVERIFY(!w.resultsPanel()->visibleRegion().isEmpty());
        auto* table = diff->findChild<VirtualTableView*>()->table();
        QVERIFY(QFontInfo(table->font()).pixelSize() >= large);
        QVERIFY(QFontInfo(table->horizontalHeader()->font()).pixelSize() >= large);
        QVERIFY(table->verticalHeader()->defaultSectionSize() >=
                QFontMetrics(table->font()).height());
        // At least 8 rows in view under the FAIL's reason (said in a line), once laid out (a
        // window manager resizes the window a moment later).
        QTRY_VERIFY2_WITH_TIMEOUT(
            table->viewport()->visibleRegion().boundingRect().height() >=
                8 * table->verticalHeader()->defaultSectionSize(),
            qPrintable(QString::number(table->viewport()->visibleRegion().boundingRect().height())),
            3000);
        // The statistics label shows its whole text (wrapped, not cut).
        QLabel* stats = nullptr;
        for (QLabel* l : diff->findChildren<QLabel*>())
            if (l->text() == diff->statsText()) stats = l;
        QVERIFY(stats);
        QVERIFY(!stats->visibleRegion().isEmpty());
        QVERIFY2(stats->height() >= stats->heightForWidth(stats->width()),
                 qPrintable(QStringLiteral("%1 < %2")
                                .arg(stats->height())
                                .arg(stats->heightForWidth(stats->width()))));
        // Never-written rows: their colour stands out on the black background, their text on it.
        QCOMPARE(w.palette().color(QPalette::Base), QColor(0, 0, 0));
        auto* model = table->model();
        diff->goToMismatch(false);
        QApplication::processEvents();
        bool sawUnwritten = false;
        for (int row = 0; row < model->rowCount(); ++row) {
            const QModelIndex i = model->index(row, 0);
            if (!i.data(Qt::ToolTipRole).toString().contains(QStringLiteral("never written")))
                continue;
            sawUnwritten = true;
            const QColor bg = i.data(Qt::BackgroundRole).value<QBrush>().color();
            const QColor fg = i.data(Qt::ForegroundRole).value<QBrush>().color();
            QCOMPARE(bg.alpha(), 255);
            QVERIFY2(contrast(bg, w.palette().color(QPalette::Base)) >= 3.0, qPrintable(bg.name()));
            QVERIFY2(contrast(fg, bg) >= 4.5, qPrintable(fg.name() + bg.name()));
        }
        QVERIFY(sawUnwritten);
        // The results panel fits its column: nothing of it is cut at the right.
        auto* resultsScroll = qobject_cast<QAbstractScrollArea*>(
            w.findChild<QDockWidget*>(QStringLiteral("resultsDock"))->widget());
        QVERIFY2(!resultsScroll->horizontalScrollBar()->isVisible(),
                 qPrintable(wideWidgets(w.resultsPanel(), resultsScroll->viewport()->width())));
        // The panels' tab names are whole (they scroll when they do not fit).
        for (QTabBar* bar : w.findChildren<QTabBar*>(QString(), Qt::FindDirectChildrenOnly)) {
            if (!bar->isVisible()) continue;
            QCOMPARE(bar->elideMode(), Qt::ElideNone);
        }
        screenshot(w, QStringLiteral("presentation-never-written"));

        presentationAction(w)->setChecked(false);
        checkOnScreen(w, "after Presentation Mode");
        w.document()->setModified(false);
    }

    /// matmul_tiled on the CPU emulator filling each screen (1280×720, 1280×800), normal and in
    /// Presentation Mode: PASS, everything on the screen. With
    /// $WARPBENCH_SCREENSHOT_DIR these are the screenshots in docs/screenshots.
    void anExampleOnEachScreen()
    {
        if (!m_hasHostCompiler)
            QSKIP("no host C++ compiler: the CPU backend cannot build kernels here");
        for (QScreen* screen : QGuiApplication::screens()) {
            const QSize size = screen->availableGeometry().size();
            const QString suffix = QStringLiteral("%1x%2").arg(size.width()).arg(size.height());
            MainWindow w;
            w.setScreen(screen);
            w.move(screen->availableGeometry().topLeft());
            w.resize(size);
            w.show();
            QVERIFY(QTest::qWaitForWindowExposed(&w));
            QCOMPARE(w.size(), size);
            QVERIFY(w.openProject(example("matmul_tiled")));
            selectBackend(w, "cpu");
            const auto outcome = runAndWait(w);
            QVERIFY(outcome);
            QVERIFY2(outcome->report.status == session::RunReport::Status::Passed,
                     outcome->report.message.c_str());
            w.resultsPanel()->showTab(ResultsPanel::Tab::Summary);
            QTest::qWait(300); // the charts lay out once shown
            checkOnScreen(w, "matmul_tiled");
            screenshot(w, QStringLiteral("window-") + suffix);
            presentationAction(w)->setChecked(true);
            QTest::qWait(100);
            checkOnScreen(w, "matmul_tiled presenting");
            QVERIFY(w.kernelEditor()->SendScintilla(QsciScintillaBase::SCI_LINESONSCREEN) >= 20);
            QVERIFY(!w.resultsPanel()->visibleRegion().isEmpty());
            screenshot(w, QStringLiteral("presentation-") + suffix);
            presentationAction(w)->setChecked(false);
            QTest::qWait(50);
            QCOMPARE(w.size(), size);
            w.document()->setModified(false);
        }
    }

    /// Issue 29 item 3: leaving Presentation Mode gives back exactly the geometry from before
    /// it, and what a session remembers (closed after or during it) is that geometry, never the
    /// projector layout.
    void presentationModeRestoresTheGeometry()
    {
        for (const bool closeWhilePresenting : {false, true}) {
            QSettings().clear();
            QRect before;
            QByteArray stateBefore;
            {
                MainWindow w;
                w.show();
                QVERIFY(QTest::qWaitForWindowExposed(&w));
                QTest::qWait(300); // the first start's fitting and dock sizes
                w.setGeometry(QRect(QPoint(37, 41), w.size() - QSize(120, 90)));
                QTest::qWait(50);
                before = w.geometry();
                stateBefore = w.saveState();
                presentationAction(w)->setChecked(true);
                QTest::qWait(50);
                QVERIFY(w.saveState() != stateBefore);
                if (!closeWhilePresenting) {
                    presentationAction(w)->setChecked(false);
                    QTest::qWait(50);
                    QCOMPARE(w.geometry(), before);
                    QCOMPARE(w.saveState(), stateBefore);
                }
                w.close(); // saves the layout
            }
            MainWindow again;
            again.show();
            QVERIFY(QTest::qWaitForWindowExposed(&again));
            QTest::qWait(300);
            QVERIFY(!PresentationMode::isActive(&again));
            QCOMPARE(again.geometry(), before);
            QCOMPARE(again.saveState(), stateBefore);
        }
    }

    /// Issue 29 item 4: reduction in Presentation Mode at 1280×720 cuts no line of code (the
    /// editor has its widest line's width, or wraps with a visible arrow at each wrap), and
    /// leaving it gives back every panel as it was: the docks, the Guide's font, the wrapping.
    void presentationModeCutsNoCode()
    {
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QTest::qWait(300);
        QVERIFY(w.openProject(example("reduction")));
        if (m_hasHostCompiler) {
            selectBackend(w, "cpu");
            const auto outcome = runAndWait(w);
            QVERIFY(outcome);
            QVERIFY2(outcome->report.status == session::RunReport::Status::Passed,
                     outcome->report.message.c_str());
        }
        QTest::qWait(100);
        auto* guide = w.findChild<GuidePanel*>();
        QVERIFY(guide);
        QVERIFY(guide->hasGuide());
        const QFont guideFont = guide->font();
        const QFont guideDocumentFont = guide->document()->defaultFont();
        const QString guideHtml = guide->document()->toHtml(); // code blocks' fonts too
        KernelEditor* editor = w.kernelEditor();
        const auto wrapBefore = editor->wrapMode();
        const QByteArray stateBefore = w.saveState();
        const QRect geometryBefore = w.geometry();

        presentationAction(w)->setChecked(true);
        QTest::qWait(100);
        checkOnScreen(w, "reduction presenting");
        QVERIFY(editor->isVisible());
        // The widest line at the editor's presentation font, measured here line by line.
        editor->SendScintilla(QsciScintillaBase::SCI_COLOURISE, 0UL, -1L);
        long widest = 0;
        QString widestLine;
        for (int line = 0; line < editor->lines(); ++line) {
            QString t = editor->text(line).trimmed().isEmpty() ? QString() : editor->text(line);
            while (t.endsWith(u'\n') || t.endsWith(u'\r'))
                t.chop(1);
            t.replace(u'\t', QString(editor->tabWidth(), u' '));
            const long pos = editor->positionFromLineIndex(line, 0);
            const long style = editor->SendScintilla(QsciScintillaBase::SCI_GETSTYLEAT,
                                                     static_cast<unsigned long>(pos));
            const long width =
                editor->SendScintilla(QsciScintillaBase::SCI_TEXTWIDTH,
                                      static_cast<unsigned long>(style), t.toUtf8().constData());
            if (width > widest) {
                widest = width;
                widestLine = t;
            }
        }
        long margins = editor->SendScintilla(QsciScintillaBase::SCI_GETMARGINLEFT) +
                       editor->SendScintilla(QsciScintillaBase::SCI_GETMARGINRIGHT);
        for (unsigned long m = 0; m < 5; ++m)
            margins += editor->SendScintilla(QsciScintillaBase::SCI_GETMARGINWIDTHN, m);
        const long textArea = editor->viewport()->width() - margins;
        const bool wraps = editor->wrapMode() != QsciScintilla::WrapNone;
        const long flags = editor->SendScintilla(QsciScintillaBase::SCI_GETWRAPVISUALFLAGS);
        qInfo("reduction presenting: widest line %ld px (%lld chars), text area %ld px, wraps %d, "
              "panel column %d px",
              widest, static_cast<long long>(widestLine.size()), textArea, int(wraps),
              w.width() - editor->width());
        QVERIFY2(
            textArea >= widest || (wraps && flags != 0),
            qPrintable(
                QStringLiteral("'%1': %2 px in %3 px").arg(widestLine).arg(widest).arg(textArea)));
        // Still at least 20 lines and the panels' column still there.
        QVERIFY(editor->SendScintilla(QsciScintillaBase::SCI_LINESONSCREEN) >= 20);
        QVERIFY(w.width() - editor->width() >=
                w.width() * PresentationMode::kMinPanelColumnPercent / 100);
        if (m_hasHostCompiler) {
            // The diff table's headers and values whole at the large font: no "eference",
            // no "122.1…" (the table scrolls sideways instead).
            w.resultsPanel()->showTab(ResultsPanel::Tab::Diff);
            QTest::qWait(100);
            // The diff's own tabs whole, none scrolled out of view.
            auto* diffTabs = w.resultsPanel()->diffView()->findChild<QTabWidget*>();
            QVERIFY(diffTabs);
            const QTabBar* diffBar = diffTabs->tabBar();
            QVERIFY2(diffBar->sizeHint().width() <= diffTabs->width(),
                     qPrintable(QStringLiteral("tabs %1 px in %2 px")
                                    .arg(diffBar->sizeHint().width())
                                    .arg(diffTabs->width())));
            auto* table = w.resultsPanel()->diffView()->findChild<VirtualTableView*>()->table();
            auto* model = table->model();
            QVERIFY(model->rowCount() > 0);
            const QFontMetrics cells(table->font());
            const QFontMetrics heads(table->horizontalHeader()->font());
            for (int col = 0; col < model->columnCount(); ++col) {
                const int width = table->horizontalHeader()->sectionSize(col);
                const QString head = model->headerData(col, Qt::Horizontal).toString();
                QVERIFY2(heads.horizontalAdvance(head) < width,
                         qPrintable(QStringLiteral("header '%1' in %2 px").arg(head).arg(width)));
                for (int row = 0; row < model->rowCount(); ++row) {
                    const QString value = model->index(row, col).data().toString();
                    QVERIFY2(cells.horizontalAdvance(value) < width,
                             qPrintable(QStringLiteral("'%1' in %2 px").arg(value).arg(width)));
                }
            }
        }
        // (The screenshots of reduction presenting: presentationModeShowsEveryLabelWhole.)
        w.findChild<QDockWidget*>(QStringLiteral("guideDock"))->raise();
        QTest::qWait(100);
        // The Guide's code at the zoomed size of its prose, not the system's small fixed font.
        {
            const QFont base = guide->document()->defaultFont();
            int code = 0;
            for (QTextBlock b = guide->document()->begin(); b.isValid(); b = b.next())
                for (auto it = b.begin(); !it.atEnd(); ++it) {
                    const QTextCharFormat f = it.fragment().charFormat();
                    if (!f.fontFixedPitch() && f.fontFamilies().toStringList().isEmpty()) continue;
                    ++code;
                    const double size = f.font().resolve(base).pointSizeF();
                    QVERIFY2(size >= base.pointSizeF(),
                             qPrintable(QStringLiteral("'%1' at %2 pt, prose at %3 pt")
                                            .arg(it.fragment().text())
                                            .arg(size)
                                            .arg(base.pointSizeF())));
                }
            QVERIFY(code > 0);
        }

        presentationAction(w)->setChecked(false);
        QTest::qWait(100);
        QCOMPARE(w.saveState(), stateBefore);
        QCOMPARE(w.geometry(), geometryBefore);
        QCOMPARE(guide->font(), guideFont);
        QCOMPARE(guide->document()->defaultFont(), guideDocumentFont);
        QCOMPARE(guide->document()->toHtml(), guideHtml);
        QCOMPARE(editor->wrapMode(), wrapBefore);
        // The zoom's wider horizontal range is not kept: no scroll bar for short lines.
        QTest::qWait(100);
        QVERIFY(editor->SendScintilla(QsciScintillaBase::SCI_GETSCROLLWIDTH) <=
                editor->widthForLongestLine());
        checkOnScreen(w, "after presenting reduction");
        w.document()->setModified(false);
    }

    /// Issue 29 item 4 at 1280×720, reduction (a PASS) and transposed_index (a FAIL) in
    /// Presentation Mode: every label, combo box, button and tab bar shown is whole — the
    /// diff's output chooser, the column's tabs (no tab cut at an edge), each panel brought up
    /// in turn —, the diff table shows at least 8 rows, the Guide's headings are at most 1.25×
    /// its prose; leaving it gives back every widget's font, size, visibility and scroll bars.
    void presentationModeShowsEveryLabelWhole()
    {
        QVERIFY2(m_hasHostCompiler, "no host C++ compiler: the CPU emulator cannot run reduction");
        const QString transposed = QString::fromStdString(
            (dataDir() / "examples" / "bugs" / "transposed_index" / "transposed_index.wbproj")
                .string());
        for (const QString& project : {example("reduction"), transposed}) {
            const bool fails = project == transposed;
            MainWindow w;
            w.show();
            QVERIFY(QTest::qWaitForWindowExposed(&w));
            QTest::qWait(300);
            QVERIFY(w.openProject(project));
            selectBackend(w, "cpu");
            const auto outcome = runAndWait(w);
            QVERIFY(outcome);
            QCOMPARE(outcome->report.status, fails ? session::RunReport::Status::Mismatch
                                                   : session::RunReport::Status::Passed);
            w.resultsPanel()->showTab(ResultsPanel::Tab::Diff);
            QTest::qWait(100);
            const QStringList before = widgetStates(w);
            const QRect geometryBefore = w.geometry();

            presentationAction(w)->setChecked(true);
            QTest::qWait(200);
            checkOnScreen(w, "presenting");
            const QString name = QFileInfo(project).baseName();
            screenshot(w, QStringLiteral("presentation-%1-1280x720").arg(name));
            QStringList cut = cutTexts(&w);
            QVERIFY2(cut.isEmpty(), qPrintable(name + u'\n' + cut.join(u'\n')));
            // The diff table: at least 8 rows of the large font in view.
            QTableView* table =
                w.resultsPanel()->diffView()->findChild<VirtualTableView*>()->table();
            const int rowHeight = table->verticalHeader()->defaultSectionSize();
            const auto shown = [table]() {
                return table->viewport()->visibleRegion().boundingRect().height();
            };
            QTRY_VERIFY2_WITH_TIMEOUT(
                shown() >= 8 * rowHeight,
                qPrintable(QStringLiteral("%1: %2 px of rows of %3 px in view")
                               .arg(name)
                               .arg(shown())
                               .arg(rowHeight)),
                3000);
            QVERIFY(QFontInfo(table->font()).pointSize() >= PresentationMode::kPointSize);
            // The Summary's charts: titles and labels whole (no "…").
            w.resultsPanel()->showTab(ResultsPanel::Tab::Summary);
            TimingCharts* charts = w.resultsPanel()->timingCharts();
            for (QChartView* view : {charts->histogramView(), charts->stagesView()})
                QTRY_VERIFY2_WITH_TIMEOUT(
                    elidedLabels(chartTexts(view)).isEmpty(),
                    qPrintable(chartTexts(view).join(QStringLiteral(" | ")) +
                               QStringLiteral(" in %1×%2").arg(view->width()).arg(view->height())),
                    5000);
            cut = cutTexts(&w);
            QVERIFY2(cut.isEmpty(), qPrintable(name + u'\n' + cut.join(u'\n')));
            if (!fails) screenshot(w, QStringLiteral("presentation-reduction-summary-1280x720"));
            w.resultsPanel()->showTab(ResultsPanel::Tab::Diff);
            // Each panel of the column brought up in turn: whole too.
            for (QDockWidget* d : w.findChildren<QDockWidget*>()) {
                if (d->isHidden() || d->isFloating()) continue;
                d->raise();
                QTest::qWait(50);
                cut = cutTexts(&w);
                QVERIFY2(cut.isEmpty(),
                         qPrintable(name + u' ' + d->objectName() + u'\n' + cut.join(u'\n')));
            }
            if (!fails) {
                w.findChild<QDockWidget*>(QStringLiteral("guideDock"))->raise();
                QTest::qWait(50);
                screenshot(w, QStringLiteral("presentation-reduction-guide-1280x720"));
            }
            // Each panel put away (its name did not fit) brought up from the View menu in turn:
            // a tab of the column, on top, every tab and every label still whole.
            QList<QDockWidget*> away;
            for (QDockWidget* d : w.findChildren<QDockWidget*>())
                if (d->isHidden()) away << d;
            QVERIFY2(!away.isEmpty(), "every panel kept a tab: nothing was put away at 1280×720");
            for (QDockWidget* d : away) {
                d->toggleViewAction()->trigger();
                QTest::qWait(50);
                // On top: its bar's current tab (a dock without a title bar that an opaque panel
                // fills has an empty visible region of its own).
                bool onTop = false;
                for (QTabBar* bar : w.findChildren<QTabBar*>(QString(), Qt::FindDirectChildrenOnly))
                    if (bar->isVisible() && bar->count() > 0 &&
                        bar->tabText(bar->currentIndex()) == d->windowTitle())
                        onTop = true;
                QVERIFY2(d->isVisible() && onTop, qPrintable(d->objectName()));
                QCOMPARE(w.dockWidgetArea(d), Qt::RightDockWidgetArea);
                cut = cutTexts(&w);
                QVERIFY2(cut.isEmpty(),
                         qPrintable(name + u' ' + d->objectName() + u'\n' + cut.join(u'\n')));
            }
            // The Guide: headings a little larger than its prose, never a screenful.
            auto* guideDock = w.findChild<QDockWidget*>(QStringLiteral("guideDock"));
            QVERIFY(guideDock);
            if (guideDock->isHidden()) guideDock->toggleViewAction()->trigger();
            guideDock->raise();
            QTest::qWait(50);
            auto* guide = w.findChild<GuidePanel*>();
            const QFont prose = guide->document()->defaultFont();
            int headings = 0;
            for (QTextBlock b = guide->document()->begin(); b.isValid(); b = b.next()) {
                if (b.blockFormat().headingLevel() == 0) continue;
                ++headings;
                for (auto it = b.begin(); !it.atEnd(); ++it) {
                    const double size =
                        it.fragment().charFormat().font().resolve(prose).pointSizeF();
                    QVERIFY2(size <= prose.pointSizeF() * 1.25,
                             qPrintable(QStringLiteral("heading '%1' at %2 pt, prose at %3 pt")
                                            .arg(it.fragment().text())
                                            .arg(size)
                                            .arg(prose.pointSizeF())));
                }
            }
            QVERIFY(headings > 0);
            QVERIFY2(prose.pointSizeF() <= PresentationMode::kPointSize + 2,
                     qPrintable(QString::number(prose.pointSizeF())));
            w.resultsPanel()->showTab(ResultsPanel::Tab::Diff);
            w.findChild<QDockWidget*>(QStringLiteral("resultsDock"))->raise();

            presentationAction(w)->setChecked(false);
            QTRY_COMPARE(w.geometry(), geometryBefore);
            QTest::qWait(200);
            const QStringList after = widgetStates(w);
            // (In no particular order: the window's pool of dock tab bars.)
            QStringList sortedBefore = before, sortedAfter = after;
            sortedBefore.sort();
            sortedAfter.sort();
            if (sortedAfter != sortedBefore)
                qWarning("%s: changed by Presentation Mode:\n%s", qPrintable(name),
                         qPrintable(changedLines(before, after)));
            QVERIFY2(sortedAfter == sortedBefore,
                     "widgets changed by Presentation Mode (see above)");
            w.document()->setModified(false);
        }
    }

    /// Issue 29 item 3: the place of the window is its own, never one a Presentation Mode or an
    /// earlier start left. Moved, View → Reset Layout puts it back where the first start put it
    /// (its frame at the available geometry's top left on a 720-line screen); a restart opens
    /// exactly where the last session closed, again and again (no drift by a title bar's height).
    void resetAndRestartKeepNoMovedPosition()
    {
        QRect first;
        QRect frameFirst;
        {
            MainWindow w;
            w.show();
            QVERIFY(QTest::qWaitForWindowExposed(&w));
            QTest::qWait(400);
            first = w.geometry();
            frameFirst = w.frameGeometry();
            const QRect room = w.screen()->availableGeometry();
            QVERIFY(room.contains(frameFirst));
            if (m_wm)
                QVERIFY2(frameFirst.height() > first.height(), "no title bar: no window manager?");
            presentationAction(w)->setChecked(true);
            QTest::qWait(100);
            presentationAction(w)->setChecked(false);
            QTRY_COMPARE(w.geometry(), first);
            // Moved (half off the screen), then Reset Layout: the first start's place.
            w.move(room.topLeft() + QPoint(160, 120));
            QTRY_VERIFY(w.frameGeometry().topLeft() == room.topLeft() + QPoint(160, 120));
            w.findChild<QAction*>(QStringLiteral("resetLayoutAction"))->trigger();
            QTRY_COMPARE(w.geometry(), first);
            QVERIFY(room.contains(w.frameGeometry()));
            w.close();
        }
        for (int start = 0; start < 2; ++start) {
            MainWindow again;
            again.show();
            QVERIFY(QTest::qWaitForWindowExposed(&again));
            QTest::qWait(400);
            QCOMPARE(again.geometry(), first);
            QCOMPARE(again.frameGeometry(), frameFirst);
            again.close();
        }
    }

    /// A long status message (Create Buffers from Signature's summary) at 1280×720 ends with
    /// "…" before the labels at the right instead of running into them; whole on hover.
    void longStatusMessageEndsBeforeTheLabels()
    {
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QTest::qWait(400);
        w.newProject();
        w.kernelEditor()->setText(QStringLiteral(
            "__global__ void saxpy_of_a_student(int n, float alpha_scale_factor,\n"
            "    const float* input_values_of_x, float* output_values_of_y)\n{\n"
            "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
            "    if (i < n) output_values_of_y[i] = alpha_scale_factor * input_values_of_x[i] + "
            "output_values_of_y[i];\n}\n"));
        QSignalSpy created(&w, &MainWindow::buffersCreatedFromSignature);
        w.findChild<QAction*>(QStringLiteral("createFromSignatureAction"))->trigger();
        QTRY_COMPARE_WITH_TIMEOUT(created.count(), 1, 60000);
        QStatusBar* bar = w.statusBar();
        const auto labelsAt = [bar]() {
            int right = bar->width();
            for (QWidget* c : bar->findChildren<QWidget*>(QString(), Qt::FindDirectChildrenOnly))
                if (c->isVisible() && c->x() > bar->width() / 2) right = std::min(right, c->x());
            return right;
        };
        // (Once the compile state beside it settles: the message follows its labels.)
        QTRY_VERIFY_WITH_TIMEOUT(
            bar->fontMetrics().horizontalAdvance(bar->currentMessage()) < labelsAt(), 5000);
        QTest::qWait(200);
        const QString shown = bar->currentMessage();
        const int right = labelsAt();
        QVERIFY(!shown.isEmpty());
        QVERIFY2(bar->fontMetrics().horizontalAdvance(shown) < right,
                 qPrintable(QStringLiteral("'%1': %2 px, the labels at %3 px")
                                .arg(shown)
                                .arg(bar->fontMetrics().horizontalAdvance(shown))
                                .arg(right)));
        QVERIFY2(shown.endsWith(QChar(0x2026)), qPrintable(shown));
        QVERIFY2(bar->toolTip().contains(QStringLiteral("reference.cpp")),
                 qPrintable(bar->toolTip()));
        w.document()->setModified(false);
    }

    /// The crash verdict offers Run with Bounds Checking, and the link runs it.
    void aCrashOffersRunWithBoundsChecking()
    {
        if (!m_hasHostCompiler)
            QSKIP("no host C++ compiler: the CPU backend cannot build kernels here");
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(w.openProject(example("hello_gpu")));
        selectBackend(w, "cpu");
        QString bad = w.kernelEditor()->text();
        bad.replace(QStringLiteral("dest[i] = a[i] * b[i];"),
                    QStringLiteral("dest[i + (1ull << 40)] = a[i] * b[i];"));
        w.kernelEditor()->setText(bad);
        auto outcome = runAndWait(w);
        QVERIFY(outcome);
        QCOMPARE(outcome->report.status, session::RunReport::Status::RuntimeError);
        QVERIFY(outcome->offersBoundsCheck);
        auto* verdict = w.resultsPanel()->findChild<QLabel*>(QStringLiteral("verdict"));
        QVERIFY2(verdict->text().contains(QStringLiteral("href=\"wb:bounds-check\"")),
                 qPrintable(verdict->text()));
        QVERIFY(verdict->textInteractionFlags() & Qt::LinksAccessibleByMouse);
        checkOnScreen(w, "after a crash");
        // Clicking the link runs the session bounds-checked; the fault lands in Problems.
        QSignalSpy finished(w.runController(), &RunController::runFinished);
        Q_EMIT verdict->linkActivated(QStringLiteral("wb:bounds-check"));
        QVERIFY(finished.wait(300000));
        outcome = w.runController()->lastOutcome();
        QVERIFY(outcome->boundsChecked);
        QVERIFY2(!outcome->report.memoryFindings.empty(), outcome->report.message.c_str());
        QVERIFY(!outcome->offersBoundsCheck);
        QVERIFY(!w.resultsPanel()->verdictText().contains(QStringLiteral("wb:bounds-check")));
        w.document()->setModified(false);
    }

    /// View → Reset Layout after moving, floating, hiding and presenting gives exactly the
    /// first start's layout, and that is what the next start restores.
    void resetLayoutIsTheFirstStartLayout()
    {
        QStringList first;
        {
            MainWindow w;
            w.show();
            QVERIFY(QTest::qWaitForWindowExposed(&w));
            // The first start sizes its docks once laid out (again when a window manager's
            // frame made it smaller, 250 ms after the first show).
            QTest::qWait(400);
            first = dockLayout(w);
            checkOnScreen(w, "first start");

            auto* launch = w.findChild<QDockWidget*>(QStringLiteral("launchDock"));
            auto* buffers = w.findChild<QDockWidget*>(QStringLiteral("buffersDock"));
            auto* results = w.findChild<QDockWidget*>(QStringLiteral("resultsDock"));
            auto* history = w.findChild<QDockWidget*>(QStringLiteral("historyDock"));
            launch->setFloating(true);
            w.addDockWidget(Qt::LeftDockWidgetArea, buffers);
            results->hide();
            history->raise();
            w.resizeDocks({buffers}, {500}, Qt::Horizontal);
            presentationAction(w)->setChecked(true);
            QTest::qWait(50);
            w.resize(900, 600);
            QTest::qWait(50);
            QVERIFY(dockLayout(w) != first);

            w.findChild<QAction*>(QStringLiteral("resetLayoutAction"))->trigger();
            QVERIFY(!PresentationMode::isActive(&w));
            QTRY_COMPARE(dockLayout(w), first);
            checkOnScreen(w, "after Reset Layout");
            w.close(); // saves the layout
        }
        MainWindow again;
        again.show();
        QVERIFY(QTest::qWaitForWindowExposed(&again));
        QTest::qWait(400);
        QCOMPARE(dockLayout(again), first);
    }

    /// The Summary's iteration histogram and the History chart at their default size: axis
    /// labels whole, times in one unit named on the axis, bandwidth never "0.0 GB/s".
    void chartsAreReadableAtTheDefaultSize()
    {
        if (!m_hasHostCompiler)
            QSKIP("no host C++ compiler: the CPU backend cannot build kernels here");
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(w.openProject(example("saxpy")));
        selectBackend(w, "cpu");
        auto outcome = runAndWait(w);
        QVERIFY(outcome);
        QVERIFY2(outcome->report.status == session::RunReport::Status::Passed,
                 outcome->report.message.c_str());
        outcome = runAndWait(w); // two runs: the history draws a line
        QVERIFY(outcome);
        w.resultsPanel()->showTab(ResultsPanel::Tab::Summary);
        QApplication::processEvents();
        QTest::qWait(100);
        TimingCharts* charts = w.resultsPanel()->timingCharts();
        QVERIFY(!charts->visibleRegion().isEmpty());
        for (QChartView* view : {charts->histogramView(), charts->stagesView()}) {
            // (Qt Charts lays a chart out after it is shown and resized: its settled state.)
            QTRY_VERIFY2_WITH_TIMEOUT(
                elidedLabels(chartTexts(view)).isEmpty(),
                qPrintable(chartTexts(view).join(QStringLiteral(" | ")) +
                           QStringLiteral(" in %1×%2").arg(view->width()).arg(view->height())),
                5000);
            const QStringList texts = chartTexts(view);
            // Numbers on the axis, the unit once in its title.
            const bool unitTitle = std::any_of(texts.begin(), texts.end(), [](const QString& t) {
                for (const char* unit : {"ns", "µs", "ms"})
                    if (t.endsWith(QStringLiteral("(%1)").arg(QString::fromUtf8(unit))) ||
                        t.contains(QStringLiteral(", in %1 ").arg(QString::fromUtf8(unit))))
                        return true;
                return false;
            });
            QVERIFY2(unitTitle, qPrintable(texts.join(QStringLiteral(" | "))));
        }
        // Bandwidth in a unit its size needs.
        const QString summary =
            w.resultsPanel()->verdictText() + w.resultsPanel()->throughputText();
        QVERIFY2(!summary.contains(QStringLiteral(" 0.0 GB/s")) &&
                     !summary.contains(QStringLiteral(" 0.00 GB/s")),
                 qPrintable(summary));
        QVERIFY(summary.contains(QStringLiteral("B/s")));

        // The History dock at its default size once two runs are in.
        auto* historyDock = w.findChild<QDockWidget*>(QStringLiteral("historyDock"));
        historyDock->raise();
        auto* history = w.findChild<ProfilingDocks*>()->history();
        QChartView* historyChart = history->findChild<QChartView*>();
        auto drawnPoints = [historyChart]() {
            const auto series = historyChart->chart()->series();
            auto* line = series.isEmpty() ? nullptr : qobject_cast<QXYSeries*>(series.front());
            return line ? line->count() : 0;
        };
        QTRY_VERIFY_WITH_TIMEOUT(drawnPoints() >= 2, 20000);
        QApplication::processEvents();
        QTest::qWait(100);
        screenshot(w, QStringLiteral("history-chart"));
        const QStringList texts = chartTexts(historyChart);
        QVERIFY2(elidedLabels(texts).isEmpty(), qPrintable(elidedLabels(texts)));
        w.document()->setModified(false);
    }

private:
    QTemporaryDir m_autosave;
    bool m_hasHostCompiler = false;
    bool m_desk = false; ///< $WB_TEST_SCREENS: other screens, only for anExampleOnEachScreen
    bool m_wm = false;   ///< $WB_TEST_WINDOW_MANAGER: Xvfb and openbox, the xcb platform
};

WB_QTEST_MAIN(TestWindowLayout)
#include "tst_windowlayout.moc"
