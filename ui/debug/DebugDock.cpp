// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/debug/DebugDock.h"

#include "core/debug/GdbMi.h"
#include "ui/common/SessionDocument.h"
#include "ui/editor/KernelEditor.h"

#include <QAction>
#include <QDockWidget>
#include <QFont>
#include <QHeaderView>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QTabWidget>
#include <QTableWidget>
#include <QToolBar>
#include <QVBoxLayout>

namespace wb::ui {

namespace {

constexpr int kMarginWithMarkers = 1; // KernelEditor's symbol margin
constexpr int kBreakpointMarker = 20;
constexpr int kConditionalMarker = 21;
constexpr int kCurrentLineMarker = 22;
constexpr int kCurrentLineBackground = 23;

QString dim(const Dim3& d)
{
    return QStringLiteral("(%1,%2,%3)").arg(d.x).arg(d.y).arg(d.z);
}

QTableWidget* table(const QStringList& headers)
{
    auto* t = new QTableWidget(0, static_cast<int>(headers.size()));
    t->setHorizontalHeaderLabels(headers);
    t->verticalHeader()->setVisible(false);
    t->setEditTriggers(QAbstractItemView::NoEditTriggers);
    t->horizontalHeader()->setStretchLastSection(true);
    t->verticalHeader()->setDefaultSectionSize(20);
    return t;
}

void setRow(QTableWidget* t, int row, const QStringList& cells)
{
    for (int c = 0; c < cells.size(); ++c)
        t->setItem(row, c, new QTableWidgetItem(cells[c]));
}

QString whereText(debug::ThreadWhere w, int line)
{
    QString s = QString::fromLatin1(debug::threadWhereName(w));
    if (line > 0) s += QStringLiteral(" (line %1)").arg(line);
    return s;
}

} // namespace

DebugDock::DebugDock(QMainWindow* window, Parts parts)
    : QObject(window)
    , m_window(window)
    , m_doc(parts.document)
    , m_editor(parts.editor)
{
    qRegisterMetaType<DebugSnapshot>();
    qRegisterMetaType<session::Session>();
    qRegisterMetaType<std::vector<debug::Breakpoint>>();

    // The panel.
    auto* panel = new QWidget;
    auto* layout = new QVBoxLayout(panel);
    layout->setContentsMargins(4, 4, 4, 4);
    auto* bar = new QToolBar(panel);
    m_debug = new QAction(tr("&Debug on CPU"), this);
    m_debug->setObjectName(QStringLiteral("debugOnCpuAction"));
    m_debug->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_F5));
    m_debug->setToolTip(tr("Run the launch on the CPU emulator under gdb, stopping at the "
                           "breakpoints of the kernel editor's margin"));
    m_continue = new QAction(tr("&Continue"), this);
    m_continue->setShortcut(QKeySequence(Qt::Key_F5));
    m_stepOver = new QAction(tr("Step &Over"), this);
    m_stepOver->setShortcut(QKeySequence(Qt::Key_F10));
    m_stepInto = new QAction(tr("Step &Into"), this);
    m_stepInto->setShortcut(QKeySequence(Qt::Key_F11));
    m_stop = new QAction(tr("S&top Debugging"), this);
    m_stop->setShortcut(QKeySequence(Qt::SHIFT | Qt::Key_F5));
    for (QAction* a : {m_debug, m_continue, m_stepOver, m_stepInto, m_stop}) {
        a->setShortcutContext(Qt::WindowShortcut);
        bar->addAction(a);
        window->addAction(a);
    }
    layout->addWidget(bar);
    m_status = new QLabel(tr("Click the kernel editor's left margin to set a breakpoint "
                             "(right-click: condition), then Run → Debug on CPU."));
    m_status->setWordWrap(true);
    m_status->setObjectName(QStringLiteral("debugStatus"));
    layout->addWidget(m_status);
    m_tabs = new QTabWidget(panel);
    m_locals = table({tr("Name"), tr("Type"), tr("Value")});
    m_shared = table({tr("Array"), tr("Index"), tr("Value")});
    auto* threadsPage = new QWidget;
    auto* tl = new QVBoxLayout(threadsPage);
    tl->setContentsMargins(0, 0, 0, 0);
    m_expression = new QLineEdit(QStringLiteral("threadIdx.x"));
    m_expression->setPlaceholderText(tr("Expression to show in every thread, e.g. sum"));
    tl->addWidget(m_expression);
    m_expressionNote = new QLabel;
    m_expressionNote->setObjectName(QStringLiteral("debugExpressionNote"));
    m_expressionNote->setWordWrap(true);
    m_expressionNote->setTextFormat(Qt::PlainText);
    m_expressionNote->hide();
    tl->addWidget(m_expressionNote);
    m_threads = table({tr("Thread"), tr("Phase now"), tr("Where now"), tr("Value at this line")});
    tl->addWidget(m_threads);
    auto* warpPage = new QWidget;
    auto* wl = new QVBoxLayout(warpPage);
    wl->setContentsMargins(0, 0, 0, 0);
    m_warpLabel = new QLabel;
    m_warpLabel->setWordWrap(true);
    wl->addWidget(m_warpLabel);
    m_warp = table(
        {tr("Lane"), tr("Thread"), tr("At this line"), tr("Where now"), tr("Gave"), tr("Got")});
    wl->addWidget(m_warp);
    // Short names: all four whole at Presentation Mode's 18 pt in a 1280 × 720 projector's
    // panel column; the long ones on hover.
    m_tabs->addTab(m_locals, tr("Locals"));
    m_tabs->setTabToolTip(m_tabs->addTab(m_shared, tr("Shared")), tr("Shared memory"));
    m_tabs->setTabToolTip(m_tabs->addTab(threadsPage, tr("Threads")), tr("All threads"));
    m_tabs->addTab(warpPage, tr("Warp"));
    layout->addWidget(m_tabs);

    m_dock = new QDockWidget(tr("Debug"), window);
    m_dock->setObjectName(QStringLiteral("debugDock"));
    m_dock->setWidget(panel);
    window->addDockWidget(Qt::BottomDockWidgetArea, m_dock);
    if (QDockWidget* results = parts.results) {
        window->tabifyDockWidget(results, m_dock);
        results->raise(); // the Results stay in front until a debug session starts
    }

    // Menus: Run → Debug on CPU and the stepping actions.
    if (QMenu* run = parts.run) {
        run->addSeparator();
        for (QAction* a : {m_debug, m_continue, m_stepOver, m_stepInto, m_stop})
            run->addAction(a);
    }

    // The editor's margin: breakpoints and the current line.
    if (m_editor) {
        m_editor->markerDefine(QsciScintilla::Circle, kBreakpointMarker);
        m_editor->setMarkerBackgroundColor(QColor(0xc0392b), kBreakpointMarker);
        m_editor->markerDefine(QsciScintilla::Circle, kConditionalMarker);
        m_editor->setMarkerBackgroundColor(QColor(0xe67e22), kConditionalMarker);
        m_editor->markerDefine(QsciScintilla::RightArrow, kCurrentLineMarker);
        m_editor->setMarkerBackgroundColor(QColor(0xf1c40f), kCurrentLineMarker);
        m_editor->markerDefine(QsciScintilla::Background, kCurrentLineBackground);
        m_editor->setMarkerBackgroundColor(QColor(0xfc, 0xf3, 0xcf), kCurrentLineBackground);
        m_editor->setMarginMarkerMask(kMarginWithMarkers,
                                      m_editor->marginMarkerMask(kMarginWithMarkers) |
                                          (1 << kBreakpointMarker) | (1 << kConditionalMarker) |
                                          (1 << kCurrentLineMarker));
        connect(m_editor, &QsciScintilla::marginClicked, this,
                [this](int margin, int line, Qt::KeyboardModifiers) {
                    if (margin == kMarginWithMarkers) toggleBreakpoint(line + 1);
                });
        connect(m_editor, &QsciScintilla::marginRightClicked, this,
                [this](int margin, int line, Qt::KeyboardModifiers) {
                    if (margin == kMarginWithMarkers) editCondition(line + 1);
                });
    }

    // The worker thread.
    m_worker = new DebugWorker;
    m_worker->moveToThread(&m_thread);
    connect(&m_thread, &QThread::finished, m_worker, &QObject::deleteLater);
    connect(m_worker, &DebugWorker::snapshotReady, this, &DebugDock::show);
    connect(m_worker, &DebugWorker::statusChanged, m_status, &QLabel::setText);
    connect(m_worker, &DebugWorker::expressionRefused, this, [this](const QString& message) {
        setBusy(false);
        showExpressionNote(message, true);
        Q_EMIT snapshotShown();
    });
    m_thread.start();

    connect(m_debug, &QAction::triggered, this, &DebugDock::startDebugging);
    connect(m_continue, &QAction::triggered, this, [this] { post(&DebugWorker::resume); });
    connect(m_stepOver, &QAction::triggered, this, [this] { post(&DebugWorker::stepOver); });
    connect(m_stepInto, &QAction::triggered, this, [this] { post(&DebugWorker::stepInto); });
    connect(m_stop, &QAction::triggered, this, [this] {
        m_worker->interruptFromAnyThread();
        QMetaObject::invokeMethod(m_worker, &DebugWorker::finish, Qt::QueuedConnection);
        m_active = false;
        setCurrentLine(0);
        m_status->setText(tr("Debugging stopped."));
        clearStopState();
        setBusy(false);
    });
    connect(m_expression, &QLineEdit::returnPressed, this, [this] {
        if (!m_active || m_busy) return;
        setBusy(true);
        QMetaObject::invokeMethod(
            m_worker, [w = m_worker, e = m_expression->text()] { w->setExpression(e); },
            Qt::QueuedConnection);
    });
    if (const std::string why = debug::GdbMi::unavailableReason(); !why.empty()) {
        m_debug->setEnabled(false);
        m_debug->setToolTip(QString::fromStdString(why));
        m_status->setText(QString::fromStdString(why));
    }
    setBusy(false);
}

