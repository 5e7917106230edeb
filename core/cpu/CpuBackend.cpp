// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/cpu/CpuBackend.h"

#include "core/common/Error.h"
#include "core/common/IncludeScan.h"
#include "core/common/LibraryCache.h"
#include "core/common/Paths.h"
#include "core/common/Sandbox.h"
#include "core/cpu/detail/BlockRunner.h"
#include "core/cpu/detail/DeviceCheck.h"
#include "core/cpu/detail/KernelSource.h"
#include "core/cpu/detail/Sandbox.h"
#include "core/cpu/detail/SandboxServer.h"
#include "core/cpu/detail/ThreadPool.h"
#include "core/cpu/detail/TraceRecorder.h"
#include "core/host/HostCompiler.h"

#include <QCryptographicHash>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <sstream>
#include <thread>
#include <tuple>

namespace wb::cpu {

namespace abi = wbcpu::abi;
using detail::BlockRunner;
using detail::HostRuntime;
using detail::LaunchState;

namespace {

constexpr const char* kTarget = "host-x86_64";
/// Describing a library runs its constructors (sealed): they get this long.
constexpr int kDescribeTimeoutMs = 30'000;

/// A digest of every file of the prelude, computed once per process. It goes into each kernel
/// library's compile request so that a changed prelude (or emulator ABI) never reuses a library
/// cached by another build.
const std::string& preludeDigest()
{
    static const std::string digest = [] {
        QCryptographicHash hash(QCryptographicHash::Sha256);
        const std::filesystem::path root = dataDir() / "prelude";
        std::vector<std::filesystem::path> files;
        std::error_code ec;
        for (const auto& e : std::filesystem::recursive_directory_iterator(root, ec))
            if (e.is_regular_file()) files.push_back(e.path());
        std::sort(files.begin(), files.end());
        for (const auto& f : files) {
            hash.addData(QByteArray::fromStdString(f.lexically_relative(root).string()));
            std::ifstream in(f, std::ios::binary);
            const std::string content((std::istreambuf_iterator<char>(in)), {});
            hash.addData(QByteArray::fromStdString(content));
        }
        hash.addData(QByteArray::number(abi::kVersion));
        return hash.result().toHex().left(16).toStdString();
    }();
    return digest;
}
constexpr const char* kBoundsTarget = "host-x86_64-bounds-checked";
constexpr const char* kRaceTarget = "host-x86_64-race-checked";

class CpuBuffer;

/// The live buffers of a backend, so that bounds-checked launches can find what pointer
/// arguments point into. Shared with the buffers, which may outlive the backend.
struct BufferRegistry {
    std::mutex mutex;
    std::set<CpuBuffer*> live;
};

class CpuBuffer final : public BackendBuffer {
public:
    CpuBuffer(std::size_t bytes, std::string_view label, std::shared_ptr<BufferRegistry> registry)
        : m_size(bytes)
        , m_label(label)
        , m_registry(std::move(registry))
    {
        // 256-byte alignment like cudaMalloc; at least one byte so that address() is valid.
        const std::size_t rounded = ((bytes ? bytes : 1) + 255) / 256 * 256;
        m_data = static_cast<unsigned char*>(std::aligned_alloc(256, rounded));
        if (!m_data)
            throw Error(Error::Kind::OutOfMemory, "allocating buffer '" + std::string(label) +
                                                      "' (" + std::to_string(bytes) + " bytes)");
        std::lock_guard lock(m_registry->mutex);
        m_registry->live.insert(this);
    }
    ~CpuBuffer() override
    {
        {
            std::lock_guard lock(m_registry->mutex);
            m_registry->live.erase(this);
        }
        std::free(m_data);
    }
    CpuBuffer(const CpuBuffer&) = delete;
    CpuBuffer& operator=(const CpuBuffer&) = delete;

