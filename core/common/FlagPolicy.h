// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace wb {

/// One compiler flag from a project that is outside the allowed set.
struct FlagRefusal {
    std::string field;  ///< where it came from: "reference.flags", "compileOptions.extraFlags"
    std::string flag;   ///< the flag as written (with its separate argument, if any)
    std::string reason; ///< why it is refused, for people

    friend bool operator==(const FlagRefusal&, const FlagRefusal&) = default;
};

/// The compiler flags a project file may pass without the user's trust (issue 15): a project
/// or kernel from a stranger must never run a command. g++ flags such as `-wrapper`,
/// `-fplugin=`, `-B`, `-specs=` or `@file` run programs or load code into the compiler, and
/// `-I`/`-include` outside the project folder read files the project does not own; so only a
/// documented set is allowed (docs/sessions.md, "Compiler flags and trust") and every other flag
/// is refused with a FlagRefusal naming the flag and the field. Paths must resolve (symlinks
/// and `..` followed) inside the project folder. Pure: no process, no settings.
class FlagPolicy {
public:
    enum class Compiler {
        Host,  ///< g++ / clang++: the C++ reference and the CPU emulator's kernel library
        Nvrtc, ///< NVRTC: the kernel for the CUDA backend
    };

    /// `projectDir` is the folder relative paths resolve against and paths must stay inside.
    explicit FlagPolicy(std::filesystem::path projectDir);

    /// The flags of `flags` (one argv entry each, as the compiler receives them) outside the
    /// allowed set for `compiler`; empty when all are allowed. `field` names them in messages.
    std::vector<FlagRefusal> check(Compiler compiler, const std::vector<std::string>& flags,
                                   const std::string& field) const;
    /// Include directories (given as `-I<dir>` to either compiler) outside the project folder.
    std::vector<FlagRefusal> checkIncludeDirs(const std::vector<std::string>& dirs,
                                              const std::string& field) const;
    /// Whether `path` (relative to the project folder, or absolute) resolves inside it.
    bool isInsideProject(const std::string& path) const;

    /// "compileOptions.extraFlags: '-wrapper /bin/sh,-c,…' is refused: runs a program …", one
    /// line per refusal.
    static std::string describe(const std::vector<FlagRefusal>& refusals);

private:
    std::vector<FlagRefusal> checkHost(const std::vector<std::string>& flags,
                                       const std::string& field) const;
    std::vector<FlagRefusal> checkNvrtc(const std::vector<std::string>& flags,
                                        const std::string& field) const;

    std::filesystem::path m_projectDir;
};

} // namespace wb
