// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/common/CheckMode.h"

#include <string>
#include <utility>
#include <vector>

namespace wb {

/// Compile options, a flat mirror of NVRTC's flags. The CPU emulator reads the subset that
/// makes sense for a host compiler (optLevel, fastMath, std, defines, includeDirs, extraFlags
/// are passed on; GPU-only fields are ignored there).
struct CompileOptions {
    std::string arch; ///< "sm_90", "compute_90"; empty = the device's own (or sm_75 with no device)
    int optLevel = 3; ///< ptxas -O0..3 (host compiler -O for the CPU backend)
    bool fastMath = false;     ///< --use_fast_math
    bool lineInfo = false;     ///< -lineinfo
    bool deviceDebug = false;  ///< -G
    std::string std = "c++17"; ///< -std=
    std::vector<std::pair<std::string, std::string>>
        defines; ///< -DNAME or -DNAME=value (value may be empty)
    std::vector<std::string>
        includeDirs;     ///< searched for headers, relative to projectDir (see scanIncludes)
    int maxRegCount = 0; ///< -maxrregcount; 0 = no limit
    std::vector<std::string> extraFlags; ///< passed verbatim
    /// How the kernels are instrumented (trace, bounds check, race check); not saved in project
    /// files, which may spell a mode in extraFlags instead (requestedCheckModes reads both).
    CheckMode check = CheckMode::None;
    /// Template kernels to instantiate, as the user writes them: "scale<float, 128>".
    std::vector<std::string> nameExpressions;
    /// Where `#include` looks (docs/compiler.md, "Includes"); not saved in project files, the
    /// session runner and the window fill them in. The project folder: quoted includes fall back
    /// to it, relative includeDirs are resolved against it; empty = the main source's folder,
    /// else the working directory.
    std::string projectDir;
    /// The main source's folder (quoted includes look there first); empty = projectDir. The
    /// window sends its kernel as text with this set to the kernel file's folder.
    std::string sourceDir;

    friend bool operator==(const CompileOptions&, const CompileOptions&) = default;
};

} // namespace wb
