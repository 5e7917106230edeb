// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/common/MemoryFinding.h"
#include "core/session/RunReport.h"

#include <QJsonObject>

#include <vector>

namespace wb::runner {

/// Lossless JSON for what crosses the runner boundary: a RunReport without its buffer contents
/// (results/expected travel through shared memory or Blob frames), memory findings, and the
/// type and shape of a HostArray. Doubles round-trip exactly (QJson keeps 17 digits); 64-bit
/// integers travel as decimal strings.
class ReportCodec {
public:
    static QJsonObject toJson(const session::RunReport& report);
    /// Throws wb::Error(Internal) on malformed input.
    static session::RunReport fromJson(const QJsonObject& json);

    static QJsonObject findingToJson(const MemoryFinding& finding);
    static MemoryFinding findingFromJson(const QJsonObject& json);

    /// {"type", "shape"}; arrayFromJson returns a zero-filled array of that type and shape.
    static QJsonObject arrayHeader(const session::HostArray& array);
    static session::HostArray arrayFromHeader(const QJsonObject& json);
};

} // namespace wb::runner
