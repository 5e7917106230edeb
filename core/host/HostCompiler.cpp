// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/host/HostCompiler.h"

#include "core/common/DeferredInit.h"

#include "core/common/Checksum.h"
#include "core/common/Paths.h"
#include "core/common/ProcessTree.h"

#include <QByteArray>
#include <QCoreApplication>
#include <QCryptographicHash>
#include <QProcess>
#include <QProcessEnvironment>
#include <QStandardPaths>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>
#include <string_view>
#include <system_error>

namespace wb {

namespace {

constexpr int kProbeTimeoutMs = 15'000;

QString toQ(const std::string& s)
{
    return QString::fromStdString(s);
}

/// Runs `exe --version` and returns "g++ 12.2.0" / "clang++ 14.0.6", or the reason it failed.
struct Probe {
    bool ok = false;
    std::string version;
    bool isClang = false;
    std::string why;
};

Probe probeCompiler(const std::string& exe)
{
    Probe probe;
    QProcess process;
    process.setProcessChannelMode(QProcess::MergedChannels);
    process.start(toQ(exe), {QStringLiteral("--version")});
    if (!process.waitForStarted(kProbeTimeoutMs)) {
        probe.why =
            "'" + exe + "' could not be started (" + process.errorString().toStdString() + ")";
        return probe;
    }
    if (!process.waitForFinished(kProbeTimeoutMs)) {
        killProcessTree(static_cast<pid_t>(process.processId()));
        process.waitForFinished();
        probe.why = "'" + exe + " --version' did not finish";
        return probe;
    }
    const std::string out = process.readAll().toStdString();
    if (process.exitStatus() != QProcess::NormalExit || process.exitCode() != 0) {
        probe.why = "'" + exe + " --version' failed: " + out.substr(0, 200);
        return probe;
    }
    const std::string first = out.substr(0, out.find('\n'));
    probe.isClang = out.find("clang") != std::string::npos;
    // The version is the first token that looks like N.N[.N] ("g++ (Debian 12.2.0-14) 12.2.0",
    // "Debian clang version 14.0.6"): gcc puts the plain version last, clang after "version".
    std::string number;
    const std::string_view firstView = first;
    const std::string_view scan = probe.isClang && first.find("version") != std::string::npos
                                      ? firstView.substr(first.find("version"))
                                      : firstView;
    // Tokens N.N[.N]: clang's first after "version", gcc's last.
    for (std::size_t i = 0; i < scan.size();) {
        if (!(scan[i] >= '0' && scan[i] <= '9') ||
            (i > 0 && scan[i - 1] >= '0' && scan[i - 1] <= '9')) {
            ++i;
            continue;
        }
        std::size_t at = i;
        std::size_t parts = 0;
        std::size_t end = i;
        while (parts < 3) {
            std::size_t d = at;
            while (d < scan.size() && scan[d] >= '0' && scan[d] <= '9')
                ++d;
            if (d == at) break;
            ++parts;
            end = d;
            if (d < scan.size() && scan[d] == '.' && parts < 3)
                at = d + 1;
            else
                break;
        }
        if (parts >= 2) {
            number = std::string(scan.substr(i, end - i));
            if (probe.isClang) break;
        }
        i = std::max(end, i + 1);
    }
    if (number.empty()) {
        probe.why = "'" + exe + " --version' printed no version: " + first;
        return probe;
    }
    probe.ok = true;
    probe.version = std::string(probe.isClang ? "clang++ " : "g++ ") + number;
    return probe;
}

/// A candidate name resolved on PATH ("g++" → "/usr/bin/g++"); absolute paths stay as given.
std::string resolve(const std::string& name)
{
    if (name.find('/') != std::string::npos) return name;
    const QString found = QStandardPaths::findExecutable(toQ(name));
    return found.isEmpty() ? std::string() : found.toStdString();
}

struct Search {
    std::optional<HostCompiler> compiler;
    std::string reason;
};

std::string envValue(const char* name)
{
    const char* v = std::getenv(name);
    return v ? std::string(v) : std::string();
}

/// The request's own flags (with -std=c++20 unless it names a standard), -I and -D, shared by
/// library and precompiled-header builds so that both see the same translation environment.
void appendRequestFlags(QStringList& args, const HostCompileRequest& request)
{
    bool hasStd = false;
    for (const std::string& f : request.flags)
        hasStd = hasStd || f.rfind("-std=", 0) == 0;
    if (!hasStd) args << QStringLiteral("-std=c++20");
    for (const std::string& f : request.flags)
        args << toQ(f);
    for (const std::string& dir : request.includeDirs)
        args << QStringLiteral("-I") + toQ(dir);
    for (const auto& [name, value] : request.defines)
        args << (QStringLiteral("-D") + toQ(name) + (value.empty() ? QString() : "=" + toQ(value)));
}

/// The compiler's environment: ours without the variables that add include folders behind the
/// request's back (a CPATH with the CUDA toolkit made <cuda_runtime.h> in a kernel the
/// toolkit's host header instead of the emulator's).
QProcessEnvironment compilerEnvironment()
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    for (const char* name : {"CPATH", "C_INCLUDE_PATH", "CPLUS_INCLUDE_PATH", "OBJC_INCLUDE_PATH"})
        env.remove(QString::fromLatin1(name));
    return env;
}

std::string hashHex(const QByteArray& bytes)
{
    return QCryptographicHash::hash(bytes, QCryptographicHash::Sha256).toHex().toStdString();
}

std::string readFile(const std::filesystem::path& path)
{
    std::ifstream in(path, std::ios::binary);
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

/// 0, or the errno of what failed (ENOSPC on a full disk).
int writeFile(const std::filesystem::path& path, const std::string& text)
{
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) return errno;
    std::size_t written = 0;
    int error = 0;
    while (written < text.size()) {
        const ssize_t n = ::write(fd, text.data() + written, text.size() - written);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            error = n < 0 ? errno : EIO;
            break;
        }
        written += static_cast<std::size_t>(n);
    }
    if (::close(fd) != 0 && !error) error = errno;
    return error;
}

