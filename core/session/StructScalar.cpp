// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/session/StructScalar.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <set>

namespace wb::session {

namespace {
std::string trimmed(const std::string& s)
{
    const std::size_t b = s.find_first_not_of(" \t\n");
    if (b == std::string::npos) return {};
    return s.substr(b, s.find_last_not_of(" \t\n") - b + 1);
}
bool isIdentifier(const std::string& s)
{
    return !s.empty() && (std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_') &&
           std::all_of(s.begin(), s.end(), [](char c) {
               return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
           });
}
} // namespace

StructScalar::Layout StructScalar::layout(const std::vector<StructMember>& members)
{
    Layout l;
    for (const StructMember& m : members) {
        const std::size_t size = m.isPointer() ? sizeof(std::uint64_t) : elementSize(m.type);
        l.size = (l.size + size - 1) / size * size;
        l.offsets.push_back(l.size);
        l.size += size;
        l.alignment = std::max(l.alignment, size);
    }
    l.size = (l.size + l.alignment - 1) / l.alignment * l.alignment;
    return l;
}

std::string StructScalar::typeText(const std::vector<StructMember>& members)
{
    std::string t = "struct {";
    for (std::size_t i = 0; i < members.size(); ++i)
        t += (i ? ", " : "") + std::string(elementTypeName(members[i].type)) +
             (members[i].isPointer() ? "* " : " ") + members[i].name;
    return t + "}";
}

std::string StructScalar::valueText(const std::vector<StructMember>& members)
{
    std::string t = "{";
    for (std::size_t i = 0; i < members.size(); ++i)
        t += (i ? "; " : "") + std::string(elementTypeName(members[i].type)) +
             (members[i].isPointer() ? "* " : " ") + members[i].name + " = " +
             (members[i].isPointer() ? members[i].buffer : members[i].value);
    return t + "}";
}

std::optional<std::vector<StructMember>> StructScalar::parse(const std::string& text,
                                                             std::string* error)
{
    const auto fail = [error](const std::string& why) {
        if (error) *error = why;
        return std::nullopt;
    };
    std::string body = trimmed(text);
    if (body.size() < 2 || body.front() != '{' || body.back() != '}')
        return fail("a struct value is {type name = value; ...}");
    body = body.substr(1, body.size() - 2);
    std::vector<StructMember> out;
    std::set<std::string> names;
    // Members split at ';' or ',' outside parentheses (an expression may hold "max(a, b)").
    std::vector<std::string> parts;
    int depth = 0;
    std::string cur;
    for (char c : body) {
        if (c == '(') ++depth;
        if (c == ')') --depth;
        if ((c == ';' || c == ',') && depth == 0) {
            parts.push_back(cur);
            cur.clear();
        } else {
            cur.push_back(c);
        }
    }
    parts.push_back(cur);
    for (const std::string& raw : parts) {
        const std::string p = trimmed(raw);
        if (p.empty()) continue;
        const std::size_t eq = p.find('=');
        if (eq == std::string::npos) return fail("member \"" + p + "\" has no '= value'");
        const std::string decl = trimmed(p.substr(0, eq));
        StructMember m;
        std::string value = trimmed(p.substr(eq + 1));
        // "f32* elements = A": a pointer member, its value the buffer it points into.
        const std::size_t star = decl.find('*');
        const std::size_t sp = star != std::string::npos ? star : decl.find_first_of(" \t");
        if (sp == std::string::npos) return fail("member \"" + decl + "\" needs a type and a name");
        const std::string type = trimmed(decl.substr(0, sp));
        m.name = trimmed(decl.substr(star != std::string::npos ? sp + 1 : sp));
        // A pointer's value is the buffer it points into; its `value` keeps the default.
        (star != std::string::npos ? m.buffer : m.value) = std::move(value);
        const auto t = parseElementType(type);
        if (!t) return fail("unknown element type \"" + type + "\" of member " + m.name);
        m.type = *t;
        if (!isIdentifier(m.name)) return fail("\"" + m.name + "\" is not an identifier");
        if (m.value.empty() || (star != std::string::npos && m.buffer.empty()))
            return fail("member " + m.name + " has no value");
        if (!names.insert(m.name).second) return fail("duplicate member " + m.name);
        out.push_back(std::move(m));
    }
    if (out.empty()) return fail("a struct needs at least one member");
    return out;
}

} // namespace wb::session
