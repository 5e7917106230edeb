// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/WindowStatus.h"

#include "ui/StatusBanner.h"
#include "ui/common/Environment.h"
#include "ui/common/RunController.h"
#include "ui/editor/LiveCompiler.h"

#include <QLabel>
#include <QMainWindow>
#include <QProgressBar>
#include <QStatusBar>
#include <QTime>

#include <algorithm>

namespace wb::ui {

WindowStatus::WindowStatus(QMainWindow* window, QWidget* bannerParent)
    : QObject(window)
    , m_window(window)
    , m_banner(new StatusBanner(bannerParent))
{
    // Status bar: device · backend · versions, compile state, progress of long work.
    m_device = new QLabel(tr("probing devices…"), window);
    m_versions = new QLabel(window);
    m_compileState = new QLabel(window);
    m_lastRun = new QLabel(window);
    m_progress = new QProgressBar(window);
    m_progress->setRange(0, 0);
    m_progress->setMaximumWidth(140);
    m_progress->setTextVisible(false);
    m_progress->hide();
    // Status texts never widen the window: they are clipped (whole on hover) when it is narrow.
    for (QLabel* l : {m_device, m_versions, m_compileState, m_lastRun})
        l->setMinimumWidth(1);
    QStatusBar* bar = window->statusBar();
    bar->addWidget(m_device);
    bar->addWidget(m_versions);
    bar->addPermanentWidget(m_compileState);
    bar->addPermanentWidget(m_lastRun);
    bar->addPermanentWidget(m_progress);
}

void WindowStatus::subscribe(EnvironmentProbe* environment, LiveCompiler* kernel,
                             RunController* runner)
{
    m_environment = environment;
    connect(environment, &EnvironmentProbe::probed, this, [this]() {
        const Environment& env = m_environment->environment();
        const DeviceDescription& d = env.device;
        m_device->setText(
            env.backendProblem.empty()
                ? QStringLiteral("%1 · %2").arg(QString::fromStdString(d.name),
                                                QString::fromUtf8(backendName(env.backend)))
                : tr("no backend: %1").arg(QString::fromStdString(env.backendProblem)));
        QStringList versions;
        if (!d.driverVersion.empty())
            versions << tr("driver %1").arg(QString::fromStdString(d.driverVersion));
        if (env.nvrtc) versions << QString::fromStdString(env.nvrtcVersion);
        if (env.hostCompiler) versions << QString::fromStdString(env.hostCompilerVersion);
        m_versions->setText(versions.join(QStringLiteral(" · ")));
        showEnvironment();
    });
    connect(kernel, &LiveCompiler::compileStarted, this,
            [this]() { m_compileState->setText(tr("compiling…")); });
    connect(kernel, &LiveCompiler::compiled, this, [this](std::shared_ptr<const CompileResult> r) {
        const int errors = static_cast<int>(
            std::count_if(r->diagnostics.begin(), r->diagnostics.end(), [](const Diagnostic& d) {
                return d.severity == Severity::Error || d.severity == Severity::Fatal;
            }));
        m_compileState->setText(r->ok ? tr("✔ %1 · %2 ms%3")
                                            .arg(QString::fromStdString(r->target))
                                            .arg(r->compileMs, 0, 'f', 0)
                                            .arg(r->cache == CompileResult::Cache::Miss ||
                                                         r->cache == CompileResult::Cache::Disabled
                                                     ? QString()
                                                     : tr(" · cache hit"))
                                      : tr("✘ %n error(s)", nullptr, std::max(1, errors)));
    });
    connect(runner, &RunController::runStarted, m_progress, &QWidget::show);
    connect(runner, &RunController::runCancelled, m_progress, &QWidget::hide);
    connect(runner, &RunController::runFinished, this,
            [this](std::shared_ptr<const RunOutcome> outcome) {
                m_progress->hide();
                m_lastRun->setText(
                    tr("last run %1 · %2")
                        .arg(QTime::currentTime().toString(QStringLiteral("HH:mm:ss")),
                             QString::fromUtf8(outcome->report.statusName())));
            });
}

void WindowStatus::showEnvironment()
{
    if (!m_environment) return;
    const Environment& env = m_environment->environment();
    QList<QPair<StatusBanner::Level, QString>> messages;
    if (!env.probed) return;
    if (env.cudaProblem)
        messages.append(
            {StatusBanner::Level::Warning,
             tr("<b>No usable GPU — running on the CPU emulator.</b> Kernels run for real but "
                "slowly and timings are not GPU timings. (%1) To use a GPU install the NVIDIA "
                "driver (libcuda.so.1, 580 or newer).")
                 .arg(QString::fromStdString(*env.cudaProblem).toHtmlEscaped())});
    if (!env.nvrtc)
        messages.append(
            {StatusBanner::Level::Error,
             tr("<b>NVRTC not found</b> — no live diagnostics or PTX. %1 Install the CUDA toolkit "
                "(package cuda-nvrtc-13-0) or set LD_LIBRARY_PATH to its lib64.")
                 .arg(QString::fromStdString(env.nvrtcProblem).toHtmlEscaped())});
    if (!env.hostCompiler)
        messages.append(
            {StatusBanner::Level::Error,
             tr("<b>No host C++ compiler</b> — C++ references and the CPU emulator cannot build. "
                "%1 "
                "Install g++ (apt install g++) or clang++, or set WARPBENCH_CXX.")
                 .arg(QString::fromStdString(env.hostCompilerProblem).toHtmlEscaped())});
    if (!env.backendProblem.empty())
        messages.append({StatusBanner::Level::Error,
                         tr("<b>Nothing can run kernels here:</b> %1")
                             .arg(QString::fromStdString(env.backendProblem).toHtmlEscaped())});
    m_banner->setMessages(messages);
}

void WindowStatus::showError(const QString& html)
{
    m_banner->setMessages({{StatusBanner::Level::Error, html}});
}

void WindowStatus::setRunText(const QString& text)
{
    m_lastRun->setText(text);
}

} // namespace wb::ui
