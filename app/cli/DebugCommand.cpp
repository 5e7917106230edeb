// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli/DebugCommand.h"

#include "app/cli/CliCommands.h"
#include "core/common/Error.h"
#include "core/debug/DebugSession.h"
#include "core/debug/GdbMi.h"
#include "core/session/ProjectFile.h"
#include "core/session/Session.h"

#include <QTemporaryDir>

#include <chrono>
#include <cstdio>
#include <iostream>

namespace wb::cli {

namespace {

std::string dim(const Dim3& d)
{
    char buf[48];
    std::snprintf(buf, sizeof buf, "(%u,%u,%u)", d.x, d.y, d.z);
    return buf;
}

int invalid(const std::string& why)
{
    std::cerr << "warpbench-cli debug: " << why << "\n";
    return InvalidInput;
}

void printStop(const debug::DebugStop& s)
{
    if (!s.inKernel() && s.reason != debug::DebugStop::Reason::Error) {
        std::cout << "not stopped: " << s.message << "\n";
        return;
    }
    std::cout << "stopped at " << s.file << ":" << s.line << " in " << s.function << ", block "
              << dim(s.block) << ", thread " << dim(s.thread) << ", barrier phase " << s.phase;
    if (!s.message.empty()) std::cout << " (" << s.message << ")";
    std::cout << "\n";
}

void printState(debug::DebugSession& d, const QStringList& prints, bool warp)
{
    std::cout << "locals:\n";
    const std::vector<debug::DebugVariable> locals = d.locals();
    for (const debug::DebugVariable& v : locals) {
        std::cout << "  " << v.type << " " << v.name << " = ";
        if (v.notYetInitialised)
            std::cout << "(not yet initialised: declared at line " << v.declLine
                      << "; its memory holds " << v.value << ")\n";
        else
            std::cout << v.value << "\n";
    }
    for (const debug::SharedArray& a : d.sharedMemory()) {
        std::cout << "shared " << a.name << " (" << a.type << "): ";
        if (!a.error.empty()) {
            std::cout << a.error << "\n";
            continue;
        }
        const std::size_t shown = std::min<std::size_t>(a.elements.size(), 32);
        for (std::size_t i = 0; i < shown; ++i)
            std::cout << (i ? " " : "") << a.elements[i];
        if (shown < a.elements.size()) std::cout << " … (" << a.elements.size() << " elements)";
        std::cout << "\n";
    }
    std::vector<debug::ThreadRow> rows;
    for (const QString& e : prints) {
        rows = d.allThreads(e.toStdString());
        std::cout << "all threads of block " << dim(d.lastStop().block) << ": " << e.toStdString()
                  << " at line " << d.lastStop().line << ", phase " << d.lastStop().phase << "\n";
        for (const std::string& name :
             debug::DebugSession::uninitialisedIn(e.toStdString(), locals))
            std::cout << "  (" << name << " is not yet initialised at line " << d.lastStop().line
                      << ": its values are what its memory held)\n";
        std::cout << "  thread      phase now   where now            value at the line\n";
        for (const debug::ThreadRow& r : rows) {
            std::string where = debug::threadWhereName(r.where);
            if (r.waitLine > 0) where.append(" :").append(std::to_string(r.waitLine));
            char buf[160];
            std::snprintf(buf, sizeof buf, "  %-11s %-11u %-20s ", dim(r.thread).c_str(), r.phase,
                          where.c_str());
            std::cout << buf;
            if (!r.reachedLine)
                std::cout << "— (not at this line in this phase)";
            else if (r.hits > 1)
                std::cout << r.value << "  (" << r.hits << " times, first shown)";
            else
                std::cout << r.value;
            std::cout << "\n";
        }
    }
    if (warp) {
        if (rows.empty()) rows = d.allThreads("0");
        const debug::WarpView w = d.warp(rows);
        std::cout << "warp " << w.warp << ": last exchange: "
                  << (w.hasExchange ? w.exchange : std::string("none yet in this block")) << "\n";
        for (const debug::WarpLane& l : w.lanes) {
            if (!l.exists) continue;
            std::cout << "  lane " << l.lane << " " << dim(l.thread) << " "
                      << (l.atLine ? "active (at this line)" : "inactive") << ", "
                      << debug::threadWhereName(l.where);
            if (l.inExchange) std::cout << ", gave " << l.given << ", got " << l.got;
            std::cout << "\n";
        }
    }
}

} // namespace

int DebugCommand::run(const QCommandLineParser& p, const QStringList& args)
{
    if (args.size() != 2) return invalid("usage: debug PROJECT --break LINE [--cond EXPR]");
    if (const std::string why = debug::GdbMi::unavailableReason(); !why.empty()) {
        std::cerr << "warpbench-cli debug: " << why << "\n";
        return RuntimeError;
    }
    const QStringList breaks = p.values(QStringLiteral("break"));
    if (breaks.isEmpty()) return invalid("--break LINE is required");
    std::vector<debug::Breakpoint> bps;
    for (const QString& b : breaks) {
        bool ok = false;
        const int line = b.toInt(&ok);
        if (!ok || line < 1) return invalid("--break: not a line number: " + b.toStdString());
        bps.push_back({line, p.value(QStringLiteral("cond")).toStdString()});
    }
    int steps = 0;
    bool stepInto = false;
    for (const char* opt : {"next", "step"}) {
        if (!p.isSet(QLatin1String(opt))) continue;
        bool ok = false;
        steps = p.value(QLatin1String(opt)).toInt(&ok);
        if (!ok || steps < 0 || steps > 10000)
            return invalid(std::string("--") + opt + ": expected a count from 0 to 10000");
        stepInto = std::string(opt) == "step";
    }
    session::Session s;
    try {
        s = session::ProjectFile::load(args[1].toStdString());
        if (const std::string why =
                untrustedFlagsMessage(s, p.isSet(QStringLiteral("trust-project")));
            !why.empty())
            return invalid(why);
    } catch (const Error& e) {
        return invalid(e.what());
    }
    QTemporaryDir work;
    if (!work.isValid()) {
        std::cerr << "warpbench-cli debug: cannot create a temporary folder\n";
        return RuntimeError;
    }
    try {
        const auto t0 = std::chrono::steady_clock::now();
        debug::DebugSession d(debug::DebugTarget::prepare(s, work.path().toStdString()));
        for (const debug::Breakpoint& b : bps)
            d.addBreakpoint(b);
        debug::DebugStop stop = d.start();
        const double ms =
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0)
                .count();
        printStop(stop);
        if (!stop.inKernel()) return RuntimeError;
        std::fprintf(stdout,
                     "(first stop after %.0f ms: prepare, compile or cache hit, gdb, run)\n", ms);
        std::fflush(stdout);
        const QStringList prints = p.values(QStringLiteral("print"));
        // A name gdb does not know is the same error in every thread: before anything else.
        for (const QString& e : prints) {
            try {
                d.checkExpression(e.toStdString());
            } catch (const Error& err) {
                return invalid("--print " + e.toStdString() + ": " + err.what());
            }
        }
        const bool warp = p.isSet(QStringLiteral("warp"));
        printState(d, prints, warp);
        for (int i = 0; i < steps && !d.finished(); ++i) {
            stop = stepInto ? d.stepInto() : d.stepOver();
            std::cout << "\n" << (stepInto ? "step" : "next") << ": ";
            printStop(stop);
            if (stop.inKernel()) printState(d, prints, warp);
        }
        return Pass;
    } catch (const Error& e) {
        std::cerr << "warpbench-cli debug: " << e.what() << "\n";
        return e.kind() == Error::Kind::InvalidArgument ? InvalidInput : RuntimeError;
    }
}

} // namespace wb::cli