/// Whether a tool's output says that a write failed for lack of space: "ld: final link failed:
/// No space left on device", "error writing to …: No space left on device". The user's own
/// `#error No space left on device` is a compile error like any other.
bool saysNoSpace(const std::string& log)
{
    std::istringstream in(log);
    std::string line;
    while (std::getline(in, line))
        if (line.find("No space left on device") != std::string::npos &&
            line.find("#error") == std::string::npos &&
            line.find("#warning") == std::string::npos &&
            line.find("static assertion") == std::string::npos &&
            line.find("static_assert") == std::string::npos)
            return true;
    return false;
}

/// The lines of a failed compiler's output that say why it failed when it printed no
/// diagnostic of the usual form: "cc1plus: out of memory allocating 2147483664 bytes …",
/// "…: internal compiler error: Segmentation fault", "Killed signal terminated program
/// cc1plus". At most three, each at most 300 characters; else the last line it printed.
std::string fatalLines(const std::string& log)
{
    static constexpr std::string_view kSigns[] = {"out of memory",
                                                  "internal compiler error",
                                                  "Killed signal",
                                                  "terminated program",
                                                  "virtual memory exhausted",
                                                  "Cannot allocate memory",
                                                  "cannot allocate",
                                                  "No space left on device",
                                                  "Segmentation fault",
                                                  "signal terminated",
                                                  "Bus error",
                                                  "memory exhausted"};
    std::vector<std::string> lines, last;
    std::istringstream in(log);
    std::string line;
    while (std::getline(in, line)) {
        while (!line.empty() && (line.back() == '\r' || line.back() == ' '))
            line.pop_back();
        const std::size_t first = line.find_first_not_of(' ');
        if (first == std::string::npos) continue;
        line = line.substr(first);
        if (line.size() > 300) line = line.substr(0, 300) + "…";
        const bool boilerplate = line == "compilation terminated." ||
                                 line.rfind("Please submit a full bug report", 0) == 0 ||
                                 line.rfind("See <", 0) == 0 ||
                                 line.rfind("with preprocessed source", 0) == 0;
        if (!boilerplate) last = {line};
        if (lines.size() < 3 &&
            std::any_of(std::begin(kSigns), std::end(kSigns), [&line](std::string_view sign) {
                return line.find(sign) != std::string::npos;
            }))
            lines.push_back(line);
    }
    if (lines.empty()) lines = last;
    std::string out;
    for (const std::string& l : lines)
        out += (out.empty() ? "" : "; ") + l;
    return out;
}

/// How a run of the compiler ended.
struct ToolRun {
    enum class End { NotStarted, TimedOut, Exited, Crashed };
    End end = End::NotStarted;
    int exitCode = 0;
    std::string output; ///< stdout and stderr merged
    std::string startError;
};

