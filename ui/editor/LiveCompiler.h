// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/common/CompileResult.h"
#include "ui/common/Worker.h"

#include <QObject>
#include <QTimer>

#include <functional>
#include <memory>

namespace wb::ui {

/// Compiles while the user types: schedule() restarts a short timer; when it fires the latest
/// job runs on the worker and its result comes back as compiled() on the GUI thread. Results
/// of superseded jobs are dropped, so markers always belong to the newest text.
class LiveCompiler : public QObject {
    Q_OBJECT
public:
    using Job = std::function<CompileResult(const CancelToken&)>;

    LiveCompiler(Worker* worker, int delayMs, QObject* parent = nullptr);

    /// Replaces the pending job and restarts the debounce timer.
    void schedule(Job job);
    /// Runs `job` at once (Compile button, project opened).
    void runNow(Job job);
    bool isCompiling() const noexcept { return m_running > 0; }
    /// The newest result, or nullptr before the first one.
    std::shared_ptr<const CompileResult> lastResult() const { return m_last; }
    void setDelay(int ms) { m_timer.setInterval(ms); }

Q_SIGNALS:
    void compileStarted();
    void compiled(std::shared_ptr<const wb::CompileResult> result);

private:
    void fire();

    Worker* m_worker;
    QTimer m_timer;
    Job m_pending;
    quint64 m_generation = 0;
    int m_running = 0;
    std::shared_ptr<const CompileResult> m_last;
};

} // namespace wb::ui
