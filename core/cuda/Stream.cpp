// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/cuda/Stream.h"

#include "core/cuda/CudaError.h"
#include "core/cuda/HandleRegistry.h"
#include "core/cuda/detail/DriverApi.h"

#include <utility>

namespace wb::cuda {

Stream::Stream(const Context& context, bool nonBlocking)
    : m_context(context.state())
{
    const detail::DriverApi& api = detail::driver();
    m_context->makeCurrent();
    CU_CHECK(
        api.cuStreamCreate(&m_stream, nonBlocking ? CU_STREAM_NON_BLOCKING : CU_STREAM_DEFAULT),
        "creating a stream on " + m_context->describe());
    HandleRegistry::instance().added(HandleKind::Stream);
}

Stream::Stream(Stream&& other) noexcept
    : m_context(std::move(other.m_context))
    , m_stream(std::exchange(other.m_stream, nullptr))
{
}

Stream& Stream::operator=(Stream&& other) noexcept
{
    if (this != &other) {
        release();
        m_context = std::move(other.m_context);
        m_stream = std::exchange(other.m_stream, nullptr);
    }
    return *this;
}

Stream::~Stream()
{
    release();
}

void Stream::release() noexcept
{
    if (!m_stream) return;
    const detail::DriverApi& api = detail::driverUnchecked();
    m_context->makeCurrentNoThrow();
    detail::reportCudaFailure(api.cuStreamDestroy(m_stream), "cuStreamDestroy",
                              "releasing a stream");
    HandleRegistry::instance().removed(HandleKind::Stream);
    m_stream = nullptr;
    m_context.reset();
}

void Stream::synchronize() const
{
    if (!m_stream)
        throw Error(Error::Kind::InvalidArgument, "use of a moved-from wb::cuda::Stream");
    const detail::DriverApi& api = detail::driverUnchecked();
    CU_CHECK(api.cuStreamSynchronize(m_stream), "waiting for a stream on " + m_context->describe());
}

bool Stream::query() const
{
    if (!m_stream)
        throw Error(Error::Kind::InvalidArgument, "use of a moved-from wb::cuda::Stream");
    const detail::DriverApi& api = detail::driverUnchecked();
    const CUresult r = api.cuStreamQuery(m_stream);
    if (r == CUDA_ERROR_NOT_READY) return false;
    CU_CHECK(r, "querying a stream on " + m_context->describe());
    return true;
}

} // namespace wb::cuda