    std::uint64_t address() const noexcept override
    {
        return reinterpret_cast<std::uint64_t>(m_data);
    }
    std::size_t size() const noexcept override { return m_size; }
    unsigned char* data() const noexcept { return m_data; }
    const std::string& label() const noexcept { return m_label; }

private:
    unsigned char* m_data = nullptr;
    std::size_t m_size = 0;
    std::string m_label;
    std::shared_ptr<BufferRegistry> m_registry;
};

class CpuProgram final : public BackendProgram {
public:
    CpuProgram(CompileResult compiled, std::shared_ptr<const DynamicLibrary> library)
        : m_compiled(std::move(compiled))
        , m_library(std::move(library))
    {
    }
    const CompileResult& compiled() const noexcept override { return m_compiled; }
    /// The library's module description, from its own code (constructors, the generated
    /// wb_cpu_module) — the first code of the library to run in this process: with the
    /// sandbox on, the process is sealed first. Throws Error(Runtime).
    const abi::ModuleDesc& module() const
    {
        if (m_module) return *m_module;
        sandbox::confine("kernel", "kernels of " + m_compiled.sourceName);
        m_library->runDeferredInit();
        const auto fn = m_library->function<wb_cpu_module_fn>("wb_cpu_module");
        const abi::ModuleDesc* module = fn ? fn() : nullptr;
        if (!module || module->abiVersion != abi::kVersion)
            throw Error(Error::Kind::Runtime, "the kernel library " + m_compiled.libraryPath +
                                                  " was built for another emulator version");
        m_module = module;
        return *m_module;
    }
    bool boundsChecked() const noexcept
    {
        return m_compiled.target == kBoundsTarget || m_compiled.target == kRaceTarget;
    }
    bool raceChecked() const noexcept { return m_compiled.target == kRaceTarget; }
    /// Constant values set through setConstant, for bounds-checked launches in the sandbox.
    std::vector<std::pair<std::string, std::vector<unsigned char>>> constants;

private:
    CompileResult m_compiled;
    std::shared_ptr<const DynamicLibrary> m_library;
    mutable const abi::ModuleDesc* m_module = nullptr;
};

/// Opens a kernel library (kept loaded by LibraryCache: a warm runner loads the same library
/// every run). No code of it runs here (DeferredInit): CpuProgram::module() runs it.
std::shared_ptr<const DynamicLibrary> openLibrary(const std::string& path, std::string& why)
{
    std::shared_ptr<const DynamicLibrary> library = LibraryCache::acquire(path, why);
    if (!library) {
        why = "cannot load the kernel library: " + why;
        return nullptr;
    }
    if (!library->symbol("wb_cpu_module")) {
        why = "the kernel library " + path + " has no wb_cpu_module entry";
        return nullptr;
    }
    return library;
}

/// One kernel as its library describes it (a copy that crossed from the sealed child).
struct DescribedKernel {
    std::string name, symbol;
    bool isTemplate = false;
    std::vector<abi::ParamDesc> params;
    std::vector<std::string> strings; ///< the params' type and pointee texts
};

std::string field(std::string_view s)
{
    return std::to_string(s.size()) + ":" + std::string(s);
}

/// Reads what describeKernels' child wrote: length-prefixed fields, checked.
class DescriptionReader {
public:
    explicit DescriptionReader(std::string_view text)
        : m_text(text)
    {
    }
    bool atEnd() const { return m_at >= m_text.size(); }
    char tag()
    {
        if (atEnd()) throw Error(Error::Kind::Internal, "kernel description ends early");
        return m_text[m_at++];
    }
    std::string text()
    {
        std::size_t n = 0, digits = 0;
        while (m_at < m_text.size() && m_text[m_at] >= '0' && m_text[m_at] <= '9' && digits < 9) {
            n = n * 10 + static_cast<std::size_t>(m_text[m_at++] - '0');
            ++digits;
        }
        if (!digits || m_at >= m_text.size() || m_text[m_at] != ':' || m_text.size() - m_at - 1 < n)
            throw Error(Error::Kind::Internal, "kernel description is malformed");
        ++m_at;
        std::string s(m_text.substr(m_at, n));
        m_at += n;
        return s;
    }
    unsigned number()
    {
        const std::string t = text();
        if (t.empty() || t.size() > 9 || t.find_first_not_of("0123456789") != std::string::npos)
            throw Error(Error::Kind::Internal, "kernel description has a bad number");
        return static_cast<unsigned>(std::stoul(t));
    }

private:
    std::string_view m_text;
    std::size_t m_at = 0;
};

/// The kernels of a freshly built library, described by its own code (wb_cpu_module) in a
/// sealed child process: describing never runs user code in this process (the CLI's
/// list-kernels, the window's kernel list, a runner before its sandbox is up).
std::vector<DescribedKernel> describeKernels(const std::string& path, const std::string& sourceName,
                                             std::string& why)
{
    const std::shared_ptr<const DynamicLibrary> library = openLibrary(path, why);
    if (!library) return {};
    const auto fn = library->function<wb_cpu_module_fn>("wb_cpu_module");
    std::string text;
    try {
        text = sandbox::runIsolated(
            "kernel", "describing the kernels of " + sourceName,
            [&](std::string& out) {
                library->runDeferredInit();
                const abi::ModuleDesc* m = fn();
                if (!m || m->abiVersion != abi::kVersion) {
                    out = "V";
                    return;
                }
                for (unsigned i = 0; i < m->kernelCount; ++i) {
                    const abi::KernelDesc& k = m->kernels[i];
                    out += "K" + field(k.name) + field(k.symbol) + field(k.isTemplate ? "1" : "0") +
                           field(std::to_string(k.paramCount));
                    for (unsigned p = 0; p < k.paramCount; ++p) {
                        const abi::ParamDesc& d = k.params[p];
                        out += field(d.type ? d.type : "") + field(d.pointee ? d.pointee : "") +
                               field(std::to_string(d.size)) + field(std::to_string(d.align)) +
                               field(d.isPointer ? "1" : "0") + field(d.isConst ? "1" : "0");
                    }
                }
            },
            kDescribeTimeoutMs);
    } catch (const Error& e) {
        why = e.what();
        return {};
    }
    if (text == "V") {
        why = "the kernel library " + path + " was built for another emulator version";
        return {};
    }
    std::vector<DescribedKernel> kernels;
    try {
        DescriptionReader r(text);
        while (!r.atEnd()) {
            if (r.tag() != 'K') throw Error(Error::Kind::Internal, "kernel description");
            DescribedKernel k;
            k.name = r.text();
            k.symbol = r.text();
            k.isTemplate = r.text() == "1";
            const unsigned count = r.number();
            for (unsigned p = 0; p < count; ++p) {
                k.strings.push_back(r.text());
                k.strings.push_back(r.text());
                abi::ParamDesc d{};
                d.size = r.number();
                d.align = std::max(1u, r.number());
                d.isPointer = r.text() == "1";
                d.isConst = r.text() == "1";
                k.params.push_back(d);
            }
            kernels.push_back(std::move(k));
        }
    } catch (const Error& e) {
        why = std::string("the kernel library's description is unreadable: ") + e.what();
        return {};
    }
    why.clear();
    return kernels;
}

std::string stdFlag(const std::string& requested)
{
    // The prelude needs C++20 (std::atomic_ref); newer standards are kept.
    static const char* const older[] = {"c++11",   "c++14",   "c++17", "gnu++11",
                                        "gnu++14", "gnu++17", ""};
    for (const char* o : older)
        if (requested == o) return "-std=c++20";
    return "-std=" + requested;
}

std::string quoteCpp(const std::string& s)
{
    std::string out = "\"";
    for (char c : s) {
        if (c == '"' || c == '\\') out += '\\';
        out += c;
    }
    return out + "\"";
}

/// The translation unit: prelude, the user's text at its own line numbers, registration.
std::string buildTranslationUnit(const detail::KernelSource& ks, const std::string& sourceName,
                                 const std::vector<std::string>& nameExpressions, bool trace)
{
    std::ostringstream tu;
    tu << "#include \"warpbench/cuda_prelude.h\"\n";
    if (trace) tu << "#include \"warpbench/cpu_trace.h\"\n";
    tu << "#line 1 " << quoteCpp(sourceName) << "\n";
    tu << ks.rewritten;
    if (!ks.rewritten.empty() && ks.rewritten.back() != '\n') tu << "\n";
    tu << "#line 1 \"<warpbench-registration>\"\n";
    tu << "#include \"warpbench/cpu_register.h\"\n";
    tu << "extern \"C\" __attribute__((visibility(\"default\"))) const wbcpu::abi::ModuleDesc* "
          "wb_cpu_module()\n{\n";
    const int fibers = ks.needsFibers ? 1 : 0;
    tu << "    static const wbcpu::abi::KernelDesc kernels[] = {\n";
    std::size_t count = 0;
    for (const detail::ScannedKernel& k : ks.kernels) {
        if (k.isTemplate || !k.refusals.empty()) continue;
        tu << "        wbcpu::describe<(&" << k.name << ")>(&" << k.name << ", " << quoteCpp(k.name)
           << ", 0, " << fibers << "),\n";
        ++count;
    }
    for (const std::string& e : nameExpressions) {
        tu << "        wbcpu::describe<(&" << e << ")>(&" << e << ", " << quoteCpp(e) << ", 1, "
           << fibers << "),\n";
        ++count;
    }
    tu << "        wbcpu::abi::KernelDesc{}};\n";
    tu << "    static const wbcpu::abi::ConstantDesc constants[] = {\n";
    for (const std::string& c : ks.constants)
        tu << "        {" << quoteCpp(c)
           << ", const_cast<void*>(static_cast<const volatile void*>(&" << c << ")), sizeof(" << c
           << ")},\n";
    tu << "        wbcpu::abi::ConstantDesc{}};\n";
    tu << "    static const wbcpu::abi::ModuleDesc module{wbcpu::abi::kVersion, " << count
       << ", kernels, " << ks.constants.size()
       << ", constants, wbcpu::kDynamicSharedCapacity, &wbcpu::dynamicSharedBuffer, "
          "&wbcpu::currentThread};\n";
    tu << "    return &module;\n}\n";
    return tu.str();
}

/// The name under which the build folder holds the vetted copy of user header `i`.
std::string headerCopyName(std::size_t i, const UserHeader& h)
{
    std::string base = h.path.filename().string();
    for (char& c : base)
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '_' && c != '-')
            c = '_';
    return "wb-include-" + std::to_string(i) + "-" + base;
}

/// The main source and its headers, scanned as one program: conditional compilation sees the
/// -D macros (and the headers' #defines as possibly defined); kernels declared in one file and
/// defined in another take the definition's parameter names. `rewritten` is the main file's;
/// headerTexts the headers'.
detail::KernelSource scanSources(const IncludeScan& includes, const std::string& sourceName,
                                 const CompileOptions& options, bool trace)
{
    using detail::KernelSource;
    // A header's #define may or may not precede a given #if (include guards!): unknown.
    std::map<std::string, std::string> macros;
    for (const UserHeader& h : includes.headers)
        for (const auto& [name, value] : KernelSource::definedMacros(h.text))
            macros.emplace(name, KernelSource::kUnknownMacro);
    for (const auto& [name, value] : options.defines)
        macros[name] = value.empty() ? "1" : value;
    const auto scanOne = [&](const std::string& text, const std::string& name) {
        return KernelSource::scan(trace ? KernelSource::withTracedPointers(text, macros) : text,
                                  name, macros);
    };
    KernelSource all = scanOne(includes.rewritten, sourceName);
    for (const UserHeader& h : includes.headers) {
        KernelSource one = scanOne(h.rewritten, h.displayName);
        all.headerTexts.push_back(std::move(one.rewritten));
        all.needsFibers = all.needsFibers || one.needsFibers;
        all.refusals.insert(all.refusals.end(), one.refusals.begin(), one.refusals.end());
        for (std::string& c : one.constants)
            if (std::find(all.constants.begin(), all.constants.end(), c) == all.constants.end())
                all.constants.push_back(std::move(c));
        for (detail::ScannedKernel& k : one.kernels) {
            const auto same = std::find_if(all.kernels.begin(), all.kernels.end(),
                                           [&](const auto& x) { return x.name == k.name; });
            if (same == all.kernels.end()) {
                all.kernels.push_back(std::move(k));
                continue;
            }
            if (k.defined && !same->defined) {
                same->paramNames = k.paramNames;
                same->defined = true;
            }
            same->refusals.insert(same->refusals.end(), k.refusals.begin(), k.refusals.end());
        }
    }
    return all;
}

std::string joinTypes(const KernelInfo& k)
{
    std::string s = "void " + k.name + "(";
    for (std::size_t i = 0; i < k.params.size(); ++i)
        s += (i ? ", " : "") + k.params[i].type;
    return s + ")";
}

} // namespace

