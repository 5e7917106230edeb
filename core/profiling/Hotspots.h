// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace wb::profiling {

/// Samples of one stall reason ("long scoreboard", "barrier", "math pipe throttle", ...).
struct StallCount {
    std::string reason; ///< stallReasonLabel() of CUPTI's name
    std::uint64_t samples = 0;

    friend bool operator==(const StallCount&, const StallCount&) = default;
};

/// One sampled SASS instruction as CUPTI's PC sampling reports it, with the source line
/// CUPTI correlates it to (line 0: no line information).
struct SampledPc {
    std::string function;       ///< lowered (mangled) name, "_Z3hotPfii"
    std::uint64_t pcOffset = 0; ///< byte offset from the function's start
    std::string file;           ///< as the line table names it ("hot.cu"); "" when unknown
    int line = 0;
    std::vector<StallCount> stalls; ///< issued-or-not samples per reason (no "not issued" rows)
};

/// Samples of one SASS instruction, aggregated.
struct HotspotInstruction {
    std::string function;
    std::uint64_t pcOffset = 0;
    std::string file;
    int line = 0;
    std::uint64_t samples = 0;
    std::vector<StallCount> stalls; ///< most samples first

    friend bool operator==(const HotspotInstruction&, const HotspotInstruction&) = default;
};

/// Samples of one source line: every instruction the line table gives that line.
struct HotspotLine {
    std::string file;
    int line = 0; ///< 0: instructions without line information
    std::uint64_t samples = 0;
    std::vector<StallCount> stalls; ///< most samples first

    /// The reason with the most samples; "" when none.
    std::string topStall() const;
    friend bool operator==(const HotspotLine&, const HotspotLine&) = default;
};

/// Where a kernel's warps were when CUPTI sampled them (PC sampling), by SASS instruction and by
/// source line. Plain data: it travels from the runner in the profile (ProfileCodec) and feeds
/// the CLI's top lines, the editor's heat margin and the SASS view.
struct HotspotReport {
    std::string kernel;                           ///< lowered name of the sampled function
    std::uint64_t totalSamples = 0;               ///< CUPTI's count, dropped samples included
    std::uint64_t droppedSamples = 0;             ///< lost to hardware buffer back-pressure
    int samplingPeriodLog2 = 0;                   ///< one sample per SM every 2^n cycles
    int launches = 0;                             ///< launches sampled (samples add up over them)
    double collectMs = 0;                         ///< wall time of the whole PC-sampling step
    std::vector<HotspotInstruction> instructions; ///< by function, then offset
    std::vector<HotspotLine> lines;               ///< most samples first
    std::vector<std::string> warnings;

    /// Sum of the instructions' samples (equals totalSamples − droppedSamples when CUPTI
    /// attributed every sample to the kernel).
    std::uint64_t attributedSamples() const noexcept;
    /// A line's share of attributedSamples(), 0..1.
    double share(const HotspotLine& line) const noexcept;
    /// The line entry for (file, line) — file compared by file name only ("" matches any);
    /// nullptr when the line has no samples.
    const HotspotLine* findLine(const std::string& file, int line) const noexcept;

    /// Aggregates CUPTI's per-PC records: instructions keyed by (function, offset), lines by
    /// (file, line); stall reasons summed and sorted (most samples first, then by name); lines
    /// sorted by samples (ties by line number).
    static HotspotReport aggregate(const std::vector<SampledPc>& pcs);

    /// What `warpbench-cli profile --hotspots` prints: sampling summary and the `top` lines
    /// (share, samples, top stall reasons, the source text when `source` is given).
    std::string toText(std::size_t top = 10, const std::string& source = {}) const;
};

/// Line `line` (1-based) of `source` without its indentation; "" when there is none.
std::string sourceLineText(const std::string& source, int line);

/// CUPTI's stall reason name as words: "smsp__pcsamp_warps_issue_stalled_long_scoreboard" →
/// "long scoreboard"; names without that prefix lose only "smsp__pcsamp_".
std::string stallReasonLabel(const std::string& cuptiName);

/// True for CUPTI's "…_not_issued" reasons, which count a subset of the samples of the reason
/// of the same name again; a per-instruction sum leaves them out.
bool isNotIssuedStallReason(const std::string& cuptiName);

} // namespace wb::profiling
