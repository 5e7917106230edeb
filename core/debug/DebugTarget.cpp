// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/debug/DebugTarget.h"

#include "core/common/Error.h"
#include "core/common/ProcessTree.h"
#include "core/cpu/CpuBackend.h"
#include "core/cpu/detail/KernelSource.h"
#include "core/cpu/detail/Sandbox.h"
#include "core/session/ProjectFile.h"
#include "core/session/Session.h"
#include "core/session/SessionRunner.h"

#include <QProcess>
#include <QString>
#include <QStringList>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>

namespace wb::debug {

namespace {

/// Keeps the backend's buffers by address, so that a launch's pointer arguments can be found.
class TrackedBuffer final : public BackendBuffer {
public:
    TrackedBuffer(std::unique_ptr<BackendBuffer> inner, std::string label,
                  std::vector<TrackedBuffer*>& live)
        : m_inner(std::move(inner))
        , m_label(std::move(label))
        , m_live(live)
    {
        m_live.push_back(this);
    }
    ~TrackedBuffer() override { std::erase(m_live, this); }
    std::uint64_t address() const noexcept override { return m_inner->address(); }
    std::size_t size() const noexcept override { return m_inner->size(); }
    BackendBuffer& inner() { return *m_inner; }
    const BackendBuffer& inner() const { return *m_inner; }
    const std::string& label() const { return m_label; }

private:
    std::unique_ptr<BackendBuffer> m_inner;
    std::string m_label;
    std::vector<TrackedBuffer*>& m_live;
};

/// The CPU emulator, compiling for the debugger (-O0 -g3) and capturing the first launch
/// (the session's result launch) as a sandbox request instead of running it.
class CaptureBackend final : public Backend {
public:
    explicit CaptureBackend(std::filesystem::path work)
        : m_work(std::move(work))
    {
    }
    BackendKind kind() const noexcept override { return BackendKind::Cpu; }
    DeviceDescription device() const override { return m_cpu.device(); }
    CompileResult compile(const std::string& source, const std::string& sourceName,
                          const CompileOptions& options) override
    {
        CompileOptions o = options;
        o.optLevel = 0;
        o.deviceDebug = true;
        // -g3: gdb then knows the prelude's macros (threadIdx, blockIdx, ...).
        std::erase_if(o.extraFlags, [](const std::string& f) {
            return f == cpu::CpuBackend::kBoundsCheckFlag || f == cpu::CpuBackend::kTraceFlag;
        });
        o.extraFlags.push_back(std::string(cpu::CpuBackend::kHostFlagPrefix) + "-g3");
        o.extraFlags.push_back(std::string(cpu::CpuBackend::kHostFlagPrefix) + "-O0");
        m_source = source;
        return m_cpu.compile(source, sourceName, o);
    }
    std::unique_ptr<BackendProgram> load(const CompileResult& compiled) override
    {
        return m_cpu.load(compiled);
    }
    std::unique_ptr<BackendBuffer> allocate(std::size_t bytes, std::string_view label) override
    {
        return std::make_unique<TrackedBuffer>(m_cpu.allocate(bytes, label), std::string(label),
                                               m_live);
    }
    void upload(BackendBuffer& dst, const void* src, std::size_t bytes) override
    {
        m_cpu.upload(static_cast<TrackedBuffer&>(dst).inner(), src, bytes);
    }
    void download(const BackendBuffer& src, void* dst, std::size_t bytes) override
    {
        m_cpu.download(static_cast<const TrackedBuffer&>(src).inner(), dst, bytes);
    }
    void setConstant(BackendProgram& program, const std::string& symbol, const void* src,
                     std::size_t bytes) override
    {
        m_cpu.setConstant(program, symbol, src, bytes);
        m_constants.emplace_back(
            symbol, std::vector<unsigned char>(static_cast<const unsigned char*>(src),
                                               static_cast<const unsigned char*>(src) + bytes));
    }
    std::size_t globalSize(BackendProgram& program, const std::string& symbol) override
    {
        return m_cpu.globalSize(program, symbol);
    }
    void readGlobal(BackendProgram& program, const std::string& symbol, void* dst,
                    std::size_t bytes) override
    {
        m_cpu.readGlobal(program, symbol, dst, bytes);
    }
    double launch(BackendProgram& program, const std::string& kernel, const LaunchConfig& config,
                  std::span<const KernelArgValue> args) override
    {
        const KernelInfo* info = program.compiled().findKernel(kernel);
        if (!info) throw Error(Error::Kind::InvalidArgument, "no kernel '" + kernel + "'");
        cpu::detail::SandboxLaunch request{program.compiled(), *info, config, args,
                                           m_constants,        {}};
        for (TrackedBuffer* b : m_live)
            request.buffers.push_back(
                {reinterpret_cast<unsigned char*>(b->address()), b->size(), b->label()});
        cpu::detail::writeSandboxRequest(request, m_work);
        m_target.libraryPath = program.compiled().libraryPath;
        m_target.sourceName = program.compiled().sourceName;
        m_target.kernel = info->name;
        m_target.launch = config;
        m_captured = true;
        throw Error(Error::Kind::Cancelled, "launch captured for the debugger");
    }

