// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/Application.h"

#include "core/session/imageio/QtImageCodec.h"
#include "ui/MainWindow.h"
#include "ui/common/SessionDocument.h"
#include "ui/editor/KernelEditor.h"
#include "ui/project/Autosave.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTimer>

namespace wb::ui {

namespace {

struct Options {
    QCommandLineOption autosaveDir{QStringLiteral("autosave-dir"),
                                   QStringLiteral("Folder for crash-recovery snapshots"),
                                   QStringLiteral("dir")};
    QCommandLineOption testType{
        QStringLiteral("test-type"),
        QStringLiteral("Type TEXT at the end of the kernel once the window is shown"),
        QStringLiteral("text")};
    QCommandLineOption testRestore{QStringLiteral("test-restore"),
                                   QStringLiteral("Accept a recovery offer")};
    QCommandLineOption testReport{
        QStringLiteral("test-report"),
        QStringLiteral("Write start-up and recovery state as JSON to FILE"),
        QStringLiteral("file")};
    QCommandLineOption testQuit{QStringLiteral("test-quit"),
                                QStringLiteral("Quit after --test-report")};

    void addTo(QCommandLineParser& parser) const
    {
        parser.setApplicationDescription(
            QStringLiteral("Warpbench: a desktop workbench for CUDA kernels"));
        parser.addHelpOption();
        parser.addVersionOption();
        parser.addPositionalArgument(QStringLiteral("project"),
                                     QStringLiteral("A .wbproj project to open"));
        parser.addOptions({autosaveDir, testType, testRestore, testReport, testQuit});
    }
};

void setIdentity()
{
    QCoreApplication::setOrganizationName(QStringLiteral("Warpbench"));
    QCoreApplication::setApplicationName(QStringLiteral("warpbench"));
    QCoreApplication::setApplicationVersion(QStringLiteral(WB_VERSION));
}

} // namespace

int runApplication(int argc, char** argv)
{
    QElapsedTimer startup;
    startup.start();
    // --help and --version work without a display.
    for (int i = 1; i < argc; ++i) {
        const QByteArray a(argv[i]);
        if (a == "-h" || a == "--help" || a == "-v" || a == "--version" || a == "--help-all") {
            QCoreApplication app(argc, argv);
            setIdentity();
            QCommandLineParser parser;
            Options().addTo(parser);
            parser.process(app); // prints and exits
            return 0;
        }
    }
    QApplication app(argc, argv);
    setIdentity();
    QApplication::setApplicationDisplayName(QStringLiteral("Warpbench"));
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/warpbench/icons/app.svg")));
    session::installQtImageCodec();

    QCommandLineParser parser;
    const Options options;
    options.addTo(parser);
    parser.process(app);
    const QCommandLineOption& autosaveDir = options.autosaveDir;
    const QCommandLineOption& testType = options.testType;
    const QCommandLineOption& testRestore = options.testRestore;
    const QCommandLineOption& testReport = options.testReport;
    const QCommandLineOption& testQuit = options.testQuit;

    MainWindow window(parser.value(autosaveDir));
    if (!parser.positionalArguments().isEmpty())
        window.openProject(parser.positionalArguments().first());
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
