// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/common/WriteTrace.h"
#include "core/session/HostArray.h"

#include <QJsonObject>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace wb::runner {

/// The headers of the bulk data a Report frame carries beside its report (which is
/// session::reportToJson's, ReportSections::All): the type and shape of each result and expected
/// buffer, and the trace-mode WriteTraces, whose per-element arrays travel with the buffers
/// (shared memory or Blob frames).
class BufferCodec {
public:
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
