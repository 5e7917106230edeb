// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/common/Paths.h"

#include <dlfcn.h>

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
    const auto installedNextTo = [&ec](const std::filesystem::path& binary) {
        const auto dir = binary.parent_path().parent_path() / "share" / "warpbench";
        return std::filesystem::exists(dir / "prelude", ec) ? dir : std::filesystem::path();
    };
    const auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
    if (!ec)
        if (auto dir = installedNextTo(exe); !dir.empty()) return dir;
    // Programs of SDK users live anywhere: look next to the installed libwarpbench-core too
    // (<prefix>/lib/ or <prefix>/lib/<multiarch>/).
    Dl_info info{};
    if (dladdr(reinterpret_cast<void*>(&dataDir), &info) != 0 && info.dli_fname) {
        auto lib = std::filesystem::absolute(info.dli_fname, ec);
        for (int up = 0; up < 2 && !ec; ++up, lib = lib.parent_path())
            if (auto dir = installedNextTo(lib); !dir.empty()) return dir;
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
