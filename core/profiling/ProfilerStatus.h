// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>

namespace wb::profiling {

/// Whether an optional profiling feature (CUPTI activity, hardware counters) could run, and if
/// not, why, in words a user can act on. Profiling degrades to this value; it never crashes.
struct ProfilerStatus {
    enum class State {
        Ok,
        NoDriver,               ///< no NVIDIA driver or no device: nothing device-side was called
        NoCupti,                ///< libcupti.so.13 missing or too old
        InsufficientPrivileges, ///< counters restricted to admin users
        ProfilerBusy,           ///< another profiler (ncu, nsys, a second session) holds the GPU
        UnsupportedDevice,      ///< architecture, vGPU, MIG, confidential computing, ...
        InvalidMetric,          ///< a metric name is not known for this chip
        Failed,                 ///< any other CUPTI or driver error
    };
    State state = State::Ok;
    std::string message; ///< empty when Ok

    bool ok() const noexcept { return state == State::Ok; }
    static ProfilerStatus success() { return {}; }
};

/// "ok", "no driver", "no CUPTI", "insufficient privileges", ...
const char* profilerStateName(ProfilerStatus::State state) noexcept;

/// How to enable counters for non-root users (shown with InsufficientPrivileges).
const char* counterPermissionHelp() noexcept;

} // namespace wb::profiling
