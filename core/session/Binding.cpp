// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/session/Binding.h"

#include "core/common/Error.h"
#include "core/session/StructScalar.h"

#include <set>

namespace wb::session {

std::vector<BoundArg> Binding::bind(const std::vector<KernelParam>& params, const Session& session,
                                    const std::map<std::string, std::string>& bindings,
                                    const std::string& what)
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
        const std::string target = it != bindings.end() ? it->second : p.name;
        BoundArg arg;
        arg.param = p.name;
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