/// Runs the compiler in `workDir` with its temporary files in `tmpDir` (inside the cache, so
/// that a full disk there is reported as the cache's), for at most `timeoutMs`. Past that, g++
/// and every helper it started (cc1plus, as, collect2, ld) are killed: killing g++ alone left
/// a cc1plus blocked on its input running on.
ToolRun runCompiler(const std::string& exe, const QStringList& args, const QString& workDir,
                    const QString& tmpDir, int timeoutMs)
{
    ToolRun r;
    QProcess process;
    if (!workDir.isEmpty()) process.setWorkingDirectory(workDir);
    process.setProcessChannelMode(QProcess::MergedChannels);
    QProcessEnvironment env = compilerEnvironment();
    if (!tmpDir.isEmpty()) env.insert(QStringLiteral("TMPDIR"), tmpDir);
    process.setProcessEnvironment(env);
    process.start(toQ(exe), args);
    if (!process.waitForStarted(kProbeTimeoutMs)) {
        r.startError = process.errorString().toStdString();
        killProcessTree(static_cast<pid_t>(process.processId()));
        process.waitForFinished();
        return r;
    }
    if (!process.waitForFinished(std::max(timeoutMs, 1))) {
        killProcessTree(static_cast<pid_t>(process.processId()));
        process.waitForFinished();
        r.end = ToolRun::End::TimedOut;
        r.output = process.readAll().toStdString();
        return r;
    }
    r.output = process.readAll().toStdString();
    r.end =
        process.exitStatus() == QProcess::NormalExit ? ToolRun::End::Exited : ToolRun::End::Crashed;
    r.exitCode = process.exitCode();
    return r;
}

std::string shellQuote(const std::string& arg)
{
    if (!arg.empty() && arg.find_first_of(" \t\n'\"\\$`*?[]{}()<>|&;#~") == std::string::npos)
        return arg;
    std::string quoted = "'";
    for (char c : arg) {
        if (c == '\'')
            quoted += "'\\''";
        else
            quoted += c;
    }
    return quoted + "'";
}

/// "<size> <checksum>" of a library: the .sum file stored beside each cached .so.
std::string librarySummary(const std::string& bytes)
{
    return std::to_string(bytes.size()) + " " + std::to_string(fastChecksum(bytes)) + "\n";
}

/// Whether the cached `library` is exactly what was stored: a regular file (not a symlink)
/// with an ELF header whose size and checksum match its .sum. A truncated or damaged library
/// would fail every later run (or SIGBUS once mapped); it is never loaded.
bool cachedLibraryIsValid(const std::filesystem::path& library, const std::filesystem::path& sum)
{
    const int fd = ::open(library.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
    if (fd < 0) return false;
    struct stat st {};
    std::string bytes;
    bool ok = ::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size >= 64 &&
              st.st_size < (off_t{1} << 32);
    if (ok) {
        bytes.resize(static_cast<std::size_t>(st.st_size));
        std::size_t got = 0;
        while (got < bytes.size()) {
            const ssize_t n = ::read(fd, bytes.data() + got, bytes.size() - got);
            if (n <= 0) break;
            got += static_cast<std::size_t>(n);
        }
        ok = got == bytes.size() && bytes.compare(0, 4,
                                                  "\x7f"
                                                  "ELF") == 0;
    }
    if (ok) ::futimens(fd, nullptr); // recently used, for trimCache()
    ::close(fd);
    return ok && readFile(sum) == librarySummary(bytes);
}

/// Deletes the least recently used entries of the host cache folder until it holds at most
/// 80 % of `limit` (the newest entry always stays), and build folders of processes that died
/// more than an hour ago. An entry is a key's .so/.log/.sum or a pch-<key> folder; the entry
/// `keep` (just built) always stays.
void trimCache(const std::filesystem::path& dir, std::uintmax_t limit, const std::string& keep)
{
    namespace fs = std::filesystem;
    struct Entry {
        fs::file_time_type used{};
        std::uintmax_t size = 0;
        std::vector<fs::path> paths;
    };
    std::map<std::string, Entry> entries;
    std::uintmax_t total = 0;
    std::error_code ec;
    const auto staleBefore = fs::file_time_type::clock::now() - std::chrono::hours(1);
    for (auto it = fs::directory_iterator(dir, ec); !ec && it != fs::directory_iterator();
         it.increment(ec)) {
        const fs::path& p = it->path();
        const std::string name = p.filename().string();
        std::error_code e2;
        const auto time = fs::symlink_status(p, e2).type() == fs::file_type::symlink
                              ? fs::file_time_type::min()
                              : it->last_write_time(e2);
        if (e2) continue;
        if (name.find("build-") != std::string::npos) {
            if (time < staleBefore) fs::remove_all(p, e2);
            continue;
        }
        std::uintmax_t size = 0;
        if (it->is_directory(e2) && !it->is_symlink(e2)) {
            for (auto f = fs::recursive_directory_iterator(p, e2);
                 !e2 && f != fs::recursive_directory_iterator(); f.increment(e2))
                if (f->is_regular_file(e2)) size += f->file_size(e2);
        } else if (it->is_regular_file(e2)) {
            size = it->file_size(e2);
        }
        Entry& e = entries[name.substr(0, name.find('.'))];
        e.used = std::max(e.used, time);
        e.size += size;
        e.paths.push_back(p);
        total += size;
    }
    if (total <= limit) return;
    std::vector<Entry*> order;
    for (auto& [key, e] : entries)
        if (key != keep) order.push_back(&e);
    std::sort(order.begin(), order.end(),
              [](const Entry* a, const Entry* b) { return a->used < b->used; });
    const std::uintmax_t target = limit / 5 * 4;
    for (std::size_t i = 0; i < order.size() && total > target; ++i) {
        // The library goes first: without it the entry is a miss, whatever else is left.
        std::sort(order[i]->paths.begin(), order[i]->paths.end(),
                  [](const fs::path& a, const fs::path& b) {
                      return (a.extension() == ".so") > (b.extension() == ".so");
                  });
        for (const fs::path& p : order[i]->paths)
            fs::remove_all(p, ec);
        total -= order[i]->size;
    }
}

Diagnostic toolDiagnostic(const std::string& message)
{
    Diagnostic d;
    d.severity = Severity::Error;
    d.message = message;
    return d;
}

} // namespace

