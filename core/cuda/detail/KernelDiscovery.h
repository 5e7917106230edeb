// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/common/KernelInfo.h"

#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace wb::cuda::detail {

/// A `__global__` function as spelled in the source text (used only for parameter names and,
/// for extern "C" kernels, spelled types).
struct SourceKernel {
    std::string name;                    ///< unqualified, without template arguments
    std::vector<std::string> paramNames; ///< "" where a parameter has no name
    std::vector<std::string> paramTypes; ///< as spelled, whitespace normalised
    bool isDefinition = false;           ///< a body follows (not a forward declaration)
};

/// Scans source text (comments and literals ignored) for `__global__` declarations.
/// Kernels produced by macros are found only if their name is spelled literally.
std::vector<SourceKernel> scanSourceKernels(std::string_view source);

/// `typedef T name;` and `using name = T;` found in source text: name → T.
std::map<std::string, std::string, std::less<>> scanTypedefs(std::string_view source);

/// abi::__cxa_demangle; the input itself when it is no mangled name.
std::string demangle(const std::string& symbol);

/// Kernels of a compiled program: every PTX `.entry` with its parameter layout, named and typed
/// from the demangled symbol (C++ kernels) or the source (extern "C" kernels), with parameter
/// names from the source, and `nameExpressions` (expression → lowered name) giving the user's
/// name of template instances. `resources` comes from parsePtxasReport.
std::vector<KernelInfo>
discoverKernels(std::string_view ptx, std::string_view source,
                const std::vector<std::pair<std::string, std::string>>& nameExpressions,
                const std::map<std::string, ResourceUsage, std::less<>>& resources);

} // namespace wb::cuda::detail
