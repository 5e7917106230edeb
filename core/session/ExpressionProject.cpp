// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/session/ExpressionProject.h"

#include "core/array/ElementwiseKernel.h"
#include "core/common/Error.h"

#include <algorithm>
#include <cctype>
#include <optional>

namespace wb::session {

namespace {

[[noreturn]] void fail(const std::string& field, const std::string& why)
{
    throw Error(Error::Kind::InvalidArgument, field + ": " + why);
}

std::string trim(const std::string& s)
{
    std::size_t b = 0, e = s.size();
    while (b < e && std::isspace(static_cast<unsigned char>(s[b])))
        ++b;
    while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1])))
        --e;
    return s.substr(b, e - b);
}

bool isIdentifier(const std::string& s)
{
    if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
    return std::all_of(s.begin(), s.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
    });
}

std::optional<ScalarType> scalarTypeFor(ElementType type)
{
    switch (type) {
    case ElementType::F32:
        return ScalarType::Float;
    case ElementType::F64:
        return ScalarType::Double;
    case ElementType::I32:
        return ScalarType::Int;
    case ElementType::U32:
        return ScalarType::UnsignedInt;
    case ElementType::I64:
        return ScalarType::LongLong;
    case ElementType::U64:
        return ScalarType::UnsignedLongLong;
    default:
        return std::nullopt;
    }
}

struct ScalarEntry {
    std::string name;
    std::string value;
    bool used = false;
};

std::vector<ScalarEntry> parseScalars(const std::string& text)
{
    std::vector<ScalarEntry> out;
    std::size_t p = 0;
    while (p <= text.size()) {
        const std::size_t comma = std::min(text.find(',', p), text.size());
        const std::string item = trim(text.substr(p, comma - p));
        p = comma + 1;
        if (item.empty()) {
            if (comma == text.size() && out.empty() && trim(text).empty()) break;
            fail("scalars", "an empty entry (a stray comma?) in '" + text + "'");
        }
        const std::size_t eq = item.find('=');
        ScalarEntry e{trim(item.substr(0, eq)),
                      eq == std::string::npos ? "1" : trim(item.substr(eq + 1))};
        if (!isIdentifier(e.name)) fail("scalars", "'" + e.name + "' is not a name");
        if (e.value.empty()) fail("scalars", "'" + e.name + "' has an empty value");
        for (const ScalarEntry& o : out)
            if (o.name == e.name) fail("scalars", "'" + e.name + "' is listed twice");
        out.push_back(std::move(e));
        if (comma == text.size()) break;
    }
    return out;
}

} // namespace