// The constructor is private; find() builds instances through this friend-free helper.
struct HostCompilerAccess {
    static HostCompiler make(std::string exe, std::string version, bool isClang)
    {
        HostCompiler c;
        c.m_executable = std::move(exe);
        c.m_version = std::move(version);
        c.m_isClang = isClang;
        return c;
    }
};

namespace {

Search search()
{
    Search result;
    // An explicit choice is honoured strictly: a broken $WARPBENCH_CXX is an error, not a hint.
    if (const std::string explicitCxx = envValue("WARPBENCH_CXX"); !explicitCxx.empty()) {
        const std::string exe = resolve(explicitCxx);
        if (exe.empty()) {
            result.reason =
                "$WARPBENCH_CXX names '" + explicitCxx + "', which is not an executable on PATH";
            return result;
        }
        const Probe p = probeCompiler(exe);
        if (!p.ok) {
            result.reason = "$WARPBENCH_CXX: " + p.why;
            return result;
        }
        result.compiler = HostCompilerAccess::make(exe, p.version, p.isClang);
        return result;
    }
    std::vector<std::string> tried;
    std::vector<std::string> candidates;
    if (const std::string cxx = envValue("CXX"); !cxx.empty()) candidates.push_back(cxx);
    candidates.emplace_back("g++");
    candidates.emplace_back("clang++");
    for (const std::string& name : candidates) {
        const std::string exe = resolve(name);
        if (exe.empty()) {
            tried.push_back(name + ": not found on PATH");
            continue;
        }
        const Probe p = probeCompiler(exe);
        if (p.ok) {
            result.compiler = HostCompilerAccess::make(exe, p.version, p.isClang);
            return result;
        }
        tried.push_back(p.why);
    }
    std::string why = "no host C++ compiler found (";
    for (std::size_t i = 0; i < tried.size(); ++i)
        why += (i ? "; " : "") + tried[i];
    why += "): install g++ (Debian: apt install g++) or set $WARPBENCH_CXX";
    result.reason = why;
    return result;
}

/// search(), remembered per environment: probing runs `<compiler> --version`, and a warm runner
/// asks for every run with a C++ reference.
Search cachedSearch()
{
    static std::mutex mutex;
    static std::map<std::string, Search> known;
    std::string key;
    for (const char* name : {"WARPBENCH_CXX", "CXX", "PATH"})
        key += envValue(name) + '\0';
    std::lock_guard lock(mutex);
    const auto it = known.find(key);
    if (it != known.end()) return it->second;
    return known.emplace(key, search()).first->second;
}

} // namespace

std::optional<HostCompiler> HostCompiler::find()
{
    return cachedSearch().compiler;
}

std::string HostCompiler::unavailableReason()
{
    Search s = cachedSearch();
    return s.compiler ? std::string() : s.reason;
}

