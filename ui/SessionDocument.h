// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/session/Session.h"

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
    /// "hello_gpu.wbproj" or "Untitled".
    QString displayName() const;
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
    /// Throws wb::Error naming the field or file on failure; the document is unchanged then.
    /// `flagsTrusted` becomes Session::flagsTrusted before sessionReplaced() is emitted, so that
    /// the compiles it starts already know whether the project's flags may run.
    void load(const QString& path, bool flagsTrusted = false);
    /// The user trusted (or no longer trusts) the project's compiler flags (ProjectTrust).
    void setFlagsTrusted(bool trusted);
    /// Replaces the whole session (recovery, tests). `path` may be empty.
    void setSession(session::Session session, const QString& path, const QString& kernelText,
                    const QString& referenceText);
    /// Writes the project (and its separate kernel/reference files) atomically. Throws wb::Error.
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
    bool m_modified = false;
};

} // namespace wb::ui
