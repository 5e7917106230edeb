// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/profiling/ProfilingDocks.h"

#include "core/common/Paths.h"
#include "core/profiling/SessionProfiling.h"
#include "core/profiling/history/RunHistory.h"
#include "ui/common/DockScrollArea.h"
#include "ui/common/Environment.h"
#include "ui/common/RunController.h"
#include "ui/common/SessionDocument.h"
#include "ui/common/SessionEval.h"
#include "ui/launch/LaunchPanel.h"
#include "ui/profiling/HistoryPanel.h"
#include "ui/profiling/HistoryTableModel.h"
#include "ui/profiling/RooflineChart.h"
#include "ui/profiling/SpeedOfLightPanel.h"
#include "ui/profiling/SweepPanel.h"
#include "ui/teaching/GuidePanel.h"
#include "ui/teaching/LaunchGeometryView.h"
#include "ui/teaching/PresentationMode.h"
#include "ui/teaching/TraceOverlayView.h"

#include <QAction>
#include <QActionGroup>
#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QFileInfo>
#include <QLabel>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QSettings>
#include <QSplitter>
#include <QVBoxLayout>

#include <filesystem>

namespace wb::ui {

namespace {

/// Beside the project; in the app data folder for unsaved sessions and for the shipped
/// examples (their folder is read-only once installed, and the source tree is not ours to fill).
std::filesystem::path historyPathFor(const QString& project)
{
    if (project.isEmpty()) return profiling::RunHistory::pathForUnsaved();
    const std::filesystem::path file = std::filesystem::absolute(project.toStdString());
    const std::filesystem::path shipped = std::filesystem::absolute(wb::dataDir());
    const auto rel = file.lexically_relative(shipped);
    if (!rel.empty() && *rel.begin() != "..") {
        std::filesystem::path p = profiling::RunHistory::pathForUnsaved();
        p.replace_filename(file.stem().string() + "-example.wbhistory");
        return p;
    }
    return profiling::RunHistory::pathForProject(file);
}

/// The launch panel's theoretical occupancy as a figure of the Profile dock: it needs no
/// counters, so it is there on the CPU emulator and where counters are refused too.
void addTheoreticalOccupancy(std::vector<profiling::Summary>& summaries, const Occupancy& o)
{
    if (o.limitedBy == Occupancy::Limit::Invalid || o.activeWarpsPerSm <= 0) return;
    summaries.push_back({"wb/launch/occupancy_theoretical", "Theoretical occupancy", "percentage",
                         o.occupancy * 100.0,
                         "Active warps per SM the launch allows (registers, shared memory, block "
                         "size), from the launch panel's occupancy calculator: " +
                             o.summary().toStdString()});
}

} // namespace

ProfilingDocks::ProfilingDocks(QMainWindow* window, Parts parts)
    : QObject(window)
    , m_window(window)
    , m_doc(parts.document)
    , m_runner(parts.runner)
    , m_environment(parts.environment)
    , m_launch(parts.launch)
{
    setObjectName(QStringLiteral("profilingDocks"));
    auto dock = [window](const QString& title, const char* name, QWidget* w) {
        auto* d = new QDockWidget(title, window);
        d->setObjectName(QLatin1String(name));
        d->setWidget(new DockScrollArea(w, d)); // scrolls rather than widening the window
        return d;
    };
    m_sol = new SpeedOfLightPanel(window);
    m_history = new HistoryPanel(window);
    m_sweep = new SweepPanel(m_doc, window);
    m_geometry = new LaunchGeometryView(window);
    m_guide = new GuidePanel(window);
    m_trace = new TraceOverlayView(window);

    // "Who wrote what": the trace overlay with its colouring choice.
    auto* traceBox = new QWidget(window);
    auto* tl = new QVBoxLayout(traceBox);
    auto* colourBy = new QComboBox(traceBox);
    colourBy->addItem(tr("Colour by writing block"),
                      static_cast<int>(TraceOverlayView::ColourBy::Block));
    colourBy->addItem(tr("Colour by writing thread"),
                      static_cast<int>(TraceOverlayView::ColourBy::Thread));
    auto* traceNote = new QLabel(tr("Turn on Run → Record Who Wrote What and run: the CPU emulator "
                                    "records the last writer of every output element."),
                                 traceBox);
    traceNote->setWordWrap(true);
    tl->addWidget(traceNote);
    tl->addWidget(colourBy);
    tl->addWidget(m_trace, 1);
    connect(colourBy, &QComboBox::currentIndexChanged, m_trace, [this, colourBy]() {
        m_trace->setColourBy(
            static_cast<TraceOverlayView::ColourBy>(colourBy->currentData().toInt()));
    });

    // Profile dock: Speed of Light above, the roofline below.
    m_roofline = new RooflineChart(window);
    auto* profileSplit = new QSplitter(Qt::Vertical, window);
    profileSplit->addWidget(m_sol);
    profileSplit->addWidget(m_roofline);
    profileSplit->setStretchFactor(0, 1);
    profileSplit->setStretchFactor(1, 1);
    m_profileDock = dock(tr("Profile"), "profileDock", profileSplit);
    m_historyDock = dock(tr("History"), "historyDock", m_history);
    m_sweepDock = dock(tr("Sweep"), "sweepDock", m_sweep);
    m_traceDock = dock(tr("Who wrote what"), "traceDock", traceBox);
    QDockWidget* geometryDock = dock(tr("Launch geometry"), "geometryDock", m_geometry);
    QDockWidget* guideDock = dock(tr("Guide"), "guideDock", m_guide);
    m_guideDock = guideDock;

    QDockWidget* results = parts.results;
    QDockWidget* buffers = parts.buffers;
    QDockWidget* viewer = parts.viewer;
    window->addDockWidget(Qt::BottomDockWidgetArea, m_profileDock);
    window->addDockWidget(Qt::RightDockWidgetArea, geometryDock);
    QDockWidget* bottomAnchor = viewer ? viewer : results;
    for (QDockWidget* d : {m_profileDock, m_historyDock, m_sweepDock, m_traceDock})
        if (bottomAnchor)
            window->tabifyDockWidget(bottomAnchor, d), bottomAnchor = d;
        else
            window->addDockWidget(Qt::BottomDockWidgetArea, d);
    if (buffers) {
        window->tabifyDockWidget(buffers, geometryDock);
        window->tabifyDockWidget(geometryDock, guideDock);
        buffers->raise();
    } else {
        window->addDockWidget(Qt::RightDockWidgetArea, guideDock);
    }
    if (results) results->raise();

    // Menus: the docks under View, presentation mode; trace mode under Run.
    m_presentation = new QAction(tr("&Presentation Mode"), window);
    m_presentation->setObjectName(QStringLiteral("presentationModeAction"));
    m_presentation->setCheckable(true);
    m_presentation->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_F11));
    m_presentation->setToolTip(tr("Large fonts, high contrast, results laid out for a projector"));
    connect(m_presentation, &QAction::toggled, window,
            [window](bool on) { PresentationMode::apply(window, on); });
    m_traceAction = new QAction(tr("Record &Who Wrote What (CPU emulator)"), window);
    m_traceAction->setObjectName(QStringLiteral("traceModeAction"));
    m_traceAction->setCheckable(true);
    m_traceAction->setToolTip(tr("Runs on the CPU emulator in trace mode: the last writer and the "
                                 "number of writes of every output element"));
    connect(m_traceAction, &QAction::toggled, window, [this](bool on) { m_runner->setTrace(on); });

    QMenu* view = parts.view ? parts.view : window->menuBar()->addMenu(tr("&Profile"));
    view->addSeparator();
    for (QDockWidget* d :
         {m_profileDock, m_historyDock, m_sweepDock, m_traceDock, geometryDock, guideDock})
        view->addAction(d->toggleViewAction());
    view->addSeparator();
    view->addAction(m_presentation);
    QMenu* run = parts.run;
    m_profileAction = new QAction(tr("&Profile"), window);
    m_profileAction->setObjectName(QStringLiteral("profileAction"));
    m_profileAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_R));
    connect(m_profileAction, &QAction::triggered, this, [this]() { profile(); });
    (run ? run : view)->addSeparator();
    (run ? run : view)->addAction(m_profileAction);
    QMenu* options = (run ? run : view)->addMenu(tr("Profile &Options"));
    options->setObjectName(QStringLiteral("profileOptionsMenu"));
    auto* timing = new QActionGroup(options);
    const auto checkable = [&](const QString& text, const char* key, bool fallback) {
        QAction* a = options->addAction(text);
        a->setCheckable(true);
        a->setChecked(QSettings().value(QLatin1String(key), fallback).toBool());
        connect(a, &QAction::toggled, this,
                [key](bool on) { QSettings().setValue(QLatin1String(key), on); });
        return a;
    };
    const bool cupti =
        QSettings().value(QStringLiteral("profile/timing")).toString() == QLatin1String("cupti");
    m_eventTiming = options->addAction(tr("Time with CUDA &Events"));
    m_cuptiTiming = options->addAction(tr("Time with CUPTI &Kernel Records"));
    for (QAction* a : {m_eventTiming, m_cuptiTiming}) {
        a->setCheckable(true);
        timing->addAction(a);
    }
    (cupti ? m_cuptiTiming : m_eventTiming)->setChecked(true);
    connect(m_cuptiTiming, &QAction::toggled, this, [](bool on) {
        QSettings().setValue(QStringLiteral("profile/timing"), on ? "cupti" : "events");
    });
    options->addSeparator();
    m_flushL2 = checkable(tr("&Flush L2 Before Each Sample"), "profile/flushL2", true);
    m_counters = checkable(tr("Collect Hardware &Counters"), "profile/counters", true);
    m_hotspots = checkable(tr("Sample &Hotspots (PC Sampling)"), "profile/hotspots", true);
    (run ? run : view)->addAction(m_traceAction);

    // Runs: the session at the start is what the history records.
    RunController* runner = m_runner;
    connect(runner, &RunController::runStarted, this, [this]() {
        m_runSession = m_doc->runnableSession();
        updateProfileAction();
    });
    connect(runner, &RunController::runFinished, this,
            [this](std::shared_ptr<const RunOutcome> outcome) {
                if (outcome) onRunFinished(*outcome);
                updateProfileAction();
            });
    connect(runner, &RunController::runCancelled, this, [this]() { updateProfileAction(); });

    SessionDocument* doc = m_doc;
    connect(doc, &SessionDocument::edited, this, [this](SessionDocument::Part part) {
        if (part != SessionDocument::Part::Kernel && part != SessionDocument::Part::Reference) {
            updateGeometry();
            updateProfileAction();
        }
    });
    connect(doc, &SessionDocument::sessionReplaced, this, [this]() {
        clearRunResults();
        updateGeometry();
        projectChanged();
        updateProfileAction();
    });
    connect(doc, &SessionDocument::filePathChanged, this, [this]() { projectChanged(); });
    connect(m_environment, &EnvironmentProbe::probed, this, [this]() { updateProfileAction(); });
    connect(m_history, &HistoryPanel::runsListed, this, &ProfilingDocks::updateRooflineHistory);
    connect(m_history, &HistoryPanel::runRecorded, this, [this](qint64 id) {
        if (m_rooflineRunId != 0) return;
        m_rooflineRunId = id; // the profile just shown: not an earlier run
        updateRooflineHistory();
    });
    connect(m_history, &HistoryPanel::baselineChanged, this,
            [this](const QString& kernel, const std::vector<profiling::Summary>& metrics,
                   const QString& label) {
                if (kernel.toStdString() == m_doc->session().launch.kernel)
                    m_sol->setBaseline(metrics, label);
            });
    updateGeometry();
    projectChanged();
    updateProfileAction();
}

