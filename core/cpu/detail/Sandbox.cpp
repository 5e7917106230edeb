// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/cpu/detail/Sandbox.h"

#include "core/common/Error.h"
#include "core/common/ProcessTree.h"
#include "core/common/Sandbox.h"
#include "core/cpu/detail/RaceReport.h"
#include "core/host/HostCompiler.h"

#include <QProcess>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <optional>
#include <sstream>
#include <string_view>

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
        if (!p.waitForFinished(15'000)) {
            killProcessTree(static_cast<pid_t>(p.processId()));
            p.waitForFinished();
            return std::string();
        }
        std::string out = p.readAllStandardOutput().trimmed().toStdString();
        std::error_code ec;
        return std::filesystem::exists(out, ec) ? std::filesystem::canonical(out, ec).string()
                                                : std::string();
    }();
    known[cxx->executable()] = path;
    return path;
}

// Hand-written matchers for the sandbox's output, linear in its length: it quotes the user's
// identifiers and file names, on which std::regex recursed per character until the stack ran
// out.

bool isSpaceChar(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

bool isDigit(char c)
{
    return c >= '0' && c <= '9';
}

bool isHexDigit(char c)
{
    return isDigit(c) || (c >= 'a' && c <= 'f');
}

/// The run of characters at `at` satisfying `pred` (advancing `at`).
template <class Pred> std::string_view runAt(std::string_view s, std::size_t& at, Pred pred)
{
    const std::size_t begin = at;
    while (at < s.size() && pred(s[at]))
        ++at;
    return s.substr(begin, at - begin);
}

bool literalAt(std::string_view s, std::size_t& at, std::string_view text)
{
    if (s.substr(at, text.size()) != text) return false;
    at += text.size();
    return true;
}

/// The rest of the line from `at`.
std::string_view restOfLine(std::string_view s, std::size_t at)
{
    const std::size_t end = s.find('\n', at);
    return s.substr(at, end == std::string_view::npos ? std::string_view::npos : end - at);
}

/// Decimal digits as a number; 0 when they do not fit.
unsigned long long number(std::string_view digits, int base = 10)
{
    unsigned long long v = 0;
    for (const char c : digits) {
        const unsigned d =
            isDigit(c) ? static_cast<unsigned>(c - '0') : static_cast<unsigned>(c - 'a' + 10);
        if (v > (~0ULL - d) / static_cast<unsigned>(base)) return 0;
        v = v * static_cast<unsigned>(base) + d;
    }
    return v;
}

/// "(x,y,z)" at `at`.
bool dimAt(std::string_view s, std::size_t& at, Dim3& d)
{
    unsigned v[3] = {0, 0, 0};
    if (!literalAt(s, at, "(")) return false;
    for (int i = 0; i < 3; ++i) {
        const std::string_view digits = runAt(s, at, isDigit);
        if (digits.empty()) return false;
        v[i] = static_cast<unsigned>(std::min<unsigned long long>(number(digits), ~0U));
        if (!literalAt(s, at, i < 2 ? "," : ")")) return false;
    }
    d = Dim3{v[0], v[1], v[2]};
    return true;
}

/// "WB-SANDBOX ok <seconds>": the number's text, or empty.
std::string_view sandboxOk(std::string_view s)
{
    for (std::size_t at = s.find("WB-SANDBOX ok "); at != std::string_view::npos;
         at = s.find("WB-SANDBOX ok ", at + 1)) {
        std::size_t i = at + 14;
        const std::string_view v = runAt(s, i, [](char c) {
            return isDigit(c) || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-';
        });
        if (!v.empty()) return v;
    }
    return {};
}

} // namespace

