// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/common/Worker.h"

namespace wb::ui {

Worker::Worker(const QString& name, QObject* parent)
    : QObject(parent)
{
    m_thread.setObjectName(name);
    m_executor = new QObject;
    m_executor->moveToThread(&m_thread);
    connect(&m_thread, &QThread::finished, m_executor, &QObject::deleteLater);
    m_thread.start();
}

Worker::~Worker()
{
    m_thread.quit();
    m_thread.wait();
}

void Worker::enqueue(std::function<void()> task)
{
    if (m_pending.fetch_add(1) == 0) Q_EMIT busyChanged(true);
    QMetaObject::invokeMethod(m_executor, std::move(task), Qt::QueuedConnection);
}

void Worker::jobFinished()
{
    if (m_pending.fetch_sub(1) == 1)
        QMetaObject::invokeMethod(
            this, [this]() { Q_EMIT busyChanged(m_pending.load() > 0); }, Qt::QueuedConnection);
}

} // namespace wb::ui
