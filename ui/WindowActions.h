// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QObject>

#include <functional>

class QAction;
class QMenu;

namespace wb::ui {

class EditorArea;
class MainWindow;
class ProjectFiles;
class RunController;
class SessionDocument;

/// The window's actions, tool bar and menus (File, Edit, Run, View, Examples, Help); each
/// action calls the window's public API. Run, the checks and Cancel follow the run controller
/// (disabled while a run runs, Cancel only then).
class WindowActions : public QObject {
    Q_OBJECT
public:
    struct Parts {
        SessionDocument* document;
        RunController* runner;
        EditorArea* editors;
        ProjectFiles* files;
        QList<QAction*> dockToggles; ///< View's first entries
        std::function<void(const QString&)> log;
    };
    WindowActions(MainWindow* window, Parts parts);

    QMenu* runMenu() const noexcept { return m_runMenu; }
    QMenu* viewMenu() const noexcept { return m_viewMenu; }

private:
    void buildActions();
    void buildMenus();

    MainWindow* m_window;
    SessionDocument* m_doc;
    RunController* m_runner;
    EditorArea* m_editors;
    ProjectFiles* m_files;
    QList<QAction*> m_dockToggles;
    std::function<void(const QString&)> m_log;
    QAction* m_runAction = nullptr;
    QAction* m_compileAction = nullptr;
    QAction* m_cancelAction = nullptr;
    QAction* m_boundsCheckAction = nullptr;
    QAction* m_raceCheckAction = nullptr;
    QMenu* m_runMenu = nullptr;
    QMenu* m_viewMenu = nullptr;
};

} // namespace wb::ui
