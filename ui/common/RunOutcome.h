// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/common/MemoryFinding.h"
#include "core/common/RaceFinding.h"
#include "core/profiling/ProfileReport.h"
#include "core/session/HostArray.h"
#include "core/session/RunReport.h"
#include "ui/common/ArrayView.h"

#include <QString>

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace wb::ui {

/// One finished run as the window shows it: the session runner's report (with the run's own
/// host↔device copy times, RunReport::h2dMs/d2hMs, measured in warpbench-runner, and what its
/// checks found) and the input buffers as they were filled.
struct RunOutcome {
    session::RunReport report;
    std::map<std::string, session::HostArray> inputs; ///< in/inout buffers before the launch
    QString transferNote; ///< why the copies were not measured, when they were not
    double wallMs = 0;    ///< the whole run, as the user waited for it
    /// Profile runs (RunController::profile): the kernel's cold-L2 timing and counters, or
    /// why there are none. Absent for ordinary runs.
    std::optional<profiling::ProfileReport> profile;
    /// Bounds-checked runs (RunController::run(true), CPU emulator).
    bool boundsChecked = false;
    /// The runner advised a bounds-checked re-run (a crash or an invalid address): the
    /// results offer Run with Bounds Checking.
    bool offersBoundsCheck = false;
    /// Race-checked runs (RunController::run(false, true), CPU emulator).
    bool raceChecked = false;
    // The findings, the races and what the kernel printed are the report's
    // (RunReport::memoryFindings, races, raceCrowding, kernelOutput).
};

/// A typed view of `array`, kept alive by `owner` (which must own the array).
ArrayView viewOf(std::shared_ptr<const void> owner, const session::HostArray& array);
ElementKind elementKindOf(session::ElementType type) noexcept;

} // namespace wb::ui