ProfilingDocks::~ProfilingDocks() = default;

QString ProfilingDocks::profileUnavailableReason() const
{
    // From the window's probe (off the GUI thread): asking the driver here could run cuInit on
    // the GUI thread, which takes a few hundred ms on a GPU machine.
    const Environment& env = m_environment->environment();
    if (!env.probed) return tr("still checking for a usable GPU");
    return RunController::profileUnavailableReason(m_doc->session(), env.cudaProblem);
}

void ProfilingDocks::updateProfileAction()
{
    const QString why = profileUnavailableReason();
    m_profileAction->setEnabled(why.isEmpty() && !m_runner->isRunning());
    m_profileAction->setToolTip(
        why.isEmpty() ? tr("Run the session in warpbench-runner and profile its kernel: cold-L2 "
                           "timing and hardware counters (Speed of Light)")
                      : tr("Profiling unavailable: %1").arg(why));
    m_profileAction->setStatusTip(m_profileAction->toolTip());
}

bool ProfilingDocks::profile()
{
    RunController* runner = m_runner;
    const QString why = profileUnavailableReason();
    if (!why.isEmpty()) {
        // The figures of the last run stay; the status line says why there is no profile.
        m_sol->showMessage(tr("Not profiled: %1").arg(why));
        m_profileDock->show();
        m_profileDock->raise();
        return false;
    }
    return runner->profile(profileOptions());
}

