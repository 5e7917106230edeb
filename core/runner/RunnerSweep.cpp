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
        const bool boundsCheck = request.options.check == CheckMode::Bounds;
        RunnerClient::Request r = request;
        if (boundsCheck) r.options.check = CheckMode::None;
        r.session = base;
        profiling::applySweepValue(r.session, parameter, value);
        if (boundsCheck) {
            RunnerClient::Request check = r;
            check.options.check = CheckMode::Bounds;
            check.options.backend = BackendKind::Cpu;
            check.options.device.reset();
            check.options.iterations = 1;
            check.options.outputDir.clear();
            RunOutcome c = client->run(check);
            session::SessionRunner::checkCoverage(check.session, c.report);
            profiling::SweepPointOutcome o =
                profiling::sweepPointOutcome(c.report, c.report.memoryFindings);
            o.boundsChecked = true;
            if (!o.findings.empty()) {
                o.ok = false; // not timed: the plain run of an out-of-bounds point is not run
                return o;
            }
            if (c.fault != Fault::None || !o.ok) {
                o.verdict = "bounds check on the CPU emulator failed: " + o.verdict;
                return o;
            }
        }
        RunOutcome out = client->run(r);
        session::SessionRunner::checkCoverage(r.session, out.report);
        profiling::SweepPointOutcome o =
            profiling::sweepPointOutcome(out.report, out.report.memoryFindings);
        o.boundsChecked = boundsCheck;
        return o;
    };
}

} // namespace wb::runner
