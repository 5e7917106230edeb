// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/cuda/CudaBackend.h"

#include "core/common/Error.h"
#include "core/cuda/Compiler.h"
#include "core/cuda/DeviceBuffer.h"
#include "core/cuda/Event.h"
#include "core/cuda/Kernel.h"
#include "core/cuda/Module.h"
#include "core/cuda/Nvml.h"

#include <algorithm>
#include <array>
#include <map>
#include <vector>

namespace wb::cuda {

namespace {

class CudaBuffer final : public BackendBuffer {
public:
    explicit CudaBuffer(DeviceBuffer buffer)
        : m_buffer(std::move(buffer))
    {
    }
    std::uint64_t address() const noexcept override { return m_buffer.ptr(); }
    std::size_t size() const noexcept override { return m_buffer.size(); }
    DeviceBuffer& buffer() noexcept { return m_buffer; }
    const DeviceBuffer& buffer() const noexcept { return m_buffer; }

private:
    DeviceBuffer m_buffer;
};

class CudaProgram final : public BackendProgram {
public:
    CudaProgram(CompileResult compiled, Module module)
        : m_compiled(std::move(compiled))
        , m_module(std::move(module))
    {
    }
    const CompileResult& compiled() const noexcept override { return m_compiled; }
    const Module& module() const noexcept { return m_module; }
    const Kernel& kernel(const std::string& name)
    {
        auto it = m_kernels.find(name);
        if (it == m_kernels.end()) it = m_kernels.emplace(name, m_module.function(name)).first;
        return it->second;
    }

private:
    CompileResult m_compiled;
    Module m_module;
    std::map<std::string, Kernel, std::less<>> m_kernels;
};

CudaBuffer& cudaBuffer(BackendBuffer& buffer)
{
    auto* b = dynamic_cast<CudaBuffer*>(&buffer);
    if (!b)
        throw Error(Error::Kind::InvalidArgument, "the buffer does not belong to the CUDA backend");
    return *b;
}

const CudaBuffer& cudaBuffer(const BackendBuffer& buffer)
{
    auto* b = dynamic_cast<const CudaBuffer*>(&buffer);
    if (!b)
        throw Error(Error::Kind::InvalidArgument, "the buffer does not belong to the CUDA backend");
    return *b;
}

CudaProgram& cudaProgram(BackendProgram& program)
{
    auto* p = dynamic_cast<CudaProgram*>(&program);
    if (!p)
        throw Error(Error::Kind::InvalidArgument,
                    "the program does not belong to the CUDA backend");
    return *p;
}

} // namespace

CudaBackend::CudaBackend(int device)
    : m_context(Context::primary(device))
    , m_description(describe(m_context.device().ordinal()))
{
    m_arch = m_description.arch;
    try {
        m_pciBusId = m_context.device().pciBusId();
    } catch (const Error&) {
        m_pciBusId.clear(); // conditions() then says why it knows nothing
    }
}

DeviceDescription CudaBackend::describe(int ordinal)
{
    const Device dev = Device::get(ordinal);
    DeviceDescription d;
    d.name = dev.name();
    d.index = dev.ordinal();
    d.arch = dev.arch();
    d.multiprocessors = dev.multiprocessorCount();
    d.totalMemoryBytes = dev.totalMemory();
    d.peakBandwidthGBs = dev.peakBandwidthGBs();
    try {
        d.peakFp32Gflops = dev.peakFp32Gflops();
    } catch (const Error&) {
        // A driver without the clock attribute leaves the FLOP check unchecked (it says so),
        // not the backend unusable.
        d.peakFp32Gflops = 0;
    }
    d.l2CacheBytes =
        static_cast<std::uint64_t>(std::max(0, dev.attribute(CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE)));
    d.driverVersion = Device::driverVersion();
    d.maxDynamicSharedBytes =
        static_cast<std::uint64_t>(std::max(0, dev.maxSharedMemoryPerBlockOptin()));
    return d;
}

CudaBackend::~CudaBackend() = default;

DeviceDescription CudaBackend::device() const
{
    return m_description;
}

CompileResult CudaBackend::compile(const std::string& source, const std::string& sourceName,
                                   const CompileOptions& options)
{
    return Compiler::instance().compile(source, sourceName, options, m_arch);
}

std::unique_ptr<BackendProgram> CudaBackend::load(const CompileResult& compiled)
{
    return std::make_unique<CudaProgram>(compiled, Module::load(m_context, compiled));
}

std::unique_ptr<BackendBuffer> CudaBackend::allocate(std::size_t bytes, std::string_view label)
{
    return std::make_unique<CudaBuffer>(DeviceBuffer::pooled(m_context, bytes, label));
}

void CudaBackend::upload(BackendBuffer& dst, const void* src, std::size_t bytes)
{
    cudaBuffer(dst).buffer().upload(src, bytes);
}

void CudaBackend::download(const BackendBuffer& src, void* dst, std::size_t bytes)
{
    cudaBuffer(src).buffer().download(dst, bytes);
}

void CudaBackend::setConstant(BackendProgram& program, const std::string& symbol, const void* src,
                              std::size_t bytes)
{
    cudaProgram(program).module().setGlobal(symbol, src, bytes);
}

std::size_t CudaBackend::globalSize(BackendProgram& program, const std::string& symbol)
{
    return cudaProgram(program).module().global(symbol).bytes;
}

void CudaBackend::readGlobal(BackendProgram& program, const std::string& symbol, void* dst,
                             std::size_t bytes)
{
    cudaProgram(program).module().getGlobal(symbol, dst, bytes);
}

double CudaBackend::launch(BackendProgram& program, const std::string& kernel,
                           const LaunchConfig& config, std::span<const KernelArgValue> args)
{
    const Kernel& k = cudaProgram(program).kernel(kernel);
    std::vector<KernelArg> converted;
    converted.reserve(args.size());
    for (const KernelArgValue& a : args)
        converted.push_back({a.data, a.size,
                             a.isPointer ? KernelArg::Kind::DevicePointer : KernelArg::Kind::Value,
                             nullptr});
    return k.call(config, converted, nullptr, true);
}

double CudaBackend::timeCopies(const std::function<void()>& copies)
{
    // Synchronous copies from pageable memory may return before their DMA has finished; the
    // end event, recorded after them on the same stream, completes only once it has.
    Event start(m_context), stop(m_context);
    start.record();
    copies();
    stop.record();
    return Event::elapsedMs(start, stop);
}

void CudaBackend::prepareColdLaunch()
{
    m_context.resetPersistingL2Cache();
    if (!m_l2Flush.valid()) {
        const int l2 = m_context.device().attribute(CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE);
        if (l2 <= 0) return;
        // Twice the L2 size: every line of the cache is replaced by the fill.
        m_l2Flush = DeviceBuffer(m_context, 2 * static_cast<std::size_t>(l2), "L2 flush");
    }
    m_l2Flush.fill32(0);
    m_context.synchronize();
}

DeviceConditions CudaBackend::conditions() const
{
    if (m_pciBusId.empty()) {
        DeviceConditions c;
        c.source = "the device's PCI bus id is unknown";
        return c;
    }
    return Nvml::conditions(m_pciBusId);
}

void CudaBackend::submit(BackendProgram& program, const std::string& kernel,
                         const LaunchConfig& config, std::span<const KernelArgValue> args,
                         CUstream stream)
{
    const Kernel& k = cudaProgram(program).kernel(kernel);
    std::vector<KernelArg> converted;
    converted.reserve(args.size());
    for (const KernelArgValue& a : args)
        converted.push_back({a.data, a.size,
                             a.isPointer ? KernelArg::Kind::DevicePointer : KernelArg::Kind::Value,
                             nullptr});
    // Device pointers and values only (no staged transfers): one asynchronous launch.
    k.call(config, converted, stream, false);
}

std::unique_ptr<Backend> makeCudaBackend(int device)
{
    return std::make_unique<CudaBackend>(device);
}

} // namespace wb::cuda
