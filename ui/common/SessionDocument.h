// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/session/Session.h"
#include "core/session/SignatureSpecs.h"

#include <QObject>
#include <QString>

#include <functional>

namespace wb::ui {

/// The session the window edits, plus what the GUI needs around it: the project file path, the
/// editor texts (which may live in separate .cu/.cpp files) and the modified flag. Every panel
/// receives this one object and edits through it, so the CLI's model is the GUI's model.
class SessionDocument : public QObject {
    Q_OBJECT
public:
    /// What an edit touched, so panels refresh only what they show.
    enum class Part { Kernel, Reference, Buffers, Scalars, Launch, CompileOptions, Run, All };
    Q_ENUM(Part)

    explicit SessionDocument(QObject* parent = nullptr);

    const session::Session& session() const noexcept { return m_session; }
    /// The session as it should run now: editor texts inlined (unsaved edits included).
    session::Session runnableSession() const;

    const QString& filePath() const noexcept { return m_path; }
    /// "hello_gpu.wbproj", "saxpy.wbproj (example)" or "Untitled".
    QString displayName() const;
    /// The shipped example this document is a private copy of (its .wbproj), or empty. Such a
    /// document is saved only through Save As, never into the copy or the example's folder.
    const QString& exampleOf() const noexcept { return m_exampleOf; }
    /// Whether Save needs a new place: an untitled project or an example's copy.
    bool needsSaveAs() const { return m_path.isEmpty() || !m_exampleOf.isEmpty(); }
    bool isModified() const noexcept { return m_modified; }
    void setModified(bool modified);

    const QString& kernelText() const noexcept { return m_kernelText; }
    const QString& referenceText() const noexcept { return m_referenceText; }
    /// From the editors; mark the document modified and emit edited().
    void setKernelText(const QString& text);
    void setReferenceText(const QString& text);

    /// Applies `change` to the session, marks it modified and emits edited(part).
    void edit(Part part, const std::function<void(session::Session&)>& change);

    /// A new, empty session (a template kernel with one buffer).
    void newSession();
    /// Create Buffers from Signature: adds the buffers and scalars `kernel` lacks
    /// (session::SignatureSpecs) and launches it, as one edit (Part::All). The new project's
    /// template parts the kernel does not use — its untouched `in`/`out`/`factor` and its C++
    /// reference for `scale`, which cannot fit another kernel — are removed; the reference
    /// comes back when reference.cpp is typed into. `removed` receives what was removed.
    session::SignatureSpecs createFromSignature(const KernelInfo& kernel,
                                                QStringList* removed = nullptr);
    /// Reloads the kernel (or C++ reference) text from its separate file after it changed on
    /// disk; the document stays unmodified when it was. Throws wb::Error when unreadable.
    /// The separate source files of a saved project, absolute (empty when inline).
    QString kernelFilePath() const;
    QString referenceFilePath() const;
    /// The texts of those files as last read or written by the document: the editor text differs
    /// from it when the window has unsaved edits of that source.
    const QString& kernelOnDisk() const noexcept { return m_kernelOnDisk; }
    const QString& referenceOnDisk() const noexcept { return m_referenceOnDisk; }
    /// The file changed on disk and its new `text` was taken into the editor: remember it.
    void setKernelOnDisk(const QString& text) { m_kernelOnDisk = text; }
    void setReferenceOnDisk(const QString& text) { m_referenceOnDisk = text; }
    /// Reads a separate source file of the project (UserFile: a FIFO never blocks). Throws.
    static QString readSource(const QString& path, const std::string& what);
    /// Throws wb::Error naming the field or file on failure; the document is unchanged then.
    /// `flagsTrusted` becomes Session::flagsTrusted before sessionReplaced() is emitted, so that
    /// the compiles it starts already know whether the project's flags may run.
    /// `exampleOf`: the shipped example `path` is a private copy of (see exampleOf()).
    void load(const QString& path, bool flagsTrusted = false, const QString& exampleOf = {});
    /// The user trusted (or no longer trusts) the project's compiler flags (ProjectTrust).
    void setFlagsTrusted(bool trusted);
    /// Replaces the whole session (recovery, tests). `path` may be empty.
    void setSession(session::Session session, const QString& path, const QString& kernelText,
                    const QString& referenceText, const QString& exampleOf = {});
    /// Writes the project (and its separate kernel/reference files) atomically. Throws wb::Error.
    /// A project saved without separate sources (new or inline) gets `kernel.cu` and, for a C++
    /// reference, `reference.cpp` next to it (`<name>.cu` / `<name>_reference.cpp` when those
    /// names are taken by other files), so the kernel can be edited in any editor. Saving an
    /// example's copy also copies its data files and GUIDE.md, so the saved project is whole.
    void save(const QString& path);

    /// The project JSON as it would be saved, editor texts inlined (autosave snapshots).
    std::string snapshotJson() const;

Q_SIGNALS:
    /// The whole session was replaced (new, open, recover).
    void sessionReplaced();
    /// Part of the session was edited.
    void edited(wb::ui::SessionDocument::Part part);
    void modifiedChanged(bool modified);
    void filePathChanged(const QString& path);

private:
    session::Session m_session;
    QString m_path;
    QString m_kernelText;
    QString m_referenceText;
    QString m_exampleOf;
    QString m_kernelOnDisk;
    QString m_referenceOnDisk;
    bool m_modified = false;
};

} // namespace wb::ui
