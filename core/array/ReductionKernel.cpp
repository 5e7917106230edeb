// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/array/ReductionKernel.h"

#include "core/array/detail/Generator.h"
#include "core/cuda/CompileError.h"
#include "core/cuda/DeviceBuffer.h"
#include "core/cuda/SourceModule.h"

#include <mutex>
#include <utility>

namespace wb::detail {

struct Reduction::Cuda {
    struct Built {
        int device;
        cuda::SourceModule module;
        cuda::Kernel stage1;
        cuda::Kernel stage2;
        int multiprocessors;
        int stage1PerSm;
    };
    std::mutex mutex;
    std::vector<std::unique_ptr<Built>> built;

    const Built& forDevice(const Reduction& r, int device)
    {
        std::lock_guard lock(mutex);
        for (const auto& b : built)
            if (b->device == device) return *b;
        cuda::Context context = cuda::Context::primary(device);
        cuda::SourceModule module(context, r.m_source, {}, r.m_name + ".cu");
        countGeneratedBuild();
        cuda::Kernel stage1 = module.function(r.m_name + "_stage1");
        cuda::Kernel stage2 = module.function(r.m_name + "_stage2");
        const int sms = context.state()->multiprocessors;
        const int perSm = residentBlocksPerSm(stage1.handle());
        built.push_back(std::make_unique<Built>(
            Built{device, std::move(module), std::move(stage1), std::move(stage2), sms, perSm}));
        return *built.back();
    }
};

Reduction::Reduction(ScalarType type, std::string_view neutral, std::string_view reduceExpr,
                     std::string_view mapExpr, std::string_view arguments, std::string_view name,
                     std::string_view preamble)
    : m_type(type)
    , m_name(checkedKernelName(name))
    , m_arguments(parseKernelArguments(arguments))
    , m_source(reductionSource(m_name, m_type, m_arguments, checkedBody("neutral", neutral),
                               checkedBody("reduce_expr", reduceExpr),
                               checkedBody("map_expr", mapExpr), preamble))
    , m_cuda(std::make_unique<Cuda>())
{
}

Reduction::Reduction(Reduction&&) noexcept = default;
Reduction& Reduction::operator=(Reduction&&) noexcept = default;
Reduction::~Reduction() = default;

void Reduction::runCuda(CudaArgs& bound, void* result) const
{
    const Cuda::Built& built = m_cuda->forDevice(*this, bound.device());
    const std::size_t valueBytes = scalarTypeSize(m_type);
    const LaunchConfig first = reductionLaunch(bound.n(), built.multiprocessors, built.stage1PerSm);
    const unsigned blocks = first.grid.x;
    const cuda::Context context = cuda::Context::primary(bound.device());
    // Partials, then the result, in one (pooled) allocation.
    cuda::DeviceBuffer scratch =
        cuda::DeviceBuffer::pooled(context, (blocks + 1) * valueBytes, "reduction partials");
    const CUdeviceptr partials = scratch.ptr();
    const CUdeviceptr out = partials + blocks * valueBytes;
    unsigned long long n = bound.n();
    bound.args().push_back({blocks == 1 ? &out : &partials, sizeof(CUdeviceptr),
                            cuda::KernelArg::Kind::DevicePointer, nullptr});
    bound.args().push_back({&n, sizeof n, cuda::KernelArg::Kind::Value, "unsigned long long"});
    built.stage1.submit(first, bound.args());
    if (blocks > 1) {
        unsigned long long count = blocks;
        const cuda::KernelArg second[] = {
            {&partials, sizeof(CUdeviceptr), cuda::KernelArg::Kind::DevicePointer, nullptr},
            {&out, sizeof(CUdeviceptr), cuda::KernelArg::Kind::DevicePointer, nullptr},
            {&count, sizeof count, cuda::KernelArg::Kind::Value, "unsigned long long"}};
        LaunchConfig config;
        config.block = {kGeneratedBlock, 1, 1};
        built.stage2.submit(config, second);
    }
    scratch.download(result, valueBytes, blocks * valueBytes);
}

std::unique_ptr<BackendProgram> Reduction::load(Backend& backend,
                                                const CompileOptions& options) const
{
    CompileResult result = backend.compile(m_source, m_name + ".cu", options);
    if (!result.ok) throw cuda::CompileError(std::move(result));
    auto program = backend.load(result);
    countGeneratedBuild();
    return program;
}

void Reduction::launch(Backend& backend, BackendProgram& program,
                       std::span<const KernelArgValue> args, std::size_t n, void* result) const
{
    checkBackendArgs(m_name, m_arguments, args);
    const std::size_t valueBytes = scalarTypeSize(m_type);
    const LaunchConfig first = reductionLaunch(n, backend.device().multiprocessors);
    const unsigned blocks = first.grid.x;
    auto partials = backend.allocate(blocks * valueBytes, "reduction partials");
    auto out = backend.allocate(valueBytes, "reduction result");
    const std::uint64_t partialsAddress = partials->address();
    const std::uint64_t outAddress = out->address();
    const unsigned long long count = n;
    std::vector<KernelArgValue> all(args.begin(), args.end());
    all.push_back({blocks == 1 ? &outAddress : &partialsAddress, sizeof(std::uint64_t), true});
    all.push_back({&count, sizeof count, false});
    backend.launch(program, m_name + "_stage1", first, all);
    if (blocks > 1) {
        const unsigned long long partialCount = blocks;
        const KernelArgValue second[] = {{&partialsAddress, sizeof(std::uint64_t), true},
                                         {&outAddress, sizeof(std::uint64_t), true},
                                         {&partialCount, sizeof partialCount, false}};
        LaunchConfig config;
        config.block = {kGeneratedBlock, 1, 1};
        backend.launch(program, m_name + "_stage2", config, second);
    }
    backend.download(*out, result, valueBytes);
}

} // namespace wb::detail