struct CpuBackend::Impl {
    int threads = 1;
    DeviceDescription description;
    std::unique_ptr<detail::ThreadPool> pool;
    std::vector<std::unique_ptr<BlockRunner>> runners;
    std::optional<HostCompiler> compiler;
    std::string compilerWhy;
    bool compilerSearched = false;
    std::vector<MemoryFinding> findings;
    std::vector<RaceFinding> races;
    std::vector<RaceCrowding> raceCrowding;
    RaceLog raceLog; ///< every race-checked launch's since takeRaceLog()
    /// Race-checked launches: the sandbox process kept between them.
    std::unique_ptr<detail::SandboxServer> raceServer;
    std::uint64_t schedule = 0;
    std::mutex compileMutex;
    std::mutex launchMutex; // one launch at a time: the pool and the fiber runners are shared
    std::shared_ptr<BufferRegistry> buffers = std::make_shared<BufferRegistry>();
    // Trace mode: the traces being recorded and each buffer's bytes before the launch.
    std::vector<std::unique_ptr<WriteTrace>> traces;
    std::vector<std::pair<const CpuBuffer*, std::vector<unsigned char>>> traceSnapshots;

    void resize(int n)
    {
        threads = n > 0 ? n : std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
        pool = std::make_unique<detail::ThreadPool>(threads);
        runners.clear();
        for (int i = 0; i < threads; ++i) {
            runners.push_back(std::make_unique<BlockRunner>());
            runners.back()->setSchedule(schedule);
        }
        // Read from /proc now: a sealed process (core/common/Sandbox.h) opens no files.
        description = CpuBackend::describe(threads);
    }

    const HostCompiler* hostCompiler()
    {
        std::lock_guard lock(compileMutex);
        if (!compilerSearched) {
            compiler = HostCompiler::find();
            if (!compiler) compilerWhy = HostCompiler::unavailableReason();
            compilerSearched = true;
        }
        return compiler ? &*compiler : nullptr;
    }
};

CpuBackend::CpuBackend(int threads)
    : m_impl(std::make_unique<Impl>())
{
    m_impl->resize(threads);
}
CpuBackend::~CpuBackend() = default;

int CpuBackend::threadCount() const noexcept
{
    return m_impl->threads;
}
void CpuBackend::setThreadCount(int threads)
{
    std::lock_guard launchLock(m_impl->launchMutex);
    m_impl->resize(threads);
}
const std::vector<MemoryFinding>& CpuBackend::lastFindings() const noexcept
{
    return m_impl->findings;
}

LaunchFindings CpuBackend::lastLaunchFindings() const
{
    return {lastFindings(), lastRaces(), lastRaceCrowding()};
}

