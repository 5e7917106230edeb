// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/profiling/SessionProfiler.h"
#include "core/runner/RunnerClient.h"
#include "ui/common/RunOutcome.h"
#include "ui/common/Worker.h"

#include <QElapsedTimer>
#include <QObject>

#include <memory>

namespace wb::ui {

class SessionDocument;

/// Runs the document's session in warpbench-runner (runner::RunnerClient, as the CLI does),
/// from the run worker, and hands the outcome back on the GUI thread: no kernel can crash or
/// freeze the window. Cancel frees the window at once, drops the late result and asks the
/// runner to stop (it is killed when the kernel does not finish within the grace period).
class RunController : public QObject {
    Q_OBJECT
public:
    RunController(SessionDocument* document, Worker* worker, QObject* parent = nullptr);

    /// Starts a run of the session as it is now (unsaved edits included). False while one runs.
    /// `boundsChecked`: on the CPU emulator with every access checked (ASan, in the sandbox):
    /// slower, but a wild access becomes findings (RunReport::memoryFindings: kernel, file:line,
    /// block/thread, what) instead of a crash.
    /// `raceChecked`: on the CPU emulator in race-check mode (RunReport::races).
    bool run(bool boundsChecked = false, bool raceChecked = false);
    /// Starts a run of the session under compute-sanitizer (`tool`: memcheck or racecheck) in a
    /// one-shot runner: its findings (RunOutcome::findings: kernel, file:line, block/thread)
    /// fail the run and land in Problems like the emulator's. False while one runs.
    bool runUnderSanitizer(runner::RunnerClient::MemoryCheck tool);
    /// Starts a profile run: the session as it is now runs in warpbench-runner on the CUDA
    /// backend and its kernel is profiled after the timed launches (cold-L2 timing, hardware
    /// counters); runFinished carries RunOutcome::profile. False while a run is running or when
    /// profileUnavailableReason() says why it cannot run.
    bool profile(const profiling::SessionProfileOptions& options = {});
    /// Why `session` cannot be profiled here (it runs on the CPU emulator, or CUDA is not
    /// usable), or an empty string.
    static QString profileUnavailableReason(const session::Session& session);
    /// The same, with the driver's answer already known (`cudaProblem`: nullopt when a GPU is
    /// usable), for callers on the GUI thread: asking the driver may initialise it (cuInit).
    static QString profileUnavailableReason(const session::Session& session,
                                            const std::optional<std::string>& cudaProblem);
    void cancel();
    bool isRunning() const noexcept { return m_running; }
    /// Trace mode (CPU emulator): runs record who wrote each output element (RunReport::traces).
    void setTrace(bool on) noexcept { m_trace = on; }
    bool trace() const noexcept { return m_trace; }
    qint64 elapsedMs() const { return m_running ? m_clock.elapsed() : 0; }
    std::shared_ptr<const RunOutcome> lastOutcome() const { return m_last; }
    /// Another project was opened: its buffers are not the last run's (a running run is
    /// abandoned like cancel(), its result dropped).
    void forgetLastOutcome();

Q_SIGNALS:
    void runStarted();
    void runFinished(std::shared_ptr<const wb::ui::RunOutcome> outcome);
    void runCancelled();

private:
    /// Runs `request` (its session set to `session`) on the warm runner from the run worker;
    /// runFinished carries the outcome.
    void submit(session::Session session, runner::RunnerClient::Request request,
                std::shared_ptr<runner::RunnerClient> client = nullptr);

    SessionDocument* m_doc;
    Worker* m_worker;
    bool m_running = false;
    bool m_trace = false;
    quint64 m_generation = 0;
    QElapsedTimer m_clock;
    CancelToken m_token;
    std::shared_ptr<const RunOutcome> m_last;
    /// Runs and profile runs go through the isolated runner (created at the first run; the
    /// runner stays warm between runs).
    std::shared_ptr<runner::RunnerClient> m_client;
    /// The client of the run in progress: m_client, or a compute-sanitizer run's own.
    std::shared_ptr<runner::RunnerClient> m_active;
};

} // namespace wb::ui
