// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/session/ElementType.h"
#include "core/session/Session.h"

#include <string>

namespace wb::session {

/// What File → New from Expression asks for: `z = a*x + y` over arrays of one element type.
struct ExpressionSpec {
    /// "<output> = <expression>": the output array, and a C++ expression over arrays (used
    /// element by element), scalars and functions (`sqrt(x)`).
    std::string expression;
    ElementType type = ElementType::F32; ///< f32, f64, i32, u32, i64 or u64
    /// The names in the expression that are scalars, with optional values: "a=2.5, b". Every
    /// other name (not followed by '(') is an array.
    std::string scalars;
    /// The element count, an expression as a project's scalars take it ("1 << 20" is not one;
    /// "2^20" is).
    std::string size = "2^20";
};

/// The project made from an expression: its kernel is wb::ElementwiseKernel's generated source
/// (the plain entry point; n is an unsigned long long scalar), its reference the same
/// statement in a C++ loop, the inputs random, the output compared with a tolerance fitting the
/// type (exact for integers).
struct ExpressionProject {
    Session session; ///< kernel and reference inline
    std::string kernelSource;
    std::string referenceSource;
    std::string arguments; ///< "float a, const float *x, const float *y, float *z"
    std::string operation; ///< "z[i] = a*x[i] + y[i]"
};

/// Builds the project; throws wb::Error (InvalidArgument) naming the field and the problem
/// ("expression: ...", "scalars: ...", "type: ...", "argument 2 ('...'): ...").
ExpressionProject projectFromExpression(const ExpressionSpec& spec);

} // namespace wb::session