HostCompileResult HostCompiler::compileSharedLibrary(const HostCompileRequest& request) const
{
    const auto started = std::chrono::steady_clock::now();
    HostCompileResult result;
    const auto elapsed = [&] {
        return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started)
            .count();
    };

    const std::string sourceName = request.sourceName.empty() ? "source.cpp" : request.sourceName;
    const std::filesystem::path fileName = std::filesystem::path(sourceName).filename();

    QStringList args;
    args << QStringLiteral("-shared") << QStringLiteral("-fPIC")
         << QStringLiteral("-fdiagnostics-color=never");
    appendRequestFlags(args, request);
    // A source name beginning with '-' would read as an option: pass it as a path then.
    const std::string input = fileName.string();
    args << QStringLiteral("-x") << QStringLiteral("c++")
         << toQ(input.rfind('-', 0) == 0 ? "./" + input : input);
    args << QStringLiteral("-x") << QStringLiteral("none");
    args << QStringLiteral("-o") << QStringLiteral("out.so");
    for (const std::string& f : request.linkFlags)
        args << toQ(f);

    // The key: everything that can change the output.
    QByteArray keyMaterial;
    const auto addKey = [&](const std::string& s) {
        keyMaterial += QByteArray::fromStdString(s);
        keyMaterial += '\0';
    };
    addKey(m_executable);
    addKey(m_version);
    addKey(fileName.string());
    for (const QString& a : args)
        addKey(a.toStdString());
    addKey(request.source);
    for (const auto& [name, content] : request.files) {
        addKey(name);
        addKey(content);
    }
    addKey("deferred-init 1"); // libraries are patched after linking (DeferredInit)
    const std::string key = hashHex(keyMaterial);

    std::string command = shellQuote(m_executable);
    for (const QString& a : args)
        command += " " + shellQuote(a.toStdString());
    result.commandLine = command;

    const std::filesystem::path dir = cacheDir() / "host";
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    const std::filesystem::path library = dir / (key + ".so");
    const std::filesystem::path logPath = dir / (key + ".log");
    const std::filesystem::path sumPath = dir / (key + ".sum");

    // A damaged library (or one from before libraries carried a .sum) is a miss: it is built
    // again and replaced by rename, never deleted first, so that no other process sees the
    // path missing in between.
    if (std::filesystem::exists(library, ec) && cachedLibraryIsValid(library, sumPath)) {
        result.ok = true;
        result.cacheHit = true;
        result.libraryPath = library.string();
        result.log = readFile(logPath);
        result.diagnostics = parseGccDiagnostics(result.log);
        result.compileMs = elapsed();
        return result;
    }

    // Not the user's code: the cache (or the disk it is on) failed. Said as what it is.
    const auto environmentFailure = [&](std::string what) {
        result.environmentError = std::move(what);
        result.diagnostics.push_back(toolDiagnostic(result.environmentError));
        result.log += (result.log.empty() ? "" : "\n") + result.environmentError + "\n";
        result.compileMs = elapsed();
        return result;
    };
    QTemporaryDir work(QString::fromStdString((dir / "build-XXXXXX").string()));
    if (!work.isValid()) {
        if (errno == ENOSPC) return environmentFailure(cacheFullMessage(dir));
        return environmentFailure("cannot create a build directory in the cache " + dir.string() +
                                  ": " + work.errorString().toStdString());
    }
    const std::filesystem::path workDir = work.path().toStdString();
    if (const int e = writeFile(workDir / fileName, request.source); e != 0)
        return environmentFailure(e == ENOSPC ? cacheFullMessage(dir)
                                              : "cannot write " + (workDir / fileName).string() +
                                                    " in the cache: " + std::strerror(e));

    for (const auto& [name, content] : request.files) {
        const std::filesystem::path file(name);
        if (name.empty() || file.filename() != file || name == ".." || name == "." ||
            file == fileName)
            return environmentFailure("cannot write " + name + " into the build folder");
        if (const int e = writeFile(workDir / file, content); e != 0)
            return environmentFailure(e == ENOSPC
                                          ? cacheFullMessage(dir)
                                          : "cannot write " + name +
                                                " into the build folder: " + std::strerror(e));
    }

    const ToolRun run =
        runCompiler(m_executable, args, work.path(), work.path(), request.timeoutMs);
    result.log = run.output;
    result.diagnostics = parseGccDiagnostics(result.log);
    if (run.end == ToolRun::End::NotStarted) {
        result.diagnostics.push_back(
            toolDiagnostic("cannot start " + m_executable + ": " + run.startError));
        result.log = result.diagnostics.back().message;
        result.compileMs = elapsed();
        return result;
    }
    if (run.end == ToolRun::End::TimedOut) {
        result.diagnostics.push_back(toolDiagnostic(
            "the host compiler did not finish within " + std::to_string(request.timeoutMs / 1000) +
            " s and was stopped (with every process it started)"));
        result.compileMs = elapsed();
        return result;
    }
    if (run.end != ToolRun::End::Exited || run.exitCode != 0) {
        // A full disk in the cache (ld writing the library, cc1plus its assembly) is not an
        // error in the user's code.
        if (saysNoSpace(result.log)) return environmentFailure(cacheFullMessage(dir));
        if (!hasErrors(result.diagnostics)) {
            // The compiler's own fatal lines say why (out of memory, internal compiler error,
            // killed); an exit code alone does not.
            const std::string why = fatalLines(result.log);
            result.diagnostics.push_back(toolDiagnostic(
                (run.end == ToolRun::End::Exited
                     ? "the host compiler failed with exit code " + std::to_string(run.exitCode)
                     : std::string("the host compiler crashed")) +
                (why.empty() ? std::string() : ": " + why)));
        }
        result.compileMs = elapsed();
        return result;
    }

    // No code of the library runs while it loads: its constructors wait for the sandbox.
    if (const std::string why = DeferredInit::defer((workDir / "out.so").string()); !why.empty()) {
        result.diagnostics.push_back(toolDiagnostic(
            "the compiled library is refused: " + why +
            " (Warpbench loads user code only where it cannot run before the sandbox is up)"));
        result.log += result.diagnostics.back().message + "\n";
        result.compileMs = elapsed();
        return result;
    }

    // Publish atomically from the private build folder: the log and the .sum first, then the
    // library by rename (readers test the .so, then check it against its .sum).
    int e = writeFile(workDir / "out.log", result.log);
    if (!e) e = writeFile(workDir / "out.sum", librarySummary(readFile(workDir / "out.so")));
    if (e == ENOSPC) return environmentFailure(cacheFullMessage(dir));
    std::filesystem::rename(workDir / "out.log", logPath, ec);
    if (!ec) std::filesystem::rename(workDir / "out.sum", sumPath, ec);
    if (!ec) std::filesystem::rename(workDir / "out.so", library, ec);
    if (e || ec)
        return environmentFailure("cannot store the library in the cache " + library.string() +
                                  ": " + (e ? std::strerror(e) : ec.message()));
    result.ok = true;
    result.libraryPath = library.string();
    result.compileMs = elapsed();
    trimCache(dir, cacheLimitBytes(), key);
    return result;
}

