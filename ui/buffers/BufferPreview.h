// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QObject>
#include <QString>

namespace wb::ui {

class BufferViewer;
class ResultStaleness;
class RunController;
class SessionDocument;
class Worker;

/// What the buffer viewer shows: a buffer's data from the last run (its result, or its input
/// as it was filled), or, before any run, the buffer filled as a run would fill it
/// (session::SessionRunner::makeInputs, on `worker`). The viewer follows each new run, greys
/// with the results and empties for another project.
class BufferPreview : public QObject {
    Q_OBJECT
public:
    BufferPreview(BufferViewer* viewer, SessionDocument* document, RunController* runner,
                  Worker* worker, QObject* parent = nullptr);

    /// Shows buffer `name` (its latest data); `raise` asks for the viewer to come forward.
    void show(const QString& name, bool raise = true);
    /// Greys the viewer with the results.
    void follow(ResultStaleness* staleness);

Q_SIGNALS:
    void shown(const QString& name);
    void raiseRequested();
    /// For the run log.
    void logged(const QString& line);
    /// For the status bar (`text` empty: clear it; `timeoutMs` 0: until replaced).
    void statusMessage(const QString& text, int timeoutMs);

private:
    BufferViewer* m_viewer;
    SessionDocument* m_doc;
    RunController* m_runner;
    Worker* m_worker;
};

} // namespace wb::ui