DebugDock::~DebugDock()
{
    m_worker->interruptFromAnyThread();
    QMetaObject::invokeMethod(m_worker, &DebugWorker::finish, Qt::QueuedConnection);
    m_thread.quit();
    m_thread.wait();
}

void DebugDock::toggleBreakpoint(int line)
{
    if (line < 1) return;
    if (m_breakpoints.erase(line) == 0) m_breakpoints[line] = QString();
    refreshMarkers();
}

void DebugDock::setBreakpointCondition(int line, const QString& condition)
{
    if (line < 1) return;
    m_breakpoints[line] = condition.trimmed().simplified();
    refreshMarkers();
}

void DebugDock::editCondition(int line)
{
    QMenu menu;
    QAction* cond = menu.addAction(tr("Breakpoint Condition…"));
    QAction* remove = m_breakpoints.count(line) ? menu.addAction(tr("Remove Breakpoint")) : nullptr;
    QAction* chosen = menu.exec(QCursor::pos());
    if (chosen == remove && remove) {
        toggleBreakpoint(line);
    } else if (chosen == cond) {
        bool ok = false;
        const auto it = m_breakpoints.find(line);
        const QString text = QInputDialog::getText(
            m_window, tr("Breakpoint Condition"),
            tr("Stop at line %1 when (CUDA expression, e.g. blockIdx.x == 2 && threadIdx.x == 17):")
                .arg(line),
            QLineEdit::Normal, it != m_breakpoints.end() ? it->second : QString(), &ok);
        if (ok) setBreakpointCondition(line, text);
    }
}

