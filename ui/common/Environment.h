// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/backend/Backend.h"

#include <QObject>

#include <optional>
#include <string>

namespace wb::ui {

class Worker;

/// What the machine offers, probed off the GUI thread at start-up.
struct Environment {
    bool probed = false;
    std::optional<std::string> cudaProblem; ///< nullopt: a GPU is usable
    bool nvrtc = false;
    std::string nvrtcProblem, nvrtcVersion;
    bool hostCompiler = false;
    std::string hostCompilerProblem, hostCompilerVersion;
    DeviceDescription device; ///< of the backend "auto" picks
    BackendKind backend = BackendKind::Cpu;
    std::string backendProblem; ///< no backend at all
};

/// Probes the driver, NVRTC, the host compiler and the backend "auto" picks on a worker (the
/// driver's cuInit takes a few hundred ms on a GPU machine) and tells the panels once it knows.
/// Describes the backend without creating one: only warpbench-runner creates backends.
class EnvironmentProbe : public QObject {
    Q_OBJECT
public:
    explicit EnvironmentProbe(QObject* parent = nullptr);

    /// Posts the probe on `worker`; probed() follows on the GUI thread.
    void start(Worker* worker);
    const Environment& environment() const noexcept { return m_env; }
    /// The architecture live compiles target: the device's on a usable GPU, else empty.
    std::string compileArch() const;

Q_SIGNALS:
    void probed();

private:
    Environment m_env;
};

} // namespace wb::ui
