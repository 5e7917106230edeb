// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/cuda/Context.h"

#include <cuda.h>

namespace wb::cuda {

class Stream;

/// A CUDA event in a context it keeps alive. Move-only.
class Event {
public:
    /// `timing` false creates a cheaper event that cannot measure time.
    explicit Event(const Context& context, bool timing = true);
    Event(Event&& other) noexcept;
    Event& operator=(Event&& other) noexcept;
    Event(const Event&) = delete;
    Event& operator=(const Event&) = delete;
    ~Event();

    bool valid() const noexcept { return m_event != nullptr; }
    CUevent handle() const noexcept { return m_event; }
    /// Records the event on `stream` (the legacy default stream when null).
    void record(const Stream* stream = nullptr);
    void recordOn(CUstream stream);
    void synchronize() const;
    /// Milliseconds between two recorded events (waits for `end`).
    static double elapsedMs(const Event& start, const Event& end);
    const detail::ContextRef& contextState() const noexcept { return m_context; }

private:
    void release() noexcept;
    detail::ContextRef m_context;
    CUevent m_event = nullptr;
};

} // namespace wb::cuda