void DebugDock::refreshMarkers()
{
    if (!m_editor) return;
    m_editor->markerDeleteAll(kBreakpointMarker);
    m_editor->markerDeleteAll(kConditionalMarker);
    for (const auto& [line, cond] : m_breakpoints)
        m_editor->markerAdd(line - 1, cond.isEmpty() ? kBreakpointMarker : kConditionalMarker);
}

void DebugDock::showExpressionNote(const QString& text, bool error)
{
    m_expressionNote->setText(text);
    m_expressionNote->setStyleSheet(error ? QStringLiteral("color: #c0392b;")
                                          : QStringLiteral("color: #777777;"));
    m_expressionNote->setVisible(!text.isEmpty());
}

void DebugDock::setCurrentLine(int line)
{
    m_currentLine = line;
    if (!m_editor) return;
    m_editor->markerDeleteAll(kCurrentLineMarker);
    m_editor->markerDeleteAll(kCurrentLineBackground);
    if (line > 0) {
        m_editor->markerAdd(line - 1, kCurrentLineMarker);
        m_editor->markerAdd(line - 1, kCurrentLineBackground);
        m_editor->goToLine(line);
    }
}

void DebugDock::setBusy(bool busy)
{
    m_busy = busy;
    m_debug->setEnabled(!busy && debug::GdbMi::unavailableReason().empty());
    for (QAction* a : {m_continue, m_stepOver, m_stepInto})
        a->setEnabled(!busy && m_active);
    m_stop->setEnabled(m_active || busy);
}

