// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <filesystem>

namespace wb {

/// Warpbench's shared data (examples, the CUDA prelude, completion word lists):
/// $WARPBENCH_DATA_DIR, else <executable>/../share/warpbench when installed, else the same next
/// to the installed libwarpbench-core (<prefix>/lib[/<multiarch>]/, for SDK users' programs),
/// else the source tree's resources/ folder (build tree).
std::filesystem::path dataDir();

/// $XDG_CACHE_HOME/warpbench (default ~/.cache/warpbench), created on first use. The compile
/// caches of NVRTC and of the host compiler live below it. $WARPBENCH_CACHE_DIR overrides.
/// Without any of these variables (no HOME: services, containers) it is
/// <tmp>/warpbench-cache-<uid>: created with mode 0700, and used only while it is a real
/// directory owned by this user that nobody else can write to. One that is ours but open to
/// others is emptied and closed (its contents cannot be trusted); one owned by someone else
/// is left alone and a fresh private <tmp>/warpbench-cache-<uid>-XXXXXX is used instead.
std::filesystem::path cacheDir();

/// The size limit of each compile cache folder (cacheDir()/nvrtc, cacheDir()/host): past it
/// the least recently used entries are deleted. $WARPBENCH_CACHE_MAX_MB, default 1024 MiB.
std::uintmax_t cacheLimitBytes();

} // namespace wb
