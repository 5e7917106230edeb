// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/common/Diagnostic.h"
#include "core/common/MemoryFinding.h"
#include "core/common/RaceFinding.h"
#include "core/common/WriteTrace.h"

#include <string>
#include <vector>

namespace wb::session {

struct RunReport;
struct Tolerance;

// How what a run found reads, in one place for every reader: the CLI's text (RunReport::toText,
// findingsText) and the window's Problems and editor marks (toDiagnostics). A new kind of
// finding is formatted here; its JSON (--json and the runner protocol) is in ReportJson.h.

/// `memory finding: out of bounds: kernel.cu:1: block (0,0,0) thread (4,0,0): kernel k: …`
/// and a newline.
std::string findingText(const MemoryFinding& finding);
/// `race: shared cache[67]: k.cu:11 read by block (0,0,0) thread (3,0,0) vs k.cu:11 write by
/// block (0,0,0) thread (67,0,0) (kernel block_sum, 124 conflicting pairs)` and a newline.
std::string raceText(const RaceFinding& race);

/// `atol=1e-06 rtol=1e-05`, `ulp<=4`, with ` nan==nan` when NaNs compare equal.
std::string toleranceText(const Tolerance& tolerance);
/// `1,000 of 1,024 elements written, 3 more than once, no races`: a write trace in a line.
std::string traceText(const WriteTrace& trace);

/// What a run found, as problems at kernel lines (the window's Problems panel and editor).
struct RunDiagnostics {
    std::vector<Diagnostic> memory; ///< one per memory finding
    std::vector<Diagnostic> races;  ///< one per line of each race (one when both sides share it)
    /// Notes on the run with no line to mark: the race check's crowded words (a warning).
    std::vector<Diagnostic> notes;
};
/// `kernelFile` names the file of a finding whose file is unknown (the kernel's source name).
RunDiagnostics toDiagnostics(const RunReport& report, const std::string& kernelFile);

} // namespace wb::session
