// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/profiling/CudaTimer.h"
#include "core/profiling/MetricTable.h"
#include "core/profiling/ProfilerStatus.h"
#include "core/profiling/Summary.h"

#include <cuda.h>

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace wb::profiling {

/// How multi-pass metrics are collected.
enum class ReplayMode {
    /// CUPTI replays the kernel itself, once per pass, saving device memory before the first
    /// pass and restoring it before each further pass, so a kernel that writes its inputs
    /// (x[i] += 1) is measured on the same data every pass and leaves the result of one run.
    Kernel,
    /// Warpbench calls the launch once per pass; CounterOptions::beforePass must restore the
    /// buffers the kernel writes (the session's output/inout buffers) before each pass.
    User,
};

struct CounterOptions {
    std::vector<std::string> metrics = speedOfLightMetricNames();
    ReplayMode replay = ReplayMode::Kernel;
    /// User replay: restores the buffers the kernel writes; called before every launch. Kernel
    /// replay: called only if CUPTI unexpectedly wants a second launch.
    std::function<void()> beforePass;
    std::size_t maxPasses = 64; ///< give up after this many launches
};

struct MetricValue {
    std::string name;
    double value = 0;
    const MetricInfo* info = nullptr; ///< nullptr for metrics not in the table
};

/// Hardware counters for one launch, or why there are none (status).
struct CounterReport {
    ProfilerStatus status;
    std::string chip;                  ///< "GH100"
    std::size_t passes = 0;            ///< passes the metric set needs (from the config image)
    std::size_t launches = 0;          ///< times the launch callback ran
    std::size_t ranges = 0;            ///< kernels profiled (AutoRange: one per kernel)
    std::vector<MetricValue> values;   ///< of the first kernel, in the order asked
    std::vector<std::string> warnings; ///< metrics dropped as unknown, extra kernels, ...

    std::optional<double> value(const std::string& name) const;
    /// "wb/counter/<metric>" with the table's display name, hint and scale (unknown metrics:
    /// hint ""), plus "wb/counter/passes" (sample_size).
    std::vector<Summary> summaries() const;
};

/// Hardware counters through the CUDA 13 range profiler (cupti_range_profiler.h and
/// cupti_profiler_host.h), AutoRange: one range per kernel.
class RangeProfiler {
public:
    /// Driver and CUPTI present? Calls nothing device-side when the driver is missing.
    static ProfilerStatus availability();

    /// Collects `options.metrics` for the kernel(s) `launch` enqueues on `stream` (given its
    /// handle), in the stream's context, which the collection holds until it returns.
    /// Never throws for profiler problems: they come back as report.status (permissions,
    /// another profiler attached, unsupported GPU, no driver, unknown metric); driver errors
    /// become status Failed, except a lost context (Error::Kind::ContextLost) and exceptions
    /// that are not wb::Error, which are let through after the profiler is torn down.
    static CounterReport profile(const cuda::Stream& stream, const StreamLaunch& launch,
                                 const CounterOptions& options = {});
};

} // namespace wb::profiling
