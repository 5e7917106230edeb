// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QCommandLineParser>
#include <QStringList>

namespace wb::cli {

/// `warpbench-cli debug PROJECT --break LINE [--cond EXPR] [--print EXPR]... [--next N]
/// [--step N] [--warp]`: runs the project's launch on the CPU emulator under the thread
/// debugger (core/debug, docs/debugger.md), stops at the first hit of the breakpoint, prints
/// the chosen thread's place, locals and shared memory, then the value of each --print
/// expression in every thread of the block (with barrier phases), optionally steps and
/// prints again. Exit 0 when it stopped at the breakpoint, 3 when it never did or the
/// debugger failed, 4 on invalid arguments.
class DebugCommand {
public:
    static int run(const QCommandLineParser& parser, const QStringList& positional);
};

} // namespace wb::cli
