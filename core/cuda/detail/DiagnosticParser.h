// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/common/Diagnostic.h"

#include <string>
#include <string_view>
#include <vector>

namespace wb::cuda::detail {

/// Parses an NVRTC log into diagnostics:
///   kernel.cu(3): error: identifier "x" is undefined
///     <source line>
///     <caret line: the column is the caret's position; tabs are copied from the source>
///             detected during instantiation of "..." at line 9     (→ Diagnostic::context)
///   kernel.cu(3): warning #177-D: variable "u" was declared but never referenced (code 177-D)
/// plus located-less `ptxas error/fatal/warning : ...` and `nvrtc: error: ...` lines. The
/// summary ("N errors detected in the compilation of ...", "Compilation terminated.") and
/// ptxas `info` lines are not diagnostics.
std::vector<Diagnostic> parseNvrtcLog(std::string_view log);

} // namespace wb::cuda::detail