std::string HostCompiler::precompileHeader(const std::string& headerPath,
                                           const std::string& includeName,
                                           const HostCompileRequest& request) const
{
    namespace fs = std::filesystem;
    if (m_isClang) return {};
    QStringList args;
    args << QStringLiteral("-fPIC") << QStringLiteral("-fdiagnostics-color=never");
    appendRequestFlags(args, request);

    QByteArray keyMaterial;
    const auto addKey = [&](const std::string& text) {
        keyMaterial += QByteArray::fromStdString(text);
        keyMaterial += '\0';
    };
    addKey("pch");
    addKey(m_executable);
    addKey(m_version);
    addKey(includeName);
    for (const QString& a : args)
        addKey(a.toStdString());
    std::error_code ec;
    std::vector<fs::path> files;
    for (const auto& e : fs::directory_iterator(fs::path(headerPath).parent_path(), ec))
        if (e.is_regular_file()) files.push_back(e.path());
    std::sort(files.begin(), files.end());
    for (const fs::path& f : files) {
        addKey(f.filename().string());
        addKey(readFile(f));
    }
    const fs::path dir = cacheDir() / "host" / ("pch-" + hashHex(keyMaterial));
    const fs::path gch = dir / (includeName + ".gch");
    if (fs::exists(gch, ec)) {
        fs::last_write_time(dir, fs::file_time_type::clock::now(), ec); // used, for trimCache()
        return dir.string();
    }

    // Built in a private folder, published by renaming the folder: the header's folder is
    // copied beside the .gch, so that later includes of the same name (from other headers,
    // #pragma once) resolve to the copy the .gch stands for.
    // A full cache costs every later compile the header's parse: say so once per process.
    const auto full = [&dir] {
        warnAboutCache(cacheFullMessage(dir.parent_path()) +
                       ": the precompiled prelude header could not be stored, so every compile "
                       "parses it again");
        return std::string();
    };
    fs::create_directories(dir.parent_path(), ec);
    QTemporaryDir work(QString::fromStdString(dir.string() + ".build-XXXXXX"));
    if (!work.isValid()) return errno == ENOSPC ? full() : std::string();
    const fs::path stage = work.path().toStdString();
    const fs::path stagedGch = stage / (includeName + ".gch");
    fs::create_directories(stagedGch.parent_path(), ec);
    for (const fs::path& f : files) {
        fs::copy_file(f, stagedGch.parent_path() / f.filename(),
                      fs::copy_options::overwrite_existing, ec);
        if (ec == std::errc::no_space_on_device) return full();
    }
    const fs::path header = stagedGch.parent_path() / fs::path(headerPath).filename();
    args << QStringLiteral("-x") << QStringLiteral("c++-header") << toQ(header.string())
         << QStringLiteral("-o") << toQ(stagedGch.string());
    const ToolRun run = runCompiler(m_executable, args, QString(), work.path(), request.timeoutMs);
    if (run.end != ToolRun::End::Exited || run.exitCode != 0)
        return saysNoSpace(run.output) ? full() : std::string();
    fs::rename(stage, dir, ec); // fails harmlessly when another process published it first
    if (!ec) work.setAutoRemove(false);
    return fs::exists(gch) ? dir.string() : std::string();
}