const std::vector<RaceFinding>& CpuBackend::lastRaces() const noexcept
{
    return m_impl->races;
}
const std::vector<RaceCrowding>& CpuBackend::lastRaceCrowding() const noexcept
{
    return m_impl->raceCrowding;
}
LaunchFindings CpuBackend::takeRunFindings()
{
    RaceLog log = takeRaceLog();
    return {lastFindings(), std::move(log.races), std::move(log.crowding)};
}

CpuBackend::RaceLog CpuBackend::takeRaceLog()
{
    std::lock_guard launchLock(m_impl->launchMutex);
    RaceLog log = std::move(m_impl->raceLog);
    m_impl->raceLog = {};
    return log;
}

namespace {

/// Adds one launch's races and crowding to `log` (see CpuBackend::RaceLog).
void appendRaces(CpuBackend::RaceLog& log, const std::vector<RaceFinding>& races,
                 const std::vector<RaceCrowding>& crowding)
{
    const auto side = [](const RaceAccess& a) {
        return std::tuple(a.file, a.line, a.isWrite, a.isAtomic);
    };
    for (const RaceFinding& f : races) {
        const auto same = std::find_if(log.races.begin(), log.races.end(), [&](const auto& o) {
            return o.kernel == f.kernel && o.shared == f.shared && side(o.first) == side(f.first) &&
                   side(o.second) == side(f.second);
        });
        if (same == log.races.end())
            log.races.push_back(f);
        else
            same->occurrences = std::max(same->occurrences, f.occurrences);
    }
    for (const RaceCrowding& c : crowding) {
        const auto same = std::find_if(log.crowding.begin(), log.crowding.end(), [&](auto& o) {
            return o.location == c.location && o.shared == c.shared;
        });
        if (same == log.crowding.end())
            log.crowding.push_back(c);
        else
            same->words = std::max(same->words, c.words);
    }
}

} // namespace

void CpuBackend::setSchedule(std::uint64_t seed)
{
    std::lock_guard launchLock(m_impl->launchMutex);
    m_impl->schedule = seed;
    for (const auto& r : m_impl->runners)
        r->setSchedule(seed);
}
std::uint64_t CpuBackend::schedule() const noexcept
{
    return m_impl->schedule;
}

DeviceDescription CpuBackend::device() const
{
    return m_impl->description;
}

DeviceDescription CpuBackend::describe(int threads)
{
    if (threads <= 0) threads = std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
    DeviceDescription d;
    std::string cpu;
    std::ifstream info("/proc/cpuinfo");
    for (std::string line; std::getline(info, line);)
        if (line.rfind("model name", 0) == 0) {
            cpu = line.substr(line.find(':') + 2);
            break;
        }
    d.name = "CPU emulator (" + (cpu.empty() ? std::string("unknown CPU") : cpu) + ", " +
             std::to_string(threads) + " threads)";
    d.arch = "x86_64";
    d.multiprocessors = threads;
    d.maxDynamicSharedBytes = abi::kDynamicSharedCapacity;
    std::ifstream mem("/proc/meminfo");
    for (std::string line; std::getline(mem, line);)
        if (line.rfind("MemTotal:", 0) == 0)
            d.totalMemoryBytes = std::stoull(line.substr(9)) * 1024;
    return d;
}

