// SPDX-License-Identifier: GPL-3.0-or-later
// What the window suites share: the path of a shipped example's project and choosing the
// backend in the launch panel.
#pragma once

#include "core/backend/Backend.h"
#include "core/common/Paths.h"
#include "ui/MainWindow.h"
#include "ui/common/SessionDocument.h"
#include "ui/launch/LaunchPanel.h"

#include <QApplication>
#include <QComboBox>
#include <QStandardPaths>
#include <QString>
#include <QTemporaryDir>
#include <QTest>

#include <string>

/// Keeps a window suite's settings, history and autosaves apart from the user's and from other
/// suites': Qt's test-mode paths, the suite's own application name, autosaves in `autosave`.
inline void isolateWindowSuite(const char* suite, const QTemporaryDir& autosave)
{
    QStandardPaths::setTestModeEnabled(true);
    QApplication::setOrganizationName(QStringLiteral("WarpbenchTest"));
    QApplication::setApplicationName(QString::fromLatin1(suite));
    qputenv("WARPBENCH_AUTOSAVE_DIR", autosave.path().toUtf8());
}

/// resources/examples/<name>/<name>.wbproj as the program finds it (wb::dataDir()).
inline QString example(const char* name)
{
    return QString::fromStdString(
        (wb::dataDir() / "examples" / name / (std::string(name) + ".wbproj")).string());
}

/// Picks backend `kind` ("cpu", "cuda", "auto") in the launch panel as a user would.
inline void selectBackend(wb::ui::MainWindow& w, const char* kind)
{
    QComboBox* backend = w.launchPanel()->backendChooser();
    backend->setCurrentIndex(backend->findData(QString::fromLatin1(kind)));
    QCOMPARE(w.document()->session().backend, *wb::parseBackendKind(kind));
}
