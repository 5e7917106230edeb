// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QObject>
#include <QPointer>
#include <QThread>

#include <atomic>
#include <functional>
#include <memory>

namespace wb::ui {

/// Set by Worker::cancel(); long jobs poll it between steps and stop early.
class CancelToken {
public:
    bool cancelled() const noexcept { return m_flag->load(std::memory_order_relaxed); }
    void cancel() noexcept { m_flag->store(true, std::memory_order_relaxed); }
    std::shared_ptr<std::atomic<bool>> flag() const { return m_flag; }

private:
    std::shared_ptr<std::atomic<bool>> m_flag = std::make_shared<std::atomic<bool>>(false);
};

/// One thread that runs jobs in the order they were posted (RenderDoc's replay-thread idea):
/// the GUI posts a job and a completion; the job runs here, the completion runs later on the
/// receiver's thread. Exceptions stop at the job: post() takes jobs that return values only.
/// The thread is joined in the destructor (no detached threads).
class Worker : public QObject {
    Q_OBJECT
public:
    explicit Worker(const QString& name, QObject* parent = nullptr);
    ~Worker() override;
    Worker(const Worker&) = delete;
    Worker& operator=(const Worker&) = delete;

    /// Runs `job(token)` on the worker thread, then `done(result)` on `receiver`'s thread
    /// (dropped if the receiver is gone by then). Returns the token that cancels this job.
    template <typename R>
    CancelToken post(QObject* receiver, std::function<R(const CancelToken&)> job,
                     std::function<void(R)> done)
    {
        CancelToken token;
        auto task = [job = std::move(job), done = std::move(done), token,
                     receiver = QPointer<QObject>(receiver), this]() mutable {
            auto result = std::make_shared<R>(job(token));
            if (receiver)
                QMetaObject::invokeMethod(
                    receiver.data(),
                    [done = std::move(done), result]() { done(std::move(*result)); },
                    Qt::QueuedConnection);
            jobFinished();
        };
        enqueue(std::move(task));
        return token;
    }

    /// Jobs posted and not yet finished (read on the GUI thread).
    int pending() const noexcept { return m_pending.load(); }
    bool isBusy() const noexcept { return pending() > 0; }
    QThread* thread() noexcept { return &m_thread; }

Q_SIGNALS:
    /// Emitted on the worker's owner thread when the number of pending jobs goes 0 → n or n → 0.
    void busyChanged(bool busy);

private:
    void enqueue(std::function<void()> task);
    void jobFinished();

    QThread m_thread;
    QObject* m_executor = nullptr; // lives in m_thread
    std::atomic<int> m_pending{0};
};

} // namespace wb::ui
