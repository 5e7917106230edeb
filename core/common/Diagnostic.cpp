// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/common/Diagnostic.h"

#include <algorithm>

namespace wb {

const char* severityName(Severity severity) noexcept
{
    switch (severity) {
    case Severity::Note:
        return "note";
    case Severity::Warning:
        return "warning";
    case Severity::Error:
        return "error";
    case Severity::Fatal:
        return "fatal error";
    }
    return "error";
}

bool hasErrors(const std::vector<Diagnostic>& diagnostics) noexcept
{
    return std::any_of(diagnostics.begin(), diagnostics.end(), [](const Diagnostic& d) {
        return d.severity == Severity::Error || d.severity == Severity::Fatal;
    });
}

} // namespace wb
