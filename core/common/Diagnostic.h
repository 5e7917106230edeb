// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>
#include <vector>

namespace wb {

/// How serious a compiler message is. Drives editor markers and the verdict of a compile.
enum class Severity { Note, Warning, Error, Fatal };

/// One message from a compiler (NVRTC, the host C++ compiler, ptxas), located in the user's
/// source. Both compilers produce this one type so that the editor treats them alike.
struct Diagnostic {
    std::string file; ///< name as the compiler saw it ("kernel.cu", "reference.cpp")
    int line = 0;     ///< 1-based; 0 when the message has no location
    int column = 0;   ///< 1-based, from the caret line (NVRTC) or file:line:col (gcc); 0 if unknown
    Severity severity = Severity::Error;
    std::string code;                 ///< e.g. "177-D" for NVRTC warnings; empty when none
    std::string message;              ///< the message text, without location prefix
    std::vector<std::string> context; ///< "detected during instantiation of ..." and similar notes

    friend bool operator==(const Diagnostic&, const Diagnostic&) = default;
};

/// "error", "warning", ... as shown to users.
const char* severityName(Severity severity) noexcept;

/// True when any diagnostic is an error or fatal error.
bool hasErrors(const std::vector<Diagnostic>& diagnostics) noexcept;

} // namespace wb
