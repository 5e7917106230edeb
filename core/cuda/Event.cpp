// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/cuda/Event.h"

#include "core/cuda/CudaError.h"
#include "core/cuda/HandleRegistry.h"
#include "core/cuda/Stream.h"
#include "core/cuda/detail/DriverApi.h"

#include <utility>

namespace wb::cuda {

namespace {
void requireValid(CUevent event)
{
    if (!event) [[unlikely]]
        throw Error(Error::Kind::InvalidArgument, "use of a moved-from wb::cuda::Event");
}
} // namespace

Event::Event(const Context& context, bool timing)
    : m_context(context.state())
{
    const detail::DriverApi& api = detail::driver();
    m_context->makeCurrent();
    CU_CHECK(api.cuEventCreate(&m_event, timing ? CU_EVENT_DEFAULT : CU_EVENT_DISABLE_TIMING),
             "creating an event on " + m_context->describe());
    HandleRegistry::instance().added(HandleKind::Event);
}

Event::Event(Event&& other) noexcept
    : m_context(std::move(other.m_context))
    , m_event(std::exchange(other.m_event, nullptr))
{
}

Event& Event::operator=(Event&& other) noexcept
{
    if (this != &other) {
        release();
        m_context = std::move(other.m_context);
        m_event = std::exchange(other.m_event, nullptr);
    }
    return *this;
}

Event::~Event()
{
    release();
}

void Event::release() noexcept
{
    if (!m_event) return;
    const detail::DriverApi& api = detail::driverUnchecked();
    m_context->makeCurrentNoThrow();
    detail::reportCudaFailure(api.cuEventDestroy(m_event), "cuEventDestroy", "releasing an event");
    HandleRegistry::instance().removed(HandleKind::Event);
    m_event = nullptr;
    m_context.reset();
}

void Event::record(const Stream* stream)
{
    recordOn(stream ? stream->handle() : nullptr);
}

void Event::recordOn(CUstream stream)
{
    requireValid(m_event);
    const detail::DriverApi& api = detail::driverUnchecked();
    CU_CHECK(api.cuEventRecord(m_event, stream), "recording an event on " + m_context->describe());
}

void Event::synchronize() const
{
    requireValid(m_event);
    const detail::DriverApi& api = detail::driverUnchecked();
    CU_CHECK(api.cuEventSynchronize(m_event), "waiting for an event on " + m_context->describe());
}

double Event::elapsedMs(const Event& start, const Event& end)
{
    requireValid(start.m_event);
    requireValid(end.m_event);
    const detail::DriverApi& api = detail::driverUnchecked();
    end.synchronize();
    float ms = 0;
    CU_CHECK(api.cuEventElapsedTime(&ms, start.m_event, end.m_event),
             "measuring the time between two events");
    return static_cast<double>(ms);
}

} // namespace wb::cuda
