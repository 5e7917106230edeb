// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/session/Binding.h"

#include "core/common/Error.h"
#include "core/session/StructScalar.h"

#include <cctype>
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
    if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
    for (const char c : s)
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
    return true;
}
} // namespace

std::optional<Binding::Target> Binding::parseTarget(const std::string& text)
{
    const std::size_t plus = text.find('+');
    Target t;
    t.name = trimmed(text.substr(0, plus));
    if (!isIdentifier(t.name)) return std::nullopt;
    if (plus == std::string::npos) return t;
    t.offset = trimmed(text.substr(plus + 1));
    if (t.offset.empty()) return std::nullopt;
    return t;
}

std::vector<BoundArg> Binding::bind(const std::vector<KernelParam>& params, const Session& session,
                                    const std::map<std::string, std::string>& bindings,
                                    const std::string& what, bool allowGlobals)
{
    auto fail = [&what](const std::string& msg) {
        throw Error(Error::Kind::InvalidArgument, what + ": " + msg);
    };
    std::set<std::string> paramNames;
    for (const KernelParam& p : params)
        paramNames.insert(p.name);
    for (const auto& [param, target] : bindings)
        if (!paramNames.count(param))
            fail("binding for '" + param + "', but there is no parameter of that name");

    std::vector<BoundArg> out;
    for (const KernelParam& p : params) {
        const auto it = bindings.find(p.name);
        const auto parsed = Binding::parseTarget(it != bindings.end() ? it->second : p.name);
        if (!parsed)
            fail("parameter '" + p.name + "': binding \"" + it->second +
                 "\" is neither a buffer or scalar name nor `buffer + offset`");
        const std::string target = parsed->name;
        BoundArg arg;
        arg.param = p.name;
        arg.offset = parsed->offset;
        const std::string typeText =
            p.type.empty() ? (p.isPointer ? p.pointee + "*" : "?") : p.type;
        if (const BufferSpec* b = session.findBuffer(target)) {
            if (!p.isPointer)
                fail("parameter '" + p.name + "' is " + typeText + " but '" + target +
                     "' is a buffer of type " + elementTypeName(b->type) +
                     ": bind the value to a scalar");
            const auto pt = elementTypeOfCType(p.pointee);
            // 16-bit floats may be taken as their raw bits (the C++ reference has no __half).
            const bool rawHalf = pt == ElementType::U16 &&
                                 (b->type == ElementType::F16 || b->type == ElementType::BF16);
            if (pt && *pt != b->type && !rawHalf)
                fail("parameter '" + p.name + "' is " + typeText + " but buffer '" + target +
                     "' is " + elementTypeName(b->type));
            arg.isBuffer = true;
            arg.index = static_cast<std::size_t>(b - session.buffers.data());
        } else if (const BufferSpec* g = session.findGlobal(target)) {
            if (!allowGlobals)
                fail("parameter '" + p.name + "' is bound to '" + target +
                     "', a module global (__constant__/__device__ variable): the kernel reads "
                     "it by name, not as an argument");
            if (!p.isPointer)
                fail("parameter '" + p.name + "' is " + typeText + " but '" + target +
                     "' is a global of type " + elementTypeName(g->type) +
                     ": the reference takes it through a pointer");
            const auto pt = elementTypeOfCType(p.pointee);
            if (pt && *pt != g->type)
                fail("parameter '" + p.name + "' is " + typeText + " but global '" + target +
                     "' is " + elementTypeName(g->type));
            arg.isBuffer = true;
            arg.isGlobal = true;
            arg.index = static_cast<std::size_t>(g - session.globals.data());
        } else if (const ScalarSpec* s = session.findScalar(target)) {
            const std::string scalarType =
                s->isStruct() ? StructScalar::typeText(s->members) : elementTypeName(s->type);
            const std::size_t scalarSize =
                s->isStruct() ? StructScalar::layout(s->members).size : elementSize(s->type);
            if (p.isPointer)
                fail("parameter '" + p.name + "' is " + typeText + " but '" + target +
                     "' is a scalar of type " + scalarType + ": bind the pointer to a buffer");
            const auto pt = elementTypeOfCType(p.type);
            if (pt && (s->isStruct() || *pt != s->type))
                fail("parameter '" + p.name + "' is " + typeText + " but scalar '" + target +
                     "' is " + scalarType);
            // The backend's size of the parameter (a struct's, from the compiled kernel) must be
            // the declared layout's.
            if (!pt && p.size != 0 && p.size != scalarSize)
                fail("parameter '" + p.name + "' (" + typeText + ") takes " +
                     std::to_string(p.size) + " bytes but scalar '" + target + "' is " +
                     scalarType + " (" + std::to_string(scalarSize) + " bytes)");
            if (s->isStruct() && p.alignment != 0 &&
                p.alignment != StructScalar::layout(s->members).alignment)
                fail("parameter '" + p.name + "' (" + typeText + ") is aligned to " +
                     std::to_string(p.alignment) + " bytes but scalar '" + target + "' is " +
                     scalarType + " (aligned to " +
                     std::to_string(StructScalar::layout(s->members).alignment) + ")");
            if (!arg.offset.empty())
                fail("parameter '" + p.name + "': '" + target + " + " + arg.offset +
                     "' offsets a scalar; only a buffer can be bound at an offset");
            arg.isBuffer = false;
            arg.index = static_cast<std::size_t>(s - session.scalars.data());
        } else {
            fail("parameter '" + p.name + "' is not bound: no buffer or scalar named '" + target +
                 "'");
        }
        out.push_back(arg);
    }
    return out;
}

} // namespace wb::session
