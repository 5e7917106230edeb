// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/session/RunReport.h"
#include "core/session/Session.h"

#include <filesystem>
#include <optional>

namespace wb::session {

/// Runs a session end to end: evaluates its expressions, checks every binding, fills the
/// buffers, compiles and launches the kernel (once for the result, then warm-up and timed
/// iterations), computes the reference and diffs each output. Never throws: every failure is a
/// RunReport status with a message (and diagnostics for compile errors).
class SessionRunner {
public:
    struct Options {
        std::optional<BackendKind> backend; ///< overrides the session's
        std::optional<int> device;
        std::optional<int> iterations;
        std::filesystem::path outputDir; ///< when set: <buffer>.npy per output + exports
        /// CPU emulator trace mode: record who wrote each element of every output buffer in
        /// the result launch (RunReport::traces). Needs the CPU backend.
        bool trace = false;
        /// When set, runs on this backend instead of creating one (the isolated runner keeps
        /// one warm between runs: CUDA context and compile cache); `backend`/`device` are then
        /// ignored.
        Backend* reuseBackend = nullptr;
    };

    static RunReport run(const Session& session, const Options& options);

    /// Fills OutputResult::coverage of every poisoned output from `report.results` (and
    /// `expected`). run() calls it; a client that gets the report and the buffers from another
    /// process (the isolated runner) can call it again on its side.
    static void checkCoverage(const Session& session, RunReport& report);
    /// Writes <buffer>.npy and the exports of every output in `report.results` to `dir`, as
    /// run() does with Options::outputDir (the runner's client calls it on its own side).
    /// Throws wb::Error.
    static void writeOutputs(const RunReport& report, const Session& session,
                             const std::filesystem::path& dir);
};

} // namespace wb::session
