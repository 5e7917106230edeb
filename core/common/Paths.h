// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <filesystem>

namespace wb {

/// Warpbench's shared data (examples, the CUDA prelude, completion word lists):
/// $WARPBENCH_DATA_DIR, else <executable>/../share/warpbench when installed, else the same next
/// to the installed libwarpbench-core (<prefix>/lib[/<multiarch>]/, for SDK users' programs),
/// else the source tree's resources/ folder (build tree).
std::filesystem::path dataDir();

/// $XDG_CACHE_HOME/warpbench (default ~/.cache/warpbench), created on first use. The compile
/// caches of NVRTC and of the host compiler live below it. $WARPBENCH_CACHE_DIR overrides.
std::filesystem::path cacheDir();

} // namespace wb