void DebugDock::startDebugging()
{
    if (m_busy) return;
    if (m_breakpoints.empty()) {
        m_status->setText(tr("Set a breakpoint first: click the kernel editor's left margin."));
        Q_EMIT snapshotShown();
        return;
    }
    // The editor's text, saved or not, is what is debugged (as Run does).
    const session::Session s = m_doc->runnableSession();
    std::vector<debug::Breakpoint> bps;
    for (const auto& [line, cond] : m_breakpoints)
        bps.push_back({line, cond.toStdString()});
    m_active = true;
    m_previousShared.clear();
    setBusy(true);
    m_dock->raise();
    const QString expr = m_expression->text();
    QMetaObject::invokeMethod(
        m_worker, [w = m_worker, s, bps, expr] { w->start(s, bps, expr); }, Qt::QueuedConnection);
}

void DebugDock::post(void (DebugWorker::*slot)())
{
    if (!m_active || m_busy) return;
    setBusy(true);
    m_status->setText(tr("Running…"));
    QMetaObject::invokeMethod(m_worker, slot, Qt::QueuedConnection);
}

void DebugDock::clearStopState()
{
    // Nothing is stopped any more: no thread is "stopped here", no warp is at a line.
    for (QTableWidget* t : {m_locals, m_shared, m_threads, m_warp})
        t->setRowCount(0);
    m_warpLabel->setText(tr("Debugging stopped: the warp shows where its lanes are at the next "
                            "stop."));
}

