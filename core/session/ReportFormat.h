// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/common/Diagnostic.h"
#include "core/common/MemoryFinding.h"
#include "core/common/RaceFinding.h"

#include <QJsonObject>

#include <string>
#include <vector>

namespace wb::session {

struct RunReport;

// How what a run found reads, in one place for every reader: the CLI's text and --json
// (RunReport::toText, findingsText, toJson), the grader (which reads that JSON) and the
// window's Problems and editor marks (toDiagnostics). A new kind of finding is formatted here.

/// `memory finding: out of bounds: kernel.cu:1: block (0,0,0) thread (4,0,0): kernel k: …`
/// and a newline.
std::string findingText(const MemoryFinding& finding);
/// `race: shared cache[67]: k.cu:11 read by block (0,0,0) thread (3,0,0) vs k.cu:11 write by
/// block (0,0,0) thread (67,0,0) (kernel block_sum, 124 conflicting pairs)` and a newline.
std::string raceText(const RaceFinding& race);

/// A memory finding in --json: {kind, kernel, file, line, block, thread (null when not
/// located), address (hex), isWrite, accessSize, message}.
QJsonObject findingJson(const MemoryFinding& finding);
/// A race in --json: {kernel, memory ("shared"|"global"), location, address (hex), accessSize,
/// occurrences, first, second}; each side {file, line, block, thread, isWrite, isAtomic}.
QJsonObject raceJson(const RaceFinding& race);
/// Crowded words of one buffer or `__shared__` variable in --json: {location, memory, words}.
QJsonObject crowdingJson(const RaceCrowding& crowding);

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
