// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/session/SignatureSpecs.h"

#include "core/session/PointerAccess.h"

#include <algorithm>

namespace wb::session {

namespace {

bool taken(const Session& s, const std::string& name)
{
    return s.findBuffer(name) != nullptr || s.findScalar(name) != nullptr;
}

/// "const float" → "float": the element spelling of a value parameter.
std::string valueSpelling(std::string type)
{
    for (const char* q : {"const ", "volatile "})
        if (type.rfind(q, 0) == 0) type.erase(0, std::char_traits<char>::length(q));
    return type;
}

} // namespace

SignatureSpecs SignatureSpecs::apply(Session& s, const KernelInfo& kernel,
                                     const std::string& defaultSize, const std::string& source)
{
    SignatureSpecs out;
    s.launch.kernel = kernel.name;
    const bool anyConstPointer =
        std::any_of(kernel.params.begin(), kernel.params.end(),
                    [](const KernelParam& p) { return p.isPointer && p.isConst; });
    // What the body does through each non-const pointer, where the source is at hand.
    std::vector<std::string> pointers;
    for (const KernelParam& p : kernel.params)
        if (p.isPointer && !p.isConst && !taken(s, p.name)) pointers.push_back(p.name);
    bool bodyFound = false;
    const std::map<std::string, PointerAccess> access =
        source.empty() || pointers.empty()
            ? std::map<std::string, PointerAccess>{}
            : PointerAccess::analyse(source, kernel.name, pointers, &bodyFound);
    if (!source.empty() && !pointers.empty() && !bodyFound)
        out.notes.push_back("the body of kernel " + kernel.name +
                            " was not found in the source: roles from const alone");
    const std::string fallback = anyConstPointer ? "out" : "inout";
    const auto roleOf = [&](const KernelParam& p) {
        if (p.isConst) return BufferRole::In;
        const BufferRole guess = anyConstPointer ? BufferRole::Out : BufferRole::InOut;
        const auto a = access.find(p.name);
        if (a == access.end()) return guess;
        const std::string at =
            a->second.line ? " (line " + std::to_string(a->second.line) + ")" : std::string();
        switch (a->second.kind) {
        case PointerAccess::Kind::Read:
            out.notes.push_back(p.name + ": only read by the kernel" + at +
                                " → in, random data (not const: add const to say so)");
            return BufferRole::In;
        case PointerAccess::Kind::Written:
            out.notes.push_back(p.name + ": only written by the kernel" + at +
                                " → out (elements it leaves unwritten are reported)");
            return BufferRole::Out;
        case PointerAccess::Kind::ReadWritten:
            out.notes.push_back(p.name + ": read and written by the kernel" + at +
                                " → inout, random data");
            return BufferRole::InOut;
        case PointerAccess::Kind::Unused:
            out.notes.push_back(p.name + ": not used by the kernel's body → " + fallback);
            return guess;
        case PointerAccess::Kind::Unknown:
            break;
        }
        out.notes.push_back(p.name + ": cannot tell whether the kernel reads or writes it (" +
                            a->second.why + ") → " + fallback +
                            "; change its role in Buffers if that is wrong");
        return guess;
    };

    // The size: the first integer value parameter, else a scalar N.
    std::string size;
    for (const KernelParam& p : kernel.params) {
        if (p.isPointer) continue;
        if (const auto t = elementTypeOfCType(valueSpelling(p.type)); t && isInteger(*t)) {
            size = p.name;
            break;
        }
    }

    std::vector<ScalarSpec> scalars;
    std::vector<BufferSpec> buffers;
    std::uint64_t seed = 1;
    for (const BufferSpec& b : s.buffers)
        seed = std::max(seed, b.init.seed + 1);
    for (const KernelParam& p : kernel.params) {
        if (taken(s, p.name)) continue;
        if (p.isPointer) {
            const auto type = elementTypeOfCType(p.pointee);
            if (!type) {
                out.skipped.push_back(p.name + ": " + p.type +
                                      " points to no element type (add its buffer by hand)");
                continue;
            }
            BufferSpec b;
            b.name = p.name;
            b.type = *type;
            b.role = roleOf(p);
            if (b.role != BufferRole::Out) {
                b.init.kind = Initialiser::Kind::Uniform;
                b.init.seed = seed++;
            }
            buffers.push_back(std::move(b));
            continue;
        }
        const auto type = elementTypeOfCType(valueSpelling(p.type));
        if (!type) {
            out.skipped.push_back(p.name + ": " + p.type +
                                  " has no element type (add it as a struct scalar)");
            continue;
        }
        scalars.emplace_back(p.name, *type, p.name == size ? defaultSize : std::string("1"));
    }
    if (!buffers.empty() && size.empty()) {
        size.assign(1, 'N');
        if (!taken(s, size)) scalars.emplace(scalars.begin(), size, ElementType::I32, defaultSize);
    }
    for (BufferSpec& b : buffers) {
        b.shape = {size};
        out.addedBuffers.push_back(b.name);
        s.buffers.push_back(std::move(b));
    }
    // Scalars go first (buffers' shapes and the grid refer to them), in the kernel's order.
    for (auto it = scalars.rbegin(); it != scalars.rend(); ++it)
        out.addedScalars.insert(out.addedScalars.begin(), it->name);
    s.scalars.insert(s.scalars.begin(), scalars.begin(), scalars.end());

    if (!out.addedBuffers.empty() && s.launch.grid.size() <= 1 && s.launch.block.size() <= 1) {
        const std::string block = s.launch.block.empty() ? "256" : s.launch.block.front();
        if (s.launch.block.empty()) s.launch.block = {block};
        s.launch.grid = {"ceil(" + size + "/" + block + ")"};
    }
    return out;
}

} // namespace wb::session
