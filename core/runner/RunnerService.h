// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/runner/Protocol.h"

#include <cstddef>
#include <cstdint>

namespace wb::runner {

/// The runner's side of the protocol: answers the client's Hello, then runs sessions
/// (SessionRunner on a backend kept warm per kind/device: CUDA context and compile cache survive
/// between runs), puts output buffers in its shared-memory arena (or Blob frames for remote
/// clients), answers Stats, and returns on Quit or end of stream. After a sticky GPU error
/// ("context lost") it answers and exits so that the client starts a fresh runner.
/// A watchdog thread exits the process when the client hangs up mid-run (a killed client, or
/// an ssh connection that dropped), so a runaway kernel never outlives its client.
class RunnerService {
public:
    struct Options {
        int inFd = 0;
        int outFd = 1;
        std::uint16_t protocolVersion =
            Protocol::kVersion; ///< what this runner speaks (tests pretend other versions)
        /// Capture fd 1 (detail::OutputCapture) and send what each run printed in its Report
        /// ("stdout": the first kKernelOutputLines lines, "stdoutMoreLines": the rest's count).
        /// The protocol must not be on fd 1.
        bool captureStdout = false;
    };
    static constexpr std::size_t kKernelOutputLines = 200;
    static constexpr std::size_t kKernelOutputBytes = 64 * 1024;
    /// Exit status after the client hung up mid-run (the runner's process group, its compilers
    /// included, is killed with it when the runner leads the group).
    static constexpr int kExitClientHungUp = 70;
    /// Exit status when the running kernel closed the runner's channel to the client (closed
    /// file descriptors it does not own): the runner cannot answer any more.
    static constexpr int kExitChannelClosed = 71;
    /// Returns the process exit code: 0 after Quit or end of stream, 3 on a protocol error.
    static int serve(const Options& options);
};

} // namespace wb::runner
