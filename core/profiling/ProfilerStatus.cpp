// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/profiling/ProfilerStatus.h"

namespace wb::profiling {

const char* profilerStateName(ProfilerStatus::State state) noexcept
{
    using S = ProfilerStatus::State;
    switch (state) {
    case S::Ok:
        return "ok";
    case S::NoDriver:
        return "no driver";
    case S::NoCupti:
        return "no CUPTI";
    case S::InsufficientPrivileges:
        return "insufficient privileges";
    case S::ProfilerBusy:
        return "profiler busy";
    case S::UnsupportedDevice:
        return "unsupported device";
    case S::InvalidMetric:
        return "invalid metric";
    case S::Failed:
        return "failed";
    }
    return "failed";
}

const char* counterPermissionHelp() noexcept
{
    return "GPU performance counters are restricted to administrators on this machine. Run "
           "Warpbench as root, or allow all users: put `options nvidia "
           "NVreg_RestrictProfilingToAdminUsers=0` in /etc/modprobe.d/nvidia-profiling.conf, "
           "then reload the nvidia module or reboot (see "
           "https://developer.nvidia.com/ERR_NVGPUCTRPERM).";
}

} // namespace wb::profiling
