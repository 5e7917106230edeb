// SPDX-License-Identifier: GPL-3.0-or-later
// Crash recovery: the real `warpbench` program is started, typed into, killed with SIGKILL, and
// started again; the second start must offer (and restore) the typed text. Also the Autosave
// class itself: snapshot timing, live locks not offered, discard.
#include "tests/support/SuiteMain.h"
#include "ui/project/Autosave.h"

#include <QDateTime>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>

using wb::ui::Autosave;

namespace {

QProcessEnvironment isolatedEnvironment(const QTemporaryDir& home)
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    env.insert(QStringLiteral("XDG_CONFIG_HOME"), home.filePath(QStringLiteral("config")));
    env.insert(QStringLiteral("XDG_DATA_HOME"), home.filePath(QStringLiteral("data")));
    return env;
}

QStringList snapshots(const QString& dir)
{
    return QDir(dir).entryList({QStringLiteral("*.wbautosave")}, QDir::Files);
}

} // namespace

class TestAutosave : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void snapshotIsWrittenSoonAfterEdits()
    {
        QTemporaryDir dir;
        Autosave autosave(dir.path());
        int version = 0;
        autosave.setSnapshotProvider([&version]() { return QByteArray::number(++version); });
        QSignalSpy written(&autosave, &Autosave::snapshotWritten);
        QElapsedTimer clock;
        clock.start();
        // Typing without a pause still produces a snapshot within kMaxDelayMs.
        while (written.isEmpty() && clock.elapsed() < 10000) {
            autosave.noteModified();
            QTest::qWait(50);
        }
        QVERIFY(!written.isEmpty());
        QVERIFY2(clock.elapsed() <= Autosave::kMaxDelayMs + 200,
                 qPrintable(QString::number(clock.elapsed())));
        QVERIFY(QFile::exists(autosave.snapshotPath()));
        // Our own, live snapshot is never offered for recovery.
        Autosave other(dir.path());
        QVERIFY(other.findRecoverable().isEmpty());
        autosave.clear();
        autosave.waitForWrites();
        QVERIFY(!QFile::exists(autosave.snapshotPath()));
    }

    void recoveryAfterKill()
    {
#ifndef WB_GUI_EXECUTABLE
        QSKIP("the warpbench executable is not built");
#else
        QTemporaryDir home;
        const QString autosaveDir = home.filePath(QStringLiteral("autosave"));
        const QString marker =
            QStringLiteral("// typed before the crash %1").arg(QDateTime::currentMSecsSinceEpoch());

        QProcess first;
        first.setProcessEnvironment(isolatedEnvironment(home));
        first.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        first.start(
            QStringLiteral(WB_GUI_EXECUTABLE),
            {QStringLiteral("--autosave-dir"), autosaveDir, QStringLiteral("--test-type"), marker});
        QVERIFY2(first.waitForStarted(10000), qPrintable(first.errorString()));
        // Wait for the snapshot holding the typed text, then kill -9.
        QElapsedTimer clock;
        clock.start();
        bool saved = false;
        while (!saved && clock.elapsed() < 30000) {
            QTest::qWait(50);
            for (const QString& f : snapshots(autosaveDir)) {
                QFile file(autosaveDir + u'/' + f);
                if (file.open(QIODevice::ReadOnly) && file.readAll().contains(marker.toUtf8()))
                    saved = true;
            }
        }
        QVERIFY2(saved, "no snapshot with the typed text appeared");
        qInfo("snapshot with the typed text on disk %lld ms after start", clock.elapsed());
        ::kill(static_cast<pid_t>(first.processId()), SIGKILL);
        QVERIFY(first.waitForFinished(10000));
        QCOMPARE(first.exitStatus(), QProcess::CrashExit);

        // Restart: the work is offered and restored.
        const QString report = home.filePath(QStringLiteral("report.json"));
        QProcess second;
        second.setProcessEnvironment(isolatedEnvironment(home));
        second.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        second.start(QStringLiteral(WB_GUI_EXECUTABLE),
                     {QStringLiteral("--autosave-dir"), autosaveDir,
                      QStringLiteral("--test-restore"), QStringLiteral("--test-report"), report,
                      QStringLiteral("--test-quit")});
        QVERIFY(second.waitForFinished(60000));
        QCOMPARE(second.exitCode(), 0);
        QFile file(report);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QJsonObject o = QJsonDocument::fromJson(file.readAll()).object();
        QCOMPARE(o.value(QStringLiteral("recoverable")).toInt(), 1);
        QVERIFY(o.value(QStringLiteral("recoveryText"))
                    .toString()
                    .contains(QStringLiteral("Recovered work")));
        QVERIFY(o.value(QStringLiteral("restored")).toBool());
        QVERIFY(o.value(QStringLiteral("kernelText")).toString().contains(marker));
        qInfo("window-shown time of the restarted program: %.0f ms",
              o.value(QStringLiteral("windowShownMs")).toDouble());
        // The restored snapshot was consumed: a third start offers nothing.
        QProcess third;
        third.setProcessEnvironment(isolatedEnvironment(home));
        third.start(QStringLiteral(WB_GUI_EXECUTABLE),
                    {QStringLiteral("--autosave-dir"), autosaveDir, QStringLiteral("--test-report"),
                     report, QStringLiteral("--test-quit")});
        QVERIFY(third.waitForFinished(60000));
        QFile again(report);
        QVERIFY(again.open(QIODevice::ReadOnly));
        QCOMPARE(QJsonDocument::fromJson(again.readAll())
                     .object()
                     .value(QStringLiteral("recoverable"))
                     .toInt(),
                 0);
#endif
    }
};

WB_QTEST_MAIN(TestAutosave)
#include "tst_autosave.moc"
