// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/session/Expression.h"

#include "core/common/Error.h"
#include "core/session/StructScalar.h"

#include <muParser.h>

#include <cctype>
#include <cmath>
#include <cstring>
#include <limits>
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

namespace {

__extension__ using Int = __int128; // -Wpedantic: a GCC/Clang extension, on purpose

constexpr Int kTwo64 = Int(1) << 64;
/// Intermediate values stay below 2^120 in magnitude (2^64 - 1 passes through 2^64); the
/// sum of two of them cannot overflow, and products are checked.
constexpr Int kIntermediate = Int(1) << 120;

/// The expression uses something exact integer arithmetic does not cover.
struct NotExact {};
/// A value too large, or a division by zero.
struct Refused {
    std::string why;
};

Int checked(Int v)
{
    if (v >= kIntermediate || v <= -kIntermediate) throw Refused{"does not fit in 64 bits"};
    return v;
}

/// Recursive descent over `text`, C-like precedence: | & (<< >>) (+ -) (* / %) unary ^ primary.
class IntegerParser {
public:
    IntegerParser(const std::string& text, const std::map<std::string, Expression::Integer>& ints)
        : m_text(text)
        , m_ints(ints)
    {
    }

    Int parse()
    {
        const Int v = orExpr();
        skipSpace();
        if (m_pos != m_text.size()) throw NotExact{};
        return v;
    }

private:
    void skipSpace()
    {
        while (m_pos < m_text.size() && (m_text[m_pos] == ' ' || m_text[m_pos] == '\t'))
            ++m_pos;
    }
    bool eat(const char* op)
    {
        skipSpace();
        const std::size_t n = std::strlen(op);
        if (m_text.compare(m_pos, n, op) != 0) return false;
        // "<" of "<<" is no operator here, nor "&" of "&&" or "|" of "||".
        if (n == 1 && m_pos + 1 < m_text.size() && m_text[m_pos + 1] == op[0] &&
            (op[0] == '&' || op[0] == '|'))
            return false;
        m_pos += n;
        return true;
    }
    Int orExpr()
    {
        Int v = andExpr();
        while (eat("|"))
            v = v | andExpr();
        return v;
    }
    Int andExpr()
    {
        Int v = shiftExpr();
        while (eat("&"))
            v = v & shiftExpr();
        return v;
    }
    Int shiftExpr()
    {
        Int v = addExpr();
        for (;;) {
            if (eat("<<")) {
                const Int n = addExpr();
                if (n < 0) throw NotExact{};
                if (v != 0 && n >= 120) throw Refused{"does not fit in 64 bits"};
                v = checked(v * (Int(1) << static_cast<int>(n)));
            } else if (eat(">>")) {
                const Int n = addExpr();
                if (n < 0) throw NotExact{};
                v = n >= 127 ? (v < 0 ? -1 : 0) : v >> static_cast<int>(n);
            } else {
                return v;
            }
        }
    }
    Int addExpr()
    {
        Int v = mulExpr();
        for (;;) {
            if (eat("+"))
                v = checked(v + mulExpr());
            else if (eat("-"))
                v = checked(v - mulExpr());
            else
                return v;
        }
    }
    Int mulExpr()
    {
        Int v = unary();
        for (;;) {
            if (eat("*")) {
                const Int b = unary();
                Int r = 0;
                if (__builtin_mul_overflow(v, b, &r)) throw Refused{"does not fit in 64 bits"};
                v = checked(r);
            } else if (eat("/")) {
                const Int b = unary();
                if (b == 0) throw Refused{"divides by zero"};
                if (v % b != 0) throw NotExact{}; // a fraction: double decides
                v = v / b;
            } else if (eat("%")) {
                const Int b = unary();
                if (b == 0) throw Refused{"divides by zero"};
                v = v % b;
            } else {
                return v;
            }
        }
    }
    Int unary()
    {
        if (eat("-")) return -unary();
        if (eat("+")) return unary();
        if (eat("~")) return ~unary();
        return power();
    }
    Int power()
    {
        const Int base = primary();
        if (!eat("^")) return base;
        const Int e = unary(); // right-associative: 2^3^2 = 2^9
        if (e < 0) throw NotExact{};
        if (base == 0 || base == 1) return e == 0 ? 1 : base;
        if (base == -1) return e % 2 ? -1 : 1;
        if (e > 120) throw Refused{"does not fit in 64 bits"};
        Int r = 1;
        for (Int i = 0; i < e; ++i)
            r = checked(r * base);
        return r;
    }
    Int primary()
    {
        skipSpace();
        if (m_pos >= m_text.size()) throw NotExact{};
        const char c = m_text[m_pos];
        if (c == '(') {
            ++m_pos;
            const Int v = orExpr();
            if (!eat(")")) throw NotExact{};
            return v;
        }
        if (std::isdigit(static_cast<unsigned char>(c))) return number();
        if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
            const std::size_t start = m_pos;
            while (
                m_pos < m_text.size() &&
                (std::isalnum(static_cast<unsigned char>(m_text[m_pos])) || m_text[m_pos] == '_'))
                ++m_pos;
            const auto it = m_ints.find(m_text.substr(start, m_pos - start));
            if (it == m_ints.end()) throw NotExact{}; // a function, a float scalar, unknown
            const Int mag = it->second.magnitude;
            return it->second.negative ? -mag : mag;
        }
        throw NotExact{};
    }
    Int number()
    {
        int base = 10;
        if (m_text[m_pos] == '0' && m_pos + 1 < m_text.size() &&
            (m_text[m_pos + 1] == 'x' || m_text[m_pos + 1] == 'X')) {
            base = 16;
            m_pos += 2;
        }
        Int v = 0;
        std::size_t digits = 0;
        while (m_pos < m_text.size()) {
            const char ch = m_text[m_pos];
            int d = -1;
            if (ch >= '0' && ch <= '9')
                d = ch - '0';
            else if (base == 16 && ch >= 'a' && ch <= 'f')
                d = ch - 'a' + 10;
            else if (base == 16 && ch >= 'A' && ch <= 'F')
                d = ch - 'A' + 10;
            else if (ch == '\'' && digits > 0 && m_pos + 1 < m_text.size() &&
                     std::isxdigit(static_cast<unsigned char>(m_text[m_pos + 1]))) {
                ++m_pos; // digit separator, as in C++14
                continue;
            }
            if (d < 0) break;
            v = checked(v * base + d);
            ++digits;
            ++m_pos;
        }
        if (digits == 0) throw Refused{"has a hex prefix without digits"};
        // 1.5, 1e3, 2u: not an integer literal of ours.
        if (m_pos < m_text.size() && (std::isalnum(static_cast<unsigned char>(m_text[m_pos])) ||
                                      m_text[m_pos] == '.' || m_text[m_pos] == '_'))
            throw NotExact{};
        return v;
    }

