// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/session/Session.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace wb::session {

/// `v` as messages show it (10 significant digits).
std::string numberText(double v);

/// Evaluates the numeric expressions of a session (`N*N`, `ceil(N/256)`) with muparser, over
/// the session's scalars. Besides muparser's own functions it knows ceil, floor, round, trunc
/// and mod. Errors are Error(Kind::InvalidArgument) naming the field and the offending token:
/// `launch.grid[0]: unknown token "M" at position 5 in "ceil(M/256)"`.
///
/// Integer scalars are exact (evaluateInteger, defineScalar): muparser computes in double,
/// which rounds integers above 2^53 (0xDEADBEEFCAFEBABE would reach the kernel 702 too small).
class Expression {
public:
    /// An integer in (-2^64, 2^64): sign and magnitude.
    struct Integer {
        bool negative = false;
        std::uint64_t magnitude = 0;
        friend bool operator==(const Integer&, const Integer&) = default;
    };
    /// What a scalar passes to the kernel: its bytes, little-endian (elementSize(type) of them,
    /// or the struct's size).
    using ScalarBytes = std::vector<unsigned char>;

    /// Defines (or redefines) a variable visible to later expressions.
    void setVariable(const std::string& name, double value);
    bool hasVariable(const std::string& name) const { return m_vars.count(name) != 0; }
    const std::map<std::string, double>& variables() const noexcept { return m_vars; }

    /// Any real value.
    double evaluate(const std::string& expression, const std::string& field) const;
    /// A whole number >= minimum (sizes, grid, block, shared bytes).
    std::uint64_t evaluateCount(const std::string& expression, const std::string& field,
                                std::uint64_t minimum = 1) const;

    /// An integer computed exactly. Exact arithmetic covers integer literals (decimal, `0x` hex,
    /// optional `'` digit separators), integer scalars defined earlier, parentheses and
    /// `+ - * / % ^ << >> & | ~` (`^` is the power, as in muparser; `/` only where it divides
    /// exactly). Anything else (functions, fractions, floating-point scalars) is evaluated in
    /// double and accepted when the result is a whole number of magnitude below 2^53, where
    /// double is exact; otherwise Error "cannot be evaluated exactly".
    /// With `type`, a double result outside the type is "out of range" rather than inexact.
    Integer evaluateInteger(const std::string& expression, const std::string& field,
                            std::optional<ElementType> type = std::nullopt) const;

    /// Evaluates `spec`'s value as the kernel receives it: integer types exactly
    /// (evaluateInteger) and refused when the value does not fit the type; bool as C++ converts
    /// (non-zero is true); floating-point types through evaluate(). Defines the scalar for later
    /// expressions as the kernel sees it. Error names `field`, the scalar and its type.
    /// A struct's members are evaluated the same way and packed at their offsets
    /// (StructScalar::layout); a struct is not visible to later expressions.
    ScalarBytes defineScalar(const ScalarSpec& spec, const std::string& field);

private:
    /// One value of `type` (checked), written to `out`; returns the exact integer or nullopt.
    void valueOf(const std::string& name, ElementType type, const std::string& value,
                 const std::string& field, unsigned char* out, double* asDouble, Integer* asInteger,
                 bool* isInteger) const;

    std::map<std::string, double> m_vars;
    std::map<std::string, Integer> m_integers; ///< exact values of the integer scalars
};

} // namespace wb::session
