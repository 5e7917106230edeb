// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QObject>

class QLabel;
class QMainWindow;
class QProgressBar;
class QWidget;

namespace wb::ui {

class EnvironmentProbe;
class LiveCompiler;
class RunController;
class StatusBanner;

/// What the window says about itself: the banner above the editor (no GPU, no NVRTC, no host
/// compiler, a project that cannot be opened) and the status bar (device · backend, versions,
/// the live compile's state, the last run, a busy bar while a run runs).
class WindowStatus : public QObject {
    Q_OBJECT
public:
    /// The banner is created under `bannerParent`; the labels go into `window`'s status bar.
    WindowStatus(QMainWindow* window, QWidget* bannerParent);

    StatusBanner* banner() const noexcept { return m_banner; }
    void subscribe(EnvironmentProbe* environment, LiveCompiler* kernel, RunController* runner);
    /// The environment's messages (after a project was opened: they replace its error).
    void showEnvironment();
    /// An error for the banner (rich text), replacing what it says.
    void showError(const QString& html);
    /// What the run just started does ("checking for races…").
    void setRunText(const QString& text);

private:
    QMainWindow* m_window;
    EnvironmentProbe* m_environment = nullptr;
    StatusBanner* m_banner;
    QLabel* m_device;
    QLabel* m_versions;
    QLabel* m_compileState;
    QLabel* m_lastRun;
    QProgressBar* m_progress;
};

} // namespace wb::ui
