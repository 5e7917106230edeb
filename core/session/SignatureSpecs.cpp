// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/session/SignatureSpecs.h"

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
                                     const std::string& defaultSize)
{
    SignatureSpecs out;
    s.launch.kernel = kernel.name;
    const bool anyConstPointer =
        std::any_of(kernel.params.begin(), kernel.params.end(),
                    [](const KernelParam& p) { return p.isPointer && p.isConst; });

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
            b.role = p.isConst ? BufferRole::In
                               : (anyConstPointer ? BufferRole::Out : BufferRole::InOut);
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
