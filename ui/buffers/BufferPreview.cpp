// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/buffers/BufferPreview.h"

#include "core/session/SessionRunner.h"
#include "ui/buffers/BufferViewer.h"
#include "ui/common/ResultStaleness.h"
#include "ui/common/RunController.h"
#include "ui/common/SessionDocument.h"
#include "ui/common/Worker.h"

namespace wb::ui {

BufferPreview::BufferPreview(BufferViewer* viewer, SessionDocument* document, RunController* runner,
                             Worker* worker, QObject* parent)
    : QObject(parent)
    , m_viewer(viewer)
    , m_doc(document)
    , m_runner(runner)
    , m_worker(worker)
{
    // An open viewer follows the new data.
    connect(runner, &RunController::runFinished, this, [this]() {
        if (!m_viewer->bufferName().isEmpty()) show(m_viewer->bufferName(), false);
    });
    // The buffers of another project are not the last run's.
    connect(document, &SessionDocument::sessionReplaced, viewer, &BufferViewer::clear);
}

void BufferPreview::follow(ResultStaleness* staleness)
{
    connect(staleness, &ResultStaleness::stale, m_viewer,
            [this]() { m_viewer->setStale(m_runner->lastOutcome() != nullptr); });
}

void BufferPreview::show(const QString& name, bool raise)
{
    const std::string n = name.toStdString();
    const auto outcome = m_runner->lastOutcome();
    auto show = [this, name, raise](ArrayView view) {
        m_viewer->setBuffer(name, std::move(view));
        if (raise) Q_EMIT raiseRequested();
        Q_EMIT shown(name);
    };
    if (outcome) {
        if (auto it = outcome->report.results.find(n); it != outcome->report.results.end())
            return show(viewOf(outcome, it->second));
        if (auto it = outcome->inputs.find(n); it != outcome->inputs.end())
            return show(viewOf(outcome, it->second));
    }
    // Not run yet: fill it like a run would, on the worker.
    const session::Session s = m_doc->runnableSession();
    Q_EMIT statusMessage(tr("Preparing %1…").arg(name), 0);
    m_worker->post<std::shared_ptr<RunOutcome>>(
        this,
        [s, n](const CancelToken&) {
            auto holder = std::make_shared<RunOutcome>();
            try {
                session::Session one = s;
                auto inputs = session::SessionRunner::makeInputs(one);
                if (auto it = inputs.find(n); it != inputs.end())
                    holder->inputs.emplace(n, std::move(it->second));
            } catch (const std::exception& e) {
                holder->transferNote = QString::fromUtf8(e.what());
            }
            return holder;
        },
        [this, name, n, show](std::shared_ptr<RunOutcome> holder) {
            Q_EMIT statusMessage(QString(), 0);
            auto it = holder->inputs.find(n);
            if (it == holder->inputs.end()) {
                Q_EMIT logged(tr("cannot show %1: %2").arg(name, holder->transferNote));
                Q_EMIT statusMessage(tr("Cannot show %1: %2").arg(name, holder->transferNote),
                                     8000);
                return;
            }
            show(viewOf(holder, it->second));
        });
}

} // namespace wb::ui
