// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/common/Diagnostic.h"

#include <map>
#include <string>
#include <vector>

namespace wb::cpu::detail {

/// A __global__ function found in the user's text.
struct ScannedKernel {
    std::string name;                    ///< qualified: "ns::scale"
    std::vector<std::string> paramNames; ///< from the definition (else the first declaration);
                                         ///< "param<i>" when unnamed
    bool isTemplate = false;
    bool externC = false;
    bool defined = false; ///< a definition was seen (not only declarations)
    std::string file;     ///< the sourceName it was found in
    int line = 0;
    /// Constructs the emulator cannot run, inside this kernel's body: the kernel is refused
    /// (its body emptied in `rewritten`), the file's other kernels are not.
    std::vector<Diagnostic> refusals;
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
    std::vector<Diagnostic> refusals; ///< constructs outside kernels the emulator cannot run
    /// The user headers' rewritten texts (filled by the backend when it scans a program's
    /// headers along with its main file).
    std::vector<std::string> headerTexts;
    /// Trace mode: the edits of every declaration and definition of each kernel.
    std::vector<ScannedKernel::TypeEdit> traceEdits;

    /// Scans `source` (named `sourceName` in diagnostics) after conditional compilation:
    /// text in `#if`/`#ifdef` groups that are known to be inactive (`macros` holds the macros
    /// defined outside the file, -D and the user's headers, with their values; the file's own
    /// #define and #undef are followed; a condition on an unknown reserved name such as __GNUC__
    /// counts as active) declares no kernel and refuses nothing.
    static KernelSource scan(const std::string& source, const std::string& sourceName,
                             const std::map<std::string, std::string>& macros = {});
    /// A value in scan()'s `macros` for a macro that may or may not be defined where the file is
    /// read (one another header defines: an include guard, say): conditions on it keep every
    /// branch.
    static constexpr const char* kUnknownMacro = "\x01unknown";
    /// The object-like macros `source` #defines (name → value), for scan()'s `macros`.
    static std::map<std::string, std::string> definedMacros(const std::string& source);
    /// `source` with the mutable pointer parameters of every __global__ function turned into
    /// `::wbcpu::traced_ptr<T>` (trace mode, resources/prelude/warpbench/cpu_trace.h); line
    /// structure kept.
    static std::string withTracedPointers(const std::string& source,
                                          const std::map<std::string, std::string>& macros = {});
};

/// Blanks comments, string and character literals with spaces (newlines kept), so positions in
/// the result are positions in `source`.
std::string blankCommentsAndLiterals(const std::string& source);

} // namespace wb::cpu::detail
