// SPDX-License-Identifier: GPL-3.0-or-later
// The thread debugger in the real window (offscreen): a conditional breakpoint set in the kernel
// editor's margin, Run → Debug on CPU, then stepping one thread of `reduction` while the Debug
// dock shows its locals and the shared array changing across a barrier. Set
// WB_DEBUGGER_SCREENSHOT=path.png to save the window at the last stop (docs/screenshots).
#include "core/backend/Backend.h"
#include "core/debug/GdbMi.h"
#include "core/host/HostCompiler.h"
#include "tests/support/SuiteMain.h"
#include "ui/MainWindow.h"
#include "ui/debug/DebugDock.h"
#include "ui/editor/KernelEditor.h"

#include <QAction>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

using namespace wb;
using namespace wb::ui;

namespace {

QString example(const char* name)
{
    return QStringLiteral(WB_SOURCE_DIR "/resources/examples/%1/%1.wbproj")
        .arg(QLatin1String(name));
}

QString cell(QTableWidget* t, int row, int column)
{
    const QTableWidgetItem* i = t->item(row, column);
    return i ? i->text() : QString();
}

/// The value column of the locals row named `name`.
QString local(DebugDock* d, const QString& name)
{
    for (int r = 0; r < d->localsTable()->rowCount(); ++r)
        if (cell(d->localsTable(), r, 0) == name) return cell(d->localsTable(), r, 2);
    return QStringLiteral("<missing>");
}

/// Element `i` of the shared array, as shown.
float shared(DebugDock* d, int i)
{
    QTableWidget* t = d->sharedTable();
    for (int r = 0; r < t->rowCount(); ++r)
        if (cell(t, r, 1) == QString::number(i)) return cell(t, r, 2).toFloat();
    return -1e30f;
}

/// Whether element `i` is highlighted as changed since the previous stop.
bool sharedChanged(DebugDock* d, int i)
{
    QTableWidget* t = d->sharedTable();
    for (int r = 0; r < t->rowCount(); ++r)
        if (cell(t, r, 1) == QString::number(i))
            return t->item(r, 2)->background().style() != Qt::NoBrush;
    return false;
}

} // namespace