std::string sandboxExecutable()
{
    namespace fs = std::filesystem;
    std::error_code ec;
    if (const char* env = std::getenv("WARPBENCH_CPU_SANDBOX"); env && *env) return env;
    const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    // The program's own sandbox first: beside it (a build tree's bin/), then where an install
    // of it puts one (prefix/libexec). The build tree it was built in comes after, so that an
    // installed program never speaks to a sandbox of another build that happens to be on disk.
    const std::vector<fs::path> candidates = {
        exe.parent_path() / "warpbench-cpu-sandbox",
        exe.parent_path().parent_path() / "libexec" / "warpbench" / "warpbench-cpu-sandbox",
        fs::path(WB_CPU_SANDBOX_BUILD_PATH),
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
    const std::string_view out = output;
    for (std::size_t at = out.find("WB-SANDBOX at block="); at != std::string_view::npos;
         at = out.find("WB-SANDBOX at block=", at + 1)) {
        std::size_t i = at + 20;
        Dim3 block{}, thread{};
        if (dimAt(out, i, block) && literalAt(out, i, " thread=") && dimAt(out, i, thread)) {
            f.block = block;
            f.thread = thread;
            f.located = true;
            break;
        }
    }
    // UBSan: "<file>:<line>:<col>: runtime error: <message>", the first one.
    for (std::size_t r = out.find(": runtime error: "); r != std::string_view::npos;
         r = out.find(": runtime error: ", r + 1)) {
        std::size_t i = r;
        const auto digitsBefore = [&] {
            const std::size_t end = i;
            while (i > 0 && isDigit(out[i - 1]))
                --i;
            return out.substr(i, end - i);
        };
        const std::string_view col = digitsBefore();
        if (col.empty() || i == 0 || out[i - 1] != ':') continue;
        --i;
        const std::string_view line = digitsBefore();
        if (line.empty() || i == 0 || out[i - 1] != ':') continue;
        --i;
        const std::size_t fileEnd = i;
        while (i > 0 && !isSpaceChar(out[i - 1]))
            --i;
        if (i == fileEnd) continue;
        f.file = std::filesystem::path(std::string(out.substr(i, fileEnd - i))).filename().string();
        f.line = static_cast<int>(std::min<unsigned long long>(number(line), 0x7fffffff));
        f.message = std::string(restOfLine(out, r + 17));
        f.kind = f.message.find("misaligned") != std::string::npos ? MemoryFinding::Kind::Misaligned
                 : f.message.find("out of bounds") != std::string::npos
                     ? MemoryFinding::Kind::OutOfBounds
                 : f.message.find("null pointer") != std::string::npos
                     ? MemoryFinding::Kind::InvalidAddress
                     : MemoryFinding::Kind::Other;
        const std::string_view msg = f.message;
        for (std::size_t a = msg.find("misaligned address 0x"); a != std::string_view::npos;
             a = msg.find("misaligned address 0x", a + 1)) {
            std::size_t h = a + 21;
            if (const std::string_view hexDigits = runAt(msg, h, isHexDigit); !hexDigits.empty()) {
                f.address = number(hexDigits, 16);
                break;
            }
        }
        break;
    }
    // ASan: "ERROR: AddressSanitizer: <what> on [unknown ]address 0x<hex>".
    std::string what;
    for (std::size_t at = out.find("ERROR: AddressSanitizer: "); at != std::string_view::npos;
         at = out.find("ERROR: AddressSanitizer: ", at + 1)) {
        std::size_t i = at + 25;
        const std::string_view w = runAt(out, i, [](char c) {
            return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-';
        });
        if (w.empty() || !literalAt(out, i, " on ")) continue;
        literalAt(out, i, "unknown ");
        if (!literalAt(out, i, "address 0x")) continue;
        const std::string_view hexDigits = runAt(out, i, isHexDigit);
        if (hexDigits.empty()) continue;
        what = std::string(w);
        f.address = number(hexDigits, 16);
        break;
    }
    if (!what.empty()) {
        f.kind = what.find("overflow") != std::string::npos ||
                         what.find("underflow") != std::string::npos
                     ? MemoryFinding::Kind::OutOfBounds
                 : what.find("use-after-free") != std::string::npos
                     ? MemoryFinding::Kind::UseAfterFree
                 : what == "SEGV" || what.find("wild") != std::string::npos
                     ? MemoryFinding::Kind::InvalidAddress
                     : MemoryFinding::Kind::Other;
        std::string msg = what;
        // "(READ|WRITE) of size <n> at", the first one.
        std::size_t best = std::string_view::npos;
        std::string_view size;
        bool isWrite = false;
        for (const std::string_view kind : {"READ of size ", "WRITE of size "}) {
            for (std::size_t a = out.find(kind); a != std::string_view::npos && a < best;
                 a = out.find(kind, a + 1)) {
                std::size_t i = a + kind.size();
                const std::string_view digits = runAt(out, i, isDigit);
                if (digits.empty() || !literalAt(out, i, " at")) continue;
                best = a;
                size = digits;
                isWrite = kind[0] == 'W';
                break;
            }
        }
        if (best != std::string_view::npos) {
            f.isWrite = isWrite;
            f.accessSize =
                static_cast<std::uint32_t>(std::min<unsigned long long>(number(size), ~0U));
            msg = std::string(f.isWrite ? "write" : "read") + " of " + std::string(size) +
                  " bytes (" + what + ")";
        }
        if (const std::size_t a = out.find("is located "); a != std::string_view::npos)
            msg += ": address " + std::string(restOfLine(out, a));
        f.message = msg;
        // The first stack frame in the user's source gives the line:
        // "#<n> 0x<hex> in <function> <path/><sourceName>:<line>".
        for (std::size_t h = out.find('#'); h != std::string_view::npos && !sourceName.empty();
             h = out.find('#', h + 1)) {
            std::size_t i = h + 1;
            if (runAt(out, i, isDigit).empty() || !literalAt(out, i, " 0x") ||
                runAt(out, i, isHexDigit).empty() || !literalAt(out, i, " in "))
                continue;
            const std::string_view rest = restOfLine(out, i);
            bool found = false;
            for (std::size_t n = rest.find(sourceName); n != std::string_view::npos;
                 n = rest.find(sourceName, n + 1)) {
                std::size_t j = n + sourceName.size();
                if (!literalAt(rest, j, ":")) continue;
                const std::string_view lineDigits = runAt(rest, j, isDigit);
                if (lineDigits.empty()) continue;
                std::size_t b = n;
                while (b > 0 && !isSpaceChar(rest[b - 1]))
                    --b;
                f.file =
                    std::filesystem::path(std::string(rest.substr(b, n + sourceName.size() - b)))
                        .filename()
                        .string();
                f.line =
                    static_cast<int>(std::min<unsigned long long>(number(lineDigits), 0x7fffffff));
                found = true;
                break;
            }
            if (found) break;
            // Later frame headers on this line see a part of the same text: go to the next line.
            const std::size_t nl = out.find('\n', i);
            if (nl == std::string_view::npos) break;
            h = nl;
        }
    }
    return f;
}

/// A report whose frames name no source line: clang's AddressSanitizer symbolizes by starting
/// llvm-symbolizer, which the sealed sandbox may not do (issue 25), so its frames read
/// "(<library>+0x<offset>)". Here, outside the sandbox, addr2line names them: the first frame
/// of a shared library that resolves to `sourceName` gives the finding its file and line.
void symbolizeOutside(MemoryFinding& f, const std::string& output, const std::string& sourceName)
{
    const std::string_view out = output;
    int tried = 0;
    for (std::size_t plus = out.find(".so+0x"); plus != std::string_view::npos && tried < 8;
         plus = out.find(".so+0x", plus + 1)) {
        const std::size_t open = out.rfind('(', plus);
        const std::size_t close = out.find(')', plus);
        const std::size_t eol = out.find('\n', plus);
        if (open == std::string_view::npos || close == std::string_view::npos || close > eol ||
            out.substr(open, plus - open).find('\n') != std::string_view::npos)
            continue;
        const std::string library(out.substr(open + 1, plus + 3 - open - 1));
        const std::string offset(out.substr(plus + 4, close - plus - 4));
        if (library.rfind("/", 0) != 0 || offset.empty()) continue;
        ++tried;
        QProcess p;
        p.setProcessChannelMode(QProcess::SeparateChannels);
        p.start(QStringLiteral("addr2line"), {QStringLiteral("-e"), QString::fromStdString(library),
                                              QString::fromStdString(offset)});
        if (!p.waitForFinished(10'000)) {
            killProcessTree(static_cast<pid_t>(p.processId()));
            p.waitForFinished();
            return;
        }
        const std::string where = p.readAllStandardOutput().trimmed().toStdString();
        const std::size_t colon = where.rfind(':');
        if (colon == std::string::npos) continue;
        const std::string file = std::filesystem::path(where.substr(0, colon)).filename().string();
        std::size_t i = colon + 1;
        const std::string_view digits = runAt(std::string_view(where), i, isDigit);
        if (file != std::filesystem::path(sourceName).filename().string() || digits.empty() ||
            number(digits) == 0)
            continue;
        f.file = file;
        f.line = static_cast<int>(std::min<unsigned long long>(number(digits), 0x7fffffff));
        return;
    }
}

std::string sandboxHex(const void* data, std::size_t n)
{
    return hex(data, n);
}

std::vector<int> writeSandboxLaunchLines(std::ostream& req, const SandboxLaunch& launch)
{
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
    return used;
}

std::vector<int> writeSandboxRequest(const SandboxLaunch& launch, const std::filesystem::path& work)
{
    std::ostringstream req;
    const std::vector<int> used = writeSandboxLaunchLines(req, launch);
    for (std::size_t b = 0; b < launch.buffers.size(); ++b) {
        if (!used[b]) continue;
        const std::filesystem::path file = work / ("buffer" + std::to_string(b));
        std::ofstream out(file, std::ios::binary);
        out.write(reinterpret_cast<const char*>(launch.buffers[b].data),
                  static_cast<std::streamsize>(launch.buffers[b].size));
        if (!out) throw Error(Error::Kind::Io, "cannot write " + file.string());
        req << "buffer " << b << " " << launch.buffers[b].size << " " << file.string() << "\n";
    }
    for (std::size_t c = 0; c < launch.constants.size(); ++c) {
        const auto& [name, bytes] = launch.constants[c];
        req << "const " << name << " " << hex(bytes.data(), bytes.size()) << "\n";
        // Where the sandbox leaves the variable after the launch (read back when asked for).
        req << "constout " << c << " " << (work / ("global" + std::to_string(c))).string() << "\n";
    }
    if (launch.schedule) req << "schedule " << launch.schedule << "\n";
    if (launch.config.cooperative) req << "cooperative 1\n";
    std::vector<SharedVariable> sharedVars;
    if (launch.raceCheck) {
        req << "races 1\n";
        req << "workers " << std::max(1, launch.workers) << "\n";
        sharedVars = sharedVariables(launch.compiled.libraryPath);
        for (const SharedVariable& v : sharedVars)
            req << "sharedvar " << v.offset << " " << v.size << "\n";
    }
    req << "kernel " << launch.kernel.name << "\n";
    {
        std::ofstream out(work / "request");
        out << req.str();
    }

    return used;
}

double runInSandbox(const SandboxLaunch& launch, std::vector<MemoryFinding>& findings)
{
    const std::string helper = sandboxExecutable();
    if (helper.empty())
        throw Error(Error::Kind::Unavailable,
                    "bounds-checked launches need warpbench-cpu-sandbox, which was not "
                    "found (set $WARPBENCH_CPU_SANDBOX)");
    const std::string asan = launch.raceCheck ? std::string() : asanRuntime();
    if (asan.empty() && !launch.raceCheck)
        throw Error(Error::Kind::Unavailable,
                    "bounds-checked launches need the host compiler's libasan "
                    "(Debian: apt install libasan8 / g++)");
    QTemporaryDir dir;
    if (!dir.isValid())
        throw Error(Error::Kind::Io, "cannot create a temporary folder for the sandbox");
    const std::filesystem::path work = dir.path().toStdString();
    const std::vector<int> used = writeSandboxRequest(launch, work);

    QProcess process;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    if (!launch.raceCheck) env.insert(QStringLiteral("LD_PRELOAD"), QString::fromStdString(asan));
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
        // The kernel may have started processes of its own: they go too.
        killProcessTree(static_cast<pid_t>(process.processId()));
        process.waitForFinished();
        throw Error(Error::Kind::Timeout,
                    std::string(launch.raceCheck ? "race-checked" : "bounds-checked") +
                        " launch of '" + launch.kernel.name + "' did not finish within " +
                        std::to_string(kSandboxTimeoutMs / 1000) + " s");
    }
    const std::string output = process.readAll().toStdString();

    const std::string_view okValue = sandboxOk(output);
    const int exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
    if (okValue.empty() || exitCode != 0) throwSandboxFailure(launch, output, exitCode, findings);
    for (std::size_t b = 0; b < launch.buffers.size(); ++b) {
        if (!used[b]) continue;
        std::ifstream in(work / ("buffer" + std::to_string(b)), std::ios::binary);
        in.read(reinterpret_cast<char*>(launch.buffers[b].data),
                static_cast<std::streamsize>(launch.buffers[b].size));
    }
    if (launch.constantsAfter) {
        *launch.constantsAfter = launch.constants;
        for (std::size_t c = 0; c < launch.constantsAfter->size(); ++c) {
            std::vector<unsigned char>& bytes = (*launch.constantsAfter)[c].second;
            std::ifstream in(work / ("global" + std::to_string(c)), std::ios::binary);
            in.read(reinterpret_cast<char*>(bytes.data()),
                    static_cast<std::streamsize>(bytes.size()));
            if (in.gcount() != static_cast<std::streamsize>(bytes.size()))
                throw Error(Error::Kind::Runtime, "the sandbox did not return variable '" +
                                                      (*launch.constantsAfter)[c].first + "'");
        }
    }
    return acceptSandboxAnswer(launch, output);
}

double acceptSandboxAnswer(const SandboxLaunch& launch, const std::string& output)
{
    const std::string_view okValue = sandboxOk(output);
    if (launch.raceCheck && launch.races) {
        std::vector<std::string> names;
        for (const SandboxBuffer& b : launch.buffers)
            names.push_back(b.label);
        const auto shared = sharedVariables(launch.compiled.libraryPath);
        *launch.races = parseRaceReport(output, launch.kernel.name, launch.compiled.libraryPath,
                                        launch.compiled.sourceName, names, shared);
        if (launch.crowding) *launch.crowding = parseRaceCrowding(output, names, shared);
    }
    try {
        return std::stod(std::string(okValue));
    } catch (const std::exception&) {
        throw Error(Error::Kind::Runtime,
                    std::string(launch.raceCheck ? "the race-checked" : "the bounds-checked") +
                        " launch reported no valid time: " + std::string(okValue));
    }
}

namespace {

/// "kernel 'k': out of bounds access at k.cu:5 by block (0,0,0), thread (7,0,0): write of 4
/// bytes, …" (`mode`: " (race-checked launch)" or empty).
std::string findingText(const MemoryFinding& f, const std::string& mode)
{
    std::string msg =
        "kernel '" + f.kernel + "'" + mode + ": " + memoryFindingKindName(f.kind) + " access";
    if (!f.file.empty()) msg += " at " + f.file + ":" + std::to_string(f.line);
    if (f.located)
        msg += " by block (" + std::to_string(f.block.x) + "," + std::to_string(f.block.y) + "," +
               std::to_string(f.block.z) + "), thread (" + std::to_string(f.thread.x) + "," +
               std::to_string(f.thread.y) + "," + std::to_string(f.thread.z) + ")";
    return msg + ": " + f.message;
}

/// The sandbox's output without its protocol lines ("WB-…"), for a message.
std::string withoutProtocol(const std::string& output)
{
    std::string out;
    std::istringstream in(output);
    for (std::string line; std::getline(in, line);)
        if (line.rfind("WB-", 0) != 0) out += line + "\n";
    while (!out.empty() && (out.back() == '\n' || out.back() == ' '))
        out.pop_back();
    return out;
}

} // namespace

void throwSandboxFailure(const SandboxLaunch& launch, const std::string& output, int exitCode,
                         std::vector<MemoryFinding>& findings)
{
    const std::string mode = launch.raceCheck ? "race-checked" : "bounds-checked";
    if (launch.raceCheck) {
        // What the detector found before the launch stopped is kept (CpuBackend::lastRaces and
        // the run's race log), and a fault is a finding at the user's line.
        std::vector<std::string> names;
        std::vector<std::size_t> sizes;
        for (const SandboxBuffer& b : launch.buffers) {
            names.push_back(b.label);
            sizes.push_back(b.size);
        }
        if (launch.races)
            *launch.races = parseRaceReport(output, launch.kernel.name, launch.compiled.libraryPath,
                                            launch.compiled.sourceName, names,
                                            sharedVariables(launch.compiled.libraryPath));
        if (const std::optional<MemoryFinding> f =
                parseRaceFault(output, launch.kernel.name, launch.compiled.libraryPath,
                               launch.compiled.sourceName, names, sizes)) {
            findings.push_back(*f);
            throw Error(Error::Kind::Runtime, findingText(*f, " (race-checked launch)"));
        }
    }
    if (const std::size_t a = output.find("WB-SANDBOX attempted ");
        a != std::string::npos && exitCode == sandbox::kViolationExitCode)
        throw Error(Error::Kind::Runtime,
                    sandbox::violationMessage("kernel", restOfLine(output, a + 21),
                                              "kernel '" + launch.kernel.name + "'"));
    if (output.find("AddressSanitizer") != std::string::npos ||
        output.find("runtime error:") != std::string::npos) {
        MemoryFinding f =
            parseSanitizerReport(output, launch.kernel.name, launch.compiled.sourceName);
        if (f.file.empty()) symbolizeOutside(f, output, launch.compiled.sourceName);
        findings.push_back(f);
        throw Error(Error::Kind::Runtime, findingText(f, ""));
    }
    if (const std::size_t e = output.find("WB-SANDBOX error "); e != std::string::npos)
        throw Error(Error::Kind::Runtime, std::string(restOfLine(output, e + 17)));
    const std::string said = withoutProtocol(output);
    throw Error(Error::Kind::Runtime,
                "the " + mode + " launch of '" + launch.kernel.name + "' ended abnormally" +
                    (said.empty() ? std::string() : ": " + said.substr(0, 2000)));
}

} // namespace wb::cpu::detail
