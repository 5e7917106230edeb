// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QStringList>

class QCommandLineParser;

#include <optional>
#include <string>

namespace wb::session {
struct Session;
}

namespace wb::cli {

/// Exit codes of warpbench-cli, as documented in --help and docs/cli.md.
enum ExitCode { Pass = 0, Mismatch = 1, CompileError = 2, RuntimeError = 3, InvalidInput = 4 };

/// Why `session` may not run as given (its compiler flags are outside the allowed set and
/// --trust-project was not given), naming each flag and how to trust; empty when it may run.
/// Sets Session::flagsTrusted when `trustProject`.
std::string untrustedFlagsMessage(session::Session& session, bool trustProject);

/// The longest --timeout: the limit is kept in milliseconds in an int (about 24.8 days).
inline constexpr double kMaxTimeoutSeconds = 2147483.0;

/// Parses --timeout SECONDS (or the option `option`, e.g. "prepare-timeout"): a number in
/// (0, kMaxTimeoutSeconds]. On failure returns nullopt and sets `why` to a message naming the
/// option ("--timeout: ... is out of range ...").
std::optional<double> parseTimeoutSeconds(const QString& text, std::string& why,
                                          const char* option = "timeout");

/// The default limit for what comes before a run's first launch (runner start-up, compiles,
/// data preparation): `--prepare-timeout`, RunnerClient::Request::prepareTimeoutMs.
inline constexpr double kDefaultPrepareTimeoutSeconds = 300.0;

/// Runs the command line (arguments include the program name); returns the exit code.
/// A speed-of-light peak option (--peak-bandwidth GB/s, --peak-gflops GFLOP/s): its value when
/// set and a positive finite number; std::nullopt with `why` set when it is set and is not;
/// 0 when it is not set.
std::optional<double> parsePeakOption(const QCommandLineParser& parser, const QString& name,
                                      const char* unit, std::string& why);

int runCli(const QStringList& arguments);

} // namespace wb::cli
