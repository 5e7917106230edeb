// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/profiling/Sweep.h"
#include "core/runner/RunnerClient.h"
#include "core/session/Session.h"

#include <memory>

namespace wb::runner {

/// A profiling::SweepPointRunner whose points run in warpbench-runner through `client` (one warm
/// runner serves every point): `base` with the point's value applied
/// (profiling::applySweepValue), run and diffed as RunnerClient::run does, its outcome made by
/// profiling::sweepPointOutcome. A point whose runner crashed, hung past `request.timeoutMs` or
/// lost its GPU context gets the fault's message as its verdict, and the next point starts a
/// fresh runner. `request` supplies the options and time limits (its session is replaced);
/// set its `cancel` to the sweep's cancel flag so that a cancel between two points is not
/// lost, and call client->cancel() to stop the point in progress.
profiling::SweepPointRunner runnerSweepRunner(std::shared_ptr<RunnerClient> client,
                                              session::Session base,
                                              RunnerClient::Request request = {});

} // namespace wb::runner
