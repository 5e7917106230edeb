// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QDateTime>
#include <QLockFile>
#include <QObject>
#include <QTimer>

#include <functional>
#include <memory>

class QThread;

namespace wb::ui {

class Worker;

/// Crash recovery. Each running window owns a snapshot file and a lock file in the autosave
/// folder; after an edit the snapshot is rewritten (atomically) within kMaxDelayMs, so a kill -9
/// loses at most that much typing. A snapshot whose lock is stale belongs to a process that
/// died: the next start offers it. A clean save or close removes the snapshot. The snapshot is
/// taken on the GUI thread (a small JSON text) and written on a worker: QSaveFile's commit syncs
/// the file to disk, which can take tens of milliseconds on a busy disk.
class Autosave : public QObject {
    Q_OBJECT
public:
    static constexpr int kQuietMs = 750;     ///< written this long after the last edit …
    static constexpr int kMaxDelayMs = 2500; ///< … but never later than this after the first

    /// A snapshot left behind by a process that is gone.
    struct Recovered {
        QString snapshotPath;
        QDateTime savedAt;
        QByteArray content;
    };

    /// `directory` empty: $WARPBENCH_AUTOSAVE_DIR, else <AppLocalData>/autosave.
    explicit Autosave(const QString& directory = {}, QObject* parent = nullptr);
    ~Autosave() override;

    static QString defaultDirectory();
    QString directory() const { return m_dir; }
    QString snapshotPath() const { return m_path; }

    /// What to write: called on the GUI thread when a snapshot is due.
    void setSnapshotProvider(std::function<QByteArray()> provider)
    {
        m_provider = std::move(provider);
    }
    /// Call after each edit.
    void noteModified();
    /// Starts the write now if an edit is pending (it completes on the worker).
    void flush();
    /// Waits until every started write (or removal) is done; for tests and shutdown.
    void waitForWrites();
    /// The work is saved (or discarded): no snapshot needed any more.
    void clear();
    bool isPending() const noexcept { return m_timer.isActive(); }

    /// Snapshots of dead processes, newest first (their locks are stale).
    QList<Recovered> findRecoverable() const;
    /// Deletes a recovered snapshot (after it was restored or declined).
    static void discard(const Recovered& recovered);

Q_SIGNALS:
    void snapshotWritten(const QString& path);

private:
    void write();

    QString m_dir;
    QString m_id;
    QString m_path;
    std::unique_ptr<QLockFile> m_lock;
    Worker* m_worker = nullptr;
    std::function<QByteArray()> m_provider;
    QTimer m_timer;
    QDateTime m_firstPending;
};

} // namespace wb::ui
