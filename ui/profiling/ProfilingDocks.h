// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/profiling/SessionProfiler.h"
#include "core/session/Session.h"

#include <QObject>

#include <memory>
#include <optional>

class QAction;
class QDockWidget;
class QMainWindow;
class QMenu;

namespace wb::ui {

class EnvironmentProbe;
class GuidePanel;
class HistoryPanel;
class LaunchGeometryView;
class LaunchPanel;
class RunController;
class SessionDocument;
class SpeedOfLightPanel;
class RooflineChart;
class SweepPanel;
class TraceOverlayView;
struct RunOutcome;

/// Adds the profiling (issue 7) and teaching (issue 9) docks to the main window and wires them
/// to the document, the run controller and the environment it is given (Parts):
/// Profile (Speed-of-Light), History, Sweep and "Who wrote what" tabbed with the results;
/// Launch geometry and Guide beside the launch form; View → Presentation Mode and
/// Run → Profile and Run → Record Who Wrote What. Every finished run is recorded in the history.
class ProfilingDocks : public QObject {
    Q_OBJECT
public:
    /// What the docks need from the window: whom they listen to, the docks they are tabbed
    /// with, the menus their actions go into.
    struct Parts {
        SessionDocument* document;
        RunController* runner;
        EnvironmentProbe* environment;
        LaunchPanel* launch;  ///< its occupancy is a figure of the Profile dock
        QDockWidget* buffers; ///< Launch geometry and Guide are tabbed with it
        QDockWidget* results; ///< stays in front
        QDockWidget* viewer;  ///< Profile, History, Sweep and Who wrote what follow it
        QMenu* view;
        QMenu* run;
    };
    ProfilingDocks(QMainWindow* window, Parts parts);
    ~ProfilingDocks() override;

    SpeedOfLightPanel* speedOfLight() const noexcept { return m_sol; }
    /// The roofline below the Speed-of-Light panel in the Profile dock.
    RooflineChart* roofline() const noexcept { return m_roofline; }
    HistoryPanel* history() const noexcept { return m_history; }
    SweepPanel* sweep() const noexcept { return m_sweep; }
    LaunchGeometryView* geometry() const noexcept { return m_geometry; }
    GuidePanel* guide() const noexcept { return m_guide; }
    TraceOverlayView* traceView() const noexcept { return m_trace; }
    QAction* presentationAction() const noexcept { return m_presentation; }
    QAction* traceAction() const noexcept { return m_traceAction; }
    /// Run → Profile (Ctrl+Shift+R): disabled, with the reason as its tooltip, on the CPU
    /// emulator or without a usable GPU.
    QAction* profileAction() const noexcept { return m_profileAction; }

    /// What Run → Profile does: runs the session in warpbench-runner with profiling on
    /// (RunController::profile); the Profile dock then shows the profile and the history
    /// records the run with its counters. Where profiling cannot run, the Profile dock's status
    /// line says why (its figures stay) and false is returned; nothing else changes.
    bool profile();
    /// Run → Profile Options: timing with CUDA events or CUPTI kernel records, L2 flushed before
    /// every sample, hardware counters collected. Kept in QSettings ("profile/…").
    profiling::SessionProfileOptions profileOptions() const;
    QAction* cuptiTimingAction() const noexcept { return m_cuptiTiming; }
    QAction* flushL2Action() const noexcept { return m_flushL2; }
    QAction* countersAction() const noexcept { return m_counters; }
    QAction* hotspotsAction() const noexcept { return m_hotspots; }
    QDockWidget* profileDock() const noexcept { return m_profileDock; }
    QDockWidget* historyDock() const noexcept { return m_historyDock; }
    QDockWidget* sweepDock() const noexcept { return m_sweepDock; }
    /// An example was opened: its guide (a GUIDE.md beside `project`) comes forward.
    void showGuideOf(const QString& project);

private:
    /// Why Run → Profile cannot run now, from the window's environment probe; empty if it can.
    QString profileUnavailableReason() const;
    void onRunFinished(const RunOutcome& outcome);
    void updateGeometry();
    void projectChanged();
    /// Another project: the figures, the roofline and the trace were of its runs.
    void clearRunResults();
    void updateProfileAction();

    QMainWindow* m_window;
    SessionDocument* m_doc;
    RunController* m_runner;
    EnvironmentProbe* m_environment;
    LaunchPanel* m_launch;
    QDockWidget* m_guideDock = nullptr;
    SpeedOfLightPanel* m_sol = nullptr;
    RooflineChart* m_roofline = nullptr;
    /// The kernel the roofline shows and the history id of its run (not an "earlier" run).
    std::string m_rooflineKernel;
    qint64 m_rooflineRunId = -1;
    void updateRooflineHistory();
    HistoryPanel* m_history = nullptr;
    SweepPanel* m_sweep = nullptr;
    LaunchGeometryView* m_geometry = nullptr;
    GuidePanel* m_guide = nullptr;
    TraceOverlayView* m_trace = nullptr;
    QAction* m_presentation = nullptr;
    QAction* m_traceAction = nullptr;
    QAction* m_profileAction = nullptr;
    QAction* m_eventTiming = nullptr;
    QAction* m_cuptiTiming = nullptr;
    QAction* m_flushL2 = nullptr;
    QAction* m_counters = nullptr;
    QAction* m_hotspots = nullptr; ///< PC sampling: heat margin and SASS samples
    QDockWidget* m_profileDock = nullptr;
    QDockWidget* m_historyDock = nullptr;
    QDockWidget* m_sweepDock = nullptr;
    QDockWidget* m_traceDock = nullptr;
    /// The session as it was when the current run started (what the history records).
    std::optional<session::Session> m_runSession;
};

} // namespace wb::ui
