// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/cuda/Compiler.h"

#include "core/common/Error.h"
#include "core/common/Paths.h"
#include "core/common/UserFile.h"
#include "core/cuda/CompileCache.h"
#include "core/cuda/detail/DiagnosticParser.h"
#include "core/cuda/detail/KernelDiscovery.h"
#include "core/cuda/detail/NvrtcApi.h"
#include "core/cuda/detail/PtxParser.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <future>
#include <map>
#include <mutex>
#include <set>

namespace wb::cuda {

namespace {

/// Used when neither the options nor the caller name an architecture (no GPU): the oldest
/// architecture NVRTC 13 supports, so the CUBIN and ptxas report exist without a device.
constexpr const char* kFallbackArch = "sm_75";

double msSince(std::chrono::steady_clock::time_point start)
{
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
        .count();
}

bool envFlag(const char* name)
{
    const char* v = std::getenv(name);
    return v && *v && std::string_view(v) != "0";
}

/// NVRTC's option strings for `options` (one flag per string).
std::vector<std::string> buildFlags(const CompileOptions& options, const std::string& arch,
                                    const std::vector<std::string>& toolkitIncludes)
{
    std::vector<std::string> flags;
    flags.reserve(12 + options.defines.size() + options.includeDirs.size() +
                  toolkitIncludes.size() + options.extraFlags.size());
    flags.push_back("-arch=" + arch);
    if (!options.std.empty()) flags.push_back("-std=" + options.std);
    // -G makes ptxas reject any -O above 0 ("Optimized debugging not supported").
    if (!options.deviceDebug)
        flags.push_back("--ptxas-options=-O" + std::to_string(std::clamp(options.optLevel, 0, 3)));
    if (options.fastMath) flags.emplace_back("--use_fast_math");
    if (options.lineInfo) flags.emplace_back("-lineinfo");
    if (options.deviceDebug) flags.emplace_back("-G");
    if (options.maxRegCount > 0)
        flags.push_back("-maxrregcount=" + std::to_string(options.maxRegCount));
    for (const auto& [name, value] : options.defines)
        flags.push_back(value.empty() ? "-D" + name : "-D" + name + "=" + value);
    for (const std::string& dir : options.includeDirs)
        flags.push_back("-I" + dir);
    for (const std::string& dir : toolkitIncludes)
        flags.push_back("-I" + dir);
    flags.emplace_back("--ptxas-options=-v");
    for (const std::string& f : options.extraFlags)
        flags.push_back(f);
    return flags;
}

/// Paths and contents of the user headers that `source` includes (recursively): quoted
/// includes are looked up, like NVRTC does, next to the including file (for the source: the
/// folder of `sourceName`, the working directory when it has none) and then in the option
/// include dirs; angle includes in the option include dirs only (toolkit headers are covered by
/// the NVRTC version in the key). Editing such a header, or creating one, changes the key.
std::string userHeaders(std::string_view source, const std::string& sourceName,
                        const std::vector<std::string>& includeDirs)
{
    namespace fs = std::filesystem;
    std::string out;
    std::set<std::string> seen;
    struct Pending {
        std::string text;
        fs::path dir;
    };
    std::vector<Pending> pending;
    pending.push_back({std::string(source), fs::path(sourceName).parent_path()});
    while (!pending.empty() && seen.size() < 256) {
        const Pending current = std::move(pending.back());
        pending.pop_back();
        const std::string& text = current.text;
        std::size_t pos = 0;
        while ((pos = text.find('#', pos)) != std::string::npos) {
            std::size_t i = pos + 1;
            pos = i;
            while (i < text.size() && (text[i] == ' ' || text[i] == '\t'))
                ++i;
            if (text.compare(i, 7, "include") != 0) continue;
            i += 7;
            while (i < text.size() && (text[i] == ' ' || text[i] == '\t'))
                ++i;
            if (i >= text.size() || (text[i] != '"' && text[i] != '<')) continue;
            const bool quoted = text[i] == '"';
            const std::size_t end = text.find(quoted ? '"' : '>', i + 1);
            if (end == std::string::npos) continue;
            const std::string name = text.substr(i + 1, end - i - 1);
            std::vector<fs::path> candidates;
            if (quoted) candidates.push_back(current.dir / name);
            for (const std::string& dir : includeDirs)
                candidates.push_back(fs::path(dir) / name);
            for (const fs::path& candidate : candidates) {
                std::error_code ec;
                if (!fs::is_regular_file(candidate, ec)) continue;
                const std::string key = candidate.lexically_normal().string();
                if (!seen.insert(key).second) break;
                std::string content;
                try {
                    content = UserFile::read(candidate, UserFile::kMaxTextBytes, "a header");
                } catch (const Error&) {
                    // Replaced since the check (a FIFO, a vanished file): NVRTC reports it.
                }
                out += key;
                out += '\0';
                out += content;
                out += '\0';
                pending.push_back({std::move(content), candidate.parent_path()});
                break;
            }
        }
    }
    return out;
}

CompileResult unavailableResult(const std::string& sourceName, const std::string& reason)
{
    CompileResult r;
    r.sourceName = sourceName;
    r.log = reason;
    Diagnostic d;
    d.severity = Severity::Fatal;
    d.file = "nvrtc";
    d.message = reason;
    r.diagnostics.push_back(std::move(d));
    return r;
}

} // namespace

struct Compiler::Impl {
    const detail::NvrtcApi& api = detail::NvrtcApi::get();
    std::vector<std::string> toolkitIncludes;
    std::string version;
    std::atomic<bool> cacheEnabled{true};
    CompileCache cache{cacheDir() / "nvrtc", 512, cacheLimitBytes()};
    // Compiles under way, so that a second caller with the same key waits for the first
    // instead of running NVRTC again.
    using Shared = std::shared_ptr<const CompileResult>;
    std::mutex inFlightMutex;
    std::map<CompileCache::Key, std::shared_future<Shared>> inFlight;

