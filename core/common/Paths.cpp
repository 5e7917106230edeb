// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/common/Paths.h"

#include <dlfcn.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <set>
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

namespace {

/// Whether `dir` is a directory (not a symlink) owned by us that only we can write to.
enum class DirState { Missing, Private, OursButOpen, NotOurs };

DirState stateOf(const std::filesystem::path& dir)
{
    struct stat st {};
    if (::lstat(dir.c_str(), &st) != 0) return DirState::Missing;
    if (!S_ISDIR(st.st_mode) || st.st_uid != ::geteuid()) return DirState::NotOurs;
    return (st.st_mode & 077) != 0 ? DirState::OursButOpen : DirState::Private;
}

/// <tmp>/warpbench-cache-<uid>, private to this user (see cacheDir()).
std::filesystem::path privateTempCacheDir()
{
    namespace fs = std::filesystem;
    std::error_code ec;
    fs::path tmp = fs::temp_directory_path(ec);
    if (ec) tmp = "/tmp";
    const fs::path dir = tmp / ("warpbench-cache-" + std::to_string(::geteuid()));
    bool usable = true;
    for (int attempt = 0; attempt < 4 && usable; ++attempt) {
        switch (stateOf(dir)) {
        case DirState::Private:
            return dir;
        case DirState::Missing:
            // Checked again afterwards: someone may have raced us to the name.
            usable = ::mkdir(dir.c_str(), 0700) == 0 || errno == EEXIST;
            break;
        case DirState::OursButOpen:
            // Others could have planted entries: nothing in it is trusted.
            fs::remove_all(dir, ec);
            break;
        case DirState::NotOurs:
            usable = false;
            break;
        }
    }
    // Someone else holds the name (or it cannot be made): a fresh private folder per process.
    std::string pattern = (dir.string() + "-XXXXXX");
    if (::mkdtemp(pattern.data())) return pattern;
    return dir; // unusable: the caches then fail to store and every compile runs
}

/// Empty when files can be created in `dir` (made first if missing), else why not.
std::string whyNotWritable(const std::filesystem::path& dir)
{
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec) return ec.message();
    std::string probe = (dir / ".write-probe-XXXXXX").string();
    const int fd = ::mkstemp(probe.data());
    if (fd < 0) return std::strerror(errno);
    ::close(fd);
    ::unlink(probe.c_str());
    return {};
}

} // namespace

std::filesystem::path cacheDir()
{
    std::filesystem::path dir = fromEnv("WARPBENCH_CACHE_DIR");
    if (dir.empty()) {
        if (auto xdg = fromEnv("XDG_CACHE_HOME"); !xdg.empty())
            dir = xdg / "warpbench";
        else if (auto home = fromEnv("HOME"); !home.empty())
            dir = home / ".cache" / "warpbench";
        else
            return privateTempCacheDir();
    }
    // Checked once per folder and process: a warm runner asks on every compile.
    static std::mutex mutex;
    static std::map<std::filesystem::path, std::filesystem::path> checked;
    {
        std::lock_guard lock(mutex);
        if (const auto it = checked.find(dir); it != checked.end()) {
            std::error_code ec;
            std::filesystem::create_directories(it->second, ec); // deleted meanwhile: again
            return it->second;
        }
    }
    std::filesystem::path use = dir;
    if (const std::string why = whyNotWritable(dir); !why.empty()) {
        use = privateTempCacheDir();
        warnAboutCache("the cache folder " + dir.string() + " cannot be written (" + why +
                       "); using a private temporary cache " + use.string() + " for this run");
    }
    std::lock_guard lock(mutex);
    checked.emplace(dir, use);
    return use;
}

void warnAboutCache(const std::string& text)
{
    static std::mutex mutex;
    static std::set<std::string> said;
    std::lock_guard lock(mutex);
    if (!said.insert(text).second) return;
    std::fprintf(stderr, "warpbench: warning: %s\n", text.c_str());
    std::fflush(stderr);
}

std::string cacheFullMessage(const std::filesystem::path& dir)
{
    return "no space left on device in the cache " + dir.string() +
           " (free some space, lower $WARPBENCH_CACHE_MAX_MB or point $WARPBENCH_CACHE_DIR "
           "elsewhere)";
}

std::uintmax_t cacheLimitBytes()
{
    constexpr std::uintmax_t kDefaultMb = 1024;
    const char* value = std::getenv("WARPBENCH_CACHE_MAX_MB");
    std::uintmax_t mb = kDefaultMb;
    if (value && *value) {
        char* end = nullptr;
        errno = 0;
        const unsigned long long v = std::strtoull(value, &end, 10);
        if (errno == 0 && end && *end == '\0' && v > 0 && v < (1ull << 40)) mb = v;
    }
    return mb << 20;
}

} // namespace wb
