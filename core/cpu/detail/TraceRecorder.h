// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/common/WriteTrace.h"

#include <vector>

/// Called by kernel libraries built in trace mode for every store through a traced pointer
/// (resources/prelude/warpbench/cpu_trace.h). Defined in libwarpbench-core.
extern "C" void wb_cpu_trace_store(const void* address, unsigned long bytes, int atomic);

namespace wb::cpu::detail {

/// The process-wide set of buffers being traced. Targets are set before a launch and cleared
/// after it; during the launch they are only read, and the per-element counters are updated
/// with atomic operations (blocks run on several OS threads).
class TraceRecorder {
public:
    struct Target {
        const unsigned char* begin = nullptr;
        std::size_t bytes = 0;
        WriteTrace* trace = nullptr;
    };
    static void start(std::vector<Target> targets);
    static void stop();
};

} // namespace wb::cpu::detail
