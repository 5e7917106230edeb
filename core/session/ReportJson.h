// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/common/CheckMode.h"
#include "core/common/LaunchConfig.h"
#include "core/common/MemoryFinding.h"
#include "core/common/RaceFinding.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QJsonValue>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace wb::session {

struct RunReport;

// The one JSON encoding of what a run produced, and its decoder: `warpbench-cli run --json`
// (RunReport::toJson, read by the grader) and the runner protocol (the Report frame's "report")
// both write reportToJson's object, and the runner's client reads it back with reportFromJson.
// Each kind of result (memory finding, race, crowded words, timing, transfers, launch checks,
// speed of light, an output's diff, compute-sanitizer log, kernel output, ...) is encoded by one
// function and decoded by the one beside it (docs/ARCHITECTURE.md, "One run, one value").
//
// The encoding is exact: doubles keep their 17 digits (NaN and ±Inf as the strings "nan",
// "inf", "-inf"), 64-bit counts travel as JSON integers (a decimal string above 2^63 - 1),
// addresses as hex strings, enums by name. Fields a reader of --json does not need for a
// verdict (kernel parameters, diagnostic codes, the exact tolerance) sit beside the ones it
// reads; no field of --json changes name or type. Buffers (results, expected) are not encoded
// here, and write traces only as --json's summary: the runner sends both as bulk data through
// shared memory (runner::BufferCodec).

/// Which sections reportToJson writes.
enum class ReportSections {
    /// What --json prints: launch, timing, speed of light, conditions and transfers only for a
    /// run that was timed, grade only for a graded run, races only for a race-checked run.
    Applicable,
    /// Every section, whatever the run did: the runner protocol (reportFromJson then gives back
    /// the same RunReport, buffers and traces aside: the runner sends those as bulk data, so the
    /// write traces' summary is left out).
    All,
};

QJsonObject reportToJson(const RunReport& report,
                         ReportSections sections = ReportSections::Applicable);
/// The report of reportToJson's object (either form; a section left out reads as not run).
/// Throws wb::Error(Internal) on a malformed object and on enum names (status, backend,
/// reference kind, severity, ...) this build does not know.
RunReport reportFromJson(const QJsonObject& json);

/// The mode checkModeName spells (how reports and the runner's Run frame name a CheckMode), or
/// nullopt for any other text. Reads every mode checkModeName knows: a new one needs no edit here.
std::optional<CheckMode> checkModeOfName(std::string_view name);

/// A memory finding: {kind (name), kernel, file, line, block, thread (both null when not
/// located), address (hex), isWrite, accessSize, message}.
QJsonObject findingToJson(const MemoryFinding& finding);
MemoryFinding findingFromJson(const QJsonObject& json);
/// A race: {kernel, memory ("shared"|"global"), location, address (hex), accessSize,
/// occurrences, first, second}; each side {file, line, block, thread, isWrite, isAtomic}.
QJsonObject raceToJson(const RaceFinding& race);
RaceFinding raceFromJson(const QJsonObject& json);
/// Crowded words of one buffer or `__shared__` variable: {location, memory, words}.
QJsonObject crowdingToJson(const RaceCrowding& crowding);
RaceCrowding crowdingFromJson(const QJsonObject& json);

/// The exact value encodings above, for the runner's bulk-data headers (runner::BufferCodec)
/// too: a count as a JSON integer (its decimal text above 2^63 - 1; the decoder also takes
/// text), sizes and shapes as arrays of counts, a Dim3 as [x, y, z].
namespace json {
QJsonValue count(std::uint64_t v);
std::uint64_t count(const QJsonValue& v);
QJsonArray sizes(const std::vector<std::size_t>& v);
std::vector<std::size_t> sizes(const QJsonValue& v);
QJsonArray dim(const Dim3& d);
Dim3 dim(const QJsonValue& v);
} // namespace json

} // namespace wb::session
