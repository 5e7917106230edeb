// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/common/Error.h"
#include "core/cuda/Device.h"
#include "core/cuda/detail/ContextState.h"

#include <cuda.h>

#include <cstddef>

namespace wb::cuda {

/// The retained primary context of one device. Move-only; every handle created in it
/// (DeviceBuffer, Module, Kernel, Stream, Event, PinnedHostBuffer) shares ownership of the
/// context, so it stays alive until the last of them is gone, whatever the destruction order.
class Context {
public:
    struct MemoryInfo {
        std::size_t freeBytes = 0;
        std::size_t totalBytes = 0;
    };

    /// The primary context of device `ordinal`; throws wb::Error (Unavailable) with the reason
    /// when CUDA is not usable here.
    static Context primary(int ordinal = 0);
    static Context primary(const Device& device) { return primary(device.ordinal()); }

    Context(Context&&) noexcept = default;
    Context& operator=(Context&&) noexcept = default;
    Context(const Context&) = delete;
    Context& operator=(const Context&) = delete;
    ~Context() = default;

    /// Another handle to the same context (it keeps the context alive as this one does), for
    /// objects that must hold their context themselves.
    Context share() const { return Context(state()); }

    /// False for a moved-from Context.
    bool valid() const noexcept { return m_state != nullptr; }
    Device device() const;
    int ordinal() const;
    CUcontext handle() const;

    /// Makes the context current on this thread.
    void makeCurrent() const;
    /// Waits for all work in the context.
    void synchronize() const;
    MemoryInfo memoryInfo() const;
    /// Resets every persisting L2 line to normal (cuCtxResetPersistingL2Cache): a kernel that
    /// set an access policy window cannot keep data in L2 for the next timed launch.
    void resetPersistingL2Cache() const;
    /// Frees the pooled device, pinned and mapped pinned memory used by In/Out/InOut calls
    /// (they are made again on the next such call).
    void releaseScratch() const;

    /// The shared state; dependent handles keep a copy.
    const detail::ContextRef& state() const;

private:
    explicit Context(detail::ContextRef state)
        : m_state(std::move(state))
    {
    }
    detail::ContextRef m_state;
};

} // namespace wb::cuda
