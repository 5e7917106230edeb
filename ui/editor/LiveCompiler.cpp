// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/editor/LiveCompiler.h"

namespace wb::ui {

LiveCompiler::LiveCompiler(Worker* worker, int delayMs, QObject* parent)
    : QObject(parent)
    , m_worker(worker)
{
    m_timer.setSingleShot(true);
    m_timer.setInterval(delayMs);
    connect(&m_timer, &QTimer::timeout, this, &LiveCompiler::fire);
}

void LiveCompiler::schedule(Job job)
{
    m_pending = std::move(job);
    ++m_generation; // a result still in flight is now stale
    m_timer.start();
}

void LiveCompiler::runNow(Job job)
{
    m_pending = std::move(job);
    m_timer.stop();
    fire();
}

void LiveCompiler::fire()
{
    if (!m_pending) return;
    Job job = std::move(m_pending);
    m_pending = nullptr;
    const quint64 generation = ++m_generation;
    ++m_running;
    Q_EMIT compileStarted();
    m_worker->post<std::shared_ptr<const CompileResult>>(
        this,
        [job = std::move(job)](const CancelToken& token) {
            return std::make_shared<const CompileResult>(job(token));
        },
        [this, generation](std::shared_ptr<const CompileResult> result) {
            --m_running;
            if (generation != m_generation) return; // superseded while compiling
            m_last = result;
            Q_EMIT compiled(std::move(result));
        });
}

} // namespace wb::ui
