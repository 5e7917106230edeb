// SPDX-License-Identifier: GPL-3.0-or-later
// warpbench-runner: runs sessions for a RunnerClient over the framed protocol on stdin/stdout.
// Kernels may print: the protocol moves to private descriptors and what they print on stdout
// travels in the report.
#include "core/common/Sandbox.h"
#include "core/cuda/DevicePool.h"
#include "core/runner/RunnerService.h"
#include "core/session/imageio/QtImageCodec.h"

#include <QCoreApplication>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

int main(int argc, char** argv)
{
    wb::runner::RunnerService::Options opt;
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--version") == 0) {
            std::printf("warpbench-runner %s (protocol %u)\n", WB_VERSION,
                        wb::runner::Protocol::kVersion);
            return 0;
        }
        if (std::strcmp(argv[i], "--protocol-version") == 0 && i + 1 < argc) {
            // Pretends another protocol version (tests of the client's version check).
            opt.protocolVersion = static_cast<std::uint16_t>(std::atoi(argv[++i]));
            continue;
        }
        if (std::strcmp(argv[i], "--no-device-pool") == 0) {
            // Under compute-sanitizer (RunnerClient adds it): exact allocations, so that
            // memcheck sees a buffer's real end (DevicePool.h).
            wb::cuda::setDevicePoolEnabled(false);
            continue;
        }
        std::fprintf(stderr,
                     "usage: warpbench-runner [--version] [--no-device-pool]\n"
                     "Started by Warpbench (RunnerClient); speaks its protocol on stdin/stdout.\n");
        return 2;
    }
    opt.inFd = ::fcntl(0, F_DUPFD_CLOEXEC, 3);
    opt.outFd = ::fcntl(1, F_DUPFD_CLOEXEC, 3);
    if (opt.inFd < 0 || opt.outFd < 0) return 3;
    const int devNull = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
    if (devNull >= 0) ::dup2(devNull, 0);
    ::dup2(2, 1);
    // What kernels print goes back in each report (RunnerService captures fd 1).
    opt.captureStdout = true;
    // Kernels and C++ references are strangers' native code: they run sealed (Sandbox.h).
    wb::sandbox::setPolicy(wb::sandbox::Policy::Confine);
    QCoreApplication app(argc, argv);
    wb::session::installQtImageCodec(); // sessions may initialise buffers from images
    return wb::runner::RunnerService::serve(opt);
}
