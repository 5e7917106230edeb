// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/backend/Backend.h"
#include "core/common/CompileResult.h"
#include "core/common/MemoryFinding.h"
#include "core/common/RaceFinding.h"
#include "core/common/WriteTrace.h"
#include "core/session/Diff.h"
#include "core/session/HostArray.h"
#include "core/session/Poison.h"
#include "core/session/Session.h"

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace wb::session {

/// Median, min, mean and sample standard deviation of the timed launches.
struct TimingStats {
    std::vector<double> samplesMs;
    double medianMs = 0, minMs = 0, meanMs = 0, stdevMs = 0;
    static TimingStats of(std::vector<double> samplesMs);
};

/// One launch of a pipeline pass (Session::launches expanded) and its times over the timed
/// passes.
struct PipelineLaunchTiming {
    std::size_t entry = 0; ///< index into Session::launches
    std::string kernel;
    std::vector<std::pair<std::string, std::int64_t>> vars; ///< loop variables, outermost first
    LaunchConfig config;
    TimingStats timing;
};

struct OutputResult {
    std::string buffer;
    bool compared = false; ///< false when the reference does not cover this output
    Tolerance tolerance;
    DiffStats stats;
    CoverageStats coverage; ///< elements never written (out buffers filled with Poison)
    /// NaN and Inf elements of the result, the unwritten ones (the poison is a NaN) left out:
    /// what is known of an output that was not compared (SessionRunner::checkCoverage).
    std::uint64_t nan = 0, inf = 0;
};

/// One launch besides the result launch whose outputs were checked (grade mode): a kernel that
/// caches across launches or skips work once it has been checked is caught here.
struct LaunchCheck {
    std::string label; ///< "timed launch 4 of 10", "launch after timing (fresh inputs)"
    int launch = 0;    ///< 0 = the result launch, then warm-up and timed launches in order
    bool passed = true;
    std::uint64_t mismatches = 0;     ///< over all outputs
    std::uint64_t unwritten = 0;      ///< elements still holding the poison
    std::uint64_t nanWhereFinite = 0; ///< NaN in the result where the reference is finite
    std::string message;              ///< why it failed; empty when it passed
};

/// The speed-of-light check: the bandwidth a run claims (bytes moved / median time) against
/// the device's peak, and where the project states its FLOPs (Session::flops), the FLOP rate
/// (FLOPs / median time) against the FP32 peak. Above a peak is physically impossible (for
/// bandwidth: for data in DRAM).
struct SpeedOfLight {
    double peakGBs = 0;     ///< 0 when unknown
    std::string peakSource; ///< where the peak comes from, or why it is unknown
    double achievedGBs = 0;
    bool checked = false;    ///< a bandwidth or FLOP peak and a time were known
    bool impossible = false; ///< above either peak
    std::string message;     ///< sentences for reports; empty when not checked
    // FLOP rate, when the project states its FLOPs.
    double peakGflops = 0;       ///< 0 when unknown or not stated
    std::string flopsPeakSource; ///< where the FP32 peak comes from, or why it is unknown
    double achievedGflops = 0;
    bool flopsChecked = false;
    bool flopsImpossible = false;
};

/// Everything a session run produced: the data behind the CLI's text and JSON reports and the
/// GUI's result panels.
struct RunReport {
    /// Unchecked: the run completed but no output was compared (no reference, or one that
    /// covers none of the outputs): "ran, not checked", never a pass.
    enum class Status { Passed, Mismatch, CompileError, RuntimeError, Invalid, Unchecked };
    Status status = Status::Invalid;
    std::string message; ///< why, when not Passed (for Unchecked: why nothing was compared)
    std::string project;
    BackendKind backend = BackendKind::Auto;
    DeviceDescription device;
    // Compile
    bool compiled = false;
    std::string compilerVersion, target;
    double compileMs = 0;
    std::vector<Diagnostic> diagnostics; ///< of the kernel compile
    std::string compileLog;
    KernelInfo kernel;
    // Launch
    LaunchConfig launch; ///< a pipeline's: its last launch's (so is `kernel`)
    int warmup = 0, iterations = 0;
    TimingStats timing; ///< a pipeline's: per pass, the sum of its launches' times
    /// A pipeline's launches, one pass in order, each with its own times; empty for a one-launch
    /// project. Warm-up and iterations count passes.
    std::vector<PipelineLaunchTiming> pipeline;
    std::uint64_t bytesMoved = 0; ///< in: read once, out: written once, inout: both
    double bandwidthGBs = 0;
    double peakPercent = 0;    ///< 0 when the device peak is unknown
    double flopsPerLaunch = 0; ///< Session::flops evaluated; 0 when not stated
    double gflops = 0;         ///< flopsPerLaunch / median time; 0 when not stated
    SpeedOfLight speedOfLight;
    /// Clocks and temperature just before the first and just after the last timed launch.
    DeviceConditions conditionsBefore, conditionsAfter;
    // Grade mode (SessionRunner::Options::grade)
    bool graded = false;      ///< launches restored and poisoned, later launches checked
    bool coldSamples = false; ///< L2 reset and flushed before every timed launch
    bool freshInputs = false; ///< the launch after timing had inputs from new seeds
    /// Every timed launch had inputs of its own from new seeds (grade mode's default where the
    /// initialisers are random), each checked against the reference for its inputs.
    bool freshTimedInputs = false;
    std::string pinnedInputs; ///< the project's reason for pinning the inputs (Session::pinInputs)
    std::uint64_t checkSeed = 0; ///< picks the checked timed launch and the fresh seeds
    std::vector<LaunchCheck> checks;
    /// The result launch's own host↔device copies, timed where they ran (events on CUDA, wall
    /// clock on the CPU emulator): every buffer uploaded once (`out` buffers poisoned), every
    /// output downloaded once. -1 when the run did not get that far.
    double h2dMs = -1, d2hMs = -1;
    std::uint64_t h2dBytes = 0, d2hBytes = 0;
    // Reference
    ReferenceSpec::Kind referenceKind = ReferenceSpec::Kind::None;
    std::string referenceCompiler;
    std::vector<Diagnostic> referenceDiagnostics;
    std::vector<OutputResult> outputs;
    std::map<std::string, HostArray> results;  ///< the kernel's output buffers
    std::map<std::string, HostArray> expected; ///< the reference's, where there is one
    /// What confined the run's user code where it ran sealed (the runner's child on the CPU
    /// emulator): the device-code check and sandbox::layers(), "device-code check: NVRTC 13.0,
    /// sm_90; seccomp-bpf filter (…); Landlock ABI 7: …; namespaces: …".
    /// Empty when nothing of the user's ran sealed (CUDA kernels; `--in-process`).
    std::string sandbox;
    /// Trace mode (CPU emulator): who wrote each element of each output in the result launch.
    std::map<std::string, WriteTrace> traces;
    // Checks (CheckMode, compute-sanitizer) and what the kernel printed.
    /// Memory errors: of a bounds-checked launch (the backend's), or parsed from a
    /// compute-sanitizer report (the runner's client adds those).
    std::vector<MemoryFinding> memoryFindings;
    /// Data races of a race-checked run's last launch.
    std::vector<RaceFinding> races;
    /// Words of a race-checked run with more accessors than the race detector compares (a race
    /// among them may be missed).
    std::vector<RaceCrowding> raceCrowding;
    /// The raw compute-sanitizer report of a memory-check run through the runner.
    std::string sanitizerLog;
    /// What the kernel printed (printf) in a run through the runner: the first lines, then
    /// "… N more lines"; empty when it printed nothing.
    std::string kernelOutput;

    /// The mode the kernels were built for (SessionRunner::Options::check, or one the project
    /// spells in its extraFlags).
    CheckMode check = CheckMode::None;

    /// 0 pass, 1 mismatch, 2 compile error, 3 runtime error, 4 invalid project/arguments.
    /// Unchecked: 1 when an output was left (partly) unwritten, which is wrong whatever the
    /// reference would say; 0 otherwise.
    int exitCode() const noexcept;
    /// Elements never written over all outputs (CoverageStats::unwritten summed).
    std::uint64_t unwrittenElements() const noexcept;
    /// exitCode(), raised to 3 when the run's checks found a data race (a runtime finding): the
    /// exit status of `warpbench-cli run`.
    int exitCodeWithFindings() const noexcept;
    const char* statusName() const noexcept;

    /// One byte per element of output `buffer`, 1 = never written (empty when the buffer was
    /// not poisoned or is unknown): the diff view and heatmap colour these.
    std::vector<std::uint8_t> unwrittenMask(const std::string& buffer) const;

    /// The report for a terminal (ReportFormat.h formats its parts). Ends with the verdict line;
    /// memory findings and races follow in findingsText().
    std::string toText() const;
    /// The memory findings and races, one line each, and for a race-checked run how many were
    /// found (or that none were): what `warpbench-cli run` prints after toText().
    std::string findingsText() const;
    /// The report as JSON (`warpbench-cli run --json`, read by the grader): every field above
    /// but the buffers, with kernelOutput, findings and, for a race-checked run, races.
    std::string toJson() const;
};

} // namespace wb::session
