// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/common/ResultStaleness.h"

#include "ui/common/RunController.h"
#include "ui/common/SessionDocument.h"

namespace wb::ui {

namespace {

/// What an edit of `part` changed, for the "from an earlier version" label.
QString whatChanged(SessionDocument::Part part)
{
    switch (part) {
    case SessionDocument::Part::Kernel:
        return QObject::tr("the kernel source changed");
    case SessionDocument::Part::Reference:
        return QObject::tr("the reference changed");
    case SessionDocument::Part::Buffers:
        return QObject::tr("the buffers changed");
    case SessionDocument::Part::Scalars:
        return QObject::tr("the scalars changed");
    case SessionDocument::Part::Launch:
        return QObject::tr("the launch changed");
    case SessionDocument::Part::CompileOptions:
        return QObject::tr("the compile options changed");
    case SessionDocument::Part::Run:
        return QObject::tr("the run settings changed");
    case SessionDocument::Part::All:
        break;
    }
    return QObject::tr("the session changed");
}

} // namespace

ResultStaleness::ResultStaleness(SessionDocument* document, RunController* runner, QObject* parent)
    : QObject(parent)
    , m_runner(runner)
{
    connect(document, &SessionDocument::edited, this, [this](SessionDocument::Part part) {
        ++m_editGeneration;
        m_reason = whatChanged(part);
        markStale(m_reason);
    });
    connect(runner, &RunController::runStarted, this,
            [this]() { m_runEditGeneration = m_editGeneration; });
    connect(runner, &RunController::runFinished, this, [this]() {
        // Edited while it ran: the results are already of an earlier version.
        if (m_editGeneration != m_runEditGeneration) markStale(m_reason);
    });
}

void ResultStaleness::markStale(const QString& why)
{
    // While a run runs its "Running…" line stays; its results are greyed when they arrive.
    if (m_runner->isRunning()) return;
    Q_EMIT stale(why);
}

} // namespace wb::ui