    bool captured() const { return m_captured; }
    DebugTarget target() const
    {
        DebugTarget t = m_target;
        t.workDir = m_work;
        t.shared = DebugTarget::scanShared(m_source);
        return t;
    }

private:
    cpu::CpuBackend m_cpu{1};
    std::filesystem::path m_work;
    std::vector<TrackedBuffer*> m_live;
    std::vector<std::pair<std::string, std::vector<unsigned char>>> m_constants;
    std::string m_source;
    DebugTarget m_target;
    bool m_captured = false;
};

constexpr int kPrepareTimeoutMs = 300'000;

} // namespace

std::vector<SharedVariable> DebugTarget::scanShared(const std::string& source)
{
    const std::string text = cpu::detail::blankCommentsAndLiterals(source);
    std::vector<SharedVariable> out;
    const auto isIdent = [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
               c == '_';
    };
    const std::string key = "__shared__";
    for (std::size_t at = text.find(key); at != std::string::npos; at = text.find(key, at + 1)) {
        if ((at > 0 && isIdent(text[at - 1])) ||
            (at + key.size() < text.size() && isIdent(text[at + key.size()])))
            continue;
        const std::size_t end = text.find_first_of(";{}", at);
        if (end == std::string::npos || text[end] != ';') continue;
        // The statement's start, to see `extern`.
        std::size_t begin = text.find_last_of(";{}", at);
        begin = begin == std::string::npos ? 0 : begin + 1;
        const std::string head = text.substr(begin, at - begin);
        SharedVariable v;
        v.isExtern = head.find("extern") != std::string::npos;
        // The declarator: the last identifier before the first '[' or '=' after the type.
        std::string decl = text.substr(at + key.size(), end - at - key.size());
        if (const std::size_t cut = decl.find_first_of("[="); cut != std::string::npos)
            decl.resize(cut);
        std::size_t e = decl.size();
        while (e > 0 && !isIdent(decl[e - 1]))
            --e;
        std::size_t b = e;
        while (b > 0 && isIdent(decl[b - 1]))
            --b;
        if (b == e || (decl[b] >= '0' && decl[b] <= '9')) continue;
        v.name = decl.substr(b, e - b);
        out.push_back(v);
    }
    return out;
}

void DebugTarget::write() const
{
    std::ofstream out(workDir / "target");
    out << "library " << libraryPath << "\n"
        << "source " << sourceName << "\n"
        << "kernel " << kernel << "\n"
        << "dims " << launch.grid.x << " " << launch.grid.y << " " << launch.grid.z << " "
        << launch.block.x << " " << launch.block.y << " " << launch.block.z << " "
        << launch.sharedBytes << "\n";
    for (const SharedVariable& v : shared)
        out << "shared " << (v.isExtern ? 1 : 0) << " " << v.name << "\n";
    if (!out) throw Error(Error::Kind::Io, "cannot write " + (workDir / "target").string());
}

DebugTarget DebugTarget::read(const std::filesystem::path& workDir)
{
    std::ifstream in(workDir / "target");
    if (!in) throw Error(Error::Kind::Io, "cannot read " + (workDir / "target").string());
    DebugTarget t;
    t.workDir = workDir;
    bool dims = false;
    for (std::string line; std::getline(in, line);) {
        std::istringstream ls(line);
        std::string what;
        ls >> what;
        if (what == "library")
            std::getline(ls >> std::ws, t.libraryPath);
        else if (what == "source")
            std::getline(ls >> std::ws, t.sourceName);
        else if (what == "kernel")
            std::getline(ls >> std::ws, t.kernel);
        else if (what == "dims")
            dims = static_cast<bool>(ls >> t.launch.grid.x >> t.launch.grid.y >> t.launch.grid.z >>
                                     t.launch.block.x >> t.launch.block.y >> t.launch.block.z >>
                                     t.launch.sharedBytes);
        else if (what == "shared") {
            SharedVariable v;
            int ext = 0;
            ls >> ext >> v.name;
            v.isExtern = ext != 0;
            if (!v.name.empty()) t.shared.push_back(v);
        }
    }
    if (t.libraryPath.empty() || t.sourceName.empty() || t.kernel.empty() || !dims)
        throw Error(Error::Kind::InvalidArgument,
                    "incomplete debug target in " + (workDir / "target").string());
    return t;
}

DebugTarget DebugTarget::prepareHere(const session::Session& s,
                                     const std::filesystem::path& workDir)
{
    // The debugger runs the launch in the sandbox, which moves the buffers: a pointer inside a
    // struct argument would point at the old place.
    for (const session::ScalarSpec& sc : s.scalars)
        for (const session::StructMember& m : sc.members)
            if (m.isPointer())
                throw Error(Error::Kind::InvalidArgument,
                            "cannot prepare the launch for debugging: scalar '" + sc.name +
                                "' is a struct with a pointer member ('" + m.name +
                                "'), which the debugger's sandbox cannot relocate");
    CaptureBackend backend(workDir);
    session::SessionRunner::Options opt;
    opt.reuseBackend = &backend;
    opt.iterations = 1;
    const session::RunReport rep = session::SessionRunner::run(s, opt);
    if (backend.captured()) {
        DebugTarget t = backend.target();
        t.write();
        return t;
    }
    std::string msg = rep.message;
    for (const Diagnostic& d : rep.diagnostics)
        msg += "\n" + d.file + ":" + std::to_string(d.line) + ":" + std::to_string(d.column) +
               ": " + d.message;
    throw Error(Error::Kind::InvalidArgument, "cannot prepare the launch for debugging: " + msg);
}

DebugTarget DebugTarget::prepare(const session::Session& s, const std::filesystem::path& workDir)
{
    if (s.isPipeline())
        throw Error(Error::Kind::InvalidArgument,
                    "the debugger runs one launch; this project is a pipeline of several "
                    "(\"launches\"): debug one of its kernels in a one-launch project");
    const std::string helper = cpu::detail::sandboxExecutable();
    if (helper.empty())
        throw Error(Error::Kind::Unavailable,
                    "the debugger needs warpbench-cpu-sandbox, which was not found (set "
                    "$WARPBENCH_CPU_SANDBOX)");
    const std::filesystem::path json = workDir / "session.wbproj";
    {
        std::ofstream out(json);
        out << session::ProjectFile::toJson(s);
        if (!out) throw Error(Error::Kind::Io, "cannot write " + json.string());
    }
    QProcess p;
    p.setProcessChannelMode(QProcess::MergedChannels);
    QStringList args = {QStringLiteral("--prepare-debug"), QString::fromStdString(json.string()),
                        QString::fromStdString(s.baseDir.string()),
                        QString::fromStdString(workDir.string())};
    // The user's trust in the project's compiler flags is not part of the project file.
    if (s.flagsTrusted) args << QStringLiteral("--trusted");
    p.start(QString::fromStdString(helper), args);
    if (!p.waitForStarted(15'000))
        throw Error(Error::Kind::Unavailable,
                    "cannot start " + helper + ": " + p.errorString().toStdString());
    if (!p.waitForFinished(kPrepareTimeoutMs)) {
        // The helper compiles: g++ and its cc1plus go with it.
        killProcessTree(static_cast<pid_t>(p.processId()));
        p.waitForFinished();
        throw Error(Error::Kind::Timeout, "preparing the launch for debugging took more than " +
                                              std::to_string(kPrepareTimeoutMs / 1000) + " s");
    }
    const std::string output = p.readAll().toStdString();
    if (p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0) {
        const std::size_t e = output.find("WB-SANDBOX error ");
        throw Error(Error::Kind::InvalidArgument,
                    e != std::string::npos
                        ? output.substr(e + 17)
                        : "preparing the launch for debugging failed: " + output.substr(0, 4000));
    }
    return read(workDir);
}

int prepareDebugMain(int argc, char** argv)
{
    const bool trusted = argc == 6 && std::strcmp(argv[5], "--trusted") == 0;
    if (argc != 5 && !trusted) {
        std::printf("WB-SANDBOX error usage: warpbench-cpu-sandbox --prepare-debug SESSION "
                    "BASEDIR WORKDIR [--trusted]\n");
        return 3;
    }
    try {
        std::ifstream in(argv[2]);
        std::stringstream text;
        text << in.rdbuf();
        session::Session s = session::ProjectFile::fromJson(text.str(), argv[3], argv[2]);
        s.flagsTrusted = trusted;
        DebugTarget::prepareHere(s, argv[4]);
        std::printf("WB-SANDBOX ok 0\n");
        return 0;
    } catch (const std::exception& e) {
        std::printf("WB-SANDBOX error %s\n", e.what());
        return 3;
    }
}

} // namespace wb::debug
