// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/array/detail/CudaArgs.h"

#include "core/common/Error.h"
#include "core/cuda/detail/DriverApi.h"

#include <algorithm>
#include <atomic>

namespace wb::detail {

namespace {
std::atomic<std::uint64_t> g_builds{0};

std::string describe(std::size_t index, const KernelArgument& d)
{
    return "argument " + std::to_string(index + 1) + " '" + d.declaration() + "'";
}
} // namespace

LaunchConfig gridStrideLaunch(std::size_t n, int multiprocessors, int blocksPerSm)
{
    const std::size_t blocks = (n + kGeneratedBlock - 1) / kGeneratedBlock;
    const std::size_t most = static_cast<std::size_t>(std::max(multiprocessors, 1)) *
                             static_cast<std::size_t>(std::max(blocksPerSm, 1));
    LaunchConfig config;
    config.block = {kGeneratedBlock, 1, 1};
    config.grid = {static_cast<unsigned>(std::clamp<std::size_t>(blocks, 1, most)), 1, 1};
    return config;
}

LaunchConfig reductionLaunch(std::size_t n, int multiprocessors, int blocksPerSm)
{
    if (n <= kSinglePassLimit) return gridStrideLaunch(n, 1, 1);
    return gridStrideLaunch(n, multiprocessors, blocksPerSm);
}

int residentBlocksPerSm(CUfunction kernel) noexcept
{
    int perSm = 0;
    const cuda::detail::DriverApi& api = cuda::detail::driverUnchecked();
    if (api.cuOccupancyMaxActiveBlocksPerMultiprocessor(&perSm, kernel, kGeneratedBlock, 0) !=
            CUDA_SUCCESS ||
        perSm < 1)
        return kGeneratedBlocksPerSm;
    return perSm;
}

void countGeneratedBuild() noexcept
{
    g_builds.fetch_add(1, std::memory_order_relaxed);
}

std::uint64_t generatedBuilds() noexcept
{
    return g_builds.load(std::memory_order_relaxed);
}

CudaArgs::CudaArgs(const std::string& kernel, const std::vector<KernelArgument>& declared)
    : m_kernel(kernel)
    , m_declared(declared)
{
    m_args.reserve(declared.size() + 3);
    m_scalars.resize(declared.size() + 3);
    m_ranges.reserve(declared.size());
}

void CudaArgs::fail(const std::string& why) const
{
    throw Error(Error::Kind::InvalidArgument, "kernel '" + m_kernel + "': " + why);
}

const KernelArgument& CudaArgs::next(bool pointer)
{
    const std::size_t index = m_args.size();
    if (index >= m_declared.size())
        fail("takes " + std::to_string(m_declared.size()) + " argument(s), got more");
    const KernelArgument& d = m_declared[index];
    if (d.pointer && !pointer)
        fail(describe(index, d) + " expects a DeviceArray<" + scalarTypeName(d.type) +
             ">, got a scalar");
    if (!d.pointer && pointer) fail(describe(index, d) + " expects a scalar, got a DeviceArray");
    return d;
}

void CudaArgs::addArray(const CUdeviceptr* address, ScalarType element, std::size_t size,
                        std::size_t bytes, int ordinal)
{
    const std::size_t index = m_args.size();
    const KernelArgument& d = next(true);
    if (element != d.type)
        fail(describe(index, d) + " expects a DeviceArray<" + scalarTypeName(d.type) +
             ">, got a DeviceArray<" + scalarTypeName(element) + ">");
    if (ordinal < 0) fail(describe(index, d) + ": the DeviceArray is empty or moved-from");
    if (!m_haveArray) {
        m_haveArray = true;
        m_n = size;
        m_firstArray = index;
        m_device = ordinal;
    } else if (size != m_n) {
        fail(describe(index, d) + " has " + std::to_string(size) + " elements, " +
             describe(m_firstArray, m_declared[m_firstArray]) + " has " + std::to_string(m_n) +
             ": every array of an elementwise call has the same size");
    } else if (ordinal != m_device) {
        fail(describe(index, d) + " is on device " + std::to_string(ordinal) + ", " +
             describe(m_firstArray, m_declared[m_firstArray]) + " on device " +
             std::to_string(m_device));
    }
    const Range r{*address, bytes, !d.isConst};
    for (const Range& o : m_ranges)
        if ((r.written || o.written) && r.begin < o.begin + o.bytes && o.begin < r.begin + r.bytes)
            m_noAlias = false;
    m_ranges.push_back(r);
    m_args.push_back({address, sizeof(CUdeviceptr), cuda::KernelArg::Kind::DevicePointer,
                      scalarTypeName(element)});
}

void CudaArgs::finish()
{
    if (m_args.size() != m_declared.size())
        fail("takes " + std::to_string(m_declared.size()) + " argument(s), got " +
             std::to_string(m_args.size()));
    if (!m_haveArray) fail("needs at least one DeviceArray argument (it gives the element count)");
}

bool checkBackendArgs(const std::string& kernel, const std::vector<KernelArgument>& declared,
                      std::span<const KernelArgValue> args)
{
    const auto fail = [&](const std::string& why) {
        throw Error(Error::Kind::InvalidArgument, "kernel '" + kernel + "': " + why);
    };
    if (args.size() != declared.size())
        fail("takes " + std::to_string(declared.size()) + " argument(s), got " +
             std::to_string(args.size()));
    bool noAlias = true;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const KernelArgument& d = declared[i];
        if (d.pointer != args[i].isPointer)
            fail(describe(i, d) +
                 (d.pointer ? " expects a buffer, got a value" : " expects a value, got a buffer"));
        if (!d.pointer && args[i].size != scalarTypeSize(d.type))
            fail(describe(i, d) + " expects " + std::to_string(scalarTypeSize(d.type)) +
                 " bytes, got " + std::to_string(args[i].size));
        if (!d.pointer) continue;
        std::uint64_t a = 0;
        std::memcpy(&a, args[i].data, sizeof a);
        for (std::size_t j = 0; j < i; ++j) {
            if (!declared[j].pointer || (d.isConst && declared[j].isConst)) continue;
            std::uint64_t b = 0;
            std::memcpy(&b, args[j].data, sizeof b);
            if (a == b) noAlias = false;
        }
    }
    return noAlias;
}

} // namespace wb::detail
