// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/common/Environment.h"

#include "core/cuda/Compiler.h"
#include "core/host/HostCompiler.h"
#include "ui/common/Worker.h"

namespace wb::ui {

EnvironmentProbe::EnvironmentProbe(QObject* parent)
    : QObject(parent)
{
}

void EnvironmentProbe::start(Worker* worker)
{
    worker->post<Environment>(
        this,
        [](const CancelToken&) {
            Environment env;
            env.probed = true;
            env.cudaProblem = cudaUnavailableReason();
            cuda::Compiler& compiler = cuda::Compiler::instance();
            env.nvrtc = compiler.available();
            env.nvrtcProblem = compiler.unavailableReason();
            if (env.nvrtc) env.nvrtcVersion = compiler.version();
            if (auto host = HostCompiler::find()) {
                env.hostCompiler = true;
                env.hostCompilerVersion = host->version();
            } else {
                env.hostCompilerProblem = HostCompiler::unavailableReason();
            }
            try {
                // Described, not created: only warpbench-runner creates backends (a CUDA
                // context in this process would outlive nothing useful and a crash in it
                // would take the window down).
                const BackendDescription backend = describeBackend(BackendKind::Auto, 0);
                env.backend = backend.kind;
                env.device = backend.device;
            } catch (const std::exception& e) {
                env.backendProblem = e.what();
            }
            return env;
        },
        [this](Environment env) {
            m_env = std::move(env);
            Q_EMIT probed();
        });
}

std::string EnvironmentProbe::compileArch() const
{
    return m_env.backend == BackendKind::Cuda && !m_env.cudaProblem ? m_env.device.arch
                                                                    : std::string();
}

} // namespace wb::ui
