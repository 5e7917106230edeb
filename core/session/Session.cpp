// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/session/Session.h"

#include "core/common/UserFile.h"

#include <array>
#include <filesystem>

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

std::string exportNameProblem(const std::string& name)
{
    if (name.empty()) return "must not be empty";
    if (name.find('\0') != std::string::npos) return "a file name cannot contain a NUL character";
    for (const char c : name)
        if (static_cast<unsigned char>(c) < 0x20 || c == '\x7f')
            return "a file name cannot contain control characters";
    if (name.find('/') != std::string::npos || name.find('\\') != std::string::npos)
        return "\"" + name +
               "\" is a path: an export is a file name inside the output folder (no '/' or '\\')";
    if (name == "." || name == "..") return "\"" + name + "\" is not a file name";
    if (name.size() > 255) return "a file name has at most 255 bytes";
    const std::string ext = std::filesystem::path(name).extension().string();
    if (ext != ".npy" && ext != ".bin" && ext != ".png" && ext != ".jpg")
        return "expected a file name ending in .npy, .bin, .png or .jpg";
    return {};
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
    if (kernelFile.empty())
        return kernelSourceFileName.empty() ? "kernel.cu" : kernelSourceFileName;
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