    const std::string& m_text;
    const std::map<std::string, Expression::Integer>& m_ints;
    std::size_t m_pos = 0;
};

std::string integerText(const Expression::Integer& v)
{
    std::string t = std::to_string(v.magnitude);
    if (v.negative && v.magnitude) t.insert(t.begin(), '-');
    return t;
}

/// Lowest and highest value of an integer type, as Integers.
std::pair<Expression::Integer, Expression::Integer> integerRange(ElementType type)
{
    const auto bits = static_cast<unsigned>(elementSize(type) * 8);
    if (type == ElementType::Bool) return {{false, 0}, {false, 1}};
    if (!isSigned(type))
        return {{false, 0},
                {false, bits == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << bits) - 1}};
    const std::uint64_t half = std::uint64_t{1} << (bits - 1);
    return {{true, half}, {false, half - 1}};
}
} // namespace

void Expression::setVariable(const std::string& name, double value)
{
    m_vars[name] = value;
    m_integers.erase(name);
}

Expression::Integer Expression::evaluateInteger(const std::string& expression,
                                                const std::string& field,
                                                std::optional<ElementType> type) const
{
    if (expression.find_first_not_of(" \t") == std::string::npos)
        throw Error(Error::Kind::InvalidArgument, field + ": empty expression");
    try {
        const Int v = IntegerParser(expression, m_integers).parse();
        if (v >= kTwo64 || v <= -kTwo64) throw Refused{"does not fit in 64 bits"};
        return Integer{v < 0, static_cast<std::uint64_t>(v < 0 ? -v : v)};
    } catch (const Refused& r) {
        throw Error(Error::Kind::InvalidArgument,
                    field + ": \"" + expression + "\" " + r.why + " (integer arithmetic)");
    } catch (const NotExact&) {
    }
    // Not exact integer arithmetic: double is exact for every integer of magnitude below 2^53.
    const double v = evaluate(expression, field);
    constexpr double kExact = 9007199254740992.0; // 2^53
    if (type && !fitsElementType(*type, v))
        throw Error(Error::Kind::InvalidArgument,
                    field + ": \"" + expression + "\" = " + numberText(v) + " is out of range (" +
                        elementTypeRangeText(*type) + ")");
    if (!(std::fabs(v) < kExact))
        throw Error(Error::Kind::InvalidArgument,
                    field + ": \"" + expression + "\" cannot be evaluated exactly (" +
                        numberText(v) +
                        " in double, which holds integers exactly only below 2^53): write it "
                        "with integer literals, integer scalars and + - * / % ^ << >> & | ~");
    const double t = std::trunc(v); // as C converts a double to an integer
    return Integer{t < 0, static_cast<std::uint64_t>(std::fabs(t))};
}

