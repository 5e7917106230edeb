// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/common/MemoryFinding.h"
#include "core/common/RaceFinding.h"
#include "core/session/RunReport.h"

#include <QJsonObject>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace wb::runner {

/// Lossless JSON for what crosses the runner boundary: a RunReport without its buffer contents
/// (results/expected travel through shared memory or Blob frames), memory findings, and the
/// type and shape of a HostArray. Doubles round-trip exactly (QJson keeps 17 digits); 64-bit
/// integers travel as decimal strings.
class ReportCodec {
public:
    static QJsonObject toJson(const session::RunReport& report);
    /// Throws wb::Error(Internal) on malformed input and on enum values (status, backend,
    /// reference kind) this build does not know.
    static session::RunReport fromJson(const QJsonObject& json);

    static QJsonObject findingToJson(const MemoryFinding& finding);
    static MemoryFinding findingFromJson(const QJsonObject& json);
    static QJsonObject raceToJson(const RaceFinding& race);
    static RaceFinding raceFromJson(const QJsonObject& json);
    /// {location, shared, words}
    static QJsonObject crowdingToJson(const RaceCrowding& crowding);
    static RaceCrowding crowdingFromJson(const QJsonObject& json);

    /// {"type", "shape"}; arrayFromHeader returns a zero-filled array of that type and shape,
    /// after checking (before allocating) that it needs no more than `maxBytes`: what the
    /// runner actually sent for it. Throws wb::Error(Internal) otherwise.
    static QJsonObject arrayHeader(const session::HostArray& array);
    static session::HostArray arrayFromHeader(const QJsonObject& json, std::uint64_t maxBytes);

    /// A trace-mode WriteTrace travels as a header (traceHeader: buffer, shape, element size,
    /// launch geometry, untraced count) plus its per-element arrays, which go with the
    /// buffers: traceArrays names them "<buffer>/<field>". traceFromParts takes the arrays of
    /// that buffer out of `arrays` and throws wb::Error(Internal) when one is missing or of the
    /// wrong size.
    static QJsonObject traceHeader(const WriteTrace& trace);
    static std::map<std::string, session::HostArray> traceArrays(const WriteTrace& trace);
    static WriteTrace traceFromParts(const QJsonObject& header,
                                     std::map<std::string, session::HostArray>& arrays);
};

} // namespace wb::runner
