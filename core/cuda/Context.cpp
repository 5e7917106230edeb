// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/cuda/Context.h"

#include "core/cuda/CudaError.h"
#include "core/cuda/detail/DriverApi.h"

namespace wb::cuda {

Context Context::primary(int ordinal)
{
    return Context(detail::primaryContext(ordinal));
}

const detail::ContextRef& Context::state() const
{
    if (!m_state) [[unlikely]]
        throw Error(Error::Kind::InvalidArgument, "use of a moved-from wb::cuda::Context");
    return m_state;
}

Device Context::device() const
{
    return Device::get(state()->ordinal);
}
int Context::ordinal() const
{
    return state()->ordinal;
}
CUcontext Context::handle() const
{
    return state()->context;
}
void Context::makeCurrent() const
{
    state()->makeCurrent();
}

void Context::synchronize() const
{
    const detail::ContextState& s = *state();
    s.makeCurrent();
    const detail::DriverApi& api = detail::driverUnchecked();
    CU_CHECK(api.cuCtxSynchronize(), "waiting for the work on " + s.describe());
}

void Context::resetPersistingL2Cache() const
{
    const detail::ContextState& s = *state();
    s.makeCurrent();
    const detail::DriverApi& api = detail::driverUnchecked();
    CU_CHECK(api.cuCtxResetPersistingL2Cache(),
             "resetting the persisting L2 lines of " + s.describe());
}

Context::MemoryInfo Context::memoryInfo() const
{
    const detail::ContextState& s = *state();
    s.makeCurrent();
    const detail::DriverApi& api = detail::driverUnchecked();
    MemoryInfo info;
    CU_CHECK(api.cuMemGetInfo(&info.freeBytes, &info.totalBytes),
             "querying the free memory of " + s.describe());
    return info;
}

void Context::releaseScratch() const
{
    detail::ContextState& s = *state();
    std::lock_guard lock(s.scratchMutex);
    s.releaseScratch();
}

} // namespace wb::cuda