CompileResult CpuBackend::compile(const std::string& source, const std::string& sourceName,
                                  const CompileOptions& options)
{
    const auto started = std::chrono::steady_clock::now();
    CompileResult result;
    result.sourceName = sourceName.empty() ? "kernel.cu" : sourceName;
    const auto finish = [&] {
        result.compileMs =
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started)
                .count();
        return result;
    };
    const HostCompiler* cxx = m_impl->hostCompiler();
    if (!cxx) {
        result.diagnostics.push_back(
            {{},
             0,
             0,
             Severity::Fatal,
             {},
             "the CPU emulator needs a host C++ compiler: " + m_impl->compilerWhy,
             {}});
        result.log = result.diagnostics.back().message;
        return finish();
    }
    result.compilerVersion = cxx->version();

    const std::vector<CheckMode> modes = requestedCheckModes(options.check, options.extraFlags);
    const CheckMode mode = modes.empty() ? CheckMode::None : modes.front();
    const bool trace = mode == CheckMode::Trace;
    const bool races = mode == CheckMode::Races;
    if (modes.size() > 1) {
        result.diagnostics.push_back({{},
                                      0,
                                      0,
                                      Severity::Fatal,
                                      {},
                                      "trace mode, bounds-checked mode and race-check mode cannot "
                                      "be combined (checked launches run in another process)",
                                      {}});
        result.log = result.diagnostics.back().message;
        return finish();
    }
    const auto failWith = [&](const std::vector<Diagnostic>& errors) {
        result.diagnostics = errors;
        for (const Diagnostic& d : errors)
            result.log += d.file + ":" + std::to_string(d.line) + ":" + std::to_string(d.column) +
                          ": error: " + d.message + "\n";
        return finish();
    };
    // Every user header is resolved, checked against the include rule and read here; the host
    // compiler gets vetted copies in its build folder and no user folder on its include path.
    const IncludeScan includes =
        scanIncludes(source, result.sourceName,
                     includePathsOf(options, result.sourceName, {dataDir() / "prelude"}),
                     [](std::size_t i, const UserHeader& h) { return headerCopyName(i, h); });
    if (!includes.errors.empty()) return failWith(includes.errors);
    // What the CUDA backend refuses (a call of a host function above all: system, fopen,
    // socket ...), the emulator refuses with NVRTC's own diagnostics before the host compiler
    // sees the file (DeviceCheck.h); without NVRTC the log says so and the sandbox stays.
    const detail::DeviceCheck device =
        detail::checkAsDeviceCode(source, result.sourceName, options);
    if (device.refused()) {
        result.diagnostics = device.nvrtc.diagnostics;
        for (Diagnostic& d : result.diagnostics)
            if (d.severity == Severity::Error || d.severity == Severity::Fatal) {
                d.context.push_back("note: the CPU emulator compiles a kernel file as device "
                                    "code with NVRTC first, as the CUDA backend does (" +
                                    std::string(detail::kDeviceCheckArch) +
                                    " unless the project names an architecture)");
                break;
            }
        result.compilerVersion = device.nvrtc.compilerVersion;
        result.log = "device-code check (" + device.nvrtc.compilerVersion + ", " +
                     detail::deviceCheckOptions(options).arch + "), as on the GPU:\n" +
                     device.nvrtc.log;
        return finish();
    }
    const std::string deviceNote = device.skipped.empty() ? std::string() : device.skipped + "\n";
    const detail::KernelSource ks = scanSources(includes, result.sourceName, options, trace);
    if (!ks.refusals.empty()) return failWith(ks.refusals);
    for (const detail::ScannedKernel& k : ks.kernels)
        for (const Diagnostic& r : k.refusals) {
            Diagnostic d = r;
            d.severity = Severity::Warning;
            d.message = CpuBackend::refusedKernelMessage(k.name) + r.message;
            result.diagnostics.push_back(std::move(d));
        }

    const bool bounds = mode == CheckMode::Bounds;
    HostCompileRequest req;
    req.sourceName = "warpbench-kernel.cpp";
    req.source = buildTranslationUnit(ks, result.sourceName, options.nameExpressions, trace);
    req.flags = {"-O" + std::to_string(std::clamp(options.optLevel, 0, 3)),
                 stdFlag(options.std),
                 "-fvisibility=hidden",
                 "-fno-semantic-interposition",
                 "-isystem",
                 (dataDir() / "prelude").string(),
                 "-pthread"};
    if (options.fastMath) req.flags.push_back("-ffast-math");
    if (options.lineInfo || options.deviceDebug) req.flags.push_back("-g");
    if (options.deviceDebug) req.flags.push_back("-O0");
    for (const std::string& f : options.extraFlags)
        if (f.rfind(kHostFlagPrefix, 0) == 0)
            req.flags.push_back(f.substr(std::strlen(kHostFlagPrefix)));
    req.defines = options.defines;
    for (std::size_t i = 0; i < includes.headers.size(); ++i)
        req.files.emplace_back(headerCopyName(i, includes.headers[i]),
                               "#line 1 " + quoteCpp(includes.headers[i].displayName) + "\n" +
                                   ks.headerTexts[i]);
    req.defines.emplace_back("WB_PRELUDE_DIGEST", preludeDigest());

    // The prelude's standard headers are most of a small kernel's compile time: precompile
    // them once per set of flags (gcc; the .gch is found first on the include path).
    const std::string preludeHeader =
        (dataDir() / "prelude" / "warpbench" / "cuda_prelude.h").string();
    // The user's -D macros do not appear in the prelude, so one PCH serves every value of them
    // (a #define sweep would otherwise build a PCH of ~100 MB per point); gcc ignores a PCH that
    // does not fit and reads the header instead.
    HostCompileRequest pchReq = req;
    pchReq.defines.clear();
    HostCompileRequest plainReq = req;
    if (const std::string pch =
            cxx->precompileHeader(preludeHeader, "warpbench/cuda_prelude.h", pchReq);
        !pch.empty())
        plainReq.flags.insert(plainReq.flags.begin(), {"-I", pch});

    // The plain library always: it describes the kernels (and runs them outside bounds mode).
    const HostCompileResult built = cxx->compileSharedLibrary(plainReq);
    // A full or unwritable cache is no compile error of the user's code: an I/O error.
    if (!built.environmentError.empty()) throw Error(Error::Kind::Io, built.environmentError);
    result.log = deviceNote + built.log;
    result.diagnostics.insert(result.diagnostics.end(), built.diagnostics.begin(),
                              built.diagnostics.end());
    result.cache = built.cacheHit ? CompileResult::Cache::DiskHit : CompileResult::Cache::Miss;
    if (!built.ok) return finish();

    std::string why;
    const std::vector<DescribedKernel> described =
        describeKernels(built.libraryPath, result.sourceName, why);
    if (!why.empty()) {
        result.diagnostics.push_back({{}, 0, 0, Severity::Fatal, {}, why, {}});
        result.log += why + "\n";
        return finish();
    }
    for (const DescribedKernel& kd : described) {
        KernelInfo k;
        k.name = kd.name;
        k.loweredName = kd.symbol;
        k.isTemplateInstance = kd.isTemplate;
        const detail::ScannedKernel* scanned = nullptr;
        std::string base = k.name.substr(0, k.name.find('<'));
        while (!base.empty() && base.back() == ' ')
            base.pop_back();
        for (const detail::ScannedKernel& s : ks.kernels)
            if (s.name == base) scanned = &s;
        k.externC = scanned && scanned->externC;
        std::size_t offset = 0;
        for (std::size_t p = 0; p < kd.params.size(); ++p) {
            const abi::ParamDesc& pd = kd.params[p];
            KernelParam param;
            param.name = scanned && p < scanned->paramNames.size() ? scanned->paramNames[p]
                                                                   : "param" + std::to_string(p);
            param.type = kd.strings[2 * p];
            param.size = pd.size;
            param.alignment = pd.align;
            offset = (offset + pd.align - 1) / pd.align * pd.align;
            param.offset = offset;
            offset += pd.size;
            param.isPointer = pd.isPointer != 0;
            param.pointee = kd.strings[2 * p + 1];
            param.isConst = pd.isConst != 0;
            k.params.push_back(param);
        }
        k.signature = joinTypes(k);
        result.kernels.push_back(std::move(k));
    }
    for (const detail::ScannedKernel& s : ks.kernels) {
        if (!s.isTemplate) continue;
        bool instantiated = false;
        for (const std::string& e : options.nameExpressions)
            instantiated =
                instantiated || e.substr(0, e.find('<')).find(s.name) != std::string::npos;
        if (!instantiated)
            result.diagnostics.push_back({s.file.empty() ? result.sourceName : s.file,
                                          s.line,
                                          0,
                                          Severity::Warning,
                                          {},
                                          "template kernel '" + s.name +
                                              "' is not instantiated: add a "
                                              "name expression such as \"" +
                                              s.name + "<float>\" to launch it",
                                          {}});
    }

    result.target = kTarget;
    result.libraryPath = built.libraryPath;
    if (bounds) {
        HostCompileRequest sreq = req;
        sreq.flags.push_back("-g");
        sreq.flags.push_back("-fsanitize=address,undefined");
        sreq.flags.push_back("-fno-sanitize-recover=all");
        sreq.flags.push_back("-fno-omit-frame-pointer");
        // clang links no sanitizer runtime into shared libraries unless asked; its shared
        // runtime (ASan with UBSan inside) is what the sandbox then preloads.
        if (cxx->isClang()) sreq.flags.push_back("-shared-libsan");
        const HostCompileResult sanitized = cxx->compileSharedLibrary(sreq);
        if (!sanitized.environmentError.empty())
            throw Error(Error::Kind::Io, sanitized.environmentError);
        if (!sanitized.ok) {
            result.log += sanitized.log;
            for (const Diagnostic& d : sanitized.diagnostics)
                result.diagnostics.push_back(d);
            result.kernels.clear();
            return finish();
        }
        result.target = kBoundsTarget;
        result.libraryPath = sanitized.libraryPath;
        if (!sanitized.cacheHit) result.cache = CompileResult::Cache::Miss;
    }
    if (races) {
        // ThreadSanitizer's instrumentation without its runtime: warpbench-cpu-sandbox defines
        // the __tsan_* entry points (a CUDA-aware detector), so libtsan must not be linked.
        HostCompileRequest rreq = req;
        rreq.flags.push_back("-g");
        rreq.flags.push_back("-fsanitize=thread");
        rreq.flags.push_back("-fno-omit-frame-pointer");
        // Every load and store calls an entry point: through the GOT, not a PLT stub, and no
        // calls at function entry and exit (the detector needs no call stacks).
        rreq.flags.push_back("-fno-plt");
        if (cxx->isClang()) {
            rreq.flags.insert(rreq.flags.end(),
                              {"-mllvm", "-tsan-instrument-func-entry-exit=false"});
        } else {
            rreq.flags.push_back("--param=tsan-instrument-func-entry-exit=0");
#if defined(__x86_64__)
            // Shared memory is the library's thread_local data: TLS descriptors reach it
            // without a __tls_get_addr call for each access between the entry-point calls.
            rreq.flags.push_back("-mtls-dialect=gnu2");
#endif
        }
        rreq.linkFlags.insert(rreq.linkFlags.end(), {"-nodefaultlibs", "-lstdc++", "-lm", "-lc"});
        const HostCompileResult instrumented = cxx->compileSharedLibrary(rreq);
        if (!instrumented.environmentError.empty())
            throw Error(Error::Kind::Io, instrumented.environmentError);
        if (!instrumented.ok) {
            result.log += instrumented.log;
            for (const Diagnostic& d : instrumented.diagnostics)
                result.diagnostics.push_back(d);
            result.kernels.clear();
            return finish();
        }
        result.target = kRaceTarget;
        result.libraryPath = instrumented.libraryPath;
        if (!instrumented.cacheHit) result.cache = CompileResult::Cache::Miss;
    }
    result.ok = true;
    return finish();
}