    CompileResult compileUncached(const std::string& source, const std::string& sourceName,
                                  const std::vector<std::string>& flags,
                                  const CompileOptions& options, const std::string& arch) const;
};

Compiler& Compiler::instance()
{
    static Compiler compiler;
    return compiler;
}

Compiler::Compiler()
    : m_impl(new Impl)
{
    if (m_impl->api.ok()) {
        m_impl->version = m_impl->api.versionString();
        m_impl->toolkitIncludes = detail::toolkitIncludeDirs(m_impl->api.libraryPath);
    }
    m_impl->cacheEnabled = !envFlag("WARPBENCH_NO_CACHE");
}

bool Compiler::available() const noexcept
{
    return m_impl->api.ok();
}

const std::string& Compiler::unavailableReason() const noexcept
{
    return m_impl->api.error;
}

std::string Compiler::version() const
{
    return m_impl->version;
}

void Compiler::clearMemoryCache()
{
    m_impl->cache.clearMemory();
}

void Compiler::setCacheEnabled(bool enabled)
{
    m_impl->cacheEnabled = enabled;
}

CompileResult Compiler::compile(const std::string& source, const std::string& sourceName,
                                const CompileOptions& options, const std::string& defaultArch)
{
    const auto start = std::chrono::steady_clock::now();
    if (!available()) {
        CompileResult r = unavailableResult(sourceName, unavailableReason());
        r.compileMs = msSince(start);
        return r;
    }
    const std::string arch = !options.arch.empty()  ? options.arch
                             : !defaultArch.empty() ? defaultArch
                                                    : std::string(kFallbackArch);
    const std::vector<std::string> flags = buildFlags(options, arch, m_impl->toolkitIncludes);

    const bool useCache = m_impl->cacheEnabled.load(std::memory_order_relaxed);
    CompileCache::Key key{};
    if (useCache) {
        const std::string headers = userHeaders(source, sourceName, options.includeDirs);
        key = CompileCache::makeKey(
            {source, sourceName, &flags, &options.nameExpressions, m_impl->version, headers});
        if (auto hit = m_impl->cache.findInMemory(key)) {
            CompileResult r = *hit;
            r.cache = CompileResult::Cache::MemoryHit;
            r.compileMs = msSince(start);
            return r;
        }
        if (auto hit = m_impl->cache.findOnDisk(key)) {
            CompileResult r = *hit;
            r.cache = CompileResult::Cache::DiskHit;
            r.compileMs = msSince(start);
            return r;
        }
    }

    if (!useCache) {
        CompileResult r = m_impl->compileUncached(source, sourceName, flags, options, arch);
        r.cache = CompileResult::Cache::Disabled;
        r.compileMs = msSince(start);
        return r;
    }

    // Join a compile of the same key that another thread has started, or register ours.
    std::promise<Impl::Shared> promise;
    {
        std::unique_lock lock(m_impl->inFlightMutex);
        if (auto it = m_impl->inFlight.find(key); it != m_impl->inFlight.end()) {
            std::shared_future<Impl::Shared> pending = it->second;
            lock.unlock();
            CompileResult r = *pending.get();
            r.cache = CompileResult::Cache::MemoryHit;
            r.compileMs = msSince(start);
            return r;
        }
        // It may have finished between our lookup and this lock (stored before unregistering).
        if (auto hit = m_impl->cache.findInMemory(key)) {
            lock.unlock();
            CompileResult r = *hit;
            r.cache = CompileResult::Cache::MemoryHit;
            r.compileMs = msSince(start);
            return r;
        }
        m_impl->inFlight.emplace(key, promise.get_future().share());
    }
    auto unregister = [this, &key] {
        std::lock_guard lock(m_impl->inFlightMutex);
        m_impl->inFlight.erase(key);
    };

    CompileResult r;
    try {
        r = m_impl->compileUncached(source, sourceName, flags, options, arch);
    } catch (...) {
        promise.set_exception(std::current_exception());
        unregister();
        throw;
    }
    r.cache = CompileResult::Cache::Miss;
    r.compileMs = msSince(start);
    auto shared = std::make_shared<const CompileResult>(r);
    // Failed compiles stay in memory only: the next attempt in a new process retries.
    // A fatal error (typically a header that cannot be opened) may depend on files that are
    // not part of the key, so it is not cached at all.
    const bool fatal =
        std::any_of(r.diagnostics.begin(), r.diagnostics.end(),
                    [](const Diagnostic& d) { return d.severity == Severity::Fatal; });
    if (r.ok || !fatal) m_impl->cache.store(key, shared, r.ok);
    promise.set_value(std::move(shared));
    unregister();
    return r;
}

CompileResult Compiler::Impl::compileUncached(const std::string& source,
                                              const std::string& sourceName,
                                              const std::vector<std::string>& flags,
                                              const CompileOptions& options,
                                              const std::string& arch) const
{
    CompileResult r;
    r.sourceName = sourceName;
    r.target = arch;
    r.compilerVersion = version;

    nvrtcProgram program = nullptr;
    nvrtcResult rc =
        api.createProgram(&program, source.c_str(), sourceName.c_str(), 0, nullptr, nullptr);
    if (rc != NVRTC_SUCCESS) {
        CompileResult failed =
            unavailableResult(sourceName, "nvrtcCreateProgram failed: " + api.errorString(rc));
        failed.target = arch;
        failed.compilerVersion = version;
        return failed;
    }
    struct ProgramGuard {
        const detail::NvrtcApi& api;
        nvrtcProgram& program;
        ~ProgramGuard() { api.destroyProgram(&program); }
    } guard{api, program};

    std::vector<std::string> rejectedExpressions;
    for (const std::string& e : options.nameExpressions)
        if (api.addNameExpression(program, e.c_str()) != NVRTC_SUCCESS)
            rejectedExpressions.push_back(e);

    std::vector<const char*> argv;
    argv.reserve(flags.size());
    for (const std::string& f : flags)
        argv.push_back(f.c_str());
    rc = api.compileProgram(program, static_cast<int>(argv.size()), argv.data());

    std::size_t logSize = 0;
    if (api.getProgramLogSize(program, &logSize) == NVRTC_SUCCESS && logSize > 1) {
        r.log.resize(logSize);
        api.getProgramLog(program, r.log.data());
        r.log.resize(logSize - 1); // drop the terminating NUL
    }
    r.diagnostics = detail::parseNvrtcLog(r.log);
    for (const std::string& e : rejectedExpressions)
        r.diagnostics.push_back(
            {"nvrtc", 0, 0, Severity::Error, {}, "name expression \"" + e + "\" was rejected", {}});

    if (rc != NVRTC_SUCCESS) {
        if (!hasErrors(r.diagnostics)) {
            // E.g. an invalid option: NVRTC says so only through the result code.
            r.diagnostics.push_back({"nvrtc",
                                     0,
                                     0,
                                     Severity::Fatal,
                                     {},
                                     api.errorString(rc) + (r.log.empty() ? "" : ": " + r.log),
                                     {}});
        }
        r.ok = false;
        return r;
    }

    std::size_t size = 0;
    if (api.getPTXSize(program, &size) == NVRTC_SUCCESS && size > 1) {
        r.ptx.resize(size);
        api.getPTX(program, r.ptx.data());
        r.ptx.resize(size - 1);
    }
    size = 0;
    if (api.getCUBINSize(program, &size) == NVRTC_SUCCESS && size > 0) {
        r.binary.resize(size);
        api.getCUBIN(program, reinterpret_cast<char*>(r.binary.data()));
    }

    std::vector<std::pair<std::string, std::string>> lowered;
    for (const std::string& e : options.nameExpressions) {
        const char* name = nullptr;
        if (api.getLoweredName(program, e.c_str(), &name) == NVRTC_SUCCESS && name)
            lowered.emplace_back(e, name);
    }
    r.kernels = detail::discoverKernels(r.ptx, source, lowered, detail::parsePtxasReport(r.log));
    r.ok = !hasErrors(r.diagnostics);
    return r;
}

} // namespace wb::cuda
