// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/cuda/Compiler.h"

#include "core/common/Error.h"
#include "core/common/IncludeScan.h"
#include "core/common/Paths.h"
#include "core/common/UserFile.h"
#include "core/cuda/CompileCache.h"
#include "core/cuda/detail/DiagnosticParser.h"
#include "core/cuda/detail/KernelDiscovery.h"
#include "core/cuda/detail/NvrtcApi.h"
#include "core/cuda/detail/PtxParser.h"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <future>
#include <map>
#include <mutex>
#include <set>
#include <string_view>

namespace wb::cuda {

namespace {

/// Used when neither the options nor the caller name an architecture (no GPU): the oldest
/// architecture NVRTC 13 supports, so the CUBIN and ptxas report exist without a device.
constexpr const char* kFallbackArch = "sm_75";

/// Warpbench's C/C++ standard headers for NVRTC (resources/nvrtc).
const std::filesystem::path& standardHeaderDir()
{
    static const std::filesystem::path dir = dataDir() / "nvrtc";
    return dir;
}

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

/// NVRTC's option strings for `options` (one flag per string). The user's includeDirs are not
/// among them: their headers reach NVRTC by name and content (scanIncludes), so that NVRTC reads
/// no user file itself. Warpbench's standard headers come before the toolkit, whose <cuda.h>
/// (the driver API) NVRTC cannot take.
std::vector<std::string> buildFlags(const CompileOptions& options, const std::string& arch,
                                    const std::vector<std::string>& toolkitIncludes)
{
    std::vector<std::string> flags;
    flags.reserve(13 + options.defines.size() + toolkitIncludes.size() + options.extraFlags.size());
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
    flags.push_back("-I" + standardHeaderDir().string());
    for (const std::string& dir : toolkitIncludes)
        flags.push_back("-I" + dir);
    flags.emplace_back("--ptxas-options=-v");
    // Kernel files keep what their host half declares at namespace scope (cuda-samples:
    // `const char* sSDKsample = "...";`, prototypes of host functions in a shared header);
    // nvcc compiles those for the host, NVRTC refuses them as host entities "in JIT mode".
    // As __device__ entities they are harmless until device code uses one, which is then an
    // error at that line as on nvcc.
    flags.emplace_back("-default-device");
    for (const std::string& f : options.extraFlags)
        flags.push_back(f);
    return flags;
}

/// The user headers of a scan as cache key material: display name and content of each.
std::string headerKey(const IncludeScan& scan)
{
    std::string out;
    for (const UserHeader& h : scan.headers) {
        out += h.path.string();
        out += '\0';
        out += h.rewritten;
        out += '\0';
    }
    return out;
}

/// A digest of Warpbench's NVRTC headers, computed once: editing one changes every key.
const std::string& standardHeaderDigest()
{
    static const std::string digest = [] {
        namespace fs = std::filesystem;
        std::vector<fs::path> files;
        std::error_code ec;
        for (const auto& e : fs::recursive_directory_iterator(standardHeaderDir(), ec))
            if (e.is_regular_file()) files.push_back(e.path());
        std::sort(files.begin(), files.end());
        std::string all;
        for (const fs::path& f : files) {
            all += f.lexically_relative(standardHeaderDir()).string();
            all += '\0';
            try {
                all += UserFile::read(f, UserFile::kMaxTextBytes, "a Warpbench header");
            } catch (const Error&) {
            }
            all += '\0';
        }
        return std::to_string(std::hash<std::string>{}(all));
    }();
    return digest;
}

/// Host functions that kernel files call in their host code, by the header that declares them:
/// Warpbench's NVRTC stand-in of that header declares none of them.
struct HostName {
    std::string_view name;
    std::string_view headers; ///< the stand-ins that would have declared it, space-separated
};
constexpr HostName kHostNames[] = {
    {"cout", "iostream"},
    {"cerr", "iostream"},
    {"cin", "iostream"},
    {"endl", "iostream ostream"},
    {"ifstream", "fstream"},
    {"ofstream", "fstream"},
    {"fstream", "fstream"},
    {"stringstream", "sstream"},
    {"ostringstream", "sstream"},
    {"setw", "iomanip"},
    {"setprecision", "iomanip"},
    {"string", "string"},
    {"to_string", "string"},
    {"vector", "vector"},
    {"sort", "algorithm"},
    {"fill", "algorithm"},
    {"FILE", "stdio.h cstdio"},
    {"fopen", "stdio.h cstdio"},
    {"fclose", "stdio.h cstdio"},
    {"fprintf", "stdio.h cstdio"},
    {"fscanf", "stdio.h cstdio"},
    {"fread", "stdio.h cstdio"},
    {"fwrite", "stdio.h cstdio"},
    {"fgets", "stdio.h cstdio"},
    {"fputs", "stdio.h cstdio"},
    {"puts", "stdio.h cstdio"},
    {"putchar", "stdio.h cstdio"},
    {"getchar", "stdio.h cstdio"},
    {"scanf", "stdio.h cstdio"},
    {"sprintf", "stdio.h cstdio"},
    {"snprintf", "stdio.h cstdio"},
    {"perror", "stdio.h cstdio"},
    {"stdout", "stdio.h cstdio"},
    {"stderr", "stdio.h cstdio"},
    {"rand", "stdlib.h cstdlib"},
    {"srand", "stdlib.h cstdlib"},
    {"exit", "stdlib.h cstdlib"},
    {"abort", "stdlib.h cstdlib"},
    {"atoi", "stdlib.h cstdlib"},
    {"atof", "stdlib.h cstdlib"},
    {"atol", "stdlib.h cstdlib"},
    {"strtol", "stdlib.h cstdlib"},
    {"strtod", "stdlib.h cstdlib"},
    {"getenv", "stdlib.h cstdlib"},
    {"system", "stdlib.h cstdlib"},
    {"calloc", "stdlib.h cstdlib"},
    {"realloc", "stdlib.h cstdlib"},
    {"qsort", "stdlib.h cstdlib"},
    {"RAND_MAX", "stdlib.h cstdlib"},
    {"EXIT_SUCCESS", "stdlib.h cstdlib"},
    {"EXIT_FAILURE", "stdlib.h cstdlib"},
    {"strlen", "string.h cstring"},
    {"strcpy", "string.h cstring"},
    {"strncpy", "string.h cstring"},
    {"strcmp", "string.h cstring"},
    {"strncmp", "string.h cstring"},
    {"strcat", "string.h cstring"},
    {"strdup", "string.h cstring"},
    {"time", "time.h ctime"},
    {"time_t", "time.h ctime"},
    {"clock_gettime", "time.h ctime"},
    {"difftime", "time.h ctime"},
    {"localtime", "time.h ctime"},
    {"CLOCKS_PER_SEC", "time.h ctime"},
    {"gettimeofday", "sys/time.h"},
    {"timeval", "sys/time.h"},
    {"sleep", "unistd.h"},
    {"usleep", "unistd.h"},
};

/// `identifier "rand" is undefined` / `namespace "std" has no member "cout"` → "rand".
std::string_view undefinedName(std::string_view message)
{
    for (const std::string_view prefix : {std::string_view("identifier \""),
                                          std::string_view("namespace \"std\" has no member \"")}) {
        if (message.substr(0, prefix.size()) != prefix) continue;
        const std::string_view rest = message.substr(prefix.size());
        const std::size_t quote = rest.find('"');
        if (quote == std::string_view::npos) return {};
        return rest.substr(0, quote);
    }
    return {};
}

/// A note on each "undefined" error whose name is a host function that a stand-in header the
/// source includes would declare on the host: the stand-in declares it not, on purpose.
void noteHostFunctions(std::vector<Diagnostic>& diagnostics,
                       const std::vector<std::string>& systemIncludes)
{
    for (Diagnostic& d : diagnostics) {
        if (d.severity != Severity::Error) continue;
        const std::string_view name = undefinedName(d.message);
        if (name.empty()) continue;
        for (const HostName& h : kHostNames) {
            if (h.name != name) continue;
            std::string_view headers = h.headers;
            while (!headers.empty()) {
                const std::size_t space = headers.find(' ');
                const std::string_view header = headers.substr(0, space);
                headers = space == std::string_view::npos ? std::string_view()
                                                          : headers.substr(space + 1);
                if (std::find(systemIncludes.begin(), systemIncludes.end(), header) ==
                    systemIncludes.end())
                    continue;
                d.context.push_back("note: '" + std::string(name) + "' is host code: <" +
                                    std::string(header) +
                                    "> under NVRTC is Warpbench's device-side stand-in, which "
                                    "declares no host functions (call it from host code, not "
                                    "from a kernel)");
                headers = {};
            }
            break;
        }
    }
}

bool isIdentChar(char c)
{
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

/// `text` with comments, string and character literals blanked (newlines kept).
std::string withoutCommentsAndLiterals(std::string text)
{
    for (std::size_t i = 0; i < text.size();) {
        const char c = text[i];
        if (c == '/' && i + 1 < text.size() && text[i + 1] == '/') {
            while (i < text.size() && text[i] != '\n')
                text[i++] = ' ';
        } else if (c == '/' && i + 1 < text.size() && text[i + 1] == '*') {
            const std::size_t end = text.find("*/", i + 2);
            const std::size_t stop = end == std::string::npos ? text.size() : end + 2;
            for (; i < stop; ++i)
                if (text[i] != '\n') text[i] = ' ';
        } else if (c == '"' || c == '\'') {
            ++i;
            while (i < text.size() && text[i] != c && text[i] != '\n') {
                if (text[i] == '\\' && i + 1 < text.size()) text[i++] = ' ';
                text[i++] = ' ';
            }
            ++i;
        } else {
            ++i;
        }
    }
    return text;
}

/// The first place in `text` where `name` is called: `name (`, not preceded by a type or a
/// declarator (`int system(`), except after `return`. Line and column 1-based; {0, 0} if none.
std::pair<int, int> firstCall(const std::string& text, std::string_view name)
{
    const std::string plain = withoutCommentsAndLiterals(text);
    for (std::size_t at = plain.find(name); at != std::string::npos;
         at = plain.find(name, at + 1)) {
        const std::size_t end = at + name.size();
        if ((at > 0 && isIdentChar(plain[at - 1])) ||
            (end < plain.size() && isIdentChar(plain[end])))
            continue;
        std::size_t next = end;
        while (next < plain.size() && (plain[next] == ' ' || plain[next] == '\t'))
            ++next;
        if (next >= plain.size() || plain[next] != '(') continue;
        // A declaration has a type before the name (`int system(`, `char* getenv(`); a call
        // an operator, a parenthesis or a keyword such as `return`.
        const auto skipSpaces = [&plain](std::size_t i) {
            while (i > 0 && (plain[i - 1] == ' ' || plain[i - 1] == '\t' || plain[i - 1] == '\n'))
                --i;
            return i;
        };
        std::size_t before = skipSpaces(at);
        const bool logical = before >= 2 && (plain.compare(before - 2, 2, "&&") == 0 ||
                                             plain.compare(before - 2, 2, "||") == 0);
        if (!logical) {
            while (before > 0 && (plain[before - 1] == '*' || plain[before - 1] == '&'))
                before = skipSpaces(before - 1);
            if (before > 0 && isIdentChar(plain[before - 1])) {
                std::size_t word = before;
                while (word > 0 && isIdentChar(plain[word - 1]))
                    --word;
                const std::string_view w(plain.data() + word, before - word);
                if (w != "return" && w != "case" && w != "else" && w != "do" && w != "throw")
                    continue; // a declaration
            }
        }
        const std::size_t lineStart = plain.rfind('\n', at);
        const int line =
            static_cast<int>(
                std::count(plain.begin(), plain.begin() + static_cast<std::ptrdiff_t>(at), '\n')) +
            1;
        const int column =
            static_cast<int>(at - (lineStart == std::string::npos ? 0 : lineStart + 1)) + 1;
        return {line, column};
    }
    return {0, 0};
}

/// ptxas's "Unresolved extern function 'system'" has no place: a function declared in the
/// file (`extern "C" int system(const char*);`) and called from device code, which has no
/// device definition — a host function. Put it at the first call in the source or its user
/// headers, with a note saying so.
void locateUnresolvedExterns(std::vector<Diagnostic>& diagnostics, const IncludeScan& scan,
                             const std::string& sourceName)
{
    constexpr std::string_view prefix = "Unresolved extern function '";
    for (Diagnostic& d : diagnostics) {
        if (d.file != "ptxas" || d.message.rfind(prefix, 0) != 0) continue;
        const std::size_t quote = d.message.find('\'', prefix.size());
        if (quote == std::string::npos) continue;
        const std::string name = d.message.substr(prefix.size(), quote - prefix.size());
        // A C++ name arrives mangled: only plain (extern "C") names can be looked up.
        if (name.empty() || !std::all_of(name.begin(), name.end(), isIdentChar)) continue;
        std::pair<int, int> at = firstCall(scan.rewritten, name);
        std::string file = sourceName;
        for (std::size_t h = 0; at.first == 0 && h < scan.headers.size(); ++h) {
            at = firstCall(scan.headers[h].rewritten, name);
            file = scan.headers[h].displayName;
        }
        if (at.first == 0) continue;
        d.file = file;
        d.line = at.first;
        d.column = at.second;
        d.context.push_back("note: '" + name +
                            "' is declared but has no device definition: a host function "
                            "cannot be called from a kernel or a __device__ function");
    }
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

    CompileResult compileUncached(const IncludeScan& scan, const std::string& sourceName,
                                  const std::vector<std::string>& flags,
                                  const CompileOptions& options, const std::string& arch) const;
    CompileResult compileOnce(const IncludeScan& scan, const std::string& sourceName,
                              const std::vector<std::string>& flags, const CompileOptions& options,
                              const std::string& arch) const;
};

namespace {

constexpr std::string_view kDynamicInitError =
    "dynamic initialization is not supported for a __device__ variable";

/// The main source's lines (1-based) that NVRTC refused only because a namespace-scope variable
/// of the file's host half (`int MAX_TILES = (FLOOR(MATRIX_SIZE_X, 512) * ...) / ...;`, as in
/// cuda-samples' transpose) needs dynamic initialisation once -default-device makes it a
/// __device__ variable; empty when any other error is there or such a line names a memory
/// space itself (then the error is the user's).
std::vector<int> hostHalfInitialisations(const CompileResult& r, const std::string& text,
                                         const std::string& sourceName)
{
    std::vector<std::string_view> all;
    for (std::size_t at = 0; at <= text.size();) {
        const std::size_t nl = std::min(text.find('\n', at), text.size());
        all.push_back(std::string_view(text).substr(at, nl - at));
        at = nl + 1;
    }
    std::vector<int> lines;
    for (const Diagnostic& d : r.diagnostics) {
        if (d.severity != Severity::Error) continue;
        if (d.message.find(kDynamicInitError) == std::string::npos || d.file != sourceName ||
            d.line < 1 || static_cast<std::size_t>(d.line) > all.size())
            return {};
        const std::string_view line = all[static_cast<std::size_t>(d.line) - 1];
        for (const char* space : {"__device__", "__constant__", "__shared__", "__managed__"})
            if (line.find(space) != std::string_view::npos) return {};
        lines.push_back(d.line);
    }
    return lines;
}

/// `text` with the declarations that start on `lines` blanked up to their ';' (newlines kept,
/// so every other line keeps its number).
std::string blankDeclarations(std::string text, const std::vector<int>& lines)
{
    for (const int line : lines) {
        std::size_t at = 0;
        for (int l = 1; l < line && at < text.size(); ++l) {
            const std::size_t nl = text.find('\n', at);
            at = nl == std::string::npos ? text.size() : nl + 1;
        }
        const std::size_t end = text.find(';', at);
        if (at >= text.size() || end == std::string::npos) continue;
        for (std::size_t i = at; i <= end; ++i)
            if (text[i] != '\n') text[i] = ' ';
    }
    return text;
}

} // namespace

/// A kernel file's host half may initialise a namespace-scope variable from another one: nvcc
/// runs that on the host, NVRTC with -default-device refuses it as a __device__ variable. When
/// those are the only errors, the declarations are left out (blanked line for line) and the
/// file compiled again, with a warning at each; a use of such a variable in device code is then
/// an error at its line.
CompileResult Compiler::Impl::compileUncached(const IncludeScan& scan,
                                              const std::string& sourceName,
                                              const std::vector<std::string>& flags,
                                              const CompileOptions& options,
                                              const std::string& arch) const
{
    CompileResult r = compileOnce(scan, sourceName, flags, options, arch);
    if (r.ok) return r;
    const std::vector<int> lines = hostHalfInitialisations(r, scan.rewritten, sourceName);
    if (lines.empty()) return r;
    IncludeScan hostless = scan;
    hostless.rewritten = blankDeclarations(scan.rewritten, lines);
    CompileResult again = compileOnce(hostless, sourceName, flags, options, arch);
    if (!again.ok) return r;
    for (const int line : lines) {
        Diagnostic w;
        w.file = sourceName;
        w.line = line;
        w.column = 1;
        w.severity = Severity::Warning;
        w.message = "this namespace-scope variable of the file's host code is left out of the "
                    "device compile (it needs dynamic initialisation, which a __device__ "
                    "variable cannot have)";
        again.diagnostics.push_back(std::move(w));
    }
    return again;
}

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

    // Every user header is resolved and read here, checked against the include rule, and handed
    // to NVRTC by its canonical path and content (diagnostics name it as the project does).
    std::vector<std::filesystem::path> systemDirs{standardHeaderDir()};
    for (const std::string& dir : m_impl->toolkitIncludes)
        systemDirs.emplace_back(dir);
    const IncludeScan scan =
        scanIncludes(source, sourceName, includePathsOf(options, sourceName, systemDirs),
                     [](std::size_t, const UserHeader& h) { return h.path.string(); });
    if (!scan.errors.empty()) {
        CompileResult r;
        r.sourceName = sourceName;
        r.target = arch;
        r.compilerVersion = m_impl->version;
        r.diagnostics = scan.errors;
        for (const Diagnostic& d : scan.errors)
            r.log += d.file + "(" + std::to_string(d.line) + "): error: " + d.message + "\n";
        r.compileMs = msSince(start);
        return r;
    }

    const bool useCache = m_impl->cacheEnabled.load(std::memory_order_relaxed);
    CompileCache::Key key{};
    if (useCache) {
        const std::string headers = headerKey(scan) + standardHeaderDigest();
        key = CompileCache::makeKey({scan.rewritten, sourceName, &flags, &options.nameExpressions,
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

    if (!useCache) {
        CompileResult r = m_impl->compileUncached(scan, sourceName, flags, options, arch);
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
        r = m_impl->compileUncached(scan, sourceName, flags, options, arch);
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

CompileResult Compiler::Impl::compileOnce(const IncludeScan& scan, const std::string& sourceName,
                                          const std::vector<std::string>& flags,
                                          const CompileOptions& options,
                                          const std::string& arch) const
{
    CompileResult r;
    r.sourceName = sourceName;
    r.target = arch;
    r.compilerVersion = version;

    nvrtcProgram program = nullptr;
    std::vector<std::string> headerNames;
    std::vector<const char*> names;
    std::vector<const char*> contents;
    for (const UserHeader& h : scan.headers) {
        headerNames.push_back(h.path.string());
        contents.push_back(h.rewritten.c_str());
    }
    for (const std::string& n : headerNames)
        names.push_back(n.c_str());
    nvrtcResult rc =
        api.createProgram(&program, scan.rewritten.c_str(), sourceName.c_str(),
                          static_cast<int>(names.size()), contents.data(), names.data());
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
    for (Diagnostic& d : r.diagnostics)
        for (const UserHeader& h : scan.headers)
            if (d.file == h.path.string()) d.file = h.displayName;
    noteHostFunctions(r.diagnostics, scan.systemIncludes);
    locateUnresolvedExterns(r.diagnostics, scan, sourceName);
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
    // Kernels may be defined in the user's headers: their declarations name the parameters too.
    std::string declarations = scan.rewritten;
    for (const UserHeader& h : scan.headers) {
        declarations += '\n';
        declarations += h.text;
    }
    r.kernels =
        detail::discoverKernels(r.ptx, declarations, lowered, detail::parsePtxasReport(r.log));
    r.ok = !hasErrors(r.diagnostics);
    return r;
}

} // namespace wb::cuda
