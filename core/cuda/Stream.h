// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/cuda/Context.h"

#include <cuda.h>

namespace wb::cuda {

/// A CUDA stream in a context it keeps alive. Move-only.
class Stream {
public:
    /// `nonBlocking`: no implicit ordering with the legacy default stream.
    explicit Stream(const Context& context, bool nonBlocking = true);
    Stream(Stream&& other) noexcept;
    Stream& operator=(Stream&& other) noexcept;
    Stream(const Stream&) = delete;
    Stream& operator=(const Stream&) = delete;
    ~Stream();

    bool valid() const noexcept { return m_stream != nullptr; }
    CUstream handle() const noexcept { return m_stream; }
    /// Waits until all work queued on the stream is done.
    void synchronize() const;
    /// True when all queued work is done.
    bool query() const;
    const detail::ContextRef& contextState() const noexcept { return m_context; }

private:
    void release() noexcept;
    detail::ContextRef m_context;
    CUstream m_stream = nullptr;
};

} // namespace wb::cuda
