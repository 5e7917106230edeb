// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/cuda/Module.h"

#include "core/cuda/CudaError.h"
#include "core/cuda/HandleRegistry.h"
#include "core/cuda/Kernel.h"
#include "core/cuda/detail/DriverApi.h"

#include <QtCore/QtGlobal>

#include <array>
#include <cstdint>

namespace wb::cuda {

namespace detail {
ModuleState::~ModuleState()
{
    if (!module) return;
    const DriverApi& api = driverUnchecked();
    context->makeCurrentNoThrow();
    reportCudaFailure(api.cuModuleUnload(module), "cuModuleUnload", "unloading a module");
    HandleRegistry::instance().removed(HandleKind::Module);
}
} // namespace detail

Module Module::load(const Context& context, const CompileResult& compiled)
{
    if (!compiled.ok)
        throw Error(Error::Kind::InvalidArgument,
                    "cannot load '" + compiled.sourceName + "': it did not compile");
    if (!compiled.binary.empty())
        return loadImage(context, compiled.binary.data(), compiled.kernels);
    if (!compiled.ptx.empty()) return loadImage(context, compiled.ptx.c_str(), compiled.kernels);
    throw Error(Error::Kind::InvalidArgument,
                "cannot load '" + compiled.sourceName + "': the compile produced no PTX or CUBIN");
}

Module Module::loadImage(const Context& context, const void* image, std::vector<KernelInfo> kernels)
{
    const detail::DriverApi& api = detail::driver();
    auto state = std::make_shared<detail::ModuleState>();
    state->context = context.state();
    state->kernels = std::move(kernels);
    state->context->makeCurrent();

    std::array<char, 8192> errorLog{};
    std::array<CUjit_option, 2> options{CU_JIT_ERROR_LOG_BUFFER,
                                        CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
    std::array<void*, 2> values{
        errorLog.data(), reinterpret_cast<void*>(static_cast<std::uintptr_t>(errorLog.size()))};
    CUmodule module = nullptr;
    const CUresult r = api.cuModuleLoadDataEx(&module, image, static_cast<unsigned>(options.size()),
                                              options.data(), values.data());
    if (r != CUDA_SUCCESS) {
        std::string what = "loading a module on " + state->context->describe();
        if (errorLog[0] != '\0') what += " (JIT log: " + std::string(errorLog.data()) + ")";
        detail::throwCudaError(r, "cuModuleLoadDataEx(&module, image, ...)", what);
    }
    state->module = module;
    HandleRegistry::instance().added(HandleKind::Module);
    return Module(std::move(state));
}

const detail::ModuleState& Module::state() const
{
    if (!m_state) [[unlikely]]
        throw Error(Error::Kind::InvalidArgument, "use of a moved-from wb::cuda::Module");
    return *m_state;
}

const std::vector<KernelInfo>& Module::kernels() const
{
    return state().kernels;
}

Kernel Module::function(const std::string& name) const
{
    const detail::ModuleState& s = state();
    const detail::DriverApi& api = detail::driverUnchecked();
    const KernelInfo* info = nullptr;
    for (const KernelInfo& k : s.kernels)
        if (k.name == name || k.loweredName == name) {
            info = &k;
            break;
        }
    const std::string symbol = info && !info->loweredName.empty() ? info->loweredName : name;

    s.context->makeCurrent();
    CUfunction function = nullptr;
    const CUresult r = api.cuModuleGetFunction(&function, s.module, symbol.c_str());
    if (r == CUDA_ERROR_NOT_FOUND) {
        std::string known;
        for (const KernelInfo& k : s.kernels)
            known += (known.empty() ? "" : ", ") + k.name;
        throw Error(Error::Kind::InvalidArgument,
                    "there is no kernel '" + name + "' in the module" +
                        (known.empty() ? std::string() : "; it has: " + known) +
                        " (templates need a name expression, extern \"C\" avoids mangling)");
    }
    CU_CHECK(r, "finding kernel '" + name + "'");

    // The driver knows each parameter's offset and size (not its type); the compiler's
    // description adds names, types and pointer-ness. The driver's layout is the truth: the
    // description is used only where it agrees with it.
    std::vector<KernelParamSlot> params;
    bool driverKnows = true;
    for (std::size_t i = 0;; ++i) {
        std::size_t offset = 0, size = 0;
        const CUresult q = api.cuFuncGetParamInfo(function, i, &offset, &size);
        if (q == CUDA_ERROR_INVALID_VALUE) break;
        if (q != CUDA_SUCCESS) {
            if (!info) CU_CHECK(q, "reading the parameters of kernel '" + name + "'");
            driverKnows = false;
            break;
        }
        params.push_back({"param" + std::to_string(i), {}, offset, size, false, false});
    }
    if (info) {
        bool agrees = !driverKnows || info->params.size() == params.size();
        for (std::size_t i = 0; agrees && driverKnows && i < params.size(); ++i)
            agrees = info->params[i].size == params[i].size;
        if (agrees) {
            params.clear();
            for (const KernelParam& p : info->params)
                params.push_back({p.name, p.type, p.offset, p.size, true, p.isPointer});
        } else {
            qWarning("warpbench: kernel '%s': the compiler's parameter list disagrees with the "
                     "driver's; checking arguments by size only",
                     name.c_str());
        }
    }
    return Kernel(m_state, function, info ? info->name : name, std::move(params));
}

Module::Global Module::global(const std::string& name) const
{
    const detail::ModuleState& s = state();
    const detail::DriverApi& api = detail::driverUnchecked();
    s.context->makeCurrent();
    Global g;
    const CUresult r = api.cuModuleGetGlobal(&g.ptr, &g.bytes, s.module, name.c_str());
    if (r == CUDA_ERROR_NOT_FOUND)
        throw Error(Error::Kind::InvalidArgument,
                    "there is no __device__ or __constant__ variable '" + name + "' in the module");
    CU_CHECK(r, "finding variable '" + name + "'");
    return g;
}

void Module::setGlobal(const std::string& name, const void* src, std::size_t bytes) const
{
    const Global g = global(name);
    if (bytes != g.bytes)
        throw Error(Error::Kind::InvalidArgument,
                    "setting variable '" + name + "': " + std::to_string(bytes) +
                        " bytes given, it has " + std::to_string(g.bytes));
    const detail::DriverApi& api = detail::driverUnchecked();
    CU_CHECK(api.cuMemcpyHtoD(g.ptr, src, bytes), "setting variable '" + name + "'");
}

void Module::getGlobal(const std::string& name, void* dst, std::size_t bytes) const
{
    const Global g = global(name);
    if (bytes != g.bytes)
        throw Error(Error::Kind::InvalidArgument,
                    "reading variable '" + name + "': " + std::to_string(bytes) +
                        " bytes asked, it has " + std::to_string(g.bytes));
    const detail::DriverApi& api = detail::driverUnchecked();
    CU_CHECK(api.cuMemcpyDtoH(dst, g.ptr, bytes), "reading variable '" + name + "'");
}

} // namespace wb::cuda
