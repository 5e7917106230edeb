// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/runner/RunnerSweep.h"

#include "core/profiling/SessionProfiling.h"

namespace wb::runner {

profiling::SweepPointRunner runnerSweepRunner(std::shared_ptr<RunnerClient> client,
                                              session::Session base, RunnerClient::Request request)
{
    request.profile.reset(); // a sweep point is a plain run
    return [client = std::move(client), base = std::move(base), request = std::move(request)](
               const profiling::SweepParameter& parameter, const std::string& value) {
        RunnerClient::Request r = request;
        r.session = base;
        profiling::applySweepValue(r.session, parameter, value);
        return profiling::sweepPointOutcome(client->run(r).report);
    };
}

} // namespace wb::runner
