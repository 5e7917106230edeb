// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/common/MemoryFinding.h"
#include "core/profiling/Summary.h"

#include <atomic>
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace wb::profiling {

/// What a sweep varies.
struct SweepParameter {
    enum class Kind {
        BlockSize, ///< block.x of the launch (the grid is the caller's to recompute)
        Define,    ///< a #define passed to the compiler (-DNAME=value): recompiles per point
        Scalar,    ///< a scalar kernel argument, by parameter name
    };
    Kind kind = Kind::BlockSize;
    std::string name;                ///< define or parameter name; empty for BlockSize
    std::vector<std::string> values; ///< as text, in sweep order

    /// start, start+step, ... up to and including `stop` (integers or decimals). Throws
    /// wb::Error(InvalidArgument) for step 0, a step pointing away from stop, or > 10000 points.
    static std::vector<std::string> range(double start, double stop, double step);
    /// start, start×factor, ... ≤ stop (e.g. block sizes 32, 64, ..., 1024).
    static std::vector<std::string> geometric(double start, double stop, double factor);
    /// Values as a user writes them: "32, 64, 128" (a list), "32..1024 x2" (×2 each step),
    /// "1..9 +2" or "1..9" (step 1). Throws wb::Error(InvalidArgument) with the reason.
    static std::vector<std::string> parseValues(const std::string& text);
};

/// "block size", "#define", "scalar".
const char* sweepKindName(SweepParameter::Kind kind) noexcept;

/// What one point produced. `ok` = it compiled and ran (it has a time); `valid` = it ran, its
/// outputs passed the diff against the reference (when there is one), every poisoned output
/// element was written and no bounds check found an out-of-bounds access. Only valid points
/// can be "best".
struct SweepPointOutcome {
    bool ok = false;
    bool valid = false;
    /// "pass" ("unchecked" without a reference); "invalid: …" / "mismatch: …" followed by the
    /// problems; or the error.
    std::string verdict;
    double timeSeconds = 0;         ///< the figure the sweep ranks by (e.g. median kernel time)
    std::vector<Summary> summaries; ///< timing, throughput, counters of the point
    /// Why the point is invalid, one entry per problem: "out of bounds at kernel.cu:7 (block
    /// (1, 0, 0), thread (72, 0, 0)): write of 4 bytes …", "256 never-written elements in
    /// 'out'", "12 mismatches in 'C'". Empty when valid, and when the point failed for another
    /// reason (a compile error, a crash: the verdict says it).
    std::vector<std::string> problems;
    std::size_t mismatches = 0;          ///< elements outside the tolerance, over all outputs
    std::size_t unwritten = 0;           ///< elements never written (poison), over all outputs
    std::vector<MemoryFinding> findings; ///< what the point's bounds check found
    bool boundsChecked = false;          ///< the point also ran bounds-checked (CPU emulator)
};

struct SweepPoint {
    std::string value;
    SweepPointOutcome outcome;
};

struct SweepResult {
    SweepParameter parameter;
    std::vector<SweepPoint> points; ///< in sweep order; fewer than values when cancelled
    bool cancelled = false;
    std::optional<std::size_t> best; ///< index of the fastest valid point

    /// Points that ran but are not valid (wrong, unwritten or out-of-bounds results), and points
    /// that did not run at all.
    std::size_t invalidCount() const noexcept;
    /// A table: one row per point (value, verdict cut to 64 characters, time, then the points'
    /// summaries).
    std::string table() const;
    /// Why each invalid point is invalid, in full: "invalid points:\n" and one line per
    /// problem ("  block size = 128: out of bounds at k.cu:4 (block (4, 0, 0), …"); empty when
    /// every point is valid.
    std::string problems() const;
    /// One line under the table: "best: block size = 256 (1.20 ms); 2 of 4 points invalid" or
    /// "no valid point: all 4 points are invalid — nothing to recommend".
    std::string conclusion() const;
};

/// Runs one point: applies `value` of the parameter (recompiling, relaunching) and measures.
/// Exceptions are caught per point and become ok=false with the message as verdict.
using SweepPointRunner =
    std::function<SweepPointOutcome(const SweepParameter& parameter, const std::string& value)>;
/// Called after each point: (points done, total, the last point).
using SweepProgress = std::function<void(std::size_t done, std::size_t total, const SweepPoint&)>;

/// Runs every value of `parameter` through `runner` in order, checking `cancel` before each.
SweepResult runSweep(const SweepParameter& parameter, const SweepPointRunner& runner,
                     const SweepProgress& progress = {}, const std::atomic<bool>* cancel = nullptr);

} // namespace wb::profiling
