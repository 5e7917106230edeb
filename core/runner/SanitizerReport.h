// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/common/MemoryFinding.h"

#include <string>
#include <vector>

namespace wb::runner {

/// A compute-sanitizer report (memcheck or racecheck, the text it writes with --log-file or
/// to stdout) parsed into the same findings the CPU emulator's bounds-checked mode produces.
/// Records look like
///     ========= Invalid __global__ write of size 4 bytes
///     =========     at oob_write(float *, int)+0x70 in /tmp/kernel.cu:6
///     =========     by thread (31,0,0) in block (3,0,0)
///     =========     Address 0x7f0a1e000400 is out of bounds
///     =========     and is 1 bytes after the nearest allocation at 0x7f0a1e000000 of size 1024
///     bytes
/// ("at 0x70 in kernel()" without -lineinfo); racecheck's "Error: Race reported between Write
/// access at k()+0x2e0 in file.cu:12 / and Read access at ..." becomes a finding of kind Other,
/// and so does each hazard record ("Error: Potential RAW hazard detected at __shared__ 0x8 in
/// block (1,0,0) :" / "Write Thread (31,0,0) at k(int *)+0x2e0 in file.cu:12" / "Read Thread
/// …"), located at its first access: kernel, file:line, block and thread.
/// Host API errors ("Program hit cudaErrorLaunchFailure ...") and host backtraces are skipped.
struct SanitizerReport {
    std::vector<MemoryFinding> findings;
    int errorCount = -1; ///< from "ERROR SUMMARY: N errors"; -1 when absent
    std::string tool;    ///< "memcheck" / "racecheck" when the report says so, else empty

    static SanitizerReport parse(const std::string& text);
};

} // namespace wb::runner
