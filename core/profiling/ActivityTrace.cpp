// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/profiling/ActivityTrace.h"

#include "core/backend/Backend.h"
#include "core/common/Error.h"
#include "core/profiling/detail/Cupti.h"
#include "core/profiling/detail/Driver.h"

#include <atomic>
#include <cstdlib>
#include <mutex>
#include <utility>

namespace wb::profiling {

namespace {

constexpr std::size_t kBufferBytes = 4u << 20;
constexpr std::size_t kAlignment = 8;

struct Collector {
    std::mutex mutex;
    std::vector<KernelActivity> kernels;
    std::vector<MemcpyActivity> copies;
    std::atomic<std::size_t> dropped{0};
    bool active = false;
    bool callbacksRegistered = false;
};

Collector& collector()
{
    static Collector c;
    return c;
}

MemcpyActivity::Direction direction(std::uint8_t copyKind)
{
    switch (copyKind) {
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOD:
        return MemcpyActivity::Direction::HostToDevice;
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOH:
        return MemcpyActivity::Direction::DeviceToHost;
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOD:
        return MemcpyActivity::Direction::DeviceToDevice;
    default:
        return MemcpyActivity::Direction::Other;
    }
}

void CUPTIAPI bufferRequested(uint8_t** buffer, size_t* size, size_t* maxNumRecords)
{
    *buffer = static_cast<uint8_t*>(std::aligned_alloc(kAlignment, kBufferBytes));
    *size = *buffer ? kBufferBytes : 0;
    *maxNumRecords = 0;
}

void CUPTIAPI bufferCompleted(CUcontext, uint32_t, uint8_t* buffer, size_t, size_t validSize)
{
    const detail::Cupti& api = detail::cupti();
    Collector& c = collector();
    std::vector<KernelActivity> kernels;
    std::vector<MemcpyActivity> copies;
    CUpti_Activity* record = nullptr;
    while (api.cuptiActivityGetNextRecord(buffer, validSize, &record) == CUPTI_SUCCESS) {
        if (record->kind == CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL ||
            record->kind == CUPTI_ACTIVITY_KIND_KERNEL) {
            const auto* k = reinterpret_cast<const CUpti_ActivityKernel10*>(record);
            KernelActivity a;
            a.name = k->name ? k->name : "";
            a.startNs = k->start;
            a.endNs = k->end;
            a.deviceId = k->deviceId;
            a.streamId = k->streamId;
            a.correlationId = k->correlationId;
            a.grid = {static_cast<unsigned>(k->gridX), static_cast<unsigned>(k->gridY),
                      static_cast<unsigned>(k->gridZ)};
            a.block = {static_cast<unsigned>(k->blockX), static_cast<unsigned>(k->blockY),
                       static_cast<unsigned>(k->blockZ)};
            a.registersPerThread = k->registersPerThread;
            a.dynamicSharedBytes = k->dynamicSharedMemory;
            a.staticSharedBytes = k->staticSharedMemory;
            kernels.push_back(std::move(a));
        } else if (record->kind == CUPTI_ACTIVITY_KIND_MEMCPY) {
            const auto* m = reinterpret_cast<const CUpti_ActivityMemcpy6*>(record);
            copies.push_back({direction(m->copyKind), m->bytes, m->start, m->end, m->streamId});
        }
    }
    size_t dropped = 0;
    if (api.cuptiActivityGetNumDroppedRecords(nullptr, 0, &dropped) == CUPTI_SUCCESS && dropped)
        c.dropped += dropped;
    std::free(buffer);
    std::lock_guard lock(c.mutex);
    if (!c.active) return;
    c.kernels.insert(c.kernels.end(), kernels.begin(), kernels.end());
    c.copies.insert(c.copies.end(), copies.begin(), copies.end());
}

CUpti_ActivityKind kernelActivityKind(ActivityTrace::KernelRecords records)
{
    return records == ActivityTrace::KernelRecords::Serialized
               ? CUPTI_ACTIVITY_KIND_KERNEL
               : CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL;
}

void checkCupti(CUptiResult result, const char* call)
{
    if (result == CUPTI_SUCCESS) return;
    throw Error(Error::Kind::Unavailable, std::string("CUPTI activity tracing: ") + call +
                                              " failed: " + detail::cuptiResultText(result));
}

} // namespace

std::vector<Summary> transferSummaries(const std::vector<MemcpyActivity>& copies)
{
    struct Totals {
        double seconds = 0;
        double bytes = 0;
    };
    Totals h2d, d2h;
    for (const MemcpyActivity& c : copies) {
        Totals* t = c.direction == MemcpyActivity::Direction::HostToDevice   ? &h2d
                    : c.direction == MemcpyActivity::Direction::DeviceToHost ? &d2h
                                                                             : nullptr;
        if (!t) continue;
        t->seconds += c.durationMs() * 1e-3;
        t->bytes += static_cast<double>(c.bytes);
    }
    std::vector<Summary> out;
    const auto add = [&](const Totals& t, const std::string& key, const std::string& label) {
        if (t.bytes <= 0) return;
        out.push_back({"wb/transfer/" + key + "_time", label + " time", "duration", t.seconds,
                       label + " copy time (CUPTI memcpy records)"});
        out.push_back({"wb/transfer/" + key + "_bytes", label + " bytes", "bytes", t.bytes,
                       label + " bytes copied"});
        if (t.seconds > 0)
            out.push_back({"wb/transfer/" + key + "_bandwidth", label + " bandwidth", "bandwidth",
                           t.bytes / t.seconds, label + " bytes / copy time"});
    };
    add(h2d, "h2d", "H2D");
    add(d2h, "d2h", "D2H");
    return out;
}

ProfilerStatus ActivityTrace::availability()
{
    if (const std::optional<std::string> why = cudaUnavailableReason())
        return {ProfilerStatus::State::NoDriver, *why};
    if (const std::string& why = detail::driverUnavailableReason(); !why.empty())
        return {ProfilerStatus::State::NoDriver, why};
    if (const std::string& why = detail::cuptiLoadError(); !why.empty())
        return {ProfilerStatus::State::NoCupti, why};
    return ProfilerStatus::success();
}

ActivityTrace::ActivityTrace(bool kernels, bool copies, KernelRecords records)
    : m_kernels(kernels)
    , m_copies(copies)
    , m_records(records)
{
    const CUpti_ActivityKind kernelKind = kernelActivityKind(records);
    if (ProfilerStatus status = availability(); !status.ok())
        throw Error(Error::Kind::Unavailable, "CUPTI activity tracing: " + status.message);
    const detail::Cupti& api = detail::cupti();
    Collector& c = collector();
    {
        std::lock_guard lock(c.mutex);
        if (c.active)
            throw Error(Error::Kind::Unavailable,
                        "CUPTI activity tracing: another trace is already running in this process");
        c.active = true;
        c.kernels.clear();
        c.copies.clear();
        c.dropped = 0;
    }
    try {
        if (!c.callbacksRegistered) {
            checkCupti(api.cuptiActivityRegisterCallbacks(bufferRequested, bufferCompleted),
                       "cuptiActivityRegisterCallbacks");
            c.callbacksRegistered = true;
        }
        if (m_kernels)
            checkCupti(api.cuptiActivityEnable(kernelKind),
                       kernelKind == CUPTI_ACTIVITY_KIND_KERNEL
                           ? "cuptiActivityEnable(KERNEL)"
                           : "cuptiActivityEnable(CONCURRENT_KERNEL)");
        if (m_copies)
            checkCupti(api.cuptiActivityEnable(CUPTI_ACTIVITY_KIND_MEMCPY),
                       "cuptiActivityEnable(MEMCPY)");
    } catch (...) {
        if (m_kernels) api.cuptiActivityDisable(kernelKind);
        std::lock_guard lock(c.mutex);
        c.active = false;
        throw;
    }
}

ActivityTrace::~ActivityTrace()
{
    const detail::Cupti& api = detail::cupti();
    if (m_kernels) api.cuptiActivityDisable(kernelActivityKind(m_records));
    if (m_copies) api.cuptiActivityDisable(CUPTI_ACTIVITY_KIND_MEMCPY);
    api.cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
    Collector& c = collector();
    std::lock_guard lock(c.mutex);
    c.active = false;
    c.kernels.clear();
    c.copies.clear();
}

void ActivityTrace::flush()
{
    checkCupti(detail::cupti().cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED),
               "cuptiActivityFlushAll");
}

std::vector<KernelActivity> ActivityTrace::takeKernels()
{
    flush();
    Collector& c = collector();
    std::lock_guard lock(c.mutex);
    return std::exchange(c.kernels, {});
}

std::vector<MemcpyActivity> ActivityTrace::takeCopies()
{
    flush();
    Collector& c = collector();
    std::lock_guard lock(c.mutex);
    return std::exchange(c.copies, {});
}

std::size_t ActivityTrace::droppedRecords() const noexcept
{
    return collector().dropped.load();
}

} // namespace wb::profiling
