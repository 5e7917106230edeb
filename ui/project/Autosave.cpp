// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/project/Autosave.h"

#include "ui/common/Worker.h"

#include <QSemaphore>

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSaveFile>
#include <QStandardPaths>
#include <QUuid>

#include <algorithm>

namespace wb::ui {

QString Autosave::defaultDirectory()
{
    const QString env = qEnvironmentVariable("WARPBENCH_AUTOSAVE_DIR");
    if (!env.isEmpty()) return env;
    return QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation) +
           QStringLiteral("/autosave");
}

Autosave::Autosave(const QString& directory, QObject* parent)
    : QObject(parent)
    , m_dir(directory.isEmpty() ? defaultDirectory() : directory)
{
    QDir().mkpath(m_dir);
    m_id = QUuid::createUuid().toString(QUuid::WithoutBraces);
    m_path = m_dir + u'/' + m_id + QStringLiteral(".wbautosave");
    m_lock = std::make_unique<QLockFile>(m_dir + u'/' + m_id + QStringLiteral(".lock"));
    m_lock->setStaleLockTime(0);
    m_lock->tryLock(0);
    m_timer.setSingleShot(true);
    connect(&m_timer, &QTimer::timeout, this, &Autosave::write);
    m_worker = new Worker(QStringLiteral("wb-autosave"), this);
}

Autosave::~Autosave()
{
    waitForWrites();
    // A clean exit keeps no snapshot only if the owner cleared it; otherwise it stays for the
    // next start (the lock is released, so it is offered).
    if (m_lock) m_lock->unlock();
}

void Autosave::noteModified()
{
    const QDateTime now = QDateTime::currentDateTimeUtc();
    if (!m_timer.isActive()) m_firstPending = now;
    const qint64 waited = m_firstPending.msecsTo(now);
    const qint64 left = std::max<qint64>(0, kMaxDelayMs - waited);
    m_timer.start(static_cast<int>(std::min<qint64>(kQuietMs, left)));
}

void Autosave::flush()
{
    if (m_timer.isActive()) {
        m_timer.stop();
        write();
    }
}

void Autosave::write()
{
    if (!m_provider) return;
    const QByteArray content = m_provider();
    const QString path = m_path;
    m_worker->post<bool>(
        this,
        [content, path](const CancelToken&) {
            QSaveFile file(path);
            if (!file.open(QIODevice::WriteOnly)) return false;
            file.write(content);
            return file.commit();
        },
        [this, path](bool ok) {
            if (ok) Q_EMIT snapshotWritten(path);
        });
}

void Autosave::clear()
{
    m_timer.stop();
    // After any write still in flight, in order.
    const QString path = m_path;
    m_worker->post<bool>(
        this, [path](const CancelToken&) { return QFile::remove(path); }, [](bool) {});
}

void Autosave::waitForWrites()
{
    QSemaphore done;
    m_worker->post<bool>(
        nullptr,
        [&done](const CancelToken&) {
            done.release();
            return true;
        },
        [](bool) {});
    done.acquire();
}

QList<Autosave::Recovered> Autosave::findRecoverable() const
{
    QList<Recovered> found;
    const QDir dir(m_dir);
    const QFileInfoList files =
        dir.entryInfoList({QStringLiteral("*.wbautosave")}, QDir::Files, QDir::Time);
    for (const QFileInfo& info : files) {
        if (info.absoluteFilePath() == QFileInfo(m_path).absoluteFilePath()) continue;
        QLockFile lock(dir.filePath(info.completeBaseName() + QStringLiteral(".lock")));
        lock.setStaleLockTime(0);
        // Locked by a live process: another open window's work, not ours to offer.
        if (!lock.tryLock(0)) continue;
        lock.unlock();
        QFile file(info.absoluteFilePath());
        if (!file.open(QIODevice::ReadOnly)) continue;
        found.append({info.absoluteFilePath(), info.lastModified(), file.readAll()});
    }
    return found;
}

void Autosave::discard(const Recovered& recovered)
{
    QFile::remove(recovered.snapshotPath);
    const QFileInfo info(recovered.snapshotPath);
    QFile::remove(info.absolutePath() + u'/' + info.completeBaseName() + QStringLiteral(".lock"));
}

} // namespace wb::ui
