// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QObject>
#include <QString>

namespace wb::ui {

class RunController;
class SessionDocument;

/// Says when the results on screen stopped matching the session: an edit (of any part), or
/// an edit made while the run ran (said when its results arrive). Panels that show a run's
/// results grey them on stale(); nothing is said while a run runs (its "Running…" line stays).
/// Construct it after the panels subscribed to the run controller, so that a run's results
/// are shown before they are greyed.
class ResultStaleness : public QObject {
    Q_OBJECT
public:
    ResultStaleness(SessionDocument* document, RunController* runner, QObject* parent = nullptr);

    /// The results are of an earlier version (`why`: "the kernel no longer compiles").
    void markStale(const QString& why);

Q_SIGNALS:
    void stale(const QString& why);

private:
    RunController* m_runner;
    quint64 m_editGeneration = 0; ///< counts edits; a run remembers the one it started from
    quint64 m_runEditGeneration = 0;
    QString m_reason; ///< what was edited last
};

} // namespace wb::ui
