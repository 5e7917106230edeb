// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/common/FlagPolicy.h"

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace wb::session {

struct Session;

/// Whether a session's compiler flags may run without the user's say (issue 15). review() lists
/// the flags outside FlagPolicy's set; a session with any runs only when Session::flagsTrusted
/// is set, which the window does after the user answers "Trust and run" (remembered per SHA-256
/// of the .wbproj content) and the CLI does for --trust-project. SessionRunner refuses otherwise.
class ProjectTrust {
public:
    /// reference.flags (host compiler), compileOptions.extraFlags (NVRTC; "--host-flag=X"
    /// entries are host flags, the CPU emulator's mode flags are allowed) and
    /// compileOptions.includeDirs, checked against Session::baseDir.
    static std::vector<FlagRefusal> review(const Session& session);
    /// The refusals of review() that concern the C++ reference, or the kernel, alone.
    static std::vector<FlagRefusal> reviewReference(const Session& session);
    static std::vector<FlagRefusal> reviewKernel(const Session& session);

    /// "this project passes compiler flags outside the allowed set: …" plus `howToTrust`.
    static std::string refusalMessage(const std::vector<FlagRefusal>& refusals,
                                      std::string_view howToTrust);

    /// SHA-256 (hex) of the file's bytes; empty when it cannot be read.
    static std::string fileHash(const std::filesystem::path& projectFile);
    /// Trust the user gave in the window, remembered in QSettings by content hash: editing the
    /// file (or a stranger's copy with other flags) asks again.
    static bool isRemembered(const std::string& hash);
    static void remember(const std::string& hash);
};

} // namespace wb::session
