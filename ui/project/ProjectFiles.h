// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QObject>
#include <QString>

#include <memory>

class QFileSystemWatcher;
class QMenu;
class QTemporaryDir;
class QWidget;

namespace wb::ui {

class Autosave;
class CompileController;
class EditorArea;
class SessionDocument;

/// The project's files: New, Open (trust settled before anything compiles), the shipped
/// examples opened as private copies, Save / Save As (never into the examples or a copy),
/// the recent list, and the kernel and reference files watched for changes by other
/// programs. Fills the File and Examples menus. Dialogs are parented to `window`.
class ProjectFiles : public QObject {
    Q_OBJECT
public:
    ProjectFiles(QWidget* window, SessionDocument* document, Autosave* autosave,
                 EditorArea* editors, CompileController* compiler);
    ~ProjectFiles() override;

    void fillFileMenu(QMenu* file);
    void fillExamplesMenu(QMenu* examples);

    void newProject();
    /// File → New from Expression (asks about unsaved changes first).
    void newFromExpression();
    /// Opens a project; on failure says why (failed(), logged()) and returns false. A shipped
    /// example (under Examples::folder()) is opened as a private copy (openExample).
    bool open(const QString& path);
    /// Opens a private temporary copy of the shipped example `path`: runs, history and outputs
    /// never write next to the shipped files, and Save asks where to save a copy.
    bool openExample(const QString& path);
    bool save();
    /// Refuses (with a message) to write into the shipped examples or an example's private
    /// copy: those are never the user's project.
    bool saveAs(const QString& path);
    /// The folder the Save dialog starts in: the project's own for a saved project, else the
    /// user's documents folder (QStandardPaths::DocumentsLocation).
    QString saveDialogFolder() const;
    /// What the Save dialog proposes: the project itself, the documents folder for a new one,
    /// `<documents>/<example>/<example>.wbproj` for an example's copy.
    QString saveProposal() const;
    /// Asks about unsaved changes; false when the user cancelled.
    bool maybeSave();
    /// The kernel.cu (or reference.cpp) of the project changed on disk: reloads it into the
    /// editor, asking first when the editor has edits of that file not saved.
    void sourceFileChanged(const QString& path);
    QFileSystemWatcher* sourceWatcher() const noexcept { return m_watcher; }

Q_SIGNALS:
    void logged(const QString& line);
    /// A project could not be opened: `html` says which and why (for the banner).
    void failed(const QString& html);
    /// A project or example was opened.
    void opened();
    /// An example's copy was opened (`project`: the copy's .wbproj).
    void exampleOpened(const QString& project);
    void statusMessage(const QString& text, int timeoutMs);
    /// A separate source file was reloaded from disk into its editor.
    void sourceReloaded(const QString& path);

private:
    void addRecentFile(const QString& path);
    void rebuildRecentMenu();
    /// Watches the project's separate kernel and reference files.
    void updateWatchedFiles();

    QWidget* m_window;
    SessionDocument* m_doc;
    Autosave* m_autosave;
    EditorArea* m_editors;
    CompileController* m_compiler;
    QFileSystemWatcher* m_watcher;
    QMenu* m_recentMenu = nullptr;
    std::unique_ptr<QTemporaryDir> m_exampleCopy; ///< the open example's private copy
};

} // namespace wb::ui
