// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/array/ElementwiseKernel.h"

#include "core/array/detail/Generator.h"
#include "core/cuda/CompileError.h"
#include "core/cuda/SourceModule.h"

#include <mutex>
#include <optional>
#include <utility>

namespace wb {

struct ElementwiseKernel::Cuda {
    struct Built {
        int device;
        cuda::SourceModule module;
        cuda::Kernel plain;
        cuda::Kernel noAlias;
        int multiprocessors;
        int plainPerSm;
        int noAliasPerSm;
    };
    std::mutex mutex;
    std::vector<std::unique_ptr<Built>> built;

    const Built& forDevice(const ElementwiseKernel& k, int device)
    {
        std::lock_guard lock(mutex);
        for (const auto& b : built)
            if (b->device == device) return *b;
        cuda::Context context = cuda::Context::primary(device);
        cuda::SourceModule module(context, k.m_source, {}, k.m_name + ".cu");
        detail::countGeneratedBuild();
        cuda::Kernel plain = module.function(k.m_name);
        cuda::Kernel noAlias = module.function(k.noAliasName());
        const int sms = context.state()->multiprocessors;
        const int plainPerSm = detail::residentBlocksPerSm(plain.handle());
        const int noAliasPerSm = detail::residentBlocksPerSm(noAlias.handle());
        built.push_back(
            std::make_unique<Built>(Built{device, std::move(module), std::move(plain),
                                          std::move(noAlias), sms, plainPerSm, noAliasPerSm}));
        return *built.back();
    }
};

ElementwiseKernel::ElementwiseKernel(std::string_view arguments, std::string_view operation,
                                     std::string_view name, std::string_view preamble)
    : m_name(detail::checkedKernelName(name))
    , m_arguments(parseKernelArguments(arguments))
    , m_operation(detail::checkedBody("operation", operation))
    , m_source(detail::elementwiseSource(m_name, m_arguments, m_operation, preamble))
    , m_cuda(std::make_unique<Cuda>())
{
}

ElementwiseKernel::ElementwiseKernel(ElementwiseKernel&&) noexcept = default;
ElementwiseKernel& ElementwiseKernel::operator=(ElementwiseKernel&&) noexcept = default;
ElementwiseKernel::~ElementwiseKernel() = default;

void ElementwiseKernel::launchBound(detail::CudaArgs& bound, CUstream stream) const
{
    if (bound.n() == 0) return;
    const Cuda::Built& built = m_cuda->forDevice(*this, bound.device());
    unsigned long long n = bound.n();
    bound.args().push_back({&n, sizeof n, cuda::KernelArg::Kind::Value, "unsigned long long"});
    const bool noAlias = bound.noAlias();
    const cuda::Kernel& kernel = noAlias ? built.noAlias : built.plain;
    kernel.submit(detail::gridStrideLaunch(bound.n(), built.multiprocessors,
                                           noAlias ? built.noAliasPerSm : built.plainPerSm),
                  bound.args(), stream);
}

std::unique_ptr<BackendProgram> ElementwiseKernel::load(Backend& backend,
                                                        const CompileOptions& options) const
{
    CompileResult result = backend.compile(m_source, m_name + ".cu", options);
    if (!result.ok) throw cuda::CompileError(std::move(result));
    auto program = backend.load(result);
    detail::countGeneratedBuild();
    return program;
}

double ElementwiseKernel::launch(Backend& backend, BackendProgram& program,
                                 std::span<const KernelArgValue> args, std::size_t n) const
{
    const bool noAlias = detail::checkBackendArgs(m_name, m_arguments, args);
    if (n == 0) return 0;
    std::vector<KernelArgValue> all(args.begin(), args.end());
    const unsigned long long count = n;
    all.push_back({&count, sizeof count, false});
    return backend.launch(program, noAlias ? noAliasName() : m_name,
                          detail::gridStrideLaunch(n, backend.device().multiprocessors), all);
}

} // namespace wb
