// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/session/Session.h"

#include "core/common/UserFile.h"

#include <array>

namespace wb::session {

namespace {
constexpr std::array<const char*, 9> kInitNames{"zeros",  "constant", "iota", "linspace", "uniform",
                                                "normal", "npy",      "bin",  "image"};
}

const char* initialiserKindName(Initialiser::Kind kind) noexcept
{
    return kInitNames[static_cast<std::size_t>(kind)];
}

std::optional<Initialiser::Kind> parseInitialiserKind(const std::string& text) noexcept
{
    for (std::size_t i = 0; i < kInitNames.size(); ++i)
        if (text == kInitNames[i]) return static_cast<Initialiser::Kind>(i);
    return std::nullopt;
}

const char* bufferRoleName(BufferRole role) noexcept
{
    switch (role) {
    case BufferRole::In:
        return "in";
    case BufferRole::Out:
        return "out";
    case BufferRole::InOut:
        return "inout";
    }
    return "in";
}

const char* referenceKindName(ReferenceSpec::Kind kind) noexcept
{
    switch (kind) {
    case ReferenceSpec::Kind::None:
        return "none";
    case ReferenceSpec::Kind::Cpp:
        return "cpp";
    case ReferenceSpec::Kind::Kernel:
        return "kernel";
    case ReferenceSpec::Kind::Files:
        return "files";
    }
    return "none";
}

std::filesystem::path Session::resolve(const std::string& path) const
{
    std::filesystem::path p(path);
    if (p.is_absolute() || baseDir.empty()) return p;
    return baseDir / p;
}

std::string Session::loadKernelSource() const
{
    if (kernelFile.empty()) return kernelSource;
    return UserFile::read(resolve(kernelFile), UserFile::kMaxTextBytes, "the kernel source");
}

std::string Session::kernelSourceName() const
{
    if (kernelFile.empty()) return "kernel.cu";
    return std::filesystem::path(kernelFile).filename().string();
}

const BufferSpec* Session::findBuffer(const std::string& n) const noexcept
{
    for (const BufferSpec& b : buffers)
        if (b.name == n) return &b;
    return nullptr;
}

const BufferSpec* Session::findGlobal(const std::string& n) const noexcept
{
    for (const BufferSpec& g : globals)
        if (g.name == n) return &g;
    return nullptr;
}

const ScalarSpec* Session::findScalar(const std::string& n) const noexcept
{
    for (const ScalarSpec& s : scalars)
        if (s.name == n) return &s;
    return nullptr;
}

} // namespace wb::session
