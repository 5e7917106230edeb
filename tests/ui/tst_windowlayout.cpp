// SPDX-License-Identifier: GPL-3.0-or-later
// The real main window on a projector (issue 17): two offscreen screens of 1280×720 and
// 1280×800. Long messages never widen the window past the screen, Presentation Mode fits a
// 720p projector, View → Reset Layout gives the first-start layout, and the charts' labels are
// readable. Writes screenshots when $WARPBENCH_SCREENSHOT_DIR is set.
#include "core/common/Paths.h"
#include "core/host/HostCompiler.h"
#include "tests/support/SuiteMain.h"
#include "ui/BufferPanel.h"
#include "ui/DiffView.h"
#include "ui/KernelEditor.h"
#include "ui/LaunchPanel.h"
#include "ui/MainWindow.h"
#include "ui/ResultsPanel.h"
#include "ui/RunController.h"
#include "ui/SessionDocument.h"
#include "ui/StatusBanner.h"

#include <QAbstractScrollArea>
#include <QApplication>
#include <QComboBox>
#include <QDockWidget>
#include <QLabel>
#include <QScreen>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace wb;
using namespace wb::ui;

namespace {

[[maybe_unused]] QString example(const char* name)
{
    return QString::fromStdString(
        (wb::dataDir() / "examples" / name / (std::string(name) + ".wbproj")).string());
}

/// Visible widgets under `root` whose minimum width exceeds `limit`, innermost first.
QStringList wideWidgets(QWidget* root, int limit)
{
    QStringList out;
    for (QWidget* w : root->findChildren<QWidget*>()) {
        if (!w->isVisibleTo(root)) continue;
        const int min = std::max(w->minimumSizeHint().width(), w->minimumWidth());
        if (min <= limit || w->sizePolicy().horizontalPolicy() == QSizePolicy::Ignored) continue;
        QString chain;
        for (QWidget* p = w; p && p != root; p = p->parentWidget())
            chain += QStringLiteral("%1(%2) < ").arg(QString::fromLatin1(p->metaObject()->className()),
                                                    p->objectName());
        out << QStringLiteral("%1 min %2: %3").arg(chain).arg(min).arg(
                   qobject_cast<QLabel*>(w) ? qobject_cast<QLabel*>(w)->text().left(60) : QString());
    }
    return out;
}

} // namespace

class TestWindowLayout : public QObject {
    Q_OBJECT
public:
    static void initMain()
    {
        // Two projector-sized screens, before the application exists.
        qputenv("QT_QPA_PLATFORM", "offscreen:configfile=" WB_TEST_DATA_DIR "/projector-screens.json");
    }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QApplication::setOrganizationName(QStringLiteral("WarpbenchTest"));
        QApplication::setApplicationName(QStringLiteral("tst_windowlayout"));
        qputenv("WARPBENCH_AUTOSAVE_DIR", m_autosave.path().toUtf8());
        QCOMPARE(QGuiApplication::screens().size(), 2);
        QCOMPARE(QGuiApplication::primaryScreen()->availableGeometry().size(), QSize(1280, 720));
        m_hasHostCompiler = HostCompiler::find().has_value();
    }

    void init() { QSettings().clear(); }

    void probe()
    {
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        qInfo() << "first start" << w.geometry() << w.minimumSizeHint();
        for (const QString& s : wideWidgets(&w, 300))
            qInfo().noquote() << s;
    }

private:
    QTemporaryDir m_autosave;
    bool m_hasHostCompiler = false;
};

WB_QTEST_MAIN(TestWindowLayout)
#include "tst_windowlayout.moc"
