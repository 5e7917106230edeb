// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/backend/Backend.h"

#include "core/common/Error.h"

#include <atomic>
#include <chrono>

namespace wb {

const char* backendName(BackendKind kind) noexcept
{
    switch (kind) {
    case BackendKind::Auto:
        return "auto";
    case BackendKind::Cuda:
        return "cuda";
    case BackendKind::Cpu:
        return "cpu";
    }
    return "auto";
}

std::optional<BackendKind> parseBackendKind(std::string_view text) noexcept
{
    if (text == "auto") return BackendKind::Auto;
    if (text == "cuda" || text == "gpu") return BackendKind::Cuda;
    if (text == "cpu") return BackendKind::Cpu;
    return std::nullopt;
}

namespace {
std::atomic<std::uint64_t> g_backendsCreated{0};
}

Backend::Backend() noexcept
{
    g_backendsCreated.fetch_add(1, std::memory_order_relaxed);
}

std::uint64_t Backend::createdCount() noexcept
{
    return g_backendsCreated.load(std::memory_order_relaxed);
}

double Backend::timeCopies(const std::function<void()>& copies)
{
    const auto start = std::chrono::steady_clock::now();
    copies();
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
        .count();
}

DeviceConditions Backend::conditions() const
{
    DeviceConditions c;
    c.source = "not measured on this backend";
    return c;
}

std::optional<DeviceMemoryUse> Backend::memoryUse() const
{
    return std::nullopt;
}

bool Backend::supports(CheckMode mode) const noexcept
{
    return mode == CheckMode::None;
}

LaunchFindings Backend::lastLaunchFindings() const
{
    return {};
}

LaunchFindings Backend::takeRunFindings()
{
    return lastLaunchFindings();
}

void Backend::setSchedule(std::uint64_t) {}

void Backend::beginTrace(const LaunchConfig&, const std::vector<TraceBuffer>&)
{
    throw Error(Error::Kind::Unavailable, std::string("trace mode needs the CPU emulator; the ") +
                                              backendName(kind()) + " backend records no writers");
}

std::vector<WriteTrace> Backend::endTrace()
{
    return {};
}

ProfilingTarget* Backend::profilingTarget() noexcept
{
    return nullptr;
}

} // namespace wb
