// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/common/CompileOptions.h"
#include "core/common/CompileResult.h"

#include <string>

namespace wb::cpu::detail {

/// The CPU emulator builds a kernel file with the host compiler, where a call of a host function
/// (system, fopen, socket, getenv, fork ...) would compile and run. So the file is first compiled
/// as device code by NVRTC, exactly as the CUDA backend compiles it (wb::cuda::Compiler, its
/// stand-in standard headers and its compile cache), for the architecture the prelude emulates:
/// what the GPU backend refuses, the emulator refuses with NVRTC's own diagnostics.
struct DeviceCheck {
    bool checked = false; ///< NVRTC compiled the file (or its cached result was used)
    CompileResult nvrtc;  ///< NVRTC's result when checked
    std::string skipped;  ///< why it was not checked (NVRTC missing): one sentence for the log

    bool refused() const noexcept { return checked && !nvrtc.ok; }
};

/// The architecture the prelude emulates (its __CUDA_ARCH__ 900): the check's default.
constexpr const char* kDeviceCheckArch = "sm_90";

/// `options` as the CUDA backend would receive them: the emulator's own extraFlags entries
/// (`--cpu-…`, `--host-flag=…`) removed, the architecture kDeviceCheckArch unless one is set.
CompileOptions deviceCheckOptions(const CompileOptions& options);

/// Compiles `source` with NVRTC as device code (see DeviceCheck). Never throws for a missing
/// NVRTC: `skipped` says so and the sandbox alone confines the kernel.
DeviceCheck checkAsDeviceCode(const std::string& source, const std::string& sourceName,
                              const CompileOptions& options);

/// How this process's latest check went, for a run's report: "device-code check: NVRTC 13.0,
/// sm_90" or "device-code check: not done (<why>)"; empty before the first.
std::string lastDeviceCheck();

} // namespace wb::cpu::detail
