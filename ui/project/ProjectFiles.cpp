// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/project/ProjectFiles.h"

#include "core/common/Paths.h"
#include "core/session/ProjectTrust.h"
#include "ui/common/SessionDocument.h"
#include "ui/editor/CompileController.h"
#include "ui/editor/EditorArea.h"
#include "ui/editor/KernelEditor.h"
#include "ui/project/Autosave.h"
#include "ui/project/Examples.h"
#include "ui/project/NewFromExpression.h"
#include "ui/project/TrustPrompt.h"

#include <QAction>
#include <QDir>
#include <QDirIterator>
#include <QFileDialog>
#include <QFileInfo>
#include <QFileSystemWatcher>
#include <QMenu>
#include <QMessageBox>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>

#include <algorithm>

namespace wb::ui {

namespace {

constexpr int kMaxRecent = 10;

QIcon icon(const char* name)
{
    return QIcon(QStringLiteral(":/warpbench/icons/%1.svg").arg(QLatin1String(name)));
}

/// Whether `path` lies inside folder `dir` (both made absolute, symlinks resolved).
bool isInside(const QString& path, const QString& dir)
{
    const auto canonical = [](const QString& p) {
        const QFileInfo info(p);
        const QString c = info.exists() ? info.canonicalFilePath()
                                        : QFileInfo(info.absolutePath()).canonicalFilePath() +
                                              u'/' + info.fileName();
        return QDir::cleanPath(c.isEmpty() ? info.absoluteFilePath() : c);
    };
    const QString d = canonical(dir);
    const QString p = canonical(path);
    return !d.isEmpty() && (p == d || p.startsWith(d + u'/'));
}

QString withSuffix(const QString& path)
{
    return path.endsWith(QStringLiteral(".wbproj")) ? path : path + QStringLiteral(".wbproj");
}

} // namespace

ProjectFiles::ProjectFiles(QWidget* window, SessionDocument* document, Autosave* autosave,
                           EditorArea* editors, CompileController* compiler)
    : QObject(window)
    , m_window(window)
    , m_doc(document)
    , m_autosave(autosave)
    , m_editors(editors)
    , m_compiler(compiler)
    , m_watcher(new QFileSystemWatcher(this))
{
    connect(m_watcher, &QFileSystemWatcher::fileChanged, this, &ProjectFiles::sourceFileChanged);
    connect(document, &SessionDocument::sessionReplaced, this, &ProjectFiles::updateWatchedFiles);
    connect(document, &SessionDocument::filePathChanged, this, [this]() {
        updateWatchedFiles();
        // A saved example copy is the user's project: its old temporary folder can go.
        if (m_doc->exampleOf().isEmpty() && m_exampleCopy &&
            !isInside(m_doc->filePath(), m_exampleCopy->path()))
            m_exampleCopy.reset();
    });
}

ProjectFiles::~ProjectFiles() = default;

void ProjectFiles::fillFileMenu(QMenu* file)
{
    file->addAction(icon("new"), tr("&New"), QKeySequence::New, this, [this]() {
        if (maybeSave()) newProject();
    });
    file->addAction(tr("New from &Expression…"), this, &ProjectFiles::newFromExpression);
    file->addAction(icon("open"), tr("&Open…"), QKeySequence::Open, this, [this]() {
        if (!maybeSave()) return;
        const QString path =
            QFileDialog::getOpenFileName(m_window, tr("Open project"), QString(),
                                         tr("Warpbench projects (*.wbproj);;All files (*)"));
        if (!path.isEmpty()) open(path);
    });
    m_recentMenu = file->addMenu(tr("Open &Recent"));
    file->addAction(icon("save"), tr("&Save"), QKeySequence::Save, this, [this]() { save(); });
    file->addAction(tr("Save &As…"), QKeySequence::SaveAs, this, [this]() {
        const QString path = QFileDialog::getSaveFileName(
            m_window, tr("Save project as"), saveProposal(), tr("Warpbench projects (*.wbproj)"));
        if (!path.isEmpty()) saveAs(withSuffix(path));
    });
    rebuildRecentMenu();
}

void ProjectFiles::fillExamplesMenu(QMenu* examplesMenu)
{
    examplesMenu->setToolTipsVisible(true);
    const QList<ExampleEntry> list = Examples::entries();
    if (list.isEmpty())
        examplesMenu
            ->addAction(tr("(no examples found in %1)")
                            .arg(QString::fromStdString((wb::dataDir() / "examples").string())))
            ->setEnabled(false);
    // Correct examples first, then the ones that are wrong on purpose; each with its one line.
    for (const bool buggy : {false, true}) {
        if (std::none_of(list.begin(), list.end(),
                         [buggy](const ExampleEntry& e) { return e.buggy == buggy; }))
            continue;
        examplesMenu->addSection(buggy ? tr("Deliberately buggy — find the mistake")
                                       : tr("Examples"));
        for (const ExampleEntry& e : list) {
            if (e.buggy != buggy) continue;
            QString description = e.description;
            if (description.size() > 90) description = description.left(88) + QStringLiteral("…");
            const QString title = QFileInfo(e.path).completeBaseName();
            QAction* a = examplesMenu->addAction(
                description.isEmpty() ? title : QStringLiteral("%1 — %2").arg(title, description),
                this, [this, path = e.path]() {
                    if (maybeSave()) open(path);
                });
            a->setToolTip(e.description);
            a->setData(e.path);
        }
    }
}

void ProjectFiles::newProject()
{
    m_doc->newSession();
    m_exampleCopy.reset();
    m_autosave->clear();
}

void ProjectFiles::newFromExpression()
{
    if (maybeSave() && NewFromExpressionDialog::createProject(m_window, *m_doc))
        m_exampleCopy.reset();
}

bool ProjectFiles::openExample(const QString& path)
{
    QFileInfo shipped(path);
    // An installed tree also has examples/<name>.wbproj beside the folders (for the CLI): the
    // window opens the folder's own project, whose folder is the example's alone.
    if (QDir(Examples::folder()) == shipped.absoluteDir()) {
        const QString inFolder =
            QDir(Examples::folder())
                .filePath(shipped.completeBaseName() + u'/' + shipped.fileName());
        if (QFileInfo::exists(inFolder)) shipped = QFileInfo(inFolder);
    }
    auto copy = std::make_unique<QTemporaryDir>(QDir::tempPath() +
                                                QStringLiteral("/warpbench-example-XXXXXX"));
    QString why;
    if (!copy->isValid()) why = copy->errorString();
    // The example's folder (sources, data, guide); examples are small.
    const QDir from = shipped.absoluteDir();
    QDirIterator it(from.absolutePath(), QDir::Files | QDir::NoDotAndDotDot,
                    QDirIterator::Subdirectories);
    while (why.isEmpty() && it.hasNext()) {
        const QString file = it.next();
        const QString target = copy->filePath(from.relativeFilePath(file));
        QDir().mkpath(QFileInfo(target).absolutePath());
        if (!QFile::copy(file, target))
            why = tr("cannot copy %1 to %2").arg(file, target);
        else // installed files are read-only; the copy is the user's
            QFile::setPermissions(target, QFile::permissions(target) | QFileDevice::WriteOwner);
    }
    if (!why.isEmpty()) {
        Q_EMIT logged(tr("cannot open example %1: %2").arg(path, why));
        Q_EMIT failed(
            tr("<b>Cannot open example %1</b>: %2").arg(path.toHtmlEscaped(), why.toHtmlEscaped()));
        return false;
    }
    const QString copied = copy->filePath(shipped.fileName());
    const std::string hash = session::ProjectTrust::fileHash(copied.toStdString());
    try {
        m_doc->load(copied, session::ProjectTrust::isRemembered(hash), shipped.absoluteFilePath());
    } catch (const std::exception& e) {
        const QString error = QString::fromUtf8(e.what());
        Q_EMIT logged(tr("cannot open %1: %2").arg(path, error));
        Q_EMIT failed(
            tr("<b>Cannot open %1</b>: %2").arg(path.toHtmlEscaped(), error.toHtmlEscaped()));
        return false;
    }
    m_exampleCopy = std::move(copy);
    addRecentFile(shipped.absoluteFilePath());
    m_autosave->clear();
    Q_EMIT logged(tr("opened example %1 (a private copy: Save asks where to keep it)")
                      .arg(shipped.absoluteFilePath()));
    Q_EMIT opened();
    Q_EMIT exampleOpened(copied);
    return true;
}

bool ProjectFiles::open(const QString& path)
{
    if (isInside(path, Examples::folder())) return openExample(path);
    // Trust is settled before anything compiles: a project's flags outside the allowed set run
    // only once the user trusted this exact file content (remembered by its SHA-256).
    const std::string hash = session::ProjectTrust::fileHash(path.toStdString());
    try {
        m_doc->load(path, session::ProjectTrust::isRemembered(hash));
    } catch (const std::exception& e) {
        const QString why = QString::fromUtf8(e.what());
        Q_EMIT logged(tr("cannot open %1: %2").arg(path, why));
        Q_EMIT failed(
            tr("<b>Cannot open %1</b>: %2").arg(path.toHtmlEscaped(), why.toHtmlEscaped()));
        return false;
    }
    addRecentFile(m_doc->filePath());
    m_exampleCopy.reset();
    m_autosave->clear();
    Q_EMIT logged(tr("opened %1").arg(m_doc->filePath()));
    Q_EMIT opened();
    if (const std::vector<FlagRefusal> refused = session::ProjectTrust::review(m_doc->session());
        !refused.empty() && !m_doc->session().flagsTrusted) {
        if (TrustPrompt::ask(m_window, m_doc->displayName(), refused)) {
            m_doc->setFlagsTrusted(true);
            session::ProjectTrust::remember(hash);
            m_compiler->compileNow();
            Q_EMIT logged(tr("trusted the compiler flags of %1").arg(m_doc->filePath()));
        } else {
            Q_EMIT logged(
                tr("not trusted: %1 is not compiled with its flags outside the allowed set")
                    .arg(m_doc->filePath()));
        }
    }
    return true;
}

QString ProjectFiles::saveProposal() const
{
    if (!m_doc->needsSaveAs()) return m_doc->filePath();
    // A new project or an example's copy starts in the documents folder; an example is
    // proposed under its own name, in a folder of that name (its files go beside it).
    const QDir docs(saveDialogFolder());
    if (m_doc->exampleOf().isEmpty()) return docs.absolutePath();
    const QFileInfo ex(m_doc->exampleOf());
    return docs.filePath(ex.completeBaseName() + u'/' + ex.fileName());
}

QString ProjectFiles::saveDialogFolder() const
{
    if (!m_doc->needsSaveAs()) return QFileInfo(m_doc->filePath()).absolutePath();
    QString docs = QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
    if (docs.isEmpty()) docs = QDir::homePath();
    return docs;
}

bool ProjectFiles::save()
{
    if (m_doc->needsSaveAs()) {
        const QString path = QFileDialog::getSaveFileName(
            m_window,
            m_doc->exampleOf().isEmpty() ? tr("Save project") : tr("Save a copy of the example"),
            saveProposal(), tr("Warpbench projects (*.wbproj)"));
        if (path.isEmpty()) return false;
        return saveAs(withSuffix(path));
    }
    return saveAs(m_doc->filePath());
}

bool ProjectFiles::saveAs(const QString& path)
{
    const bool intoExamples = isInside(path, Examples::folder());
    const bool intoCopy = m_exampleCopy && isInside(path, m_exampleCopy->path());
    if (intoExamples || intoCopy) {
        const QString why =
            intoExamples
                ? tr("%1 is inside the shipped examples, which are never overwritten. Save the "
                     "copy in a folder of your own.")
                      .arg(path)
                : tr("%1 is inside the example's temporary copy, which is deleted when the "
                     "window closes. Save the copy in a folder of your own.")
                      .arg(path);
        Q_EMIT logged(tr("not saved: %1").arg(why));
        QMessageBox::warning(m_window, tr("Save a copy elsewhere"), why);
        return false;
    }
    try {
        m_doc->save(path);
    } catch (const std::exception& e) {
        QMessageBox::warning(m_window, tr("Save failed"),
                             tr("Cannot save %1:\n%2").arg(path, QString::fromUtf8(e.what())));
        return false;
    }
    addRecentFile(m_doc->filePath());
    m_autosave->clear();
    updateWatchedFiles();
    Q_EMIT statusMessage(tr("Saved %1").arg(m_doc->filePath()), 4000);
    return true;
}

bool ProjectFiles::maybeSave()
{
    if (!m_doc->isModified()) return true;
    const auto answer = QMessageBox::question(
        m_window, tr("Unsaved changes"),
        tr("%1 has unsaved changes. Save them?").arg(m_doc->displayName()),
        QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
    if (answer == QMessageBox::Cancel) return false;
    if (answer == QMessageBox::Save) return save();
    return true;
}

void ProjectFiles::updateWatchedFiles()
{
    if (const QStringList old = m_watcher->files(); !old.isEmpty()) m_watcher->removePaths(old);
    QStringList files;
    for (const QString& f : {m_doc->kernelFilePath(), m_doc->referenceFilePath()})
        if (!f.isEmpty() && QFileInfo::exists(f)) files << f;
    if (!files.isEmpty()) m_watcher->addPaths(files);
}

void ProjectFiles::sourceFileChanged(const QString& path)
{
    // Editors that save by replacing the file end the watch: watch the new file.
    if (QFileInfo::exists(path) && !m_watcher->files().contains(path)) m_watcher->addPath(path);
    const bool kernel = QFileInfo(path) == QFileInfo(m_doc->kernelFilePath());
    const bool reference = !kernel && QFileInfo(path) == QFileInfo(m_doc->referenceFilePath());
    if ((!kernel && !reference) || !QFileInfo::exists(path)) return;
    QString disk;
    try {
        disk = SessionDocument::readSource(path, kernel ? "the kernel source"
                                                        : "the C++ reference source");
    } catch (const std::exception& e) {
        Q_EMIT logged(
            tr("%1 changed on disk but cannot be read: %2").arg(path, QString::fromUtf8(e.what())));
        return;
    }
    KernelEditor* editor = kernel ? m_editors->kernelEditor() : m_editors->referenceEditor();
    const QString onDisk = kernel ? m_doc->kernelOnDisk() : m_doc->referenceOnDisk();
    if (disk == editor->text()) { // our own save, or nothing new
        kernel ? m_doc->setKernelOnDisk(disk) : m_doc->setReferenceOnDisk(disk);
        return;
    }
    const QString name = QFileInfo(path).fileName();
    if (editor->text() != onDisk) {
        const auto answer = QMessageBox::question(
            m_window, tr("%1 changed on disk").arg(name),
            tr("%1 was changed by another program, and the window has edits of it that are not "
               "saved.\n\nReload it from disk (your edits in the window are lost) or keep the "
               "window's text (saving overwrites the file)?")
                .arg(name),
            QMessageBox::Yes | QMessageBox::No, QMessageBox::No);
        if (answer != QMessageBox::Yes) {
            Q_EMIT logged(tr("%1 changed on disk; kept the window's text").arg(name));
            kernel ? m_doc->setKernelOnDisk(disk) : m_doc->setReferenceOnDisk(disk);
            return;
        }
    }
    const bool wasModified = m_doc->isModified();
    const int line = editor->firstVisibleLine();
    editor->setText(disk); // through the document: compiles and greys results like typing
    editor->setFirstVisibleLine(line);
    kernel ? m_doc->setKernelOnDisk(disk) : m_doc->setReferenceOnDisk(disk);
    if (!wasModified) m_doc->setModified(false);
    Q_EMIT logged(tr("reloaded %1: it changed on disk").arg(name));
    Q_EMIT statusMessage(tr("Reloaded %1 (changed on disk)").arg(name), 4000);
    Q_EMIT sourceReloaded(path);
}

void ProjectFiles::addRecentFile(const QString& path)
{
    QSettings settings;
    QStringList recent = settings.value(QStringLiteral("recentFiles")).toStringList();
    recent.removeAll(path);
    recent.prepend(path);
    while (recent.size() > kMaxRecent)
        recent.removeLast();
    settings.setValue(QStringLiteral("recentFiles"), recent);
    rebuildRecentMenu();
}

void ProjectFiles::rebuildRecentMenu()
{
    if (!m_recentMenu) return;
    m_recentMenu->clear();
    const QStringList recent = QSettings().value(QStringLiteral("recentFiles")).toStringList();
    for (const QString& path : recent)
        m_recentMenu
            ->addAction(QFileInfo(path).fileName(), this,
                        [this, path]() {
                            if (maybeSave()) open(path);
                        })
            ->setToolTip(path);
    m_recentMenu->setEnabled(!recent.isEmpty());
}

} // namespace wb::ui
