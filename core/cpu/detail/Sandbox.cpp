// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/cpu/detail/Sandbox.h"

#include "core/common/Error.h"
#include "core/host/HostCompiler.h"

#include <QProcess>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <regex>
#include <sstream>

namespace wb::cpu::detail {

namespace {

constexpr int kSandboxTimeoutMs = 600'000;

std::string hex(const void* data, std::size_t n)
{
    static const char* digits = "0123456789abcdef";
    std::string s;
    const auto* p = static_cast<const unsigned char*>(data);
    for (std::size_t i = 0; i < n; ++i) {
        s += digits[p[i] >> 4];
        s += digits[p[i] & 15];
    }
    return s.empty() ? "-" : s;
}

/// The host compiler's shared ASan runtime, to preload into the sandbox (gcc: libasan.so;
/// clang: libclang_rt.asan-x86_64.so, which also holds UBSan).
std::string asanRuntime()
{
    const auto cxx = HostCompiler::find();
    if (!cxx) return std::string();
    static std::mutex mutex;
    static std::map<std::string, std::string> known;
    std::lock_guard lock(mutex);
    if (auto it = known.find(cxx->executable()); it != known.end()) return it->second;
    const std::string path = [&] {
        QProcess p;
        p.start(QString::fromStdString(cxx->executable()),
                {cxx->isClang() ? QStringLiteral("-print-file-name=libclang_rt.asan-x86_64.so")
                                : QStringLiteral("-print-file-name=libasan.so")});
        if (!p.waitForFinished(15'000)) return std::string();
        std::string out = p.readAllStandardOutput().trimmed().toStdString();
        std::error_code ec;
        return std::filesystem::exists(out, ec) ? std::filesystem::canonical(out, ec).string()
                                                : std::string();
    }();
    known[cxx->executable()] = path;
    return path;
}

Dim3 parseDim(const std::string& s)
{
    Dim3 d{0, 0, 0};
    std::sscanf(s.c_str(), "(%u,%u,%u)", &d.x, &d.y, &d.z);
    return d;
}

} // namespace

std::string sandboxExecutable()
{
    namespace fs = std::filesystem;
    std::error_code ec;
    if (const char* env = std::getenv("WARPBENCH_CPU_SANDBOX"); env && *env) return env;
    const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    const std::vector<fs::path> candidates = {
        exe.parent_path() / "warpbench-cpu-sandbox",
        fs::path(WB_CPU_SANDBOX_BUILD_PATH),
        exe.parent_path().parent_path() / "libexec" / "warpbench" / "warpbench-cpu-sandbox",
        fs::path(WB_CPU_SANDBOX_INSTALL_PATH),
    };
    for (const fs::path& c : candidates)
        if (fs::exists(c, ec)) return c.string();
    return {};
}

MemoryFinding parseSanitizerReport(const std::string& output, const std::string& kernel,
                                   const std::string& sourceName)
{
    MemoryFinding f;
    f.kernel = kernel;
    static const std::regex at(R"(WB-SANDBOX at block=(\(\d+,\d+,\d+\)) thread=(\(\d+,\d+,\d+\)))");
    static const std::regex asanHead(
        R"(ERROR: AddressSanitizer: ([\w-]+) on (?:unknown )?address (0x[0-9a-f]+))");
    static const std::regex access(R"((READ|WRITE) of size (\d+) at)");
    static const std::regex located(R"(is located .*)");
    static const std::regex ubsan(R"((\S+?):(\d+):(\d+): runtime error: (.*))");
    static const std::regex misalignedAddr(R"(misaligned address (0x[0-9a-f]+))");
    std::smatch m;
    if (std::regex_search(output, m, at)) {
        f.block = parseDim(m[1]);
        f.thread = parseDim(m[2]);
        f.located = true;
    }
    if (std::regex_search(output, m, ubsan)) {
        f.file = std::filesystem::path(m[1].str()).filename().string();
        f.line = std::stoi(m[2]);
        f.message = m[4];
        f.kind = f.message.find("misaligned") != std::string::npos ? MemoryFinding::Kind::Misaligned
                 : f.message.find("out of bounds") != std::string::npos
                     ? MemoryFinding::Kind::OutOfBounds
                 : f.message.find("null pointer") != std::string::npos
                     ? MemoryFinding::Kind::InvalidAddress
                     : MemoryFinding::Kind::Other;
        std::smatch a;
        if (std::regex_search(f.message, a, misalignedAddr))
            f.address = std::stoull(a[1], nullptr, 16);
    }
    if (std::regex_search(output, m, asanHead)) {
        const std::string what = m[1];
        f.address = std::stoull(m[2], nullptr, 16);
        f.kind = what.find("overflow") != std::string::npos ||
                         what.find("underflow") != std::string::npos
                     ? MemoryFinding::Kind::OutOfBounds
                 : what.find("use-after-free") != std::string::npos
                     ? MemoryFinding::Kind::UseAfterFree
                 : what == "SEGV" || what.find("wild") != std::string::npos
                     ? MemoryFinding::Kind::InvalidAddress
                     : MemoryFinding::Kind::Other;
        std::string msg = what;
        std::smatch a;
        if (std::regex_search(output, a, access)) {
            f.isWrite = a[1] == "WRITE";
            f.accessSize = static_cast<std::uint32_t>(std::stoul(a[2]));
            msg = std::string(f.isWrite ? "write" : "read") + " of " + a[2].str() + " bytes (" +
                  what + ")";
        }
        if (std::regex_search(output, a, located)) msg += ": address " + a[0].str();
        f.message = msg;
        // The first stack frame in the user's source gives the line.
        const std::regex frame(
            "#\\d+ 0x[0-9a-f]+ in .*?(\\S*" +
            std::regex_replace(sourceName, std::regex(R"([.^$|()\[\]{}*+?\\])"), "\\$&") +
            "):(\\d+)");
        if (std::regex_search(output, a, frame)) {
            f.file = std::filesystem::path(a[1].str()).filename().string();
            f.line = std::stoi(a[2]);
        }
    }
    return f;
}

double runInSandbox(const SandboxLaunch& launch, std::vector<MemoryFinding>& findings)
{
    const std::string helper = sandboxExecutable();
    if (helper.empty())
        throw Error(Error::Kind::Unavailable,
                    "bounds-checked launches need warpbench-cpu-sandbox, which was not "
                    "found (set $WARPBENCH_CPU_SANDBOX)");
    const std::string asan = asanRuntime();
    if (asan.empty())
        throw Error(Error::Kind::Unavailable,
                    "bounds-checked launches need the host compiler's libasan "
                    "(Debian: apt install libasan8 / g++)");
    QTemporaryDir dir;
    if (!dir.isValid())
        throw Error(Error::Kind::Io, "cannot create a temporary folder for the sandbox");
    const std::filesystem::path work = dir.path().toStdString();

    std::ostringstream req;
    req << "library " << launch.compiled.libraryPath << "\n";
    req << "dims " << launch.config.grid.x << " " << launch.config.grid.y << " "
        << launch.config.grid.z << " " << launch.config.block.x << " " << launch.config.block.y
        << " " << launch.config.block.z << " " << launch.config.sharedBytes << "\n";
    std::vector<int> used(launch.buffers.size(), 0);
    for (std::size_t i = 0; i < launch.args.size(); ++i) {
        const KernelArgValue& a = launch.args[i];
        if (a.isPointer && a.size == 8) {
            std::uint64_t addr = 0;
            std::memcpy(&addr, a.data, 8);
            bool found = false;
            for (std::size_t b = 0; b < launch.buffers.size() && !found; ++b) {
                const auto base = reinterpret_cast<std::uint64_t>(launch.buffers[b].data);
                if (addr >= base && addr <= base + launch.buffers[b].size) {
                    req << "argptr " << i << " " << b << " " << (addr - base) << "\n";
                    used[b] = 1;
                    found = true;
                }
            }
            if (found) continue;
        }
        req << "argraw " << i << " " << hex(a.data, a.size) << "\n";
    }
    for (std::size_t b = 0; b < launch.buffers.size(); ++b) {
        if (!used[b]) continue;
        const std::filesystem::path file = work / ("buffer" + std::to_string(b));
        std::ofstream out(file, std::ios::binary);
        out.write(reinterpret_cast<const char*>(launch.buffers[b].data),
                  static_cast<std::streamsize>(launch.buffers[b].size));
        if (!out) throw Error(Error::Kind::Io, "cannot write " + file.string());
        req << "buffer " << b << " " << launch.buffers[b].size << " " << file.string() << "\n";
    }
    for (const auto& [name, bytes] : launch.constants)
        req << "const " << name << " " << hex(bytes.data(), bytes.size()) << "\n";
    req << "kernel " << launch.kernel.name << "\n";
    {
        std::ofstream out(work / "request");
        out << req.str();
    }

    QProcess process;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("LD_PRELOAD"), QString::fromStdString(asan));
    env.insert(QStringLiteral("ASAN_OPTIONS"),
               QStringLiteral("detect_leaks=0:halt_on_error=1:verify_asan_link_order=0:"
                              "detect_stack_use_after_return=0:symbolize=1:print_summary=1"));
    env.insert(QStringLiteral("UBSAN_OPTIONS"),
               QStringLiteral("print_stacktrace=1:halt_on_error=1"));
    process.setProcessEnvironment(env);
    process.setProcessChannelMode(QProcess::MergedChannels);
    process.start(QString::fromStdString(helper),
                  {QString::fromStdString((work / "request").string())});
    if (!process.waitForStarted(15'000))
        throw Error(Error::Kind::Unavailable,
                    "cannot start " + helper + ": " + process.errorString().toStdString());
    if (!process.waitForFinished(kSandboxTimeoutMs)) {
        process.kill();
        process.waitForFinished();
        throw Error(Error::Kind::Timeout, "bounds-checked launch of '" + launch.kernel.name +
                                              "' did not finish within " +
                                              std::to_string(kSandboxTimeoutMs / 1000) + " s");
    }
    const std::string output = process.readAll().toStdString();

    static const std::regex ok(R"(WB-SANDBOX ok ([0-9.eE+-]+))");
    static const std::regex failed(R"(WB-SANDBOX error (.*))");
    std::smatch m;
    if (std::regex_search(output, m, ok) && process.exitStatus() == QProcess::NormalExit &&
        process.exitCode() == 0) {
        for (std::size_t b = 0; b < launch.buffers.size(); ++b) {
            if (!used[b]) continue;
            std::ifstream in(work / ("buffer" + std::to_string(b)), std::ios::binary);
            in.read(reinterpret_cast<char*>(launch.buffers[b].data),
                    static_cast<std::streamsize>(launch.buffers[b].size));
        }
        return std::stod(m[1]);
    }
    if (output.find("AddressSanitizer") != std::string::npos ||
        output.find("runtime error:") != std::string::npos) {
        MemoryFinding f =
            parseSanitizerReport(output, launch.kernel.name, launch.compiled.sourceName);
        findings.push_back(f);
        std::string msg = "kernel '" + f.kernel + "': " + memoryFindingKindName(f.kind) + " access";
        if (!f.file.empty()) msg += " at " + f.file + ":" + std::to_string(f.line);
        if (f.located)
            msg += " by block (" + std::to_string(f.block.x) + "," + std::to_string(f.block.y) +
                   "," + std::to_string(f.block.z) + "), thread (" + std::to_string(f.thread.x) +
                   "," + std::to_string(f.thread.y) + "," + std::to_string(f.thread.z) + ")";
        msg += ": " + f.message;
        throw Error(Error::Kind::Runtime, msg);
    }
    if (std::regex_search(output, m, failed)) throw Error(Error::Kind::Runtime, m[1]);
    throw Error(Error::Kind::Runtime, "the bounds-checked launch of '" + launch.kernel.name +
                                          "' ended abnormally: " + output.substr(0, 2000));
}

} // namespace wb::cpu::detail