class TestDebugDock : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        qputenv("WARPBENCH_AUTOSAVE_DIR", m_autosave.path().toUtf8());
    }

    void stepsAThreadOfReductionInTheWindow()
    {
        if (const std::string why = debug::GdbMi::unavailableReason(); !why.empty())
            QSKIP(why.c_str());
        if (!HostCompiler::find()) QSKIP("no host C++ compiler: the CPU emulator cannot build");
        // The debugged launch runs in gdb's child, never in the window's process.
        const std::uint64_t backends = Backend::createdCount();
        MainWindow w;
        w.resize(1280, 720);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(w.openProject(example("reduction")));
        auto* dock = w.findChild<DebugDock*>();
        QVERIFY(dock);
        QVERIFY(dock->debugAction()->isEnabled());

        // A click in the editor's marker margin on line 12 sets a breakpoint there.
        KernelEditor* ed = w.kernelEditor();
        QVERIFY(ed->text().contains(QStringLiteral("cache[t] += cache[t + stride]")));
        ed->setFirstVisibleLine(0);
        const int y = static_cast<int>(ed->SendScintilla(QsciScintilla::SCI_POINTYFROMPOSITION, 0UL,
                                                         ed->positionFromLineIndex(11, 0))) +
                      ed->textHeight(11) / 2;
        const int x = ed->marginWidth(0) + ed->marginWidth(1) / 2;
        QTest::mouseClick(ed->viewport(), Qt::LeftButton, {}, QPoint(x, y));
        QTRY_VERIFY(dock->breakpoints().count(12) == 1);
        QVERIFY(ed->markersAtLine(11) != 0);
        dock->setBreakpointCondition(12, QStringLiteral("blockIdx.x == 2 && threadIdx.x == 17"));
        dock->expressionEdit()->setText(QStringLiteral("t < stride ? cache[t + stride] : -1"));

        QSignalSpy shown(dock, &DebugDock::snapshotShown);
        dock->debugAction()->trigger();
        QVERIFY(shown.wait(240'000));
        QVERIFY2(dock->statusLabel()->text().contains(QStringLiteral("block (2,0,0), thread "
                                                                     "(17,0,0), barrier phase 1")),
                 qPrintable(dock->statusLabel()->text()));
        QCOMPARE(dock->currentLine(), 12);
        QVERIFY(ed->markersAtLine(11) & (1 << 22)); // the current-line arrow
        QCOMPARE(local(dock, QStringLiteral("t")), QStringLiteral("17"));
        QCOMPARE(local(dock, QStringLiteral("i")), QStringLiteral("529"));
        QCOMPARE(local(dock, QStringLiteral("stride")), QStringLiteral("128"));
        const float c17 = shared(dock, 17), c145 = shared(dock, 145), c100 = shared(dock, 100),
                    c228 = shared(dock, 228);
        QVERIFY(c17 > -1e29f && c145 > -1e29f);
        // All threads: 256 rows, the expression in each at line 12 of phase 1.
        QCOMPARE(dock->threadsTable()->rowCount(), 256);
        QCOMPARE(cell(dock->threadsTable(), 17, 3).toFloat(), c145);
        QCOMPARE(cell(dock->threadsTable(), 200, 3), QStringLiteral("-1"));
        QVERIFY(cell(dock->threadsTable(), 3, 2).startsWith(QStringLiteral("at barrier")));
        // The warp view: warp 0, every lane at this line (stride 128 > 31).
        QCOMPARE(dock->warpTable()->rowCount(), 32);
        QCOMPARE(cell(dock->warpTable(), 5, 2), QStringLiteral("active"));

        // F10: this thread adds cache[145] into cache[17].
        shown.clear();
        QTest::keyClick(&w, Qt::Key_F10);
        QVERIFY(shown.wait(120'000));
        QCOMPARE(dock->currentLine(), 13);
        QCOMPARE(shared(dock, 17), c17 + c145);
        QCOMPARE(shared(dock, 100), c100); // thread 100 has not run its part of phase 1 yet
        QVERIFY(sharedChanged(dock, 17));
        QVERIFY(!sharedChanged(dock, 100));
        if (const QByteArray path = qgetenv("WB_DEBUGGER_SCREENSHOT"); !path.isEmpty()) {
            dock->dock()->raise();
            auto* tabs = dock->dock()->findChild<QTabWidget*>();
            if (tabs) tabs->setCurrentIndex(1);
            dock->sharedTable()->scrollToItem(dock->sharedTable()->item(17, 2),
                                              QAbstractItemView::PositionAtCenter);
            QTest::qWait(200);
            QVERIFY(w.grab().save(QString::fromLocal8Bit(path)));
        }

        // F10 over the barrier: every thread of the block ran; still thread 17, phase 2.
        shown.clear();
        dock->stepOverAction()->trigger();
        QVERIFY(shown.wait(120'000));
        QVERIFY2(dock->statusLabel()->text().contains(QStringLiteral("thread (17,0,0), barrier "
                                                                     "phase 2")),
                 qPrintable(dock->statusLabel()->text()));
        QCOMPARE(shared(dock, 100), c100 + c228);

        // F5: on to the breakpoint in the next pass of the loop.
        shown.clear();
        dock->continueAction()->trigger();
        QVERIFY(shown.wait(120'000));
        QCOMPARE(dock->currentLine(), 12);
        QCOMPARE(local(dock, QStringLiteral("stride")), QStringLiteral("64"));
        // Shift+F5 ends the session.
        QVERIFY(dock->warpTable()->rowCount() > 0);
        dock->stopAction()->trigger();
        QVERIFY(!dock->sessionActive());
        QCOMPARE(dock->currentLine(), 0);
        QVERIFY(!dock->continueAction()->isEnabled());
        // Issue 29: nothing of the last stop stays, no thread or lane "stopped here".
        for (QTableWidget* t :
             {dock->warpTable(), dock->threadsTable(), dock->localsTable(), dock->sharedTable()})
            for (int r = 0; r < t->rowCount(); ++r)
                for (int c = 0; c < t->columnCount(); ++c)
                    QVERIFY(!cell(t, r, c).contains(QStringLiteral("stopped here")));
        QCOMPARE(dock->warpTable()->rowCount(), 0);
        QCOMPARE(Backend::createdCount(), backends);
    }

    /// Issue 27 item 5 in the window, on a file of several kernels (tests/debug/data/
    /// multi_kernel, launching tile_scale): only the stopped kernel's shared arrays, locals
    /// whose declaration has not run greyed as "not yet initialised", and an unknown name in the
    /// expression field answered at once with gdb's message.
    void multiKernelFileInTheWindow()
    {
        if (const std::string why = debug::GdbMi::unavailableReason(); !why.empty())
            QSKIP(why.c_str());
        if (!HostCompiler::find()) QSKIP("no host C++ compiler: the CPU emulator cannot build");
        // Opened from a copy (outlives the window): the window keeps a run history next to a
        // project it opens.
        QTemporaryDir copy;
        QVERIFY(copy.isValid());
        MainWindow w;
        w.resize(1280, 720);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        for (const char* file : {"multi_kernel.wbproj", "multi_kernel.cu"})
            QVERIFY(QFile::copy(QStringLiteral(WB_SOURCE_DIR "/tests/debug/data/multi_kernel/") +
                                    QLatin1String(file),
                                copy.filePath(QLatin1String(file))));
        QVERIFY(w.openProject(copy.filePath(QStringLiteral("multi_kernel.wbproj"))));
        auto* dock = w.findChild<DebugDock*>();
        QVERIFY(dock);
        dock->setBreakpointCondition(33, QStringLiteral("blockIdx.x == 1 && threadIdx.x == 3"));
        dock->expressionEdit()->setText(QStringLiteral("mine"));
        QSignalSpy shown(dock, &DebugDock::snapshotShown);
        dock->debugAction()->trigger();
        QVERIFY(shown.wait(240'000));
        QCOMPARE(dock->currentLine(), 33);

        // Locals: t (line 33) and mine (line 44) have not been initialised; the arguments have.
        QCOMPARE(local(dock, QStringLiteral("t")),
                 QStringLiteral("not yet initialised (declared at line 33)"));
        QCOMPARE(local(dock, QStringLiteral("mine")),
                 QStringLiteral("not yet initialised (declared at line 44)"));
        QVERIFY(!local(dock, QStringLiteral("in")).contains(QStringLiteral("not yet")));
        QTableWidget* lt = dock->localsTable();
        for (int r = 0; r < lt->rowCount(); ++r) {
            const bool marked = cell(lt, r, 2).startsWith(QStringLiteral("not yet"));
            QCOMPARE(lt->item(r, 2)->foreground().color() == QColor(0x88, 0x88, 0x88), marked);
            if (marked) QVERIFY(lt->item(r, 2)->toolTip().contains(QStringLiteral("memory")));
        }
        QVERIFY(!dock->expressionNote()->isHidden());
        QVERIFY2(dock->expressionNote()->text().contains(
                     QStringLiteral("Not yet initialised at line 33: mine (")),
                 qPrintable(dock->expressionNote()->text()));

        // Shared memory: tile_scale's arrays and the file's, never another kernel's.
        QStringList arrays;
        QTableWidget* st = dock->sharedTable();
        for (int r = 0; r < st->rowCount(); ++r) {
            if (!cell(st, r, 0).isEmpty()) arrays << cell(st, r, 0);
            QVERIFY2(!cell(st, r, 2).contains(QStringLiteral("var-create")),
                     qPrintable(cell(st, r, 2)));
        }
        QCOMPARE(arrays, (QStringList{QStringLiteral("launches_seen (int [2])"),
                                      QStringLiteral("cache (float [32])"),
                                      QStringLiteral("total (float [2])")}));

        // F10: t has run.
        shown.clear();
        dock->stepOverAction()->trigger();
        QVERIFY(shown.wait(120'000));
        QCOMPARE(dock->currentLine(), 34);
        QCOMPARE(local(dock, QStringLiteral("t")), QStringLiteral("3"));

        // An unknown name in the expression field: gdb's message at once, the table kept.
        const int rowsBefore = dock->threadsTable()->rowCount();
        shown.clear();
        QElapsedTimer timer;
        timer.start();
        dock->expressionEdit()->setText(QStringLiteral("nosuchvar"));
        QTest::keyClick(dock->expressionEdit(), Qt::Key_Return);
        QVERIFY(shown.wait(60'000));
        QVERIFY2(timer.elapsed() < 10'000, qPrintable(QString::number(timer.elapsed())));
        QVERIFY(!dock->expressionNote()->isHidden());
        QVERIFY2(dock->expressionNote()->text().contains(
                     QStringLiteral("nosuchvar: No symbol \"nosuchvar\" in current context.")),
                 qPrintable(dock->expressionNote()->text()));
        QCOMPARE(dock->threadsTable()->rowCount(), rowsBefore);
        QVERIFY(dock->continueAction()->isEnabled());

        // A good expression again: the table at line 34 and no note.
        shown.clear();
        dock->expressionEdit()->setText(QStringLiteral("t * 2"));
        QTest::keyClick(dock->expressionEdit(), Qt::Key_Return);
        QVERIFY(shown.wait(120'000));
        QVERIFY(dock->expressionNote()->isHidden());
        QCOMPARE(dock->threadsTable()->rowCount(), 32);
        QCOMPARE(cell(dock->threadsTable(), 5, 3), QStringLiteral("10"));
        dock->stopAction()->trigger();
        QVERIFY(!dock->sessionActive());
    }

private:
    QTemporaryDir m_autosave;
};

WB_QTEST_MAIN(TestDebugDock)
#include "tst_debugdock.moc"
