// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <map>
#include <string>

namespace wb::session {

/// Evaluates the numeric expressions of a session (`N*N`, `ceil(N/256)`) with muparser, over
/// the session's scalars. Besides muparser's own functions it knows ceil, floor, round, trunc
/// and mod. Errors are Error(Kind::InvalidArgument) naming the field and the offending token:
/// `launch.grid[0]: unknown token "M" at position 5 in "ceil(M/256)"`.
/// `v` as messages show it (10 significant digits).
std::string numberText(double v);

class Expression {
public:
    /// Defines (or redefines) a variable visible to later expressions.
    void setVariable(const std::string& name, double value);
    bool hasVariable(const std::string& name) const { return m_vars.count(name) != 0; }
    const std::map<std::string, double>& variables() const noexcept { return m_vars; }

    /// Any real value.
    double evaluate(const std::string& expression, const std::string& field) const;
    /// A whole number >= minimum (sizes, grid, block, shared bytes).
    std::uint64_t evaluateCount(const std::string& expression, const std::string& field,
                                std::uint64_t minimum = 1) const;

private:
    std::map<std::string, double> m_vars;
};

} // namespace wb::session
