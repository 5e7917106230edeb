// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/profiling/Sweep.h"
#include "core/runner/RunnerClient.h"
#include "core/session/Session.h"

#include <memory>

namespace wb::runner {

/// A profiling::SweepPointRunner whose points run in warpbench-runner through `client` (one warm
/// runner serves every point): `base` with the point's value applied
/// (profiling::applySweepValue), run and diffed as RunnerClient::run does, the unwritten
/// elements counted (SessionRunner::checkCoverage), its outcome made by
/// profiling::sweepPointOutcome. A point whose runner crashed, hung past `request.timeoutMs` or
/// lost its GPU context gets the fault's message as its verdict, and the next point starts a
/// fresh runner. `request` supplies the options and time limits (its session is replaced);
/// set its `cancel` to the sweep's cancel flag so that a cancel between two points is not
/// lost, and call client->cancel() to stop the point in progress.
///
/// With `request.options.check` = CheckMode::Bounds every point first runs once bounds-checked on
/// the CPU emulator (AddressSanitizer, one timed launch, whatever the session's backend): an
/// out-of-bounds access makes the point invalid with the access's file:line, block and thread, and
/// the point is not run further (a plain run of it could corrupt memory); a clean point is then run
/// and timed as usual on its own backend (sanitized timings would rank nothing).
profiling::SweepPointRunner runnerSweepRunner(std::shared_ptr<RunnerClient> client,
                                              session::Session base,
                                              RunnerClient::Request request = {});

} // namespace wb::runner
