// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/common/RunController.h"

#include "core/backend/Backend.h"
#include "core/common/Error.h"
#include "core/runner/RunnerClient.h"
#include "core/session/SessionRunner.h"
#include "ui/common/SessionDocument.h"

#include <chrono>

namespace wb::ui {

namespace {

double msSince(std::chrono::steady_clock::time_point start)
{
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
        .count();
}

} // namespace

RunController::RunController(SessionDocument* document, Worker* worker, QObject* parent)
    : QObject(parent)
    , m_doc(document)
    , m_worker(worker)
{
}

bool RunController::run(bool boundsChecked, bool raceChecked)
{
    if (m_running) return false;
    runner::RunnerClient::Request req;
    if (m_trace) {
        req.options.check = CheckMode::Trace;
        req.options.backend = BackendKind::Cpu;
    }
    if (boundsChecked) {
        req.options.check = CheckMode::Bounds;
        req.options.backend = BackendKind::Cpu;
    }
    if (raceChecked) {
        req.options.check = CheckMode::Races;
        req.options.backend = BackendKind::Cpu;
        req.timeoutMs = 300000; // instrumented: every access goes to the detector
    }
    submit(m_doc->runnableSession(), std::move(req));
    return true;
}

bool RunController::runUnderSanitizer(runner::RunnerClient::MemoryCheck tool)
{
    if (m_running) return false;
    runner::RunnerClient::Config config;
    config.memoryCheck = tool;
    runner::RunnerClient::Request req;
    req.timeoutMs = 300000; // compute-sanitizer starts slowly and runs kernels 10-100x slower
    submit(m_doc->runnableSession(), std::move(req),
           std::make_shared<runner::RunnerClient>(config));
    return true;
}

QString RunController::profileUnavailableReason(const session::Session& s)
{
    if (s.backend == BackendKind::Cpu) return profileUnavailableReason(s, std::nullopt);
    return profileUnavailableReason(s, cudaUnavailableReason());
}

QString RunController::profileUnavailableReason(const session::Session& s,
                                                const std::optional<std::string>& cudaProblem)
{
    if (s.backend == BackendKind::Cpu)
        return tr("profile needs the CUDA backend: this session runs on the CPU emulator, which "
                  "has no hardware counters and no L2 cache to flush (choose the CUDA backend)");
    if (cudaProblem)
        return tr("profile needs the CUDA backend: %1").arg(QString::fromStdString(*cudaProblem));
    return {};
}

bool RunController::profile(const profiling::SessionProfileOptions& profileOptions)
{
    if (m_running) return false;
    session::Session s = m_doc->runnableSession();
    if (!profileUnavailableReason(s).isEmpty()) return false;
    runner::RunnerClient::Request req;
    req.options.backend = BackendKind::Cuda;
    req.profile = profileOptions;
    submit(std::move(s), std::move(req));
    return true;
}

void RunController::submit(session::Session s, runner::RunnerClient::Request req,
                           std::shared_ptr<runner::RunnerClient> oneShot)
{
    m_running = true;
    m_clock.start();
    const quint64 generation = ++m_generation;
    Q_EMIT runStarted();
    if (!m_client) m_client = std::make_shared<runner::RunnerClient>();
    m_active = oneShot ? std::move(oneShot) : m_client;
    m_token = m_worker->post<std::shared_ptr<const RunOutcome>>(
        this,
        [s = std::move(s), req = std::move(req),
         client = m_active](const CancelToken& token) mutable {
            auto outcome = std::make_shared<RunOutcome>();
            const auto start = std::chrono::steady_clock::now();
            // The kernel runs in warpbench-runner: a crash, a lost GPU context or a kernel
            // that never ends is a message (RunReport::message) and a fresh runner next time.
            req.session = s;
            runner::RunOutcome r = client->run(req);
            session::SessionRunner::checkCoverage(s, r.report);
            outcome->report = std::move(r.report);
            outcome->boundsChecked = req.options.check == CheckMode::Bounds;
            outcome->raceChecked = req.options.check == CheckMode::Races;
            if (req.profile)
                outcome->profile =
                    r.profile
                        ? std::move(r.profile)
                        : profiling::ProfileReport::notProfiled(
                              {profiling::ProfilerStatus::State::Failed, outcome->report.message});
            // The runner words its advice for the CLI; in the window it is a menu entry.
            std::string& message = outcome->report.message;
            if (const auto at = message.find("(--bounds-check)"); at != std::string::npos)
                message.replace(at, 16, "(Run → Run with Bounds Checking)");
            // A crash or a bad address (the runner's advice, or the GPU's words for it): the
            // results offer the emulator's checked run, which names the access and its line.
            if (req.options.check != CheckMode::Bounds &&
                outcome->report.status == session::RunReport::Status::RuntimeError)
                for (const char* sign :
                     {"Run with Bounds Checking", "crashed with SIG", "ILLEGAL_ADDRESS",
                      "illegal memory access", "MISALIGNED_ADDRESS"})
                    if (message.find(sign) != std::string::npos) outcome->offersBoundsCheck = true;
            outcome->wallMs = msSince(start);
            if (token.cancelled()) return std::shared_ptr<const RunOutcome>(outcome);
            try {
                auto inputs = session::SessionRunner::makeInputs(s);
                for (const auto& b : s.buffers)
                    if (b.role != session::BufferRole::Out)
                        outcome->inputs.emplace(b.name, std::move(inputs[b.name]));
            } catch (const std::exception&) {
                // The report already says why the inputs could not be made.
            }
            // The copy times are those of the run itself, measured in the runner
            // (RunReport::h2dMs/d2hMs): this process never touches a device.
            if (outcome->report.h2dMs < 0 || outcome->report.d2hMs < 0)
                outcome->transferNote = r.fault != runner::Fault::None
                                            ? tr("copies not measured: the run ended in a fault")
                                            : tr("copies not measured: the kernel did not run");
            return std::shared_ptr<const RunOutcome>(outcome);
        },
        [this, generation](std::shared_ptr<const RunOutcome> outcome) {
            if (generation != m_generation) return; // cancelled: dropped
            m_running = false;
            m_last = outcome;
            Q_EMIT runFinished(std::move(outcome));
        });
}

void RunController::cancel()
{
    if (!m_running) return;
    if (m_active) m_active->cancel();
    ++m_generation;
    m_token.cancel();
    m_running = false;
    Q_EMIT runCancelled();
}

void RunController::forgetLastOutcome()
{
    cancel();
    m_last.reset();
}

} // namespace wb::ui