std::unique_ptr<BackendProgram> CpuBackend::load(const CompileResult& compiled)
{
    if (!compiled.ok)
        throw Error(Error::Kind::InvalidArgument,
                    "cannot load '" + compiled.sourceName + "': it did not compile");
    if (compiled.target != kTarget && compiled.target != kBoundsTarget &&
        compiled.target != kRaceTarget)
        throw Error(Error::Kind::InvalidArgument, "'" + compiled.sourceName +
                                                      "' was compiled for " + compiled.target +
                                                      ", not for the CPU emulator");
    std::shared_ptr<const DynamicLibrary> library;
    if (compiled.target == kTarget) {
        std::string why;
        library = openLibrary(compiled.libraryPath, why);
        if (!library) throw Error(Error::Kind::Runtime, why);
    }
    return std::make_unique<CpuProgram>(compiled, std::move(library));
}

void CpuBackend::beginTrace(const LaunchConfig& launch, const std::vector<TraceBuffer>& buffers)
{
    std::vector<detail::TraceRecorder::Target> targets;
    m_impl->traces.clear();
    m_impl->traceSnapshots.clear();
    for (const TraceBuffer& tb : buffers) {
        const auto* b = dynamic_cast<const CpuBuffer*>(tb.buffer);
        if (!b || tb.elementSize == 0)
            throw Error(Error::Kind::InvalidArgument,
                        "tracing buffer '" + tb.name + "': not a buffer of this backend");
        std::size_t count = 1;
        for (std::size_t d : tb.shape)
            count *= d;
        if (count * tb.elementSize > b->size())
            throw Error(Error::Kind::InvalidArgument,
                        "tracing buffer '" + tb.name + "': shape larger than the buffer");
        auto w = std::make_unique<WriteTrace>();
        w->buffer = tb.name;
        w->shape = tb.shape;
        w->elementSize = tb.elementSize;
        w->grid = launch.grid;
        w->block = launch.block;
        w->lastWriter.assign(count, WriteTrace::kNoWriter);
        w->writes.assign(count, 0);
        w->atomicWrites.assign(count, 0);
        w->multipleWriters.assign(count, 0);
        w->untracedMask.assign(count, 0);
        targets.push_back({b->data(), count * tb.elementSize, w.get()});
        m_impl->traceSnapshots.emplace_back(
            b, std::vector<unsigned char>(b->data(), b->data() + count * tb.elementSize));
        m_impl->traces.push_back(std::move(w));
    }
    detail::TraceRecorder::start(std::move(targets));
}

std::vector<WriteTrace> CpuBackend::endTrace()
{
    detail::TraceRecorder::stop();
    std::vector<WriteTrace> out;
    for (std::size_t t = 0; t < m_impl->traces.size(); ++t) {
        WriteTrace& w = *m_impl->traces[t];
        const auto& [buffer, before] = m_impl->traceSnapshots[t];
        for (std::size_t i = 0; i < w.count(); ++i) {
            if (w.writes[i]) continue;
            if (std::memcmp(before.data() + i * w.elementSize, buffer->data() + i * w.elementSize,
                            w.elementSize) != 0) {
                w.untracedMask[i] = 1;
                ++w.untraced;
            }
        }
        out.push_back(std::move(w));
    }
    m_impl->traces.clear();
    m_impl->traceSnapshots.clear();
    return out;
}

std::unique_ptr<BackendBuffer> CpuBackend::allocate(std::size_t bytes, std::string_view label)
{
    return std::make_unique<CpuBuffer>(bytes, label, m_impl->buffers);
}

void CpuBackend::upload(BackendBuffer& dst, const void* src, std::size_t bytes)
{
    auto& b = static_cast<CpuBuffer&>(dst);
    if (bytes > b.size())
        throw Error(Error::Kind::InvalidArgument, "uploading " + std::to_string(bytes) +
                                                      " bytes into buffer '" + b.label() + "' of " +
                                                      std::to_string(b.size()) + " bytes");
    std::memcpy(b.data(), src, bytes);
}

void CpuBackend::download(const BackendBuffer& src, void* dst, std::size_t bytes)
{
    const auto& b = static_cast<const CpuBuffer&>(src);
    if (bytes > b.size())
        throw Error(Error::Kind::InvalidArgument, "downloading " + std::to_string(bytes) +
                                                      " bytes from buffer '" + b.label() + "' of " +
                                                      std::to_string(b.size()) + " bytes");
    std::memcpy(dst, b.data(), bytes);
}

