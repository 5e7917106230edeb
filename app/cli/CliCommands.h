// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QStringList>

namespace wb::cli {

/// Exit codes of warpbench-cli, as documented in --help and docs/cli.md.
enum ExitCode { Pass = 0, Mismatch = 1, CompileError = 2, RuntimeError = 3, InvalidInput = 4 };

/// Runs the command line (arguments include the program name); returns the exit code.
int runCli(const QStringList& arguments);

} // namespace wb::cli
