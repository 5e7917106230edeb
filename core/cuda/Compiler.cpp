// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/cuda/Compiler.h"

#include "core/common/Paths.h"
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
#include <fstream>
#include <set>
#include <sstream>

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
    flags.reserve(12 + options.defines.size() + options.includeDirs.size()
                  + toolkitIncludes.size() + options.extraFlags.size());
    flags.push_back("-arch=" + arch);
    if (!options.std.empty()) flags.push_back("-std=" + options.std);
    // -G makes ptxas reject any -O above 0 ("Optimized debugging not supported").
    if (!options.deviceDebug)
        flags.push_back("--ptxas-options=-O" + std::to_string(std::clamp(options.optLevel, 0, 3)));
    if (options.fastMath) flags.emplace_back("--use_fast_math");
    if (options.lineInfo) flags.emplace_back("-lineinfo");
    if (options.deviceDebug) flags.emplace_back("-G");
    if (options.maxRegCount > 0) flags.push_back("-maxrregcount=" + std::to_string(options.maxRegCount));
    for (const auto& [name, value] : options.defines)
        flags.push_back(value.empty() ? "-D" + name : "-D" + name + "=" + value);
    for (const std::string& dir : options.includeDirs) flags.push_back("-I" + dir);
    for (const std::string& dir : toolkitIncludes) flags.push_back("-I" + dir);
    flags.emplace_back("--ptxas-options=-v");
    for (const std::string& f : options.extraFlags) flags.push_back(f);
    return flags;
}

/// Contents of user headers that `source` includes from the option-listed include dirs
/// (recursively), so that editing a header invalidates the cache entry.
std::string userHeaders(std::string_view source, const std::vector<std::string>& includeDirs)
{
    if (includeDirs.empty()) return {};
    namespace fs = std::filesystem;
    std::string out;
    std::set<std::string> seen;
    std::vector<std::string> pending{std::string(source)};
    while (!pending.empty() && seen.size() < 256) {
        const std::string text = std::move(pending.back());
        pending.pop_back();
        std::size_t pos = 0;
        while ((pos = text.find("#", pos)) != std::string::npos) {
            std::size_t i = pos + 1;
            pos = i;
            while (i < text.size() && (text[i] == ' ' || text[i] == '\t')) ++i;
            if (text.compare(i, 7, "include") != 0) continue;
            i += 7;
            while (i < text.size() && (text[i] == ' ' || text[i] == '\t')) ++i;
            if (i >= text.size() || (text[i] != '"' && text[i] != '<')) continue;
            const char close = text[i] == '"' ? '"' : '>';
            const std::size_t end = text.find(close, i + 1);
            if (end == std::string::npos) continue;
            const std::string name = text.substr(i + 1, end - i - 1);
            for (const std::string& dir : includeDirs) {
                const fs::path candidate = fs::path(dir) / name;
                std::error_code ec;
                if (!fs::is_regular_file(candidate, ec)) continue;
                const std::string key = candidate.lexically_normal().string();
                if (!seen.insert(key).second) break;
                std::ifstream in(candidate, std::ios::binary);
                std::ostringstream content;
                content << in.rdbuf();
                out += key;
                out += '\0';
                out += content.str();
                out += '\0';
                pending.push_back(content.str());
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
    CompileCache cache{cacheDir() / "nvrtc"};

    CompileResult compileUncached(const std::string& source, const std::string& sourceName,
                                  const std::vector<std::string>& flags,
                                  const CompileOptions& options, const std::string& arch) const;
};

Compiler& Compiler::instance()
{
    static Compiler compiler;
    return compiler;
}

Compiler::Compiler() : m_impl(new Impl)
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
    const std::string arch = !options.arch.empty() ? options.arch
                             : !defaultArch.empty() ? defaultArch
                                                    : std::string(kFallbackArch);
    const std::vector<std::string> flags = buildFlags(options, arch, m_impl->toolkitIncludes);

    const bool useCache = m_impl->cacheEnabled.load(std::memory_order_relaxed);
    CompileCache::Key key{};
    if (useCache) {
        const std::string headers = userHeaders(source, options.includeDirs);
        key = CompileCache::makeKey({source, sourceName, &flags, &options.nameExpressions,
                                     m_impl->version, headers});
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

    CompileResult r = m_impl->compileUncached(source, sourceName, flags, options, arch);
    r.compileMs = msSince(start);
    if (useCache) {
        r.cache = CompileResult::Cache::Miss;
        // Failed compiles stay in memory only: the next attempt in a new process retries.
        m_impl->cache.store(key, std::make_shared<const CompileResult>(r), r.ok);
    } else {
        r.cache = CompileResult::Cache::Disabled;
    }
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
    nvrtcResult rc = api.createProgram(&program, source.c_str(), sourceName.c_str(), 0, nullptr,
                                       nullptr);
    if (rc != NVRTC_SUCCESS) {
        CompileResult failed = unavailableResult(sourceName, "nvrtcCreateProgram failed: "
                                                                 + api.errorString(rc));
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
    for (const std::string& f : flags) argv.push_back(f.c_str());
    rc = api.compileProgram(program, static_cast<int>(argv.size()), argv.data());

    std::size_t logSize = 0;
    if (api.getProgramLogSize(program, &logSize) == NVRTC_SUCCESS && logSize > 1) {
        r.log.resize(logSize);
        api.getProgramLog(program, r.log.data());
        r.log.resize(logSize - 1); // drop the terminating NUL
    }
    r.diagnostics = detail::parseNvrtcLog(r.log);
    for (const std::string& e : rejectedExpressions)
        r.diagnostics.push_back({"nvrtc", 0, 0, Severity::Error, {},
                                 "name expression \"" + e + "\" was rejected", {}});

    if (rc != NVRTC_SUCCESS) {
        if (!hasErrors(r.diagnostics)) {
            // E.g. an invalid option: NVRTC says so only through the result code.
            r.diagnostics.push_back({"nvrtc", 0, 0, Severity::Fatal, {},
                                     api.errorString(rc) + (r.log.empty() ? "" : ": " + r.log), {}});
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
