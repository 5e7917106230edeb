// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/cuda/CompileError.h"

namespace wb::cuda {

namespace {
std::string message(const CompileResult& r)
{
    std::string text = "compiling '" + r.sourceName + "' failed";
    std::string details;
    for (const Diagnostic& d : r.diagnostics) {
        if (d.severity != Severity::Error && d.severity != Severity::Fatal) continue;
        details += "\n" + d.file + "(" + std::to_string(d.line) + "): " + severityName(d.severity) +
                   ": " + d.message;
    }
    if (details.empty() && !r.log.empty()) details = "\n" + r.log;
    return text + (details.empty() ? std::string() : ":" + details);
}
} // namespace

CompileError::CompileError(CompileResult result)
    : Error(Kind::InvalidArgument, message(result))
    , m_result(std::move(result))
{
}

} // namespace wb::cuda
