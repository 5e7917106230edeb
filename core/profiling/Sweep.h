// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

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
};

/// "block size", "#define", "scalar".
const char* sweepKindName(SweepParameter::Kind kind) noexcept;

/// What one point produced. `ok` = it compiled and ran; `valid` = its output passed the diff
/// against the reference (only valid points can be "best").
struct SweepPointOutcome {
    bool ok = false;
    bool valid = false;
    std::string verdict;            ///< "pass", "fail: 12 mismatches", or the error
    double timeSeconds = 0;         ///< the figure the sweep ranks by (e.g. median kernel time)
    std::vector<Summary> summaries; ///< timing, throughput, counters of the point
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

    /// A table: one row per point (value, verdict, time, then the points' summaries).
    std::string table() const;
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
