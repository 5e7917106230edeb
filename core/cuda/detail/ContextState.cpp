// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/cuda/detail/ContextState.h"

#include "core/cuda/CudaError.h"
#include "core/cuda/Device.h"
#include "core/cuda/HandleRegistry.h"
#include "core/cuda/detail/DriverApi.h"

#include <bit>
#include <cstdio>
#include <map>

namespace wb::cuda::detail {

std::string formatBytes(std::size_t bytes)
{
    static constexpr const char* units[] = {"B", "kB", "MB", "GB", "TB", "PB", "EB"};
    double value = static_cast<double>(bytes);
    std::size_t unit = 0;
    while (value >= 1000.0 && unit + 1 < std::size(units)) {
        value /= 1000.0;
        ++unit;
    }
    char text[32];
    if (unit == 0)
        std::snprintf(text, sizeof text, "%zu B", bytes);
    else
        std::snprintf(text, sizeof text, "%.1f %s", value, units[unit]);
    return text;
}

std::string ContextState::describe() const
{
    return "device " + std::to_string(ordinal) + " (" + deviceName + ")";
}

void ContextState::makeCurrent() const
{
    const DriverApi& api = driverUnchecked();
    CUcontext current = nullptr;
    if (api.cuCtxGetCurrent(&current) == CUDA_SUCCESS && current == context) return;
    CU_CHECK(api.cuCtxSetCurrent(context), "making the context of " + describe() + " current");
}

bool ContextState::makeCurrentNoThrow() const noexcept
{
    const DriverApi& api = driverUnchecked();
    CUcontext current = nullptr;
    if (api.cuCtxGetCurrent(&current) == CUDA_SUCCESS && current == context) return true;
    const CUresult r = api.cuCtxSetCurrent(context);
    reportCudaFailure(r, "cuCtxSetCurrent", "releasing a CUDA resource");
    return r == CUDA_SUCCESS;
}

namespace {

/// The call stream and the timing events, created once.
void ensureStreamAndEvents(ContextState& ctx)
{
    Scratch& scratch = ctx.scratch;
    if (scratch.stream && scratch.start && scratch.stop) return;
    const DriverApi& api = driverUnchecked();
    // A blocking stream: it stays ordered with work on the legacy default stream (the
    // synchronous uploads of DeviceBuffer), so In/Out calls see completed uploads.
    if (!scratch.stream) {
        CU_CHECK(api.cuStreamCreate(&scratch.stream, CU_STREAM_DEFAULT),
                 "creating the call stream on " + ctx.describe());
        HandleRegistry::instance().added(HandleKind::Stream);
    }
    for (CUevent* event : {&scratch.start, &scratch.stop}) {
        if (*event) continue;
        CU_CHECK(api.cuEventCreate(event, CU_EVENT_DEFAULT),
                 "creating a timing event on " + ctx.describe());
        HandleRegistry::instance().added(HandleKind::Event);
    }
}

} // namespace

void ContextState::ensureMappedScratch()
{
    makeCurrent();
    ensureStreamAndEvents(*this);
    if (scratch.mapped) return;
    const DriverApi& api = driverUnchecked();
    void* mapped = nullptr;
    CU_CHECK(api.cuMemHostAlloc(&mapped, kZeroCopyLimit,
                                CU_MEMHOSTALLOC_PORTABLE | CU_MEMHOSTALLOC_DEVICEMAP),
             "allocating " + formatBytes(kZeroCopyLimit) +
                 " of mapped pinned staging memory for In/Out arguments on " + describe());
    CUdeviceptr alias = 0;
    const CUresult r = api.cuMemHostGetDevicePointer(&alias, mapped, 0);
    if (r != CUDA_SUCCESS) {
        reportCudaFailure(api.cuMemFreeHost(mapped), "cuMemFreeHost", "mapping call buffers");
        throwCudaError(r, "cuMemHostGetDevicePointer(&alias, mapped, 0)",
                       "mapping " + formatBytes(kZeroCopyLimit) +
                           " of pinned staging memory into " + describe());
    }
    scratch.mapped = mapped;
    scratch.mappedDevice = alias;
    scratch.mappedBytes = kZeroCopyLimit;
    HandleRegistry::instance().added(HandleKind::PinnedHostBuffer, kZeroCopyLimit);
}

void ContextState::ensureScratch(std::size_t bytes)
{
    const DriverApi& api = driverUnchecked();
    makeCurrent();
    ensureStreamAndEvents(*this);
    if (bytes <= scratch.deviceBytes && bytes <= scratch.hostBytes) return;
    const std::size_t want = std::bit_ceil(std::max<std::size_t>(bytes, std::size_t{1} << 20));
    if (bytes > scratch.deviceBytes) {
        if (scratch.device) {
            reportCudaFailure(api.cuMemFree(scratch.device), "cuMemFree", "growing call buffers");
            HandleRegistry::instance().removed(HandleKind::DeviceBuffer, scratch.deviceBytes);
            scratch.device = 0;
            scratch.deviceBytes = 0;
        }
        CU_CHECK(api.cuMemAlloc(&scratch.device, want),
                 "allocating " + formatBytes(want) + " for In/Out arguments on " + describe());
        scratch.deviceBytes = want;
        HandleRegistry::instance().added(HandleKind::DeviceBuffer, want);
    }
    if (bytes > scratch.hostBytes) {
        if (scratch.host) {
            reportCudaFailure(api.cuMemFreeHost(scratch.host), "cuMemFreeHost",
                              "growing call buffers");
            HandleRegistry::instance().removed(HandleKind::PinnedHostBuffer, scratch.hostBytes);
            scratch.host = nullptr;
            scratch.hostBytes = 0;
        }
        CU_CHECK(api.cuMemHostAlloc(&scratch.host, want, CU_MEMHOSTALLOC_PORTABLE),
                 "allocating " + formatBytes(want) + " of pinned staging memory");
        scratch.hostBytes = want;
        HandleRegistry::instance().added(HandleKind::PinnedHostBuffer, want);
    }
}

void ContextState::releaseScratch() noexcept
{
    const DriverApi& api = driverUnchecked();
    HandleRegistry& registry = HandleRegistry::instance();
    if (scratch.stream || scratch.device || scratch.host || scratch.mapped) makeCurrentNoThrow();
    if (scratch.stream) {
        reportCudaFailure(api.cuStreamSynchronize(scratch.stream), "cuStreamSynchronize",
                          "releasing the call stream");
        reportCudaFailure(api.cuStreamDestroy(scratch.stream), "cuStreamDestroy",
                          "releasing the call stream");
        registry.removed(HandleKind::Stream);
    }
    for (CUevent event : {scratch.start, scratch.stop}) {
        if (!event) continue;
        reportCudaFailure(api.cuEventDestroy(event), "cuEventDestroy", "releasing a timing event");
        registry.removed(HandleKind::Event);
    }
    if (scratch.device) {
        reportCudaFailure(api.cuMemFree(scratch.device), "cuMemFree", "releasing call buffers");
        registry.removed(HandleKind::DeviceBuffer, scratch.deviceBytes);
    }
    if (scratch.host) {
        reportCudaFailure(api.cuMemFreeHost(scratch.host), "cuMemFreeHost",
                          "releasing call buffers");
        registry.removed(HandleKind::PinnedHostBuffer, scratch.hostBytes);
    }
    if (scratch.mapped) {
        reportCudaFailure(api.cuMemFreeHost(scratch.mapped), "cuMemFreeHost",
                          "releasing call buffers");
        registry.removed(HandleKind::PinnedHostBuffer, scratch.mappedBytes);
    }
    scratch = Scratch{};
}

ContextState::~ContextState()
{
    if (!context) return; // the retain failed: nothing to release
    releaseScratch();
    trimPool();
    const DriverApi& api = driverUnchecked();
    // Leave no thread-current handle to a context that is about to go.
    CUcontext current = nullptr;
    if (api.cuCtxGetCurrent(&current) == CUDA_SUCCESS && current == context)
        api.cuCtxSetCurrent(nullptr);
    reportCudaFailure(api.cuDevicePrimaryCtxRelease(device), "cuDevicePrimaryCtxRelease",
                      "releasing the primary context");
    HandleRegistry::instance().removed(HandleKind::Context);
}

CUresult ContextState::poolAllocate(std::size_t classBytes, CUdeviceptr& ptr)
{
    makeCurrent();
    std::lock_guard lock(pool.mutex);
    auto it = pool.idle.find(classBytes);
    if (it != pool.idle.end() && !it->second.empty()) {
        ptr = it->second.back();
        it->second.pop_back();
        --pool.idleBlocks;
        pool.idleBytes -= classBytes;
        HandleRegistry::instance().removed(HandleKind::PooledMemory, classBytes);
    } else {
        const DriverApi& api = driverUnchecked();
        CUresult result = api.cuMemAlloc(&ptr, classBytes);
        if (result == CUDA_ERROR_OUT_OF_MEMORY && pool.idleBlocks > 0) {
            // Idle blocks of other classes may be what is missing: free them and retry once.
            for (auto& [bytes, blocks] : pool.idle) {
                for (CUdeviceptr p : blocks) {
                    reportCudaFailure(api.cuMemFree(p), "cuMemFree", "trimming the device pool");
                    HandleRegistry::instance().removed(HandleKind::PooledMemory, bytes);
                }
                blocks.clear();
            }
            pool.idleBlocks = 0;
            pool.idleBytes = 0;
            result = api.cuMemAlloc(&ptr, classBytes);
        }
        if (result != CUDA_SUCCESS) return result;
    }
    ++pool.inUseBlocks;
    pool.inUseBytes += classBytes;
    return CUDA_SUCCESS;
}

void ContextState::poolFree(CUdeviceptr ptr, std::size_t classBytes) noexcept
{
    std::lock_guard lock(pool.mutex);
    try {
        pool.idle[classBytes].push_back(ptr);
    } catch (...) {
        // No memory for the bookkeeping: give the block back to the driver instead.
        makeCurrentNoThrow();
        reportCudaFailure(driverUnchecked().cuMemFree(ptr), "cuMemFree", "freeing a pooled block");
        --pool.inUseBlocks;
        pool.inUseBytes -= classBytes;
        return;
    }
    ++pool.idleBlocks;
    pool.idleBytes += classBytes;
    --pool.inUseBlocks;
    pool.inUseBytes -= classBytes;
    HandleRegistry::instance().added(HandleKind::PooledMemory, classBytes);
}

void ContextState::trimPool() noexcept
{
    std::lock_guard lock(pool.mutex);
    if (pool.idleBlocks == 0) return;
    makeCurrentNoThrow();
    const DriverApi& api = driverUnchecked();
    for (auto& [bytes, blocks] : pool.idle) {
        for (CUdeviceptr p : blocks) {
            reportCudaFailure(api.cuMemFree(p), "cuMemFree", "trimming the device pool");
            HandleRegistry::instance().removed(HandleKind::PooledMemory, bytes);
        }
    }
    pool.idle.clear();
    pool.idleBlocks = 0;
    pool.idleBytes = 0;
}

ContextRef primaryContext(int ordinal)
{
    // Never destroyed: contexts may be released during static destruction.
    static auto* mutex = new std::mutex;
    static auto* contexts = new std::map<int, std::weak_ptr<ContextState>>;

    const DriverApi& api = driver();
    std::lock_guard lock(*mutex);
    if (ContextRef existing = (*contexts)[ordinal].lock()) return existing;

    const Device dev = Device::get(ordinal);
    auto state = std::make_shared<ContextState>();
    state->ordinal = ordinal;
    state->device = dev.handle();
    state->deviceName = dev.name();
    state->totalMemory = dev.totalMemory();
    state->maxThreadsPerBlock = dev.attribute(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK);
    state->maxBlock = {dev.attribute(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X),
                       dev.attribute(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y),
                       dev.attribute(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z)};
    state->maxGrid = {dev.attribute(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X),
                      dev.attribute(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y),
                      dev.attribute(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z)};
    state->maxSharedOptin = dev.attribute(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN);
    state->clusterLaunch = dev.attribute(CU_DEVICE_ATTRIBUTE_CLUSTER_LAUNCH);
    state->cooperativeLaunch = dev.attribute(CU_DEVICE_ATTRIBUTE_COOPERATIVE_LAUNCH);
    state->multiprocessors = dev.attribute(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
    // Zero-copy staging needs mapped pinned memory whose device alias the kernel can use.
    state->canMapHost = dev.attribute(CU_DEVICE_ATTRIBUTE_CAN_MAP_HOST_MEMORY) != 0 &&
                        dev.attribute(CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING) != 0;

    CUcontext ctx = nullptr;
    CU_CHECK(api.cuDevicePrimaryCtxRetain(&ctx, state->device),
             "retaining the primary context of " + state->describe());
    // From here the destructor releases what was retained.
    state->context = ctx;
    HandleRegistry::instance().added(HandleKind::Context);
    // Set unconditionally: a re-retained primary context can have the handle of the one
    // released before, which this thread may still name as current.
    CU_CHECK(api.cuCtxSetCurrent(ctx), "making the context of " + state->describe() + " current");
    (*contexts)[ordinal] = state;
    return state;
}

} // namespace wb::cuda::detail
