// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

/// Qt Test helpers for checking kernels headlessly with the Warpbench engine (Warpbench::qtest).
///
///     void TstKernels::scale() { WB_VERIFY_PROJECT(QStringLiteral(KERNELS "/scale.wbproj")); }
///
///     void TstKernels::all_data() { wb::testing::addProjectRows(KERNELS); }
///     void TstKernels::all() { QFETCH(QString, project); WB_VERIFY_PROJECT(project); }
///
/// A check loads the project (or takes a Session built in code), runs it with SessionRunner on
/// the chosen backend and passes when every output matches its reference under the session's
/// tolerance. A failure's message carries the diff table (mismatch count, max abs/rel error,
/// the first mismatches with their coordinates) and the compile log. When the backend cannot
/// run here the test is skipped with the reason (QSKIP), or, with RunOptions::fallbackToCpu,
/// run on the CPU emulator instead. See docs/sdk.md.

#include "core/backend/Backend.h"
#include "core/session/RunReport.h"
#include "core/session/Session.h"

#include <QString>
#include <QTest>

#include <filesystem>
#include <optional>
#include <string>

namespace wb::testing {

/// How a check runs its session.
struct RunOptions {
    /// Auto: CUDA when a GPU is usable, else the CPU emulator. Cuda or Cpu: exactly that one.
    BackendKind backend = BackendKind::Auto;
    /// With backend == Cuda and no usable GPU: run on the CPU emulator instead of skipping.
    bool fallbackToCpu = false;
    /// Timed launches after the checked one; tests want correctness, so 1 by default.
    /// nullopt: the project's own count.
    std::optional<int> iterations = 1;
    std::optional<int> device; ///< nullopt: the project's
    /// Run compiler flags outside wb::FlagPolicy's set (Session::flagsTrusted): like
    /// `warpbench-cli --trust-project`, for projects you wrote. Off: such a project fails saying
    /// which flags were refused.
    bool trustProjectFlags = false;

    /// Builders, for `RunOptions::on(wb::BackendKind::Cuda).withFallbackToCpu()` (designated
    /// initialisers work too, but GCC 12 warns about the members they leave out).
    static RunOptions on(BackendKind kind)
    {
        RunOptions o;
        o.backend = kind;
        return o;
    }
    RunOptions withFallbackToCpu(bool fallback = true) const
    {
        RunOptions o = *this;
        o.fallbackToCpu = fallback;
        return o;
    }
    RunOptions withIterations(std::optional<int> count) const
    {
        RunOptions o = *this;
        o.iterations = count;
        return o;
    }
    RunOptions withDevice(int index) const
    {
        RunOptions o = *this;
        o.device = index;
        return o;
    }
    RunOptions withTrustedFlags(bool trust = true) const
    {
        RunOptions o = *this;
        o.trustProjectFlags = trust;
        return o;
    }

    /// `defaults` (or the defaults above), overridden by the environment:
    /// $WARPBENCH_TEST_BACKEND (cuda, cpu or auto) and $WARPBENCH_TEST_FALLBACK=cpu (fall back to
    /// the CPU emulator). This is what the macros use when given no options, so that a CI job
    /// can pick the backend without a rebuild.
    static RunOptions fromEnvironment(RunOptions defaults);
    static RunOptions fromEnvironment();
};

/// The outcome of one check.
struct Verdict {
    enum class Outcome { Passed, Failed, Skipped };
    Outcome outcome = Outcome::Failed;
    /// Skipped: why. Failed: the failure report (see describeFailure()). Passed: empty, or
    /// the note that the CPU emulator stood in for CUDA.
    std::string message;
    /// What the run produced (empty when it never ran: skipped, or the project did not load).
    session::RunReport report;

    bool passed() const noexcept { return outcome == Outcome::Passed; }
    bool skipped() const noexcept { return outcome == Outcome::Skipped; }
};

/// Why `kind` cannot run here (no usable GPU for Cuda, no host C++ compiler for Cpu; for Auto:
/// neither), or nullopt when it can.
std::optional<std::string> backendUnavailableReason(BackendKind kind);

/// Runs `session` and judges it. Never throws.
Verdict checkSession(const session::Session& session,
                     const RunOptions& options = RunOptions::fromEnvironment());

/// Loads the .wbproj at `project` and checks it; a project that does not load is a failure
/// whose message names the field at fault. Never throws.
Verdict checkProject(const std::filesystem::path& project,
                     const RunOptions& options = RunOptions::fromEnvironment());
Verdict checkProject(const QString& project,
                     const RunOptions& options = RunOptions::fromEnvironment());
Verdict checkProject(const char* project,
                     const RunOptions& options = RunOptions::fromEnvironment());

/// The text of a failed run: status and message; per output a row of the diff table (result,
/// mismatches of count, max abs, max rel, tolerance) and its first mismatches with their
/// coordinates; the compile diagnostics and log of the kernel and of the C++ reference.
std::string describeFailure(const session::RunReport& report);

/// For a `_data()` function: adds a QString column `column` and one row per .wbproj file
/// under `folder` (recursively, in path order), named by its path relative to `folder`
/// without the extension ("sub/matmul"); the cell is the absolute path. A folder without
/// projects gets one row, "(no projects)", whose check fails saying so, so that an empty or
/// mistyped folder can never pass silently. Returns the number of projects found.
int addProjectRows(const std::filesystem::path& folder, const char* column = "project");
int addProjectRows(const QString& folder, const char* column = "project");
int addProjectRows(const char* folder, const char* column = "project");

} // namespace wb::testing

/// Internal: reports a Verdict to Qt Test, leaving the test function on skip or failure.
#define WB_VERIFY_VERDICT_(verdictExpression, text)                                                \
    do {                                                                                           \
        const ::wb::testing::Verdict wbVerdict_ = (verdictExpression);                             \
        if (wbVerdict_.skipped()) QSKIP(wbVerdict_.message.c_str());                               \
        if (!QTest::qVerify(wbVerdict_.passed(), text, wbVerdict_.message.c_str(), __FILE__,       \
                            __LINE__))                                                             \
            return;                                                                                \
    } while (false)

/// Checks a wb::session::Session built in code: every output within its tolerance of the
/// reference. Optional second argument: a wb::testing::RunOptions.
#define WB_VERIFY_SESSION(session, ...)                                                            \
    WB_VERIFY_VERDICT_(::wb::testing::checkSession((session)__VA_OPT__(, ) __VA_ARGS__),           \
                       "WB_VERIFY_SESSION(" #session ")")

/// Loads and checks a .wbproj (std::filesystem::path, QString or const char*). Optional
/// second argument: a wb::testing::RunOptions.
#define WB_VERIFY_PROJECT(project, ...)                                                            \
    WB_VERIFY_VERDICT_(::wb::testing::checkProject((project)__VA_OPT__(, ) __VA_ARGS__),           \
                       "WB_VERIFY_PROJECT(" #project ")")
