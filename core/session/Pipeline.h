// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/backend/Backend.h"
#include "core/session/Expression.h"
#include "core/session/Session.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace wb::session {

/// The most launches one pass of a pipeline may expand to (Session::launches with their
/// repeats); more is refused before anything runs.
inline constexpr std::size_t kMaxPipelineLaunches = 10000;

/// One launch of an expanded pipeline pass.
struct PipelineStep {
    std::size_t entry = 0; ///< index into Session::launches
    /// The loop variables' values, outermost first, and their bytes as the kernel takes them
    /// (in the order of the entry's `repeat`).
    std::vector<std::pair<std::string, std::int64_t>> vars;
    std::vector<Expression::ScalarBytes> varBytes;
    LaunchConfig config;
};

/// Evaluates one launch's grid, block and shared bytes (SessionRunner's checks of CUDA's
/// limits); `field` is "launches[2]" for messages.
using LaunchConfigOf =
    std::function<LaunchConfig(const LaunchSpec&, const Expression&, const std::string& field)>;

/// Expands a pipeline in order: every entry of `s.launches`, once for each combination of its
/// loops' values, the loop variables defined (as scalars of their types) in a copy of
/// `scalars` for the entry's expressions. Throws Error(InvalidArgument) naming the field: a
/// loop variable that clashes with a scalar, a buffer or an outer loop, a step of 0, a loop
/// that never ends, a value outside the variable's type, more than kMaxPipelineLaunches
/// launches or none at all.
std::vector<PipelineStep> expandPipeline(const Session& s, const Expression& scalars,
                                         const LaunchConfigOf& configOf);

/// The session as launches[entry]'s bindings see it: its loop variables appended to the
/// scalars (after the project's own), so that Binding::bind can bind them to parameters;
/// their BoundArg index is then scalars.size() + the loop's position.
Session sessionForLaunch(const Session& s, std::size_t entry);

/// "k=4 j=2": a step's loop values as the reports label them; empty without loops.
std::string loopValuesText(const std::vector<std::pair<std::string, std::int64_t>>& vars);

} // namespace wb::session
