// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/session/Expression.h"
#include "core/session/RunReport.h"
#include "core/session/Session.h"

#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>

namespace wb::session {

/// What SessionRunner::Options::profile receives: the result launch's backend, program, kernel,
/// launch configuration and arguments, with the run's device buffers still alive. Valid only
/// during the call.
struct ProfileContext {
    Backend& backend;
    BackendProgram& program;
    const std::string& kernel;
    const LaunchConfig& config;
    std::span<const KernelArgValue> args;
    /// Bytes one launch moves (in buffers once, out once, inout twice): the default workload.
    std::uint64_t bytesMoved = 0;
    /// Uploads into every buffer the data the result launch started from (inputs as
    /// initialised, `out` buffers poisoned), so that a profiler launching several times (user
    /// replay) can start each launch from the same data. Throws what Backend::upload throws.
    std::function<void()> restore;
};

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
        /// How the kernels are instrumented, overriding a mode the project spells in its
        /// extraFlags: Trace records who wrote each element of every output buffer in the result
        /// launch (RunReport::traces); Bounds and Races check every access
        /// (RunReport::memoryFindings, RunReport::races). Needs a backend that supports the
        /// mode (Backend::supports: the CPU emulator).
        CheckMode check = CheckMode::None;
        /// Schedule variation (Backend::setSchedule): 0 = the fixed order.
        std::uint64_t schedule = 0;
        /// When set, runs on this backend instead of creating one (the isolated runner keeps
        /// one warm between runs: CUDA context and compile cache); `backend`/`device` are then
        /// ignored.
        Backend* reuseBackend = nullptr;
        /// Called just before a kernel starts launching, each time the launched kernel changes
        /// (result launch, then the reference kernel's): the runner tells its client, whose
        /// kernel time limit starts there rather than at the compile.
        std::function<void(const std::string& kernel)> onLaunch;
        /// When set, called once after the timed launches, while the run's device buffers are
        /// alive (the result buffers were downloaded before, so the run's results and diff are
        /// those of a run without it). Used to profile the kernel (profiling::SessionProfiler).
        /// An exception from it ends the run like a launch failure would.
        std::function<void(const ProfileContext&)> profile;
        /// When set, called once on the run's backend just before the program is loaded; what
        /// it returns is kept until the program and buffers are gone (and released before a
        /// backend the run created). The profiler enables PC sampling here
        /// (profiling::SessionProfiler::prepare): CUPTI attributes samples only to modules it
        /// saw loaded.
        std::function<std::shared_ptr<void>(Backend&)> beforeLoad;

        /// Grade mode (warpbench-cli grade, `run --grade`): checks that a kernel cannot fool.
        /// Every launch (warm-up and timed too) starts from restored inputs and freshly
        /// poisoned outputs, so no launch can tell a checked one from a timed one; on CUDA the
        /// persisting-L2 lines are reset and L2 flushed before every timed launch (cold
        /// samples). Besides the result launch, one timed launch chosen at random and one
        /// launch after the timed ones are checked against the reference
        /// (RunReport::checks), and an element left unwritten fails whatever the tolerance
        /// says about NaN.
        struct Grade {
            bool enabled = false;
            /// The launch after timing gets inputs regenerated from new seeds (uniform and
            /// normal initialisers) and the reference is computed again for them: a kernel
            /// that replays an earlier result fails it.
            bool freshInputs = false;
            std::uint64_t seed = 0; ///< 0: a random one (RunReport::checkSeed says which)
        };
        Grade grade;
        /// When > 0, the speed-of-light check uses this peak bandwidth (GB/s) instead of the
        /// device's: the CPU emulator has none, and a teacher may state the one to hold to.
        double peakBandwidthGBs = 0;
        /// When > 0, the speed-of-light check of the FLOP rate (where the project states its
        /// FLOPs) uses this peak (GFLOP/s) instead of the device's FP32 peak: the CPU emulator
        /// has none, and a tensor-core kernel goes past the FP32 one.
        double peakGflops = 0;
    };

    static RunReport run(const Session& session, const Options& options);

    /// The options run() compiles the session's kernel source with (before a check mode): the
    /// project's, with `#include` resolved next to the kernel file and in the project folder,
    /// and every template kernel the session launches ("scale<float, 128>", a pipeline's, a
    /// kernel reference's) instantiated. The window's live compile asks for the same.
    static CompileOptions compileOptions(const Session& session);

    /// The session's expressions evaluated as run() evaluates them, one field at a time, for
    /// the window's live checks: the scalars defined in order (one that does not evaluate is
    /// left undefined, its error kept), then counts and shapes on request. run() resolves with
    /// the same definitions and stops at the first error.
    class Evaluation {
    public:
        explicit Evaluation(const Session& session);

        const Expression& expression() const noexcept { return m_expr; }
        /// Why scalar `name` did not evaluate; empty when it did (or there is none).
        std::string scalarError(const std::string& name) const;
        std::optional<double> scalarValue(const std::string& name) const;
        /// `expression` as a count of at least `minimum`. Throws wb::Error naming `field`.
        std::uint64_t count(const std::string& expression, const std::string& field,
                            std::uint64_t minimum = 1) const;
        /// The extents of `buffer` (1 to 3 of them, each at least 1), errors naming
        /// "<field>[d]". Throws wb::Error.
        std::vector<std::size_t> shape(const BufferSpec& buffer, const std::string& field) const;

    private:
        Expression m_expr;
        std::map<std::string, std::string> m_scalarErrors;
    };

    /// Every buffer of `session` filled as run() fills it before the launch (`in` and `inout`
    /// from their initialisers), by name: the window shows them before a run and beside its
    /// results. Throws wb::Error naming the field that does not evaluate.
    static std::map<std::string, HostArray> makeInputs(const Session& session);

    /// Fills OutputResult::coverage of every poisoned output from `report.results` (and
    /// `expected`), and every floating-point output's NaN and Inf counts (OutputResult::nan,
    /// inf). run() calls it; a client that gets the report and the buffers from another
    /// process (the isolated runner) can call it again on its side.
    static void checkCoverage(const Session& session, RunReport& report);
    /// The speed-of-light check of a timed report (run() fills RunReport::speedOfLight with
    /// it): bandwidth against `assumedPeakGBs` when > 0, else the device's peak. Above the peak
    /// is impossible when the samples were cold or the data cannot fit in L2; a warm run over
    /// data that fits in L2 is reported as served from cache. Where the report has FLOPs
    /// (RunReport::flopsPerLaunch), their rate against `assumedPeakGflops` when > 0, else the
    /// device's FP32 peak: above it is impossible whatever the caches did.
    static SpeedOfLight speedOfLight(const RunReport& report, double assumedPeakGBs = 0,
                                     double assumedPeakGflops = 0);
    /// Writes <buffer>.npy and the exports of every output in `report.results` to `dir`, as
    /// run() does with Options::outputDir (the runner's client calls it on its own side).
    /// Throws wb::Error.
    static void writeOutputs(const RunReport& report, const Session& session,
                             const std::filesystem::path& dir);
};

} // namespace wb::session