namespace {

// Hand-written matchers for gcc/clang output: linear in the line's length, whatever the line
// holds (std::regex recursed once per character and overflowed the stack on long identifiers).

bool isSpace(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

bool startsWith(std::string_view s, std::string_view prefix)
{
    return s.substr(0, prefix.size()) == prefix;
}

/// Digits at `at` (advancing it) as an int; nullopt when there are none or they overflow.
std::optional<int> digitsAt(std::string_view s, std::size_t& at)
{
    const std::size_t begin = at;
    long long value = 0;
    while (at < s.size() && s[at] >= '0' && s[at] <= '9') {
        value = value * 10 + (s[at] - '0');
        if (value > 0x7fffffff) return std::nullopt;
        ++at;
    }
    if (at == begin) return std::nullopt;
    return static_cast<int>(value);
}

struct Located {
    std::string file;
    int line = 0;
    int column = 0;
    std::string severity;
    std::string message;
};

/// "file:line[:col]: (fatal error|error|warning|note): message"; the file is the shortest
/// prefix that fits.
std::optional<Located> matchLocated(std::string_view line)
{
    for (std::size_t colon = line.find(':', 1); colon != std::string_view::npos;
         colon = line.find(':', colon + 1)) {
        std::size_t at = colon + 1;
        const std::optional<int> lineNo = digitsAt(line, at);
        if (!lineNo || at >= line.size() || line[at] != ':') continue;
        ++at;
        int column = 0;
        if (std::size_t c = at; const std::optional<int> col = digitsAt(line, c)) {
            if (c < line.size() && line[c] == ':') {
                column = *col;
                at = c + 1;
            }
        }
        if (at >= line.size() || line[at] != ' ') continue;
        ++at;
        for (const std::string_view sev : {"fatal error", "error", "warning", "note"}) {
            if (!startsWith(line.substr(at), sev) || line.substr(at + sev.size(), 2) != ": ")
                continue;
            Located l;
            l.file = std::string(line.substr(0, colon));
            l.line = *lineNo;
            l.column = column;
            l.severity = std::string(sev);
            l.message = std::string(line.substr(at + sev.size() + 2));
            return l;
        }
    }
    return std::nullopt;
}

/// "message [-Wflag]" / "message [-fflag]" → (message, flag).
bool splitFlagSuffix(std::string_view msg, std::string& text, std::string& flag)
{
    if (msg.size() < 5 || msg.back() != ']') return false;
    // The flag holds no ']': only a " [" after the previous ']' can open it.
    const std::size_t prevClose = msg.rfind(']', msg.size() - 2);
    const std::size_t floor = prevClose == std::string_view::npos ? 0 : prevClose + 1;
    for (std::size_t open = msg.rfind(" [", msg.size() - 2);
         open != std::string_view::npos && open >= floor;
         open = open == 0 ? std::string_view::npos : msg.rfind(" [", open - 1)) {
        const std::string_view inside = msg.substr(open + 2, msg.size() - open - 3);
        if (inside.size() >= 3 && (startsWith(inside, "-W") || startsWith(inside, "-f"))) {
            text = std::string(msg.substr(0, open));
            flag = std::string(inside);
            return true;
        }
    }
    return false;
}

/// "file:[line:[col:]] <spaces>required from …" and the like (instantiation context).
bool isContextLine(std::string_view line)
{
    for (std::size_t colon = line.find(':', 1); colon != std::string_view::npos;
         colon = line.find(':', colon + 1)) {
        std::size_t at = colon + 1;
        if (std::size_t c = at; digitsAt(line, c) && c < line.size() && line[c] == ':') {
            at = c + 1;
            if (std::size_t d = at; digitsAt(line, d) && d < line.size() && line[d] == ':')
                at = d + 1;
        }
        const std::size_t textAt = at;
        while (at < line.size() && isSpace(line[at]))
            ++at;
        if (at == textAt) continue;
        const std::string_view rest = line.substr(at);
        if (startsWith(rest, "required from ") || startsWith(rest, "required by ") ||
            startsWith(rest, "in expansion of ") ||
            startsWith(rest, "in constexpr expansion of ") ||
            startsWith(rest, "recursively required "))
            return true;
    }
    return false;
}

/// "file: In instantiation of …:" and the other scope headers.
bool isScopeLine(std::string_view line)
{
    for (std::size_t at = line.find(": In ", 1); at != std::string_view::npos;
         at = line.find(": In ", at + 1)) {
        const std::string_view rest = line.substr(at + 5);
        for (const std::string_view what :
             {"instantiation of ", "substitution of ", "function ", "member function ",
              "constructor ", "destructor ", "static member function ", "lambda function "})
            if (startsWith(rest, what)) return true;
    }
    return false;
}

/// "In file included from x.h:3:" / "                 from y.h:5,".
bool isIncludedFrom(std::string_view line)
{
    if (line.empty() || (line.back() != ',' && line.back() != ':')) return false;
    const std::string_view body = line.substr(0, line.size() - 1);
    if (startsWith(body, "In file included from ")) return true;
    std::size_t at = 0;
    while (at < body.size() && isSpace(body[at]))
        ++at;
    return at > 0 && startsWith(body.substr(at), "from ");
}

/// "/usr/bin/ld: message", "collect2: error: message" → the message.
std::optional<std::string> matchLinker(std::string_view line)
{
    const std::size_t sep = line.find(": ");
    if (sep == std::string_view::npos) return std::nullopt;
    std::string_view tool = line.substr(0, sep);
    if (!tool.empty() && tool.front() == '/') {
        for (const char c : tool)
            if (isSpace(c)) return std::nullopt;
        tool.remove_prefix(tool.rfind('/') + 1);
    }
    if (tool != "ld" && tool != "ld.gold" && tool != "ld.lld" && tool != "collect2")
        return std::nullopt;
    std::string_view rest = line.substr(sep + 2);
    if (startsWith(rest, "error: ")) rest.remove_prefix(7);
    return std::string(rest);
}

/// "cc1plus: error: message" → (severity, message).
bool matchTool(std::string_view line, std::string& severity, std::string& message)
{
    const std::size_t colon = line.find(':');
    if (colon == 0 || colon == std::string_view::npos) return false;
    for (std::size_t i = 0; i < colon; ++i)
        if (isSpace(line[i])) return false;
    const std::string_view rest = line.substr(colon);
    for (const std::string_view sev : {"fatal error", "error", "warning"}) {
        if (!startsWith(rest.substr(2), sev) || !startsWith(rest, ": ") ||
            rest.substr(2 + sev.size(), 2) != ": ")
            continue;
        severity = std::string(sev);
        message = std::string(rest.substr(4 + sev.size()));
        return true;
    }
    return false;
}

} // namespace

std::vector<Diagnostic> parseGccDiagnostics(const std::string& log)
{
    std::vector<Diagnostic> out;
    std::vector<std::string> pending; // context printed before the diagnostic it belongs to
    std::istringstream in(log);
    std::string line;
    const auto severityOf = [](const std::string& s) {
        if (s == "fatal error") return Severity::Fatal;
        if (s == "error") return Severity::Error;
        if (s == "warning") return Severity::Warning;
        return Severity::Note;
    };
    while (std::getline(in, line)) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (std::optional<Located> m = matchLocated(line)) {
            Diagnostic d;
            d.file = std::move(m->file);
            d.line = m->line;
            d.column = m->column;
            d.severity = severityOf(m->severity);
            d.message = std::move(m->message);
            std::string text;
            std::string flag;
            if (splitFlagSuffix(d.message, text, flag)) {
                d.message = std::move(text);
                d.code = std::move(flag);
            }
            // clang: instantiation chains and macro origins come as notes after the error.
            const bool chainNote = d.severity == Severity::Note && !out.empty() &&
                                   (d.message.rfind("in instantiation of", 0) == 0 ||
                                    d.message.find("requested here") != std::string::npos ||
                                    d.message.rfind("expanded from macro", 0) == 0 ||
                                    d.message.rfind("while substituting", 0) == 0);
            if (chainNote) {
                out.back().context.push_back(line);
                continue;
            }
            d.context = std::move(pending);
            pending.clear();
            out.push_back(std::move(d));
            continue;
        }
        if (isContextLine(line) || isScopeLine(line) || isIncludedFrom(line)) {
            std::string text = line;
            const auto first = text.find_first_not_of(' ');
            pending.push_back(first == std::string::npos ? text : text.substr(first));
            continue;
        }
        if (std::optional<std::string> message = matchLinker(line)) {
            if (message->find("ld returned") != std::string::npos) continue; // collect2 summary
            Diagnostic d = toolDiagnostic(*message);
            d.file = {};
            out.push_back(std::move(d));
            continue;
        }
        if (std::string severity, message; matchTool(line, severity, message)) {
            Diagnostic d;
            d.severity = severityOf(severity);
            d.message = std::move(message);
            d.context = std::move(pending);
            pending.clear();
            out.push_back(std::move(d));
            continue;
        }
        // Source excerpts, carets and "N errors generated." carry nothing new.
    }
    return out;
}

} // namespace wb
