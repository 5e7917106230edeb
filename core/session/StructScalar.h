// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/session/Session.h"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace wb::session {

/// A struct passed by value (`struct Params {float a; float b; int n;}`): where each member
/// lies, and the text the scalar panel shows and edits (`{f32 a = 2; f32 b = 0.5; i32 n = n}`).
/// The layout is C's: each member at the next multiple of its size (every element type is
/// aligned to its size; a pointer member is 8 bytes), the struct's size rounded up to its
/// largest member. A pointer member reads `f32* elements = A` (the buffer, maybe `A + offset`). The
/// backends report the parameter's size (CUDA: cuFuncGetParamInfo; CPU emulator: the compiled
/// kernel's signature), which Binding checks against it.
class StructScalar {
public:
    struct Layout {
        std::vector<std::size_t> offsets; ///< per member
        std::size_t size = 0;
        std::size_t alignment = 1;
    };
    static Layout layout(const std::vector<StructMember>& members);
    /// "struct {f32 a, f32 b, i32 n}" for messages.
    static std::string typeText(const std::vector<StructMember>& members);
    /// "{f32 a = 2; f32 b = 0.5; i32 n = n}".
    static std::string valueText(const std::vector<StructMember>& members);
    /// Parses valueText's form (`;` or `,` between members); nullopt and `error` when it is not
    /// one (a member needs a type, an identifier and a value; names are unique).
    static std::optional<std::vector<StructMember>> parse(const std::string& text,
                                                          std::string* error = nullptr);
};

} // namespace wb::session
