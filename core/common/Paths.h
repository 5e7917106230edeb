// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>

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
///
/// A cache folder that cannot be written (a read-only mount, a path through a file, no
/// permission) is not an error: the private temporary cache above is used instead and one line
/// goes to stderr, once per process ("warpbench: warning: the cache folder X cannot be written
/// (Read-only file system); using a private temporary cache Y for this run").
std::filesystem::path cacheDir();

/// One warning line about the cache on stderr, "warpbench: warning: <text>", at most once per
/// process for the same text (a warm runner compiles many times).
void warnAboutCache(const std::string& text);

/// "no space left on device in the cache <dir>" and what to do: the message for a cache
/// write that failed with ENOSPC (never reported as a compile error of the user's code).
std::string cacheFullMessage(const std::filesystem::path& dir);

/// The size limit of each compile cache folder (cacheDir()/nvrtc, cacheDir()/host): past it
/// the least recently used entries are deleted. $WARPBENCH_CACHE_MAX_MB, default 1024 MiB.
std::uintmax_t cacheLimitBytes();

} // namespace wb
