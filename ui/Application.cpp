// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/Application.h"

#include "core/session/imageio/QtImageCodec.h"
#include "ui/Autosave.h"
#include "ui/KernelEditor.h"
#include "ui/MainWindow.h"
#include "ui/SessionDocument.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTimer>

namespace wb::ui {

int runApplication(int argc, char** argv)
{
    QElapsedTimer startup;
    startup.start();
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("Warpbench"));
    QApplication::setApplicationName(QStringLiteral("warpbench"));
    QApplication::setApplicationDisplayName(QStringLiteral("Warpbench"));
    QApplication::setApplicationVersion(QStringLiteral(WB_VERSION));
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/warpbench/icons/app.svg")));
    session::installQtImageCodec();

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Warpbench: a desktop workbench for CUDA kernels"));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("project"), QStringLiteral("A .wbproj project to open"));
    const QCommandLineOption autosaveDir(QStringLiteral("autosave-dir"),
                                         QStringLiteral("Folder for crash-recovery snapshots"), QStringLiteral("dir"));
    const QCommandLineOption testType(QStringLiteral("test-type"),
                                      QStringLiteral("Type TEXT at the end of the kernel once the window is shown"),
                                      QStringLiteral("text"));
    const QCommandLineOption testRestore(QStringLiteral("test-restore"), QStringLiteral("Accept a recovery offer"));
    const QCommandLineOption testReport(QStringLiteral("test-report"),
                                        QStringLiteral("Write start-up and recovery state as JSON to FILE"),
                                        QStringLiteral("file"));
    const QCommandLineOption testQuit(QStringLiteral("test-quit"), QStringLiteral("Quit after --test-report"));
    parser.addOptions({autosaveDir, testType, testRestore, testReport, testQuit});
    parser.process(app);

    MainWindow window(parser.value(autosaveDir));
    if (!parser.positionalArguments().isEmpty()) window.openProject(parser.positionalArguments().first());
    window.show();
    const qint64 shownMs = startup.elapsed();
    const int recoverable = window.offerRecovery();
    bool restored = false;
    if (recoverable > 0 && parser.isSet(testRestore)) {
        // What the Restore button does.
        const auto found = window.autosave()->findRecoverable();
        if (!found.isEmpty() && window.restoreSnapshot(found.first().content)) {
            Autosave::discard(found.first());
            restored = true;
        }
    }
    if (parser.isSet(testType)) {
        const QString text = parser.value(testType);
        QTimer::singleShot(0, &window, [&window, text]() {
            KernelEditor* editor = window.kernelEditor();
            editor->append(u'\n' + text);
        });
    }
    if (parser.isSet(testReport)) {
        const QString file = parser.value(testReport);
        const bool quit = parser.isSet(testQuit);
        QTimer::singleShot(0, &window, [&window, file, quit, shownMs, recoverable, restored]() {
            QJsonObject o;
            o.insert(QStringLiteral("windowShownMs"), static_cast<double>(shownMs));
            o.insert(QStringLiteral("recoverable"), recoverable);
            o.insert(QStringLiteral("recoveryText"), window.recoveryText());
            o.insert(QStringLiteral("restored"), restored);
            o.insert(QStringLiteral("kernelText"), window.kernelEditor()->text());
            QFile out(file);
            if (out.open(QIODevice::WriteOnly)) out.write(QJsonDocument(o).toJson());
            out.close();
            if (quit) {
                // A clean, deliberate exit: nothing is left to recover.
                window.document()->setModified(false);
                window.autosave()->clear();
                QApplication::quit();
            }
        });
    }
    return QApplication::exec();
}

} // namespace wb::ui
