// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/profiling/RunRecord.h"
#include "core/profiling/Summary.h"
#include "core/profiling/Sweep.h"
#include "core/session/RunReport.h"
#include "core/session/Session.h"
#include "core/session/SessionRunner.h"

#include <atomic>
#include <string>
#include <vector>

namespace wb::profiling {

/// Timing and throughput of a session run as summaries: "wb/timing/*" from the report's
/// samples (method "session", i.e. the backend's own per-launch timing) and
/// "wb/throughput/bandwidth" (+ "_peak") from its bytes moved.
std::vector<Summary> sessionSummaries(const session::RunReport& report);

/// The history record of a session run. `extra` (counters, CUPTI timing) is appended to the
/// metrics; an extra figure with the tag of a session figure replaces it (a profiled run's
/// "wb/timing/*" is the profiler's cold-L2 timing). The verdict is the report's status ("pass",
/// "mismatch: …", "compile-error: …", "unchecked: the project has no reference").
RunRecord toRunRecord(const session::Session& session, const session::RunReport& report,
                      const std::vector<Summary>& extra = {});

/// Sets one sweep value in a session — what a sweep point runs and what "apply the best point"
/// does. BlockSize sets block.x and keeps the x thread count: grid.x becomes
/// `ceil((grid.x) * (old block.x) / value)`. Define adds or replaces `-Dname=value`. Scalar
/// sets the scalar's value expression. Throws wb::Error(InvalidArgument) for an unknown scalar.
void applySweepValue(session::Session& session, const SweepParameter& parameter,
                     const std::string& value);

/// What a sweep point's run report means: ok = the kernel ran (pass, mismatch or unchecked);
/// valid = it passed (or, without a reference, ran unchecked), no poisoned output element
/// stayed unwritten (OutputResult::coverage, so a session without a reference is checked too)
/// and `findings` (the point's bounds check) is empty; problems = the out-of-bounds accesses
/// (file:line, block, thread), the never-written and the mismatching element counts per
/// output; verdict = "pass" (or "unchecked"), or "invalid: "/"mismatch: " and
/// the problems, or the status and message; time = median of the timed launches, summaries =
/// sessionSummaries(report). Both sweep runners (in-process and runner::runnerSweepRunner)
/// use it.
SweepPointOutcome sweepPointOutcome(const session::RunReport& report,
                                    const std::vector<MemoryFinding>& findings = {});

/// "out of bounds at kernel.cu:7 (block (1, 0, 0), thread (72, 0, 0)): write of 4 bytes
/// (heap-buffer-overflow)": a memory finding as a sweep point's problem (its message up to the
/// first ": ", leaving out the sanitizer's addresses).
std::string findingProblem(const MemoryFinding& finding);

/// A SweepPointRunner that runs `base` with each value applied, in this process, through
/// SessionRunner (so the diff against the reference is checked at every point); each point's
/// outcome is sweepPointOutcome(). The window sweeps through runner::runnerSweepRunner instead,
/// so that no point can crash or hang it.
SweepPointRunner sessionSweepRunner(session::Session base,
                                    session::SessionRunner::Options options = {});

} // namespace wb::profiling
