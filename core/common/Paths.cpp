// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/common/Paths.h"

#include <cstdlib>
#include <system_error>

namespace wb {

namespace {

std::filesystem::path fromEnv(const char* name)
{
    const char* value = std::getenv(name);
    return value && *value ? std::filesystem::path(value) : std::filesystem::path();
}

} // namespace

std::filesystem::path dataDir()
{
    if (auto env = fromEnv("WARPBENCH_DATA_DIR"); !env.empty()) return env;
    std::error_code ec;
    const auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
    if (!ec) {
        const auto installed = exe.parent_path().parent_path() / "share" / "warpbench";
        if (std::filesystem::exists(installed / "prelude", ec)) return installed;
    }
    return std::filesystem::path(WB_SOURCE_DATA_DIR);
}

std::filesystem::path cacheDir()
{
    std::filesystem::path dir = fromEnv("WARPBENCH_CACHE_DIR");
    if (dir.empty()) {
        if (auto xdg = fromEnv("XDG_CACHE_HOME"); !xdg.empty())
            dir = xdg / "warpbench";
        else if (auto home = fromEnv("HOME"); !home.empty())
            dir = home / ".cache" / "warpbench";
        else
            dir = std::filesystem::temp_directory_path() / "warpbench-cache";
    }
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    return dir;
}

} // namespace wb
