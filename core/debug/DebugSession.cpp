// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/debug/DebugSession.h"

#include "core/common/Error.h"
#include "core/cpu/detail/DebugRecord.h"
#include "core/cpu/detail/KernelSource.h"
#include "core/cpu/detail/Sandbox.h"
#include "core/debug/GdbMi.h"

#include <QElapsedTimer>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstring>
#include <filesystem>

namespace wb::debug {

namespace {

using cpu::detail::DebugThreadRecord;
using cpu::detail::DebugWarpRecord;

constexpr int kReplayTimeoutMs = 60'000;
constexpr unsigned kReplayMaxStops = 50'000;
constexpr std::size_t kMaxSharedElements = 8192;

/// Symbols are read only for the libraries the debugger needs: the C library (libthread_db,
/// for the thread-local coordinates), the emulator (its debug record and block hook) and the
/// kernel. Reading every library the sandbox links (Qt, ICU, Boost, ...) took most of the time
/// to the first breakpoint.
const char* const kSymbolLibraries[] = {"libc.so", "libwarpbench-core"};

std::string sandbox()
{
    const std::string helper = cpu::detail::sandboxExecutable();
    if (helper.empty())
        throw Error(Error::Kind::Unavailable,
                    "the debugger needs warpbench-cpu-sandbox, which was not found (set "
                    "$WARPBENCH_CPU_SANDBOX)");
    return helper;
}

std::unique_ptr<GdbMi> startGdb(const DebugTarget& t)
{
    auto gdb = std::make_unique<GdbMi>(
        sandbox(), std::vector<std::string>{"--debug", t.requestPath().string()});
    // Stepping into the prelude (barriers, warp operations, builtins) or the standard library
    // would leave the user's kernel: step over them.
    gdb->check("-interpreter-exec console \"skip -gfi */warpbench/*\"");
    gdb->check("-interpreter-exec console \"skip -rfu ^std::\"");
    return gdb;
}

/// The next *stopped that is not a shared library event: at those, the symbols of the libraries
/// the debugger needs are loaded (see kSymbolLibraries) and the program continues.
std::optional<MiRecord> waitStop(GdbMi& gdb, const DebugTarget& t, int timeoutMs)
{
    QElapsedTimer timer;
    timer.start();
    for (;;) {
        const qint64 left = timeoutMs - timer.elapsed();
        std::optional<MiRecord> r = gdb.waitForStop(static_cast<int>(std::max<qint64>(left, 0)));
        if (!r || r->results.text("reason") != "solib-event") return r;
        for (const char* lib : kSymbolLibraries)
            gdb.command("-interpreter-exec console " +
                        miQuote(std::string("sharedlibrary ") + lib));
        gdb.command(
            "-interpreter-exec console " +
            miQuote("sharedlibrary " + std::filesystem::path(t.libraryPath).filename().string()));
        gdb.check("-exec-continue");
    }
}

/// "{x = 1, y = 0, z = 0}" → Dim3.
Dim3 parseDim(const std::string& s)
{
    unsigned v[3] = {0, 0, 0};
    const char* keys[3] = {"x = ", "y = ", "z = "};
    for (int i = 0; i < 3; ++i) {
        const std::size_t at = s.find(keys[i]);
        if (at == std::string::npos) continue;
        v[i] = static_cast<unsigned>(std::strtoul(s.c_str() + at + 4, nullptr, 10));
    }
    return Dim3{v[0], v[1], v[2]};
}

std::vector<unsigned char> unhex(const std::string& hex)
{
    std::vector<unsigned char> out;
    out.reserve(hex.size() / 2);
    const auto digit = [](char c) -> int {
        if (c >= '0' && c <= '9') return c - '0';
        if (c >= 'a' && c <= 'f') return c - 'a' + 10;
        if (c >= 'A' && c <= 'F') return c - 'A' + 10;
        return -1;
    };
    for (std::size_t i = 0; i + 1 < hex.size(); i += 2) {
        const int hi = digit(hex[i]), lo = digit(hex[i + 1]);
        if (hi < 0 || lo < 0) break;
        out.push_back(static_cast<unsigned char>(hi * 16 + lo));
    }
    return out;
}

/// Reads `bytes` of the debugged process at `address` (a gdb expression).
std::vector<unsigned char> readMemory(GdbMi& gdb, const std::string& address, std::size_t bytes)
{
    const MiRecord r =
        gdb.check("-data-read-memory-bytes " + miQuote(address) + " " + std::to_string(bytes));
    const MiValue* mem = r.results.find("memory");
    if (!mem || mem->items.empty()) return {};
    std::vector<unsigned char> out = unhex(mem->items.front().second.text("contents"));
    out.resize(bytes, 0);
    return out;
}

/// A console command's output (gdb's ^error message instead, with `ok` false).
std::string consoleOf(GdbMi& gdb, const std::string& command, bool& ok)
{
    gdb.takeConsole();
    const MiRecord r = gdb.command("-interpreter-exec console " + miQuote(command));
    ok = r.cls != "error";
    return ok ? gdb.takeConsole() : r.results.text("msg", "error");
}

/// gdb's type of `expression` ("float [2]"), or "" when gdb cannot tell.
std::string typeOf(GdbMi& gdb, const std::string& expression)
{
    bool ok = false;
    std::string t = consoleOf(gdb, "whatis " + expression, ok);
    if (!ok || t.rfind("type = ", 0) != 0) return {};
    t.erase(0, 7);
    while (!t.empty() && (t.back() == '\n' || t.back() == ' '))
        t.pop_back();
    return t;
}

/// gdb's Python: every variable of the selected frame's blocks, from the innermost one to the
/// function's, with the line of its declaration (DW_AT_decl_line). Sent as one line.
const char* const kDeclarationLinesPy =
    "import gdb\n"
    "def wb_declaration_lines():\n"
    "    b = gdb.selected_frame().block()\n"
    "    while b is not None:\n"
    "        for s in b:\n"
    "            if s.is_variable and not s.is_argument:\n"
    "                gdb.write('WBDECL %d %s' % (s.line, s.name) + chr(10))\n"
    "        if b.function is not None:\n"
    "            break\n"
    "        b = b.superblock\n";

std::string evaluateIn(GdbMi& gdb, const std::string& expression)
{
    const MiRecord r = gdb.command("-data-evaluate-expression " + miQuote(expression));
    if (r.cls == "error") return "<" + r.results.text("msg", "error") + ">";
    return r.results.text("value");
}

/// gdb's text of an array ("{1, 2}", "{{1, 2}, {3, 4}}") as its leaf elements.
std::vector<std::string> flattenAggregate(const std::string& s)
{
    std::vector<std::string> out;
    std::string cur;
    bool quoted = false;
    char quote = 0;
    int depth = 0;
    const auto flush = [&] {
        std::size_t b = cur.find_first_not_of(' ');
        std::size_t e = cur.find_last_not_of(' ');
        if (b != std::string::npos) out.push_back(cur.substr(b, e - b + 1));
        cur.clear();
    };
    for (std::size_t i = 0; i < s.size(); ++i) {
        const char c = s[i];
        if (quoted) {
            cur += c;
            if (c == '\\' && i + 1 < s.size())
                cur += s[++i];
            else if (c == quote)
                quoted = false;
            continue;
        }
        if (c == '"' || c == '\'') {
            quoted = true;
            quote = c;
            cur += c;
        } else if (c == '{') {
            ++depth;
            flush();
        } else if (c == '}') {
            --depth;
            flush();
        } else if (c == ',' && depth > 0) {
            flush();
        } else {
            cur += c;
        }
    }
    flush();
    return out;
}

ThreadWhere whereOf(std::uint32_t state)
{
    switch (state) {
    case cpu::detail::DebugRunning:
        return ThreadWhere::Running;
    case cpu::detail::DebugAtBarrier:
        return ThreadWhere::AtBarrier;
    case cpu::detail::DebugAtWarpOp:
        return ThreadWhere::AtWarpOp;
    case cpu::detail::DebugExited:
        return ThreadWhere::Exited;
    default:
        return ThreadWhere::NotStarted;
    }
}

Dim3 threadOf(unsigned linear, const Dim3& block)
{
    return Dim3{linear % block.x, (linear / block.x) % block.y, linear / (block.x * block.y)};
}

const char* kLinearExpr = "(threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z))";

std::string phaseExpr()
{
    return "((unsigned*)&wb_cpu_debug_threads)[4 * " + DebugSession::gdbExpression(kLinearExpr) +
           "]";
}

} // namespace

const char* threadWhereName(ThreadWhere w)
{
    switch (w) {
    case ThreadWhere::NotStarted:
        return "not started";
    case ThreadWhere::Running:
        return "runnable";
    case ThreadWhere::AtBarrier:
        return "at barrier";
    case ThreadWhere::AtWarpOp:
        return "at warp operation";
    case ThreadWhere::Exited:
        return "exited";
    case ThreadWhere::Chosen:
        return "stopped here";
    }
    return "?";
}

DebugSession::DebugSession(DebugTarget target)
    : m_target(std::move(target))
    , m_gdb(startGdb(m_target))
{
}

DebugSession::~DebugSession()
{
    stop();
}

std::string DebugSession::gdbExpression(const std::string& e)
{
    static const std::pair<std::string_view, std::string_view> builtins[] = {
        {"threadIdx", "::wb_cpu_current.thread"},
        {"blockIdx", "::wb_cpu_current.block"},
        {"blockDim", "::wb_cpu_current.blockSize"},
        {"gridDim", "::wb_cpu_current.gridSize"},
        {"warpSize", "32"},
    };
    const auto isIdent = [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
               c == '_';
    };
    std::string out;
    out.reserve(e.size() + 32);
    for (std::size_t i = 0; i < e.size();) {
        const char c = e[i];
        if (c == '"' || c == '\'') {
            const std::size_t begin = i++;
            while (i < e.size() && e[i] != c)
                i += e[i] == '\\' ? 2 : 1;
            i = std::min(i + 1, e.size());
            out.append(e, begin, i - begin);
            continue;
        }
        if (!isIdent(c)) {
            out += c;
            ++i;
            continue;
        }
        const std::size_t begin = i;
        while (i < e.size() && isIdent(e[i]))
            ++i;
        const std::string_view word(e.data() + begin, i - begin);
        // A member (".x", "->x") or a qualified name is never a builtin.
        const bool member = (begin > 0 && e[begin - 1] == '.') ||
                            (begin > 1 && e[begin - 1] == '>' && e[begin - 2] == '-') ||
                            (begin > 1 && e[begin - 1] == ':' && e[begin - 2] == ':');
        std::string_view replacement = word;
        if (!member)
            for (const auto& [name, with] : builtins)
                if (word == name) replacement = with;
        out += replacement;
    }
    return out;
}

std::vector<std::string> DebugSession::uninitialisedIn(const std::string& expression,
                                                       const std::vector<DebugVariable>& locals)
{
    std::vector<std::string> out;
    const std::string e = cpu::detail::blankCommentsAndLiterals(expression);
    const auto isIdent = [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
               c == '_';
    };
    for (std::size_t i = 0; i < e.size();) {
        if (!isIdent(e[i])) {
            ++i;
            continue;
        }
        const std::size_t begin = i;
        while (i < e.size() && isIdent(e[i]))
            ++i;
        const bool member = (begin > 0 && e[begin - 1] == '.') ||
                            (begin > 1 && e[begin - 1] == '>' && e[begin - 2] == '-') ||
                            (begin > 1 && e[begin - 1] == ':' && e[begin - 2] == ':');
        const std::string word = e.substr(begin, i - begin);
        if (member || std::find(out.begin(), out.end(), word) != out.end()) continue;
        for (const DebugVariable& v : locals)
            if (v.name == word && !v.argument) {
                // The innermost declaration of the name is the one the expression sees.
                if (v.notYetInitialised) out.push_back(word);
                break;
            }
    }
    return out;
}

int DebugSession::addBreakpoint(const Breakpoint& bp)
{
    if (!m_gdb) throw Error(Error::Kind::Runtime, "the debugging session has ended");
    if (bp.line <= 0) throw Error(Error::Kind::InvalidArgument, "breakpoint line must be >= 1");
    if (bp.condition.find_first_of("\n\r") != std::string::npos)
        throw Error(Error::Kind::InvalidArgument, "a breakpoint condition is one line");
    std::string cmd = "-break-insert -f ";
    if (!bp.condition.empty()) cmd += "-c " + miQuote(gdbExpression(bp.condition)) + " ";
    cmd += miQuote(m_target.sourceName + ":" + std::to_string(bp.line));
    const MiRecord r = m_gdb->command(cmd);
    if (r.cls == "error")
        throw Error(Error::Kind::InvalidArgument, "breakpoint at line " + std::to_string(bp.line) +
                                                      ": " +
                                                      r.results.text("msg", "refused by gdb"));
    const MiValue* b = r.results.find("bkpt");
    const int number = b ? std::atoi(b->text("number", "0").c_str()) : 0;
    m_breakpoints.emplace_back(number, bp);
    return number;
}

void DebugSession::removeBreakpoint(int number)
{
    if (!m_gdb) return;
    m_gdb->command("-break-delete " + std::to_string(number));
    std::erase_if(m_breakpoints, [&](const auto& b) { return b.first == number; });
}

std::optional<std::array<int, 3>> DebugSession::blockOf(const std::string& condition)
{
    // Top-level `&&` conjuncts of the form blockIdx.<axis> == <n> (or n == blockIdx.<axis>).
    std::array<int, 3> b = {-1, -1, -1};
    bool any = false;
    int depth = 0;
    std::size_t begin = 0;
    const auto conjunct = [&](std::string c) {
        std::erase_if(c, [](char ch) { return ch == ' ' || ch == '\t'; });
        while (c.size() > 2 && c.front() == '(' && c.back() == ')')
            c = c.substr(1, c.size() - 2);
        const std::size_t eq = c.find("==");
        if (eq == std::string::npos) return;
        std::string lhs = c.substr(0, eq), rhs = c.substr(eq + 2);
        if (lhs.rfind("blockIdx.", 0) != 0) std::swap(lhs, rhs);
        if (lhs.size() != 10 || lhs.rfind("blockIdx.", 0) != 0) return;
        const int axis = lhs[9] - 'x';
        if (axis < 0 || axis > 2 || rhs.empty() || rhs.size() > 9 ||
            !std::all_of(rhs.begin(), rhs.end(), [](char ch) { return ch >= '0' && ch <= '9'; }))
            return;
        b[static_cast<std::size_t>(axis)] = std::stoi(rhs);
        any = true;
    };
    for (std::size_t i = 0; i < condition.size(); ++i) {
        const char c = condition[i];
        if (c == '(') ++depth;
        if (c == ')') --depth;
        if (c == '|' && depth == 0) return std::nullopt; // a top-level || : no block filter
        if (c == '&' && i + 1 < condition.size() && condition[i + 1] == '&' && depth == 0) {
            conjunct(condition.substr(begin, i - begin));
            begin = i + 2;
            ++i;
        }
    }
    conjunct(condition.substr(begin));
    if (!any) return std::nullopt;
    return b;
}

DebugStop DebugSession::start()
{
    if (m_started) throw Error(Error::Kind::InvalidArgument, "the session has already started");
    m_started = true;
    // When every breakpoint names the same block, the blocks before it run without evaluating
    // the conditions in each of their threads: the breakpoints wait, disabled, for a break on
    // the emulator's block hook conditioned on its argument registers.
    std::optional<std::array<int, 3>> block;
    for (std::size_t i = 0; i < m_breakpoints.size(); ++i) {
        const auto b = blockOf(m_breakpoints[i].second.condition);
        if (!b || (i > 0 && b != block)) {
            block.reset();
            break;
        }
        block = b;
    }
    if (block) {
        std::string cond;
        const char* regs[3] = {"$edi", "$esi", "$edx"};
        for (std::size_t a = 0; a < 3; ++a)
            if ((*block)[a] >= 0)
                cond += std::string(cond.empty() ? "" : " && ") + regs[a] +
                        " == " + std::to_string((*block)[a]);
        const MiRecord hook =
            m_gdb->check("-break-insert -f -c " + miQuote(cond) + " wb_cpu_debug_block_hook");
        const MiValue* hb = hook.results.find("bkpt");
        const std::string number = hb ? hb->text("number") : std::string();
        setBreakpointsEnabled(false);
        const DebugStop atBlock = runCommand("-exec-run", DebugStop::Reason::Breakpoint);
        if (m_finished) return atBlock;
        m_gdb->check("-break-delete " + number);
        setBreakpointsEnabled(true);
        return runCommand("-exec-continue", DebugStop::Reason::Breakpoint);
    }
    return runCommand("-exec-run", DebugStop::Reason::Breakpoint);
}

DebugStop DebugSession::resume()
{
    return runCommand("-exec-continue", DebugStop::Reason::Breakpoint);
}

DebugStop DebugSession::stepOver()
{
    return runCommand("-exec-next", DebugStop::Reason::Step);
}

DebugStop DebugSession::stepInto()
{
    return runCommand("-exec-step", DebugStop::Reason::Step);
}

std::int64_t DebugSession::inferiorPid() const noexcept
{
    return m_gdb ? m_gdb->inferiorPid() : 0;
}

void DebugSession::interrupt()
{
    if (m_gdb) m_gdb->interrupt();
}

void DebugSession::stop() noexcept
{
    if (m_gdb) m_gdb->kill();
    m_gdb.reset();
    m_finished = true;
}

DebugStop DebugSession::runCommand(const std::string& cmd, DebugStop::Reason reason)
{
    if (!m_gdb || m_finished) throw Error(Error::Kind::Runtime, "the debugging session has ended");
    if (!m_started) throw Error(Error::Kind::InvalidArgument, "the session has not started");
    // A step follows the chosen thread only: breakpoints that other threads hit meanwhile
    // (they run while it waits at a barrier) are off during the step.
    const bool step = reason == DebugStop::Reason::Step;
    if (step) setBreakpointsEnabled(false);
    m_gdb->check(cmd);
    std::optional<MiRecord> r = waitStop(*m_gdb, m_target, m_runTimeoutMs);
    if (r && step) setBreakpointsEnabled(true);
    if (!r) {
        m_gdb->interrupt();
        r = waitStop(*m_gdb, m_target, 5'000);
        if (r && step) setBreakpointsEnabled(true);
        if (!r) {
            stop();
            throw Error(Error::Kind::Timeout, "the kernel did not stop within " +
                                                  std::to_string(m_runTimeoutMs / 1000) +
                                                  " s and could not be interrupted");
        }
        DebugStop s = readStop(*r, DebugStop::Reason::Interrupted);
        s.reason = DebugStop::Reason::Interrupted;
        s.message = "the kernel was still running after " + std::to_string(m_runTimeoutMs / 1000) +
                    " s: interrupted" + (s.message.empty() ? "" : " (" + s.message + ")");
        m_last = s;
        return s;
    }
    DebugStop s = readStop(*r, reason);
    // A step that left the kernel (the thread returned): on to the next breakpoint.
    if (reason == DebugStop::Reason::Step && !s.file.empty() && s.file != m_target.sourceName &&
        !m_finished) {
        const std::string left = "thread " + std::to_string(m_last.thread.x) + "," +
                                 std::to_string(m_last.thread.y) + "," +
                                 std::to_string(m_last.thread.z) + " returned from the kernel";
        m_gdb->check("-exec-continue");
        r = waitStop(*m_gdb, m_target, m_runTimeoutMs);
        if (!r) {
            stop();
            throw Error(Error::Kind::Timeout, "the kernel did not stop after " + left);
        }
        s = readStop(*r, DebugStop::Reason::Breakpoint);
        s.message = left + (s.message.empty() ? "" : "; " + s.message);
    }
    m_last = s;
    return s;
}

void DebugSession::setBreakpointsEnabled(bool on)
{
    if (m_breakpoints.empty() || !m_gdb) return;
    std::string cmd = on ? "-break-enable" : "-break-disable";
    for (const auto& b : m_breakpoints)
        cmd.append(" ").append(std::to_string(b.first));
    m_gdb->check(cmd);
}

DebugStop DebugSession::readStop(const MiRecord& r, DebugStop::Reason reason)
{
    DebugStop s;
    s.reason = reason;
    const std::string why = r.results.text("reason");
    if (why == "exited-normally" || why == "exited" || why == "exited-signalled") {
        s.reason = DebugStop::Reason::Exited;
        m_finished = true;
        const std::string& out = m_gdb->programOutput();
        const std::size_t err = out.find("WB-SANDBOX error ");
        if (err != std::string::npos)
            s.message = out.substr(err + 17, out.find('\n', err) - err - 17);
        else if (why == "exited-normally")
            s.message = "the launch finished";
        else
            s.message = "the emulator exited (" +
                        r.results.text("exit-code", r.results.text("signal-name", "?")) + ")";
        // A condition gdb cannot evaluate at the breakpoint's line (a name not visible there)
        // leaves the breakpoint's locations disabled: it never stopped, say why.
        for (const auto& [number, bp] : m_breakpoints) {
            if (bp.condition.empty()) continue;
            const MiRecord info = m_gdb->command("-break-info " + std::to_string(number));
            const MiValue* table = info.results.find("BreakpointTable");
            const MiValue* body = table ? table->find("body") : nullptr;
            if (!body || body->items.empty()) continue;
            const MiValue& b = body->items.front().second;
            const MiValue* locations = b.find("locations");
            if (!locations || locations->items.empty()) continue;
            bool anyEnabled = false;
            for (const auto& [unused, loc] : locations->items)
                anyEnabled = anyEnabled || loc.text("enabled") == "y";
            if (!anyEnabled)
                s.message.append("; the breakpoint at line ")
                    .append(std::to_string(bp.line))
                    .append(" never stopped: gdb cannot evaluate its condition '")
                    .append(bp.condition)
                    .append("' there (a name not visible at that line?)");
        }
        if (s.reason == DebugStop::Reason::Exited) m_gdb->kill();
        return s;
    }
    if (why == "signal-received") {
        s.reason = DebugStop::Reason::Error;
        s.message = "the kernel received " + r.results.text("signal-name") + " (" +
                    r.results.text("signal-meaning") + ")";
    }
    if (const MiValue* f = r.results.find("frame")) {
        s.file = std::filesystem::path(f->text("file")).filename().string();
        s.line = std::atoi(f->text("line", "0").c_str());
        s.function = f->text("func");
    }
    if (!s.file.empty() && s.file == m_target.sourceName) {
        s.block = parseDim(evaluateIn(*m_gdb, gdbExpression("blockIdx")));
        s.thread = parseDim(evaluateIn(*m_gdb, gdbExpression("threadIdx")));
        s.phase = static_cast<unsigned>(
            std::strtoul(evaluateIn(*m_gdb, phaseExpr()).c_str(), nullptr, 10));
    } else if (s.file.empty() && s.reason != DebugStop::Reason::Error) {
        s.message = "stopped outside the kernel (" + s.function + ")";
    }
    return s;
}

void DebugSession::selectKernelFrame()
{
    if (!m_gdb || m_finished) throw Error(Error::Kind::Runtime, "the debugging session has ended");
    if (m_last.file != m_target.sourceName)
        throw Error(Error::Kind::InvalidArgument, "not stopped in the kernel");
}

std::string DebugSession::evaluate(const std::string& expression)
{
    selectKernelFrame();
    if (expression.find_first_of("\n\r") != std::string::npos)
        throw Error(Error::Kind::InvalidArgument, "an expression is one line");
    return evaluateIn(*m_gdb, gdbExpression(expression));
}

void DebugSession::checkExpression(const std::string& expression)
{
    selectKernelFrame();
    if (expression.find_first_of("\n\r") != std::string::npos)
        throw Error(Error::Kind::InvalidArgument, "an expression is one line");
    if (expression.find_first_not_of(" \t") == std::string::npos)
        throw Error(Error::Kind::InvalidArgument, "the expression is empty");
    bool ok = false;
    const std::string msg = consoleOf(*m_gdb, "whatis " + gdbExpression(expression), ok);
    if (!ok) throw Error(Error::Kind::InvalidArgument, msg);
}

std::vector<std::string> DebugSession::sharedInScope()
{
    // Candidates: the source's __shared__ declarations (every kernel's, and the file's) and the
    // frame's own variables; gdb keeps those it finds in the stopped frame's scope (or the
    // file's) that are thread-local, which is what __shared__ becomes on the emulator (one
    // block per OS thread). Another kernel's __shared__ is not in scope: "No symbol".
    std::vector<std::string> names;
    const auto add = [&](const std::string& n) {
        if (!n.empty() && std::find(names.begin(), names.end(), n) == names.end())
            names.push_back(n);
    };
    for (const SharedVariable& v : m_target.shared)
        add(v.name);
    const MiRecord r = m_gdb->check("-stack-list-variables --no-values");
    if (const MiValue* vars = r.results.find("variables"))
        for (const auto& [unused, v] : vars->items)
            if (v.text("arg") != "1") add(v.text("name"));
    std::vector<std::string> out;
    for (const std::string& n : names) {
        bool ok = false;
        const std::string where = consoleOf(*m_gdb, "info address " + n, ok);
        if (ok && where.find("is a thread-local variable") != std::string::npos) out.push_back(n);
    }
    return out;
}

std::vector<std::pair<std::string, int>> DebugSession::declarationLines()
{
    if (m_python == 0) {
        std::string code = kDeclarationLinesPy;
        std::string escaped;
        for (const char c : code)
            escaped += c == '\n' ? std::string("\\n") : std::string(1, c);
        bool ok = false;
        consoleOf(*m_gdb, "python exec(\"" + escaped + "\")", ok);
        m_python = ok ? 1 : -1;
    }
    std::vector<std::pair<std::string, int>> out;
    if (m_python < 0) return out;
    bool ok = false;
    const std::string text = consoleOf(*m_gdb, "python wb_declaration_lines()", ok);
    if (!ok) return out;
    for (std::size_t at = text.find("WBDECL "); at != std::string::npos;
         at = text.find("WBDECL ", at + 1)) {
        const std::size_t end = std::min(text.find('\n', at), text.size());
        const std::size_t space = text.find(' ', at + 7);
        if (space == std::string::npos || space >= end) continue;
        out.emplace_back(text.substr(space + 1, end - space - 1), std::atoi(text.c_str() + at + 7));
    }
    return out;
}

std::vector<DebugVariable> DebugSession::locals()
{
    selectKernelFrame();
    const std::vector<std::string> shared = sharedInScope();
    const std::vector<std::pair<std::string, int>> lines = declarationLines();
    const MiRecord r = m_gdb->check("-stack-list-variables --simple-values");
    std::vector<DebugVariable> out;
    const MiValue* vars = r.results.find("variables");
    if (!vars) return out;
    // gdb lists the arguments, then the locals from the innermost block out, as the
    // declarations' lines come: the n-th local of a name is the n-th declaration of it.
    std::vector<std::string> seen;
    for (const auto& [unused, v] : vars->items) {
        DebugVariable d;
        d.name = v.text("name");
        d.argument = v.text("arg") == "1";
        if (!d.argument) {
            auto nth = std::count(seen.begin(), seen.end(), d.name);
            seen.push_back(d.name);
            for (const auto& [name, line] : lines)
                if (name == d.name && nth-- == 0) {
                    d.declLine = line;
                    break;
                }
            if (std::find(shared.begin(), shared.end(), d.name) != shared.end()) continue;
        }
        // The stop is before its line runs: a declaration on that line or later has not run.
        d.notYetInitialised = d.declLine > 0 && d.declLine >= m_last.line;
        d.type = v.text("type");
        if (const MiValue* value = v.find("value"))
            d.value = value->string;
        else
            d.value = evaluateIn(*m_gdb, d.name);
        out.push_back(std::move(d));
    }
    return out;
}

std::vector<SharedArray> DebugSession::sharedMemory()
{
    selectKernelFrame();
    std::vector<SharedArray> out;
    for (const std::string& name : sharedInScope()) {
        SharedArray a;
        a.name = name;
        std::string expr = name;
        // `extern __shared__ T a[]` is a reference to the block's dynamic buffer: T (&)[].
        if (typeOf(*m_gdb, name).find("(&)[]") != std::string::npos) {
            const std::string size = evaluateIn(*m_gdb, "sizeof(" + name + "[0])");
            const unsigned long elem = std::strtoul(size.c_str(), nullptr, 10);
            if (elem == 0) {
                a.error = size;
                out.push_back(a);
                continue;
            }
            const std::size_t n =
                std::min<std::size_t>(m_target.launch.sharedBytes / elem, kMaxSharedElements);
            if (n == 0) {
                a.error = "the launch has no dynamic shared memory";
                out.push_back(a);
                continue;
            }
            expr = name + "[0]@" + std::to_string(n);
        }
        a.type = typeOf(*m_gdb, expr);
        const std::string value = evaluateIn(*m_gdb, expr);
        if (!value.empty() && value.front() == '<')
            a.error = value;
        else
            a.elements = flattenAggregate(value);
        out.push_back(std::move(a));
    }
    return out;
}

std::vector<std::uint32_t> DebugSession::readThreadRecords(unsigned count)
{
    const std::vector<unsigned char> bytes =
        readMemory(*m_gdb, "&wb_cpu_debug_threads", sizeof(DebugThreadRecord) * count);
    std::vector<std::uint32_t> words(bytes.size() / 4);
    std::memcpy(words.data(), bytes.data(), words.size() * 4);
    return words;
}

std::vector<ThreadRow> DebugSession::allThreads(const std::string& expression)
{
    // A name gdb does not know at this line is unknown in every thread: say it now, not after
    // replaying the launch.
    checkExpression(expression);
    const Dim3 bd = m_target.launch.block;
    const unsigned n = static_cast<unsigned>(bd.volume());
    std::vector<ThreadRow> rows(n);
    const std::vector<std::uint32_t> rec = readThreadRecords(n);
    for (unsigned i = 0; i < n; ++i) {
        rows[i].linear = i;
        rows[i].thread = threadOf(i, bd);
        if (4 * i + 2 < rec.size()) {
            rows[i].phase = rec[4 * i];
            rows[i].where = whereOf(rec[4 * i + 1]);
            rows[i].waitLine = static_cast<int>(rec[4 * i + 2]);
        }
    }
    // The chosen thread runs now.
    const unsigned chosen = m_last.thread.x + bd.x * (m_last.thread.y + bd.y * m_last.thread.z);
    if (chosen < n) rows[chosen].where = ThreadWhere::Chosen;

    // Replay the launch to the same line in the same block and phase, in another process:
    // first to the start of the block (a breakpoint on the block hook, conditioned on its
    // argument registers: cheap), then at the line from that phase on, until the block ends.
    std::unique_ptr<GdbMi> replay = startGdb(m_target);
    const Dim3 b = m_last.block;
    const MiRecord hook = replay->check("-break-insert -f -c " +
                                        miQuote("$edi == " + std::to_string(b.x) +
                                                " && $esi == " + std::to_string(b.y) +
                                                " && $edx == " + std::to_string(b.z)) +
                                        " wb_cpu_debug_block_hook");
    const MiValue* hb = hook.results.find("bkpt");
    const std::string hookNumber = hb ? hb->text("number") : std::string();
    replay->check("-exec-run");
    QElapsedTimer timer;
    timer.start();
    std::string lineNumber; // the line's silent breakpoint, once set
    const auto timeout = [&] {
        return Error(Error::Kind::Timeout, "replaying the launch for the table took more than " +
                                               std::to_string(kReplayTimeoutMs / 1000) + " s");
    };
    const auto nextStop = [&]() -> MiRecord {
        for (;;) {
            qint64 left = kReplayTimeoutMs - timer.elapsed();
            const std::optional<MiRecord> r =
                left > 0 ? waitStop(*replay, m_target, static_cast<int>(left)) : std::nullopt;
            if (!r) throw timeout();
            const std::string why = r->results.text("reason");
            // A reasonless stop is the line's silent breakpoint: its commands print the row and
            // continue, unless one failed for this thread (gdb left it stopped at the line; the
            // loop below records gdb's error as its value).
            if (why.empty()) {
                left = std::max<qint64>(kReplayTimeoutMs - timer.elapsed(), 1);
                std::string error;
                const std::optional<bool> resumed =
                    replay->waitForCommands(static_cast<int>(left), error);
                if (!resumed) throw timeout();
                if (*resumed) continue;
                MiRecord hit;
                hit.type = MiRecord::Type::ExecAsync;
                hit.cls = "stopped";
                hit.results.kind = MiValue::Kind::Tuple;
                MiValue text;
                text.string = "breakpoint-hit";
                hit.results.items.emplace_back("reason", text);
                text.string = lineNumber;
                hit.results.items.emplace_back("bkptno", text);
                return hit;
            }
            if (why != "breakpoint-hit" && why.rfind("exited", 0) != 0)
                throw Error(Error::Kind::Runtime, "the replay stopped unexpectedly (" + why + ")");
            return *r;
        }
    };
    if (nextStop().results.text("reason") != "breakpoint-hit")
        throw Error(Error::Kind::Runtime, "the replay never reached block " + std::to_string(b.x) +
                                              "," + std::to_string(b.y) + "," +
                                              std::to_string(b.z));
    // The next block start (the hook, now unconditional) ends the replay. The stop's phase is
    // reached through the barrier hook (one stop per barrier of this block); from there every
    // hit of the line prints the thread and the expression and goes on, inside gdb (breakpoint
    // commands: no round trip per hit), until the next barrier release ends the phase.
    replay->check("-break-condition " + hookNumber);
    const auto barrierBreak = [&](unsigned phase) {
        const MiRecord r =
            replay->check("-break-insert -c " + miQuote("$edi == " + std::to_string(phase)) +
                          " wb_cpu_debug_barrier_hook");
        const MiValue* bb = r.results.find("bkpt");
        return bb ? bb->text("number") : std::string();
    };
    if (m_last.phase > 0) {
        const std::string start = barrierBreak(m_last.phase);
        replay->check("-exec-continue");
        const MiRecord r = nextStop();
        if (r.results.text("reason") != "breakpoint-hit" || r.results.text("bkptno") != start) {
            replay->kill();
            return rows; // the block never reached that phase in the replay
        }
        replay->check("-break-delete " + start);
    }
    barrierBreak(m_last.phase + 1); // ends the phase
    const std::string expr = gdbExpression(expression);
    const MiRecord line = replay->check(
        "-break-insert " + miQuote(m_target.sourceName + ":" + std::to_string(m_last.line)));
    const MiValue* lb = line.results.find("bkpt");
    lineNumber = lb ? lb->text("number") : std::string();
    const std::string tid = gdbExpression("threadIdx");
    replay->check(
        "-break-commands " + lineNumber + " " + miQuote("silent") + " " +
        miQuote("printf \"WBROW %u %u %u|\", " + tid + ".x, " + tid + ".y, " + tid + ".z") + " " +
        miQuote("output " + expr) + " " + miQuote("printf \"\\n\"") + " " + miQuote("continue"));
    replay->takeConsole();
    replay->check("-exec-continue");
    const auto record = [&](const Dim3& t, std::string value) {
        const unsigned linear = t.x + bd.x * (t.y + bd.y * t.z);
        if (linear >= n) return;
        ThreadRow& row = rows[linear];
        if (!row.reachedLine) row.value = std::move(value);
        row.reachedLine = true;
        ++row.hits;
    };
    const auto parseRows = [&](const std::string& console) {
        for (std::size_t at = console.find("WBROW "); at != std::string::npos;
             at = console.find("WBROW ", at + 1)) {
            const std::size_t bar = console.find('|', at);
            const std::size_t end = console.find('\n', at);
            if (bar == std::string::npos || end == std::string::npos || bar > end) continue;
            unsigned x = 0, y = 0, z = 0;
            if (std::sscanf(console.c_str() + at + 6, "%u %u %u", &x, &y, &z) != 3) continue;
            record(Dim3{x, y, z}, console.substr(bar + 1, end - bar - 1));
        }
    };
    for (unsigned stops = 0; stops < kReplayMaxStops; ++stops) {
        const MiRecord r = nextStop();
        parseRows(replay->takeConsole());
        if (r.results.text("reason") != "breakpoint-hit" || r.results.text("bkptno") != lineNumber)
            break; // the next block started, or the launch ended
        // The commands stopped (the expression failed for this thread): its value is the error.
        const Dim3 t = parseDim(evaluateIn(*replay, tid));
        record(t, evaluateIn(*replay, expr));
        replay->check("-exec-continue");
    }
    replay->kill();
    return rows;
}

WarpView DebugSession::warp(const std::vector<ThreadRow>& rows)
{
    selectKernelFrame();
    const Dim3 bd = m_target.launch.block;
    const unsigned n = static_cast<unsigned>(bd.volume());
    const unsigned chosen = m_last.thread.x + bd.x * (m_last.thread.y + bd.y * m_last.thread.z);
    WarpView w;
    w.warp = chosen / 32u;
    const std::vector<unsigned char> bytes = readMemory(
        *m_gdb, "(char*)&wb_cpu_debug_warps + " + std::to_string(sizeof(DebugWarpRecord) * w.warp),
        sizeof(DebugWarpRecord));
    DebugWarpRecord rec{};
    if (bytes.size() == sizeof rec) std::memcpy(&rec, bytes.data(), sizeof rec);
    rec.what[sizeof rec.what - 1] = '\0';
    w.hasExchange = rec.sequence != 0;
    if (w.hasExchange) {
        char mask[16];
        std::snprintf(mask, sizeof mask, "0x%08x", rec.mask);
        w.exchange = std::string(rec.what) + " at " + m_target.sourceName + ":" +
                     std::to_string(rec.line) + " (mask " + mask + ", " +
                     std::to_string(static_cast<int>(rec.param)) + ")";
    }
    for (unsigned l = 0; l < 32; ++l) {
        WarpLane lane;
        lane.lane = l;
        const unsigned linear = w.warp * 32u + l;
        lane.exists = linear < n;
        if (lane.exists) {
            lane.thread = threadOf(linear, bd);
            if (linear < rows.size()) {
                lane.atLine = rows[linear].reachedLine;
                lane.where = rows[linear].where;
                lane.waitLine = rows[linear].waitLine;
            }
            lane.inExchange = w.hasExchange && ((rec.mask >> l) & 1u);
            lane.given = rec.values[l];
            lane.got = rec.results[l];
        }
        w.lanes.push_back(lane);
    }
    return w;
}

} // namespace wb::debug