profiling::SessionProfileOptions ProfilingDocks::profileOptions() const
{
    profiling::SessionProfileOptions o;
    o.timing = m_cuptiTiming->isChecked() ? profiling::TimingMethod::CuptiActivity
                                          : profiling::TimingMethod::CudaEvents;
    o.flushL2 = m_flushL2->isChecked();
    o.counters = m_counters->isChecked();
    o.hotspots = m_hotspots->isChecked();
    return o;
}

void ProfilingDocks::projectChanged()
{
    const QString path = m_doc->filePath();
    try {
        m_history->setDatabase(historyPathFor(path));
    } catch (const std::exception&) {
        // No writable data folder: the history panel stays empty and says nothing was opened.
    }
    m_guide->showGuideFor(path);
    m_sol->setBaseline({}, {});
}

void ProfilingDocks::clearRunResults()
{
    m_runSession.reset();
    m_sol->clear();
    m_rooflineKernel.clear();
    m_rooflineRunId = -1;
    m_roofline->showMessage(tr("No roofline yet: Run → Profile a CUDA session."));
    m_trace->setTrace({});
}

void ProfilingDocks::updateGeometry()
{
    const session::Session& s = m_doc->session();
    SessionEval eval(s);
    LaunchConfig config;
    auto dims = [&eval](const std::vector<std::string>& exprs, const char* field, Dim3& out) {
        unsigned* parts[3] = {&out.x, &out.y, &out.z};
        for (std::size_t i = 0; i < exprs.size() && i < 3; ++i) {
            QString error;
            const auto v = eval.count(exprs[i], field, &error);
            if (!v) return false;
            *parts[i] = static_cast<unsigned>(*v);
        }
        return true;
    };
    if (!dims(s.launch.grid, "grid", config.grid) || !dims(s.launch.block, "block", config.block))
        return; // the launch form shows the error; keep the last good picture
    m_geometry->setLaunch(config);
    // The data the threads map to: the largest buffer (a reduction's 65,536-element input, not
    // its 256 partial sums), an output where sizes tie (matmul's C); the summary names it.
    const session::BufferSpec* data = nullptr;
    std::vector<std::size_t> dataShape;
    std::size_t dataCount = 0;
    for (const auto& b : s.buffers) {
        QString error;
        const auto shape = eval.shape(b, &error);
        if (!shape) continue;
        std::size_t count = 1;
        for (std::size_t d : *shape)
            count *= d;
        if (!data || count > dataCount ||
            (count == dataCount && b.isOutput() && !data->isOutput())) {
            data = &b;
            dataShape = *shape;
            dataCount = count;
        }
    }
    if (data) m_geometry->setShape(dataShape, QString::fromStdString(data->name));
}