void CpuBackend::setConstant(BackendProgram& program, const std::string& symbol, const void* src,
                             std::size_t bytes)
{
    auto& p = static_cast<CpuProgram&>(program);
    if (p.boundsChecked()) {
        // The sandbox applies it before each launch; the size is checked there.
        std::vector<unsigned char> value(static_cast<const unsigned char*>(src),
                                         static_cast<const unsigned char*>(src) + bytes);
        for (auto& [name, old] : p.constants)
            if (name == symbol) {
                old = std::move(value);
                return;
            }
        p.constants.emplace_back(symbol, std::move(value));
        return;
    }
    const abi::ModuleDesc& m = p.module();
    for (unsigned i = 0; i < m.constantCount; ++i) {
        if (symbol != m.constants[i].name) continue;
        if (bytes > m.constants[i].size)
            throw Error(Error::Kind::InvalidArgument,
                        "__constant__ '" + symbol + "' has " + std::to_string(m.constants[i].size) +
                            " bytes; " + std::to_string(bytes) + " given");
        std::memcpy(m.constants[i].address, src, bytes);
        return;
    }
    throw Error(Error::Kind::InvalidArgument,
                "no __constant__ variable '" + symbol + "' in '" + p.compiled().sourceName + "'");
}

std::size_t CpuBackend::globalSize(BackendProgram& program, const std::string& symbol)
{
    auto& p = static_cast<CpuProgram&>(program);
    if (p.boundsChecked()) return 0; // the library loads only in the sandbox, which checks it
    const abi::ModuleDesc& m = p.module();
    for (unsigned i = 0; i < m.constantCount; ++i)
        if (symbol == m.constants[i].name) return m.constants[i].size;
    throw Error(Error::Kind::InvalidArgument, "there is no __device__ or __constant__ variable '" +
                                                  symbol + "' in '" + p.compiled().sourceName +
                                                  "'");
}

void CpuBackend::readGlobal(BackendProgram& program, const std::string& symbol, void* dst,
                            std::size_t bytes)
{
    auto& p = static_cast<CpuProgram&>(program);
    if (p.boundsChecked()) {
        // The value the last sandboxed launch left (or the one set before it).
        for (const auto& [name, value] : p.constants)
            if (name == symbol) {
                if (value.size() != bytes)
                    throw Error(Error::Kind::InvalidArgument,
                                "reading variable '" + symbol + "': " + std::to_string(bytes) +
                                    " bytes asked, " + std::to_string(value.size()) + " set");
                std::memcpy(dst, value.data(), bytes);
                return;
            }
        throw Error(Error::Kind::InvalidArgument,
                    "reading variable '" + symbol +
                        "' of a bounds-checked build: only a variable set before the launch can "
                        "be read back");
    }
    const abi::ModuleDesc& m = p.module();
    for (unsigned i = 0; i < m.constantCount; ++i) {
        if (symbol != m.constants[i].name) continue;
        if (bytes != m.constants[i].size)
            throw Error(Error::Kind::InvalidArgument,
                        "reading variable '" + symbol + "': " + std::to_string(bytes) +
                            " bytes asked, it has " + std::to_string(m.constants[i].size));
        std::memcpy(dst, m.constants[i].address, bytes);
        return;
    }
    throw Error(Error::Kind::InvalidArgument, "there is no __device__ or __constant__ variable '" +
                                                  symbol + "' in '" + p.compiled().sourceName +
                                                  "'");
}

namespace {

void checkLaunch(const KernelInfo& info, const LaunchConfig& config,
                 std::span<const KernelArgValue> args)
{
    if (args.size() != info.params.size())
        throw Error(Error::Kind::InvalidArgument,
                    "kernel '" + info.name + "' takes " + std::to_string(info.params.size()) +
                        " arguments; " + std::to_string(args.size()) + " given");
    for (std::size_t i = 0; i < args.size(); ++i) {
        const KernelParam& p = info.params[i];
        if (args[i].size != p.size || args[i].isPointer != p.isPointer || !args[i].data)
            throw Error(Error::Kind::InvalidArgument,
                        "argument " + std::to_string(i) + " of kernel '" + info.name +
                            "' does not match parameter '" + p.name + "' (" + p.type + ", " +
                            std::to_string(p.size) + " bytes" + (p.isPointer ? ", pointer" : "") +
                            "): " + std::to_string(args[i].size) + " bytes" +
                            (args[i].isPointer ? ", pointer" : "") + " given");
    }
    const Dim3 b = config.block, g = config.grid;
    if (b.x == 0 || b.y == 0 || b.z == 0 || g.x == 0 || g.y == 0 || g.z == 0)
        throw Error(Error::Kind::InvalidArgument,
                    "launch of '" + info.name + "': grid and block dimensions must be at least 1");
    // The session runner checks a project's launches against the same limits first, naming the
    // field; this guards the backend's own callers.
    using L = LaunchLimits;
    if (b.volume() > L::kMaxBlockThreads || b.z > L::kMaxBlock[2])
        throw Error(Error::Kind::InvalidArgument,
                    "launch of '" + info.name + "': a block has at most " +
                        std::to_string(L::kMaxBlockThreads) + " threads (and blockDim.z at most " +
                        std::to_string(L::kMaxBlock[2]) + "); " + std::to_string(b.volume()) +
                        " asked");
    if (g.y > L::kMaxGrid[1] || g.z > L::kMaxGrid[2])
        throw Error(Error::Kind::InvalidArgument, "launch of '" + info.name +
                                                      "': gridDim.y and gridDim.z are at most " +
                                                      std::to_string(L::kMaxGrid[1]));
    if (config.hasCluster())
        throw Error(Error::Kind::InvalidArgument, "launch of '" + info.name +
                                                      "': thread-block clusters are not supported "
                                                      "by the CPU emulator");
    if (config.cooperative && (g.volume() > CpuBackend::kMaxCooperativeBlocks ||
                               g.volume() * b.volume() > CpuBackend::kMaxCooperativeThreads))
        throw Error(Error::Kind::InvalidArgument,
                    "launch of '" + info.name +
                        "': the grid cannot be co-resident: a cooperative "
                        "launch on the CPU emulator runs every block at once (one OS thread per "
                        "block, its threads as fibers), at most " +
                        std::to_string(CpuBackend::kMaxCooperativeBlocks) + " blocks and " +
                        std::to_string(CpuBackend::kMaxCooperativeThreads) + " threads in all; " +
                        std::to_string(g.volume()) + " blocks of " + std::to_string(b.volume()) +
                        " threads asked");
}

} // namespace