void DebugDock::show(const DebugSnapshot& s)
{
    m_active = s.running;
    setBusy(false);
    if (!s.error.isEmpty()) {
        m_status->setText(tr("Debugger: %1").arg(s.error));
        if (!s.running) setCurrentLine(0);
        Q_EMIT snapshotShown();
        return;
    }
    const debug::DebugStop& st = s.stop;
    if (!s.running) {
        setCurrentLine(0);
        showExpressionNote(QString(), false);
        m_status->setText(tr("Not stopped: %1").arg(QString::fromStdString(st.message)));
        Q_EMIT snapshotShown();
        return;
    }
    setCurrentLine(st.line);
    QString text = tr("Stopped at line %1 in %2 — block %3, thread %4, barrier phase %5")
                       .arg(st.line)
                       .arg(QString::fromStdString(st.function), dim(st.block), dim(st.thread))
                       .arg(st.phase);
    if (!st.message.empty())
        text += QStringLiteral(" (%1)").arg(QString::fromStdString(st.message));
    m_status->setText(text);

    m_locals->setRowCount(static_cast<int>(s.locals.size()));
    for (int i = 0; i < static_cast<int>(s.locals.size()); ++i) {
        const auto& v = s.locals[static_cast<std::size_t>(i)];
        if (!v.notYetInitialised) {
            setRow(m_locals, i,
                   {QString::fromStdString(v.name), QString::fromStdString(v.type),
                    QString::fromStdString(v.value)});
            continue;
        }
        // Its declaration has not run: what gdb reads is a stale stack slot, not a value.
        setRow(m_locals, i,
               {QString::fromStdString(v.name), QString::fromStdString(v.type),
                tr("not yet initialised (declared at line %1)").arg(v.declLine)});
        for (int c = 0; c < 3; ++c) {
            QTableWidgetItem* item = m_locals->item(i, c);
            item->setForeground(QColor(0x88, 0x88, 0x88));
            QFont f = item->font();
            f.setItalic(true);
            item->setFont(f);
            item->setToolTip(tr("Declared at line %1, which has not run at this stop (line %2): "
                                "its memory holds %3")
                                 .arg(v.declLine)
                                 .arg(st.line)
                                 .arg(QString::fromStdString(v.value)));
        }
    }
    int rows = 0;
    for (const auto& a : s.shared)
        rows += a.elements.empty() ? 1 : static_cast<int>(a.elements.size());
    m_shared->setRowCount(rows);
    int r = 0;
    for (const auto& a : s.shared) {
        const QString name =
            QString::fromStdString(a.name + (a.type.empty() ? "" : " (" + a.type + ")"));
        if (a.elements.empty()) {
            setRow(m_shared, r++, {name, QString(), QString::fromStdString(a.error)});
            continue;
        }
        // What changed since the previous stop is highlighted (a barrier's effect at a glance).
        const auto before = m_previousShared.find(a.name);
        for (std::size_t i = 0; i < a.elements.size(); ++i) {
            setRow(m_shared, r,
                   {i == 0 ? name : QString(), QString::number(i),
                    QString::fromStdString(a.elements[i])});
            if (before != m_previousShared.end() && i < before->second.size() &&
                before->second[i] != a.elements[i]) {
                m_shared->item(r, 2)->setBackground(QColor(0xf9, 0xe7, 0x9f));
                m_shared->item(r, 2)->setToolTip(
                    tr("was %1 at the previous stop")
                        .arg(QString::fromStdString(before->second[i])));
            }
            ++r;
        }
        m_previousShared[a.name] = a.elements;
    }
    m_shared->resizeColumnToContents(0);
    m_threads->setRowCount(static_cast<int>(s.rows.size()));
    m_threads->setHorizontalHeaderItem(
        3, new QTableWidgetItem(
               tr("%1 at line %2, phase %3").arg(s.expression).arg(st.line).arg(st.phase)));
    if (!s.expressionError.isEmpty())
        showExpressionNote(tr("%1 — showing threadIdx.x").arg(s.expressionError), true);
    else if (!s.uninitialised.isEmpty())
        showExpressionNote(tr("Not yet initialised at line %1: %2 (the values are what that "
                              "memory held)")
                               .arg(st.line)
                               .arg(s.uninitialised.join(QStringLiteral(", "))),
                           false);
    else
        showExpressionNote(QString(), false);
    for (int i = 0; i < static_cast<int>(s.rows.size()); ++i) {
        const auto& row = s.rows[static_cast<std::size_t>(i)];
        QString value = row.reachedLine ? QString::fromStdString(row.value)
                                        : tr("— not at this line in this phase");
        if (row.hits > 1) value += tr("  (%1 times, first shown)").arg(row.hits);
        setRow(m_threads, i,
               {dim(row.thread), QString::number(row.phase), whereText(row.where, row.waitLine),
                value});
        if (!row.reachedLine || !s.uninitialised.isEmpty())
            m_threads->item(i, 3)->setForeground(QColor(0x88, 0x88, 0x88));
        if (row.thread == st.thread)
            for (int c = 0; c < 4; ++c)
                m_threads->item(i, c)->setBackground(QColor(0xf9, 0xe7, 0x9f));
    }
    m_warpLabel->setText(tr("Warp %1 of block %2. Last exchange: %3")
                             .arg(s.warp.warp)
                             .arg(dim(st.block), s.warp.hasExchange
                                                     ? QString::fromStdString(s.warp.exchange)
                                                     : tr("none yet in this block")));
    m_warp->setRowCount(32);
    for (int l = 0; l < static_cast<int>(s.warp.lanes.size()); ++l) {
        const auto& lane = s.warp.lanes[static_cast<std::size_t>(l)];
        if (!lane.exists) {
            setRow(m_warp, l,
                   {QString::number(l), tr("(no thread)"), QString(), QString(), QString(),
                    QString()});
            continue;
        }
        setRow(m_warp, l,
               {QString::number(l), dim(lane.thread), lane.atLine ? tr("active") : tr("inactive"),
                whereText(lane.where, lane.waitLine),
                lane.inExchange ? QString::number(lane.given) : QString(),
                lane.inExchange ? QString::number(lane.got) : QString()});
        m_warp->item(l, 2)->setBackground(lane.atLine ? QColor(0xa9, 0xdf, 0xbf)
                                                      : QColor(0xe5, 0xe7, 0xe9));
    }
    Q_EMIT snapshotShown();
}

} // namespace wb::ui