void ProfilingDocks::onRunFinished(const RunOutcome& outcome)
{
    const session::RunReport& report = outcome.report;
    const session::Session session = m_runSession ? *m_runSession : m_doc->runnableSession();
    m_runSession.reset();

    if (outcome.profile) {
        // A profile run: the profiler's figures (cold-L2 timing, counters) are the run's, in
        // the dock and in the history.
        const profiling::ProfileReport& profile = *outcome.profile;
        m_rooflineKernel = session.launch.kernel;
        m_rooflineRunId = 0; // set by the history's runRecorded
        if (!profile.profiled())
            m_roofline->showMessage(tr("No roofline: the kernel was not profiled (see above)."));
        else if (profile.counterStatus && !profile.counterStatus->ok())
            m_roofline->setProfile(profile.summaries,
                                   tr("hardware counters unavailable (%1, see above)")
                                       .arg(QString::fromUtf8(profiling::profilerStateName(
                                           profile.counterStatus->state))));
        else if (!profile.counterStatus)
            m_roofline->setProfile(profile.summaries, tr("counters were not collected"));
        else
            m_roofline->setProfile(profile.summaries);
        updateRooflineHistory();
        profiling::ProfileReport shown = profile;
        if (shown.profiled()) addTheoreticalOccupancy(shown.summaries, m_launch->occupancy());
        m_sol->setProfile(shown, profile.profiled()
                                     ? QString()
                                     : tr("Profile: %1 · %2")
                                           .arg(QString::fromStdString(session.launch.kernel),
                                                QString::fromUtf8(report.statusName())));
        if (report.status != session::RunReport::Status::Invalid) {
            profiling::RunRecord record =
                profiling::toRunRecord(session, report, profile.summaries);
            if (profile.profiled())
                record.note = "profile: " + profile.timingMethod +
                              (profile.flushL2 ? ", L2 flushed" : ", warm L2") +
                              (profile.counterStatus && profile.counterStatus->ok()
                                   ? ", " + std::to_string(profile.passes) + " counter passes"
                                   : std::string());
            m_history->record(record);
        }
        m_profileDock->show();
        m_profileDock->raise();
        return;
    }

    // Session runs time the kernel with the backend's own clock; counters come from the
    // profiler (KernelProfiler::profileLaunch), which a session run does not call.
    profiling::ProfilerStatus counters;
    if (report.backend == BackendKind::Cpu)
        counters = {profiling::ProfilerStatus::State::UnsupportedDevice,
                    "the CPU emulator has no hardware counters (timing is wall clock)"};
    else
        counters = {profiling::ProfilerStatus::State::Failed,
                    "session runs are timed with CUDA events; hardware counters are not collected "
                    "for them (Run → Profile collects them)"};
    m_rooflineKernel.clear();
    m_roofline->showMessage(
        report.backend == BackendKind::Cpu
            ? tr("No roofline: the CPU emulator has no hardware counters. Timing is above.")
            : tr("No roofline for a plain run: Run → Profile collects the FLOP and byte "
                 "counters."));
    std::vector<profiling::Summary> figures = profiling::sessionSummaries(report);
    addTheoreticalOccupancy(figures, m_launch->occupancy());
    m_sol->setSummaries(std::move(figures), counters,
                        tr("%1 · %2 · %3")
                            .arg(QString::fromStdString(session.launch.kernel),
                                 QString::fromStdString(report.device.name),
                                 QString::fromUtf8(report.statusName())));
    if (report.status != session::RunReport::Status::Invalid)
        m_history->record(profiling::toRunRecord(session, report));

    if (!report.traces.empty()) {
        const auto& [name, trace] = *report.traces.begin();
        const auto values = report.results.find(name);
        m_trace->setTrace(trace,
                          values != report.results.end() ? values->second : session::HostArray{});
        m_traceDock->show();
        m_traceDock->raise();
    }
}

void ProfilingDocks::showGuideOf(const QString& project)
{
    // The example's guide is what a learner reads first.
    if (QFileInfo::exists(QFileInfo(project).absoluteDir().filePath(QStringLiteral("GUIDE.md")))) {
        m_guideDock->show();
        m_guideDock->raise();
    }
}

void ProfilingDocks::updateRooflineHistory()
{
    if (m_rooflineKernel.empty() || !m_roofline->point()) return;
    std::vector<RooflineChart::HistoryPoint> points;
    for (const profiling::RunRecord& r : m_history->model()->runs()) {
        if (r.kernel != m_rooflineKernel || r.id == m_rooflineRunId) continue;
        if (auto p = RooflineChart::historyPoint(r.metrics, tr("run %1").arg(r.id)))
            points.push_back(std::move(*p));
    }
    m_roofline->setHistory(std::move(points));
}

} // namespace wb::ui
