// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/common/Diagnostic.h"

#include <string>
#include <vector>

namespace wb::cpu::detail {

/// A __global__ function found in the user's text.
struct ScannedKernel {
    std::string name;                    ///< qualified: "ns::scale"
    std::vector<std::string> paramNames; ///< from the declaration; "param<i>" when unnamed
    bool isTemplate = false;
    bool externC = false;
    int line = 0;
    /// Trace mode: source ranges [begin, end) of mutable pointer parameter types and the
    /// `::wbcpu::traced_ptr<T> ` text that replaces each (newlines kept).
    struct TypeEdit {
        std::size_t begin = 0, end = 0;
        std::string replacement;
    };
    std::vector<TypeEdit> tracedParams;
};

/// What the emulator learns from a CUDA source before compiling it, and the source rewritten
/// (line for line) so that the prelude can take it.
struct KernelSource {
    std::string rewritten;              ///< same number of lines as the input
    std::vector<ScannedKernel> kernels; ///< each name once, in source order
    /// Qualified names of the module globals: __constant__ variables and namespace-scope
    /// __device__ variables (set and read back through Backend::setConstant/readGlobal).
    std::vector<std::string> constants;
    bool needsFibers = false;         ///< barriers or warp operations appear
    std::vector<Diagnostic> refusals; ///< constructs the emulator cannot run

    /// Scans `source` (named `sourceName` in diagnostics).
    static KernelSource scan(const std::string& source, const std::string& sourceName);
    /// `source` with the mutable pointer parameters of every __global__ function turned into
    /// `::wbcpu::traced_ptr<T>` (trace mode, resources/prelude/warpbench/cpu_trace.h); line
    /// structure kept.
    static std::string withTracedPointers(const std::string& source);
};

/// Blanks comments, string and character literals with spaces (newlines kept), so positions in
/// the result are positions in `source`.
std::string blankCommentsAndLiterals(const std::string& source);

} // namespace wb::cpu::detail