double CpuBackend::launch(BackendProgram& program, const std::string& kernel,
                          const LaunchConfig& config, std::span<const KernelArgValue> args)
{
    auto& p = static_cast<CpuProgram&>(program);
    std::lock_guard launchLock(m_impl->launchMutex);
    const KernelInfo* info = p.compiled().findKernel(kernel);
    if (!info)
        throw Error(Error::Kind::InvalidArgument,
                    "no kernel '" + kernel + "' in '" + p.compiled().sourceName + "'");
    checkLaunch(*info, config, args);
    if (config.sharedBytes > abi::kDynamicSharedCapacity)
        throw Error(Error::Kind::InvalidArgument,
                    "launch of '" + info->name + "': " + std::to_string(config.sharedBytes) +
                        " bytes of dynamic shared memory asked; the emulator has " +
                        std::to_string(abi::kDynamicSharedCapacity));
    m_impl->findings.clear();
    m_impl->races.clear();
    m_impl->raceCrowding.clear();

    if (p.boundsChecked()) {
        detail::SandboxLaunch request{
            p.compiled(),   *info,        config,          args,
            p.constants,    {},           p.raceChecked(), m_impl->schedule,
            &m_impl->races, &p.constants, m_impl->threads};
        request.crowding = &m_impl->raceCrowding;
        {
            std::lock_guard lock(m_impl->buffers->mutex);
            for (CpuBuffer* b : m_impl->buffers->live)
                request.buffers.push_back({b->data(), b->size(), b->label()});
        }
        if (p.raceChecked()) {
            if (!m_impl->raceServer) m_impl->raceServer = std::make_unique<detail::SandboxServer>();
            // The log keeps what the launch found, also when it then failed.
            try {
                const double ms = m_impl->raceServer->run(request, m_impl->findings);
                appendRaces(m_impl->raceLog, m_impl->races, m_impl->raceCrowding);
                return ms;
            } catch (...) {
                appendRaces(m_impl->raceLog, m_impl->races, m_impl->raceCrowding);
                throw;
            }
        }
        return detail::runInSandbox(request, m_impl->findings);
    }

    const abi::ModuleDesc& module = p.module();
    sandbox::setActivity("kernel", "kernel '" + info->name + "'");
    const abi::KernelDesc* kd = nullptr;
    for (unsigned i = 0; i < module.kernelCount; ++i)
        if (info->name == module.kernels[i].name) kd = &module.kernels[i];
    if (!kd)
        throw Error(Error::Kind::Internal,
                    "kernel '" + info->name + "' is missing from its library");

    std::vector<void*> argv(args.size());
    for (std::size_t i = 0; i < args.size(); ++i)
        argv[i] = const_cast<void*>(args[i].data);

    LaunchState state;
    state.kernel = info->name;
    state.grid = {config.grid.x, config.grid.y, config.grid.z};
    state.block = {config.block.x, config.block.y, config.block.z};
    state.cooperative = config.cooperative;
    HostRuntime runtime{};
    detail::initRuntime(runtime, state);

    abi::ThreadState base{};
    base.blockSize = state.block;
    base.gridSize = state.grid;
    base.rt = &runtime.rt;
    const std::uint64_t gx = config.grid.x, gxy = gx * config.grid.y;
    const bool fibers = kd->needsFibers != 0 || m_impl->schedule != 0;
    const std::uint64_t blockCount = config.grid.volume();
    const std::uint64_t seed = m_impl->schedule;
    void** argp = argv.data();

    if (config.cooperative) {
        // Every block at once: its own OS thread (its own __shared__ instance) and fiber runner,
        // so that a block waiting at grid.sync() does not keep the others from running.
        const auto started = std::chrono::steady_clock::now();
        std::vector<std::thread> blocks;
        blocks.reserve(static_cast<std::size_t>(blockCount));
        const auto runCooperativeBlock = [&](std::uint64_t b) {
            abi::ThreadState st = base;
            st.dynamicShared = module.dynamicSharedBuffer();
            st.blockIndex = {static_cast<unsigned>(b % gx),
                             static_cast<unsigned>((b / gx) % config.grid.y),
                             static_cast<unsigned>(b / gxy)};
            try {
                BlockRunner runner;
                runner.setSchedule(seed);
                runner.run(*kd, argp, st);
            } catch (const std::exception& e) {
                state.setError("kernel '" + info->name + "', block " +
                               detail::formatDim(st.blockIndex) + ": " + e.what());
            }
            state.blockExited(st.blockIndex);
        };
        try {
            for (std::uint64_t b = 0; b < blockCount; ++b)
                blocks.emplace_back(runCooperativeBlock, b);
        } catch (const std::system_error& e) {
            // The blocks already started see the failure at their next grid.sync().
            state.setError("kernel '" + info->name + "': cannot start " +
                           std::to_string(blockCount) + " OS threads for a cooperative launch (" +
                           e.what() + ")");
        }
        for (std::thread& t : blocks)
            t.join();
        const double ms =
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started)
                .count();
        if (state.failed.load()) throw Error(Error::Kind::Runtime, state.error);
        return ms;
    }

    const auto started = std::chrono::steady_clock::now();
    const detail::ThreadPool::RangeFn runBlocks = [&](std::uint64_t begin, std::uint64_t end,
                                                      int worker) {
        abi::ThreadState st = base;
        st.dynamicShared = module.dynamicSharedBuffer();
        if (!fibers) {
            // One call per range: the library walks the blocks itself.
            if (kd->runBlock(argp, &st, begin, end - begin) != 0 && !state.failed.load())
                state.setError("kernel '" + info->name + "' stopped in block " +
                               detail::formatDim(st.blockIndex));
            return;
        }
        for (std::uint64_t i = begin; i < end && !state.failed.load(std::memory_order_relaxed);
             ++i) {
            const std::uint64_t b = detail::scheduledBlock(seed, i, blockCount);
            st.blockIndex = {static_cast<unsigned>(b % gx),
                             static_cast<unsigned>((b / gx) % config.grid.y),
                             static_cast<unsigned>(b / gxy)};
            m_impl->runners[static_cast<std::size_t>(worker)]->run(*kd, argp, st);
        }
    };
    m_impl->pool->run(config.grid.volume(), runBlocks, state.failed);
    const double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started)
            .count();
    if (state.failed.load()) throw Error(Error::Kind::Runtime, state.error);
    return ms;
}

std::unique_ptr<Backend> makeCpuBackend()
{
    return std::make_unique<CpuBackend>();
}

} // namespace wb::cpu
