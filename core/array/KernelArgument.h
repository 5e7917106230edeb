// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace wb {

/// The element and scalar types generated kernels accept (C++ spellings, as in CUDA C++).
enum class ScalarType {
    Bool,
    Char,
    SignedChar,
    UnsignedChar,
    Short,
    UnsignedShort,
    Int,
    UnsignedInt,
    Long,
    UnsignedLong,
    LongLong,
    UnsignedLongLong,
    Float,
    Double,
};

/// "float", "unsigned int", ... (the canonical spelling used in generated source).
const char* scalarTypeName(ScalarType type) noexcept;
std::size_t scalarTypeSize(ScalarType type) noexcept;
bool isFloatingPoint(ScalarType type) noexcept;
/// Parses a type spelling ("unsigned", "long long int", "float"); nullopt when unknown.
std::optional<ScalarType> parseScalarType(std::string_view text) noexcept;

/// One parameter of a generated kernel, as PyCUDA's argument strings write it:
/// "float a", "const float *x", "double* __restrict__ out".
struct KernelArgument {
    ScalarType type = ScalarType::Float;
    std::string name;
    bool pointer = false;
    bool isConst = false; ///< the element (or the scalar) is const
    /// The declaration as generated source writes it; `restrict` adds __restrict__ to pointers.
    std::string declaration(bool restrict = false) const;
};

/// Parses a comma-separated argument list strictly: every argument is
/// `[const] <type> [const] [*] [const] [__restrict__] <name>`, with <type> one of
/// ScalarType's spellings, at most one `*`, and a distinct C identifier that is neither a
/// type word nor reserved (`i` and `n`, which generated kernels define, and names starting
/// with `wb_`). Throws wb::Error (InvalidArgument) naming the argument: "argument 2
/// ('floot *x'): unknown type 'floot' (...)".
std::vector<KernelArgument> parseKernelArguments(std::string_view text);

} // namespace wb
