// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/session/Expression.h"

#include "core/common/Error.h"

#include <muParser.h>

#include <cmath>
#include <sstream>

namespace wb::session {

namespace {
double fnCeil(double v)
{
    return std::ceil(v);
}
double fnFloor(double v)
{
    return std::floor(v);
}
double fnRound(double v)
{
    return std::round(v);
}
double fnTrunc(double v)
{
    return std::trunc(v);
}
double fnMod(double a, double b)
{
    return std::fmod(a, b);
}
} // namespace

std::string numberText(double v)
{
    std::ostringstream s;
    s.precision(10);
    s << v;
    return s.str();
}

void Expression::setVariable(const std::string& name, double value)
{
    m_vars[name] = value;
}

double Expression::evaluate(const std::string& expression, const std::string& field) const
{
    if (expression.find_first_not_of(" \t") == std::string::npos)
        throw Error(Error::Kind::InvalidArgument, field + ": empty expression");
    mu::Parser parser;
    // muparser binds variables by address; copy them so evaluation never mutates the context.
    std::map<std::string, double> vars = m_vars;
    try {
        parser.DefineFun("ceil", fnCeil);
        parser.DefineFun("floor", fnFloor);
        parser.DefineFun("round", fnRound);
        parser.DefineFun("trunc", fnTrunc);
        parser.DefineFun("mod", fnMod);
        for (auto& [name, value] : vars)
            parser.DefineVar(name, &value);
        parser.SetExpr(expression);
        const double v = parser.Eval();
        if (!std::isfinite(v))
            throw Error(Error::Kind::InvalidArgument,
                        field + ": \"" + expression + "\" evaluates to " + numberText(v));
        return v;
    } catch (const mu::Parser::exception_type& e) {
        std::string msg = field + ": " + e.GetMsg();
        const std::string token = e.GetToken();
        if (!token.empty() && e.GetMsg().find(token) == std::string::npos)
            msg += " (token \"" + token + "\")";
        msg += " in \"" + expression + "\"";
        throw Error(Error::Kind::InvalidArgument, msg);
    }
}

std::uint64_t Expression::evaluateCount(const std::string& expression, const std::string& field,
                                        std::uint64_t minimum) const
{
    const double v = evaluate(expression, field);
    if (std::fabs(v - std::round(v)) > 1e-9 * std::max(1.0, std::fabs(v)))
        throw Error(Error::Kind::InvalidArgument,
                    field + ": \"" + expression + "\" = " + numberText(v) +
                        " is not a whole number (use ceil() or floor())");
    const double r = std::round(v);
    if (r > 9.0e18)
        throw Error(Error::Kind::InvalidArgument,
                    field + ": \"" + expression + "\" = " + numberText(v) + " is out of range");
    if (r < static_cast<double>(minimum))
        throw Error(Error::Kind::InvalidArgument,
                    field + ": \"" + expression + "\" = " + numberText(v) + " must be at least " +
                        std::to_string(minimum));
    return static_cast<std::uint64_t>(r);
}

} // namespace wb::session