void Expression::valueOf(const std::string& name, ElementType type, const std::string& value,
                         const std::string& field, unsigned char* out, double* asDouble,
                         Integer* asInteger, bool* isInteger) const
{
    const std::string what = field + ": scalar '" + name + "' of type " + elementTypeName(type);
    *isInteger = false;
    if (isFloatingPoint(type)) {
        const double v = evaluate(value, field);
        if (!fitsElementType(type, v))
            throw Error(Error::Kind::InvalidArgument,
                        what + ": \"" + value + "\" = " + numberText(v) + " is out of range (" +
                            elementTypeRangeText(type) + ")");
        storeFromDouble(type, out, 0, v);
        *asDouble = loadAsDouble(type, out, 0);
        return;
    }
    Integer v;
    if (type == ElementType::Bool) {
        // As C++ converts to bool: anything but zero is true; true and false are spelled out.
        const std::size_t b = value.find_first_not_of(" \t");
        const std::string t =
            b == std::string::npos ? value : value.substr(b, value.find_last_not_of(" \t") - b + 1);
        if (t == "true" || t == "false")
            v = Integer{false, t == "true" ? 1u : 0u};
        else
            v = Integer{false, evaluate(value, field) != 0 ? 1u : 0u};
    } else {
        v = evaluateInteger(value, what, type);
        const auto [lo, hi] = integerRange(type);
        const bool tooLow =
            v.negative && v.magnitude && (!lo.negative || v.magnitude > lo.magnitude);
        const bool tooHigh = !v.negative && v.magnitude > hi.magnitude;
        if (tooLow || tooHigh)
            throw Error(Error::Kind::InvalidArgument,
                        what + ": \"" + value + "\" = " + integerText(v) + " is out of range (" +
                            integerText(lo) + " to " + integerText(hi) + ")");
    }
    // Two's complement, little-endian: the low elementSize bytes.
    const std::uint64_t bits = v.negative ? std::uint64_t{0} - v.magnitude : v.magnitude;
    for (std::size_t i = 0; i < elementSize(type); ++i)
        out[i] = static_cast<unsigned char>(bits >> (8 * i));
    *asDouble = v.negative ? -static_cast<double>(v.magnitude) : static_cast<double>(v.magnitude);
    *asInteger = v;
    *isInteger = true;
}

Expression::ScalarBytes Expression::defineScalar(const ScalarSpec& spec, const std::string& field)
{
    double d = 0;
    Integer exact;
    bool isInt = false;
    if (spec.isStruct()) {
        const StructScalar::Layout layout = StructScalar::layout(spec.members);
        ScalarBytes bytes(layout.size, 0);
        for (std::size_t i = 0; i < spec.members.size(); ++i) {
            const StructMember& m = spec.members[i];
            if (m.isPointer()) continue; // the buffer's address, filled in at launch
            valueOf(spec.name + "." + m.name, m.type, m.value,
                    field.substr(0, field.rfind(".value")) + ".members[" + std::to_string(i) +
                        "].value",
                    bytes.data() + layout.offsets[i], &d, &exact, &isInt);
        }
        m_vars.erase(spec.name);
        m_integers.erase(spec.name);
        return bytes;
    }
    ScalarBytes bytes(elementSize(spec.type), 0);
    valueOf(spec.name, spec.type, spec.value, field, bytes.data(), &d, &exact, &isInt);
    m_vars[spec.name] = d;
    if (isInt)
        m_integers[spec.name] = exact;
    else
        m_integers.erase(spec.name);
    return bytes;
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
