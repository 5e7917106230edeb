// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/cuda/Kernel.h"

#include "core/cuda/CudaError.h"
#include "core/cuda/detail/DriverApi.h"

#include <algorithm>
#include <cstdio>
#include <cstring>

namespace wb::cuda {

namespace {

constexpr std::size_t kInlineParams = 32;
constexpr std::size_t kTransferAlign = 256;

std::string dimText(const Dim3& d)
{
    // snprintf rather than operator+ chains: GCC 12 -O3 warns falsely (-Wrestrict) on those.
    char text[48];
    std::snprintf(text, sizeof text, "(%u, %u, %u)", d.x, d.y, d.z);
    return text;
}

std::string argText(const KernelArg& arg)
{
    const std::string type = arg.typeName ? arg.typeName : "";
    switch (arg.kind) {
    case KernelArg::Kind::Value:
        return (type.empty() ? "a value" : "a " + type) + " (" + std::to_string(arg.size) +
               " bytes)";
    case KernelArg::Kind::DevicePointer:
        return type.empty() ? "a device pointer" : "a device pointer to " + type;
    case KernelArg::Kind::In:
        return "In(" + (type.empty() ? "data" : type) + ")";
    case KernelArg::Kind::Out:
        return "Out(" + (type.empty() ? "data" : type) + ")";
    case KernelArg::Kind::InOut:
        return "InOut(" + (type.empty() ? "data" : type) + ")";
    }
    return "an argument";
}

} // namespace

Kernel::Kernel(detail::ModuleRef module, CUfunction function, std::string name,
               std::vector<KernelParamSlot> params)
    : m_module(std::move(module))
    , m_function(function)
    , m_name(std::move(name))
    , m_params(std::move(params))
{
    const detail::DriverApi& api = detail::driverUnchecked();
    CU_CHECK(api.cuFuncGetAttribute(&m_maxThreadsPerBlock, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK,
                                    m_function),
             "reading the limits of kernel '" + m_name + "'");
    CU_CHECK(
        api.cuFuncGetAttribute(&m_staticShared, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, m_function),
        "reading the limits of kernel '" + m_name + "'");
    int dynamicLimit = 0;
    CU_CHECK(api.cuFuncGetAttribute(&dynamicLimit, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                    m_function),
             "reading the limits of kernel '" + m_name + "'");
    m_dynamicSharedLimit.store(dynamicLimit, std::memory_order_relaxed);
}

Kernel::Kernel(Kernel&& other) noexcept
    : m_module(std::move(other.m_module))
    , m_function(std::exchange(other.m_function, nullptr))
    , m_name(std::move(other.m_name))
    , m_params(std::move(other.m_params))
    , m_maxThreadsPerBlock(other.m_maxThreadsPerBlock)
    , m_staticShared(other.m_staticShared)
    , m_dynamicSharedLimit(other.m_dynamicSharedLimit.load(std::memory_order_relaxed))
{
}

Kernel& Kernel::operator=(Kernel&& other) noexcept
{
    if (this != &other) {
        m_module = std::move(other.m_module);
        m_function = std::exchange(other.m_function, nullptr);
        m_name = std::move(other.m_name);
        m_params = std::move(other.m_params);
        m_maxThreadsPerBlock = other.m_maxThreadsPerBlock;
        m_staticShared = other.m_staticShared;
        m_dynamicSharedLimit.store(other.m_dynamicSharedLimit.load(std::memory_order_relaxed),
                                   std::memory_order_relaxed);
    }
    return *this;
}

Kernel::~Kernel() = default;

void Kernel::requireValid() const
{
    if (!m_function) [[unlikely]]
        throw Error(Error::Kind::InvalidArgument, "use of a moved-from wb::cuda::Kernel");
}

std::string Kernel::describeLaunch(const LaunchConfig& config) const
{
    std::string text = "launching kernel '" + m_name + "' with grid " + dimText(config.grid) +
                       ", block " + dimText(config.block);
    if (config.sharedBytes) text += ", " + std::to_string(config.sharedBytes) + " bytes shared";
    if (config.hasCluster()) text += ", cluster " + dimText(config.cluster);
    if (config.cooperative) text += ", cooperative";
    return text + " on " + m_module->context->describe();
}

void Kernel::checkConfig(const LaunchConfig& config) const
{
    const detail::ContextState& ctx = *m_module->context;
    const auto fail = [&](const std::string& why) {
        throw Error(Error::Kind::InvalidArgument, describeLaunch(config) + ": " + why);
    };
    const Dim3& b = config.block;
    const Dim3& g = config.grid;
    if (b.x == 0 || b.y == 0 || b.z == 0 || g.x == 0 || g.y == 0 || g.z == 0) [[unlikely]]
        fail("every grid and block dimension must be at least 1");
    if (b.volume() > static_cast<std::uint64_t>(m_maxThreadsPerBlock)) [[unlikely]]
        fail("the block has " + std::to_string(b.volume()) +
             " threads; this kernel allows at most " + std::to_string(m_maxThreadsPerBlock) +
             " threads per block on " + ctx.deviceName);
    const unsigned bd[3] = {b.x, b.y, b.z};
    const unsigned gd[3] = {g.x, g.y, g.z};
    static constexpr const char* axis[3] = {"x", "y", "z"};
    for (int i = 0; i < 3; ++i) {
        if (bd[i] > static_cast<unsigned>(ctx.maxBlock[static_cast<std::size_t>(i)])) [[unlikely]]
            fail(std::string("block.") + axis[i] + " = " + std::to_string(bd[i]) +
                 " exceeds the device's limit of " +
                 std::to_string(ctx.maxBlock[static_cast<std::size_t>(i)]));
        if (gd[i] > static_cast<unsigned>(ctx.maxGrid[static_cast<std::size_t>(i)])) [[unlikely]]
            fail(std::string("grid.") + axis[i] + " = " + std::to_string(gd[i]) +
                 " exceeds the device's limit of " +
                 std::to_string(ctx.maxGrid[static_cast<std::size_t>(i)]));
    }
    if (config.sharedBytes >
        static_cast<unsigned>(m_dynamicSharedLimit.load(std::memory_order_relaxed))) [[unlikely]] {
        const int available = ctx.maxSharedOptin - m_staticShared;
        if (config.sharedBytes > static_cast<unsigned>(std::max(available, 0)))
            fail(std::to_string(config.sharedBytes) +
                 " bytes of dynamic shared memory requested; at most " +
                 std::to_string(std::max(available, 0)) + " are available to this kernel");
        // Opt in to the larger shared memory carve-out once.
        const detail::DriverApi& api = detail::driverUnchecked();
        CU_CHECK(api.cuFuncSetAttribute(m_function, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                        static_cast<int>(config.sharedBytes)),
                 describeLaunch(config));
        m_dynamicSharedLimit.store(static_cast<int>(config.sharedBytes), std::memory_order_relaxed);
    }
    if (config.hasCluster()) {
        const Dim3& c = config.cluster;
        if (!ctx.clusterLaunch) fail("this device does not support thread-block clusters");
        if (c.y == 0 || c.z == 0 || g.x % c.x != 0 || g.y % c.y != 0 || g.z % c.z != 0)
            fail("every grid dimension must be a multiple of the cluster dimension");
    }
    if (config.cooperative) [[unlikely]] {
        if (config.hasCluster()) fail("a cooperative launch cannot use thread-block clusters");
        if (!ctx.cooperativeLaunch) fail("this device does not support cooperative launches");
        // Every block must be resident at once: blocks per SM (occupancy API) × SMs.
        int perSm = 0;
        const detail::DriverApi& api = detail::driverUnchecked();
        CU_CHECK(api.cuOccupancyMaxActiveBlocksPerMultiprocessor(
                     &perSm, m_function, static_cast<int>(b.volume()), config.sharedBytes),
                 describeLaunch(config));
        const std::uint64_t most =
            static_cast<std::uint64_t>(perSm) * static_cast<std::uint64_t>(ctx.multiprocessors);
        if (g.volume() > most)
            fail("the grid cannot be co-resident: a cooperative launch of " +
                 std::to_string(g.volume()) + " blocks asked, at most " + std::to_string(most) +
                 " fit (" + std::to_string(perSm) + " blocks of " + std::to_string(b.volume()) +
                 " threads per SM × " + std::to_string(ctx.multiprocessors) + " SMs)");
    }
}

void Kernel::argError(std::size_t index, const KernelArg& arg, const char* problem) const
{
    const KernelParamSlot& p = m_params[index];
    std::string param = "parameter " + std::to_string(index + 1) + " '" + p.name + "'";
    if (!p.type.empty()) param += " (" + p.type + ")";
    throw Error(Error::Kind::InvalidArgument,
                "kernel '" + m_name + "': " + param + " " + problem + ", got " + argText(arg));
}

void Kernel::checkArgs(std::span<const KernelArg> args) const
{
    if (args.size() != m_params.size()) [[unlikely]] {
        std::string list;
        for (const KernelParamSlot& p : m_params)
            list += (list.empty() ? "" : ", ") + (p.type.empty() ? p.name : p.type + " " + p.name);
        throw Error(Error::Kind::InvalidArgument,
                    "kernel '" + m_name + "' takes " + std::to_string(m_params.size()) +
                        " argument(s) (" + list + "), got " + std::to_string(args.size()));
    }
    for (std::size_t i = 0; i < args.size(); ++i) {
        const KernelArg& a = args[i];
        const KernelParamSlot& p = m_params[i];
        if (a.isPointer()) {
            if ((p.pointerKnown && !p.isPointer) || p.size != sizeof(CUdeviceptr)) [[unlikely]]
                argError(i, a, ("expects a value of " + std::to_string(p.size) + " bytes").c_str());
        } else {
            if (p.pointerKnown && p.isPointer) [[unlikely]]
                argError(i, a,
                         "expects a device pointer (DeviceBuffer, DeviceArray, In/Out/InOut)");
            if (a.size != p.size) [[unlikely]]
                argError(i, a, ("expects " + std::to_string(p.size) + " bytes").c_str());
        }
    }
}

void Kernel::launchUnchecked(const LaunchConfig& config, std::span<const KernelArg> args,
                             CUstream stream) const
{
    const detail::DriverApi& api = detail::driverUnchecked();
    std::array<void*, kInlineParams> inlineParams;
    std::vector<void*> heapParams;
    void** params = inlineParams.data();
    if (args.size() > kInlineParams) [[unlikely]] {
        heapParams.resize(args.size());
        params = heapParams.data();
    }
    for (std::size_t i = 0; i < args.size(); ++i)
        params[i] = const_cast<void*>(args[i].data);

    m_module->context->makeCurrent();
    const Dim3& g = config.grid;
    const Dim3& b = config.block;
    if (config.cooperative) [[unlikely]] {
        CU_CHECK(api.cuLaunchCooperativeKernel(m_function, g.x, g.y, g.z, b.x, b.y, b.z,
                                               config.sharedBytes, stream, params),
                 describeLaunch(config));
        return;
    }
    if (!config.hasCluster()) [[likely]] {
        CU_CHECK(api.cuLaunchKernel(m_function, g.x, g.y, g.z, b.x, b.y, b.z, config.sharedBytes,
                                    stream, params, nullptr),
                 describeLaunch(config));
        return;
    }
    CUlaunchAttribute attribute{};
    attribute.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
    attribute.value.clusterDim.x = config.cluster.x;
    attribute.value.clusterDim.y = config.cluster.y;
    attribute.value.clusterDim.z = config.cluster.z;
    CUlaunchConfig launch{};
    launch.gridDimX = g.x;
    launch.gridDimY = g.y;
    launch.gridDimZ = g.z;
    launch.blockDimX = b.x;
    launch.blockDimY = b.y;
    launch.blockDimZ = b.z;
    launch.sharedMemBytes = config.sharedBytes;
    launch.hStream = stream;
    launch.attrs = &attribute;
    launch.numAttrs = 1;
    CU_CHECK(api.cuLaunchKernelEx(&launch, m_function, params, nullptr), describeLaunch(config));
}

void Kernel::submit(const LaunchConfig& config, std::span<const KernelArg> args,
                    CUstream stream) const
{
    requireValid();
    checkConfig(config);
    checkArgs(args);
    for (const KernelArg& a : args)
        if (a.isTransfer()) [[unlikely]]
            throw Error(Error::Kind::InvalidArgument,
                        "kernel '" + m_name +
                            "': In/Out/InOut arguments need a synchronous call "
                            "(Kernel::call or operator())");
    launchUnchecked(config, args, stream);
}

double Kernel::call(const LaunchConfig& config, std::span<const KernelArg> args, CUstream stream,
                    bool timed) const
{
    requireValid();
    checkConfig(config);
    checkArgs(args);
    const bool transfers =
        std::any_of(args.begin(), args.end(), [](const KernelArg& a) { return a.isTransfer(); });
    if (!transfers && !timed) {
        launchUnchecked(config, args, stream);
        return 0;
    }

    detail::ContextState& ctx = *m_module->context;
    const detail::DriverApi& api = detail::driverUnchecked();
    std::lock_guard lock(ctx.scratchMutex);

    // Layout in one device allocation mirrored by one pinned buffer: In, then InOut, then Out,
    // so that one copy uploads [0, inEnd) and one downloads [outBegin, total).
    std::array<std::size_t, kInlineParams> inlineOffsets{};
    std::array<CUdeviceptr, kInlineParams> inlinePtrs{};
    std::array<KernelArg, kInlineParams> inlineArgs{};
    std::vector<std::size_t> heapOffsets;
    std::vector<CUdeviceptr> heapPtrs;
    std::vector<KernelArg> heapArgs;
    std::size_t* offsets = inlineOffsets.data();
    CUdeviceptr* ptrs = inlinePtrs.data();
    KernelArg* patched = inlineArgs.data();
    if (args.size() > kInlineParams) [[unlikely]] {
        heapOffsets.resize(args.size());
        heapPtrs.resize(args.size());
        heapArgs.resize(args.size());
        offsets = heapOffsets.data();
        ptrs = heapPtrs.data();
        patched = heapArgs.data();
    }
    std::size_t total = 0, inEnd = 0, outBegin = 0;
    for (KernelArg::Kind pass :
         {KernelArg::Kind::In, KernelArg::Kind::InOut, KernelArg::Kind::Out}) {
        if (pass == KernelArg::Kind::InOut) outBegin = total;
        for (std::size_t i = 0; i < args.size(); ++i) {
            if (args[i].kind != pass) continue;
            offsets[i] = total;
            total += (args[i].size + kTransferAlign - 1) / kTransferAlign * kTransferAlign;
        }
        if (pass == KernelArg::Kind::InOut) inEnd = total;
    }

    // Small untimed payloads: the kernel works on mapped pinned memory directly (zero-copy),
    // so the call is one launch and one synchronisation. Timed calls always stage in device
    // memory: the kernel's time must not include reads and writes across the host link.
    const std::size_t zeroCopyLimit = ctx.zeroCopyLimit.load(std::memory_order_relaxed);
    const bool zeroCopy = !timed && ctx.canMapHost && zeroCopyLimit > 0 && total <= zeroCopyLimit;
    if (zeroCopy)
        ctx.ensureMappedScratch();
    else
        ctx.ensureScratch(std::max<std::size_t>(total, 1));
    const detail::Scratch& s = ctx.scratch;
    const CUstream st = stream ? stream : s.stream;
    auto* host = static_cast<unsigned char*>(zeroCopy ? s.mapped : s.host);
    const CUdeviceptr device = zeroCopy ? s.mappedDevice : s.device;

    for (std::size_t i = 0; i < args.size(); ++i) {
        patched[i] = args[i];
        if (!args[i].isTransfer()) continue;
        if (args[i].kind != KernelArg::Kind::Out && args[i].size)
            std::memcpy(host + offsets[i], args[i].data, args[i].size);
        ptrs[i] = device + offsets[i];
        patched[i] = {&ptrs[i], sizeof(CUdeviceptr), KernelArg::Kind::DevicePointer,
                      args[i].typeName};
    }
    if (!zeroCopy && inEnd > 0)
        CU_CHECK(api.cuMemcpyHtoDAsync(device, host, inEnd, st),
                 "copying the In/InOut arguments of kernel '" + m_name + "' to the device");
    if (timed) CU_CHECK(api.cuEventRecord(s.start, st), "timing kernel '" + m_name + "'");
    launchUnchecked(config, {patched, args.size()}, st);
    if (timed) CU_CHECK(api.cuEventRecord(s.stop, st), "timing kernel '" + m_name + "'");
    if (!zeroCopy && total > outBegin)
        CU_CHECK(api.cuMemcpyDtoHAsync(host + outBegin, device + outBegin, total - outBegin, st),
                 "copying the Out/InOut arguments of kernel '" + m_name + "' to the host");
    // Completion of the stream makes the kernel's writes to mapped memory visible here too.
    CU_CHECK(api.cuStreamSynchronize(st), "running kernel '" + m_name + "'");

    for (std::size_t i = 0; i < args.size(); ++i) {
        const KernelArg& a = args[i];
        if ((a.kind == KernelArg::Kind::Out || a.kind == KernelArg::Kind::InOut) && a.size)
            std::memcpy(const_cast<void*>(a.data), host + offsets[i], a.size);
    }
    if (!timed) return 0;
    float ms = 0;
    CU_CHECK(api.cuEventElapsedTime(&ms, s.start, s.stop), "timing kernel '" + m_name + "'");
    return static_cast<double>(ms);
}

} // namespace wb::cuda