ExpressionProject projectFromExpression(const ExpressionSpec& spec)
{
    const auto scalarType = scalarTypeFor(spec.type);
    if (!scalarType)
        fail("type", std::string("'") + elementTypeName(spec.type) +
                         "' is not offered: choose f32, f64, i32, u32, i64 or u64");
    const std::string typeName = scalarTypeName(*scalarType);

    // "<output> = <expression>", the '=' not part of ==, <=, >= or !=.
    const std::string& text = spec.expression;
    std::size_t eq = std::string::npos;
    for (std::size_t p = 0; p < text.size(); ++p) {
        if (text[p] != '=') continue;
        const bool compound =
            (p + 1 < text.size() && text[p + 1] == '=') ||
            (p > 0 && std::string_view("=<>!").find(text[p - 1]) != std::string_view::npos);
        if (!compound) {
            eq = p;
            break;
        }
    }
    if (eq == std::string::npos)
        fail("expression", "write it as '<output> = <expression>', e.g. 'z = a*x + y'");
    const std::string output = trim(text.substr(0, eq));
    const std::string rhs = trim(text.substr(eq + 1));
    if (!isIdentifier(output))
        fail("expression", "the output '" + output + "' (left of '=') is not a name");
    if (rhs.empty()) fail("expression", "nothing right of '='");

    std::vector<ScalarEntry> scalars = parseScalars(spec.scalars);
    std::vector<std::string> arrays; // inputs, in order of first use
    std::string operation = output + "[i] = ";
    bool outputRead = false;
    for (std::size_t p = 0; p < rhs.size();) {
        const char c = rhs[p];
        if (std::isdigit(static_cast<unsigned char>(c)) ||
            (c == '.' && p + 1 < rhs.size() &&
             std::isdigit(static_cast<unsigned char>(rhs[p + 1])))) {
            // A number: digits, '.', suffixes, exponents with their sign.
            std::size_t e = p + 1;
            while (e < rhs.size() &&
                   (std::isalnum(static_cast<unsigned char>(rhs[e])) || rhs[e] == '.' ||
                    ((rhs[e] == '+' || rhs[e] == '-') && (rhs[e - 1] == 'e' || rhs[e - 1] == 'E'))))
                ++e;
            operation += rhs.substr(p, e - p);
            p = e;
        } else if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
            std::size_t e = p + 1;
            while (e < rhs.size() &&
                   (std::isalnum(static_cast<unsigned char>(rhs[e])) || rhs[e] == '_'))
                ++e;
            const std::string name = rhs.substr(p, e - p);
            std::size_t after = e;
            while (after < rhs.size() && std::isspace(static_cast<unsigned char>(rhs[after])))
                ++after;
            p = e;
            if (after < rhs.size() && rhs[after] == '(') { // a function
                operation += name;
                continue;
            }
            if (name == "i" || name == "n")
                fail("expression", "'" + name +
                                       "' is reserved: the generated kernel defines 'i' (the "
                                       "element index) and 'n' (the element count)");
            auto s = std::find_if(scalars.begin(), scalars.end(),
                                  [&](const ScalarEntry& e2) { return e2.name == name; });
            if (s != scalars.end()) {
                s->used = true;
                operation += name;
                continue;
            }
            if (name == output)
                outputRead = true;
            else if (std::find(arrays.begin(), arrays.end(), name) == arrays.end())
                arrays.push_back(name);
            operation += name + "[i]";
        } else {
            operation += c;
            ++p;
        }
    }
    for (const ScalarEntry& s : scalars) {
        if (s.name == output) fail("scalars", "'" + s.name + "' is the output, an array");
        if (!s.used) fail("scalars", "'" + s.name + "' does not appear in the expression");
    }

    std::string arguments;
    const auto add = [&](const std::string& a) {
        if (!arguments.empty()) arguments += ", ";
        arguments += a;
    };
    for (const ScalarEntry& s : scalars)
        add(typeName + " " + s.name);
    for (const std::string& a : arrays)
        add("const " + typeName + " *" + a);
    add(typeName + " *" + output);

    // The generator checks the names (reserved, duplicates) and the brackets.
    const std::string kernelName = "compute_" + output;
    const ElementwiseKernel kernel(arguments, operation, kernelName);

    ExpressionProject project;
    project.arguments = arguments;
    project.operation = operation;
    project.kernelSource = kernel.source();
    std::string params;
    for (const KernelArgument& a : kernel.arguments())
        params += a.declaration() + ", ";
    project.referenceSource =
        "// The same statement as the generated kernel, one element at a time on the CPU.\n"
        "#include <cmath>\n#include <cstdlib>\nusing namespace std;\n\n"
        "void reference(" +
        params +
        "unsigned long long n)\n{\n"
        "    for (unsigned long long i = 0; i < n; ++i) {\n        " +
        operation + ";\n    }\n}\n";

    Session& s = project.session;
    s.name = output + " = " + rhs;
    s.description = "Generated from the expression '" + trim(text) + "' (" + typeName +
                    "): wb::ElementwiseKernel's source, checked against the same statement on "
                    "the CPU.";
    s.kernelSource = project.kernelSource;
    s.scalars.push_back({"n", ElementType::U64, trim(spec.size).empty() ? "0" : trim(spec.size)});
    for (const ScalarEntry& e : scalars)
        s.scalars.push_back({e.name, spec.type, e.value});
    const bool floating = isFloatingPoint(*scalarType);
    std::uint64_t seed = 1;
    const auto input = [&](const std::string& name, BufferRole role) {
        BufferSpec b;
        b.name = name;
        b.type = spec.type;
        b.shape = {"n"};
        b.role = role;
        // Floats in [-1, 1), integers in [1, 100] (small enough for any expression's range).
        b.init.kind = Initialiser::Kind::Uniform;
        b.init.low = std::string(floating ? "-1" : "1");
        b.init.high = std::string(floating ? "1" : "100");
        b.init.seed = seed++;
        return b;
    };
    for (const std::string& a : arrays)
        s.buffers.push_back(input(a, BufferRole::In));
    if (outputRead) {
        s.buffers.push_back(input(output, BufferRole::InOut));
    } else {
        BufferSpec out;
        out.name = output;
        out.type = spec.type;
        out.shape = {"n"};
        out.role = BufferRole::Out;
        s.buffers.push_back(out);
    }
    s.launch.kernel = kernelName;
    s.launch.block = {std::to_string(detail::kGeneratedBlock)};
    s.launch.grid = {"max(1, min(ceil(n / " +
                     std::to_string(detail::kGeneratedBlock * detail::kGeneratedUnroll) +
                     "), 4096))"};
    s.reference.kind = ReferenceSpec::Kind::Cpp;
    s.reference.source = project.referenceSource;
    // The GPU may contract a*x + y into one FMA (one rounding) where the CPU rounds twice.
    if (floating) {
        s.tolerance.atol = spec.type == ElementType::F32 ? 1e-5 : 1e-12;
        s.tolerance.rtol = spec.type == ElementType::F32 ? 1e-5 : 1e-12;
    } else {
        s.tolerance.atol = 0;
        s.tolerance.rtol = 0;
    }
    return project;
}

} // namespace wb::session
