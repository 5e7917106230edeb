// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/cpu/detail/DeviceCheck.h"

#include "core/cuda/Compiler.h"

#include <algorithm>
#include <mutex>

namespace wb::cpu::detail {

CompileOptions deviceCheckOptions(const CompileOptions& options)
{
    CompileOptions o = options;
    // Every extraFlags entry but the emulator's own is an NVRTC flag (CpuBackend.h).
    o.extraFlags.erase(std::remove_if(o.extraFlags.begin(), o.extraFlags.end(),
                                      [](const std::string& f) {
                                          return f.rfind("--cpu-", 0) == 0 ||
                                                 f.rfind("--host-flag=", 0) == 0;
                                      }),
                       o.extraFlags.end());
    if (o.arch.empty()) o.arch = kDeviceCheckArch;
    return o;
}

namespace {

std::mutex g_lastMutex;
std::string g_last;

void remember(std::string text)
{
    std::lock_guard lock(g_lastMutex);
    g_last = std::move(text);
}

} // namespace

DeviceCheck checkAsDeviceCode(const std::string& source, const std::string& sourceName,
                              const CompileOptions& options)
{
    DeviceCheck check;
    cuda::Compiler& nvrtc = cuda::Compiler::instance();
    if (!nvrtc.available()) {
        check.skipped = "note: the kernel file was not checked as device code (" +
                        nvrtc.unavailableReason() +
                        "): a call of a host function in it is stopped only by the sandbox, "
                        "when it runs";
        remember("device-code check: not done (" + nvrtc.unavailableReason() + ")");
        return check;
    }
    const CompileOptions o = deviceCheckOptions(options);
    check.checked = true;
    check.nvrtc = nvrtc.compile(source, sourceName, o);
    remember("device-code check: " + nvrtc.version() + ", " + o.arch);
    return check;
}

std::string lastDeviceCheck()
{
    std::lock_guard lock(g_lastMutex);
    return g_last;
}

} // namespace wb::cpu::detail
