// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/common/Error.h"
#include "core/cuda/DeviceBuffer.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace wb::cuda {

/// A typed array in device memory, up to three dimensions (PyCUDA's GPUArray; its arithmetic is
/// in core/array/ArrayMath.h). Memory comes from the device pool (DevicePool.h). Row-major; shape
/// {n}, {rows, cols} or {depth, rows, cols}. Move-only; passes its device address when given to a
/// kernel.
template <typename T> class DeviceArray {
    static_assert(std::is_trivially_copyable_v<T>,
                  "DeviceArray elements must be trivially copyable");

public:
    using value_type = T;

    DeviceArray() = default;
    DeviceArray(const Context& context, std::initializer_list<std::size_t> shape,
                std::string_view label = "array")
        : m_shape(checkedShape(shape))
        , m_ndim(shape.size())
        , m_buffer(DeviceBuffer::pooled(context, count(m_shape) * sizeof(T), label))
    {
    }
    /// A 1-D array holding a copy of `host`.
    static DeviceArray fromHost(const Context& context, std::span<const T> host,
                                std::string_view label = "array")
    {
        DeviceArray array(context, {host.size()}, label);
        array.upload(host);
        return array;
    }

    /// An array of the same shape in the same context, its contents undefined.
    DeviceArray emptyLike(std::string_view label = "array") const
    {
        if (!m_buffer.valid())
            throw Error(Error::Kind::InvalidArgument,
                        "emptyLike: use of a moved-from or empty DeviceArray");
        return DeviceArray(m_buffer.contextState()->ordinal, m_shape, m_ndim, label);
    }

    std::size_t size() const noexcept { return count(m_shape); }
    std::size_t bytes() const noexcept { return size() * sizeof(T); }
    std::size_t ndim() const noexcept { return m_ndim; }
    /// Extents, outermost first; unused trailing dimensions are 1.
    const std::array<std::size_t, 3>& shape() const noexcept { return m_shape; }
    CUdeviceptr ptr() const noexcept { return m_buffer.ptr(); }
    const DeviceBuffer& buffer() const noexcept { return m_buffer; }
    DeviceBuffer& buffer() noexcept { return m_buffer; }

    /// Copies `host` (exactly size() elements) to the device.
    void upload(std::span<const T> host)
    {
        checkCount("uploading to", host.size());
        m_buffer.upload(host.data(), bytes());
    }
    void download(std::span<T> host) const
    {
        checkCount("downloading from", host.size());
        m_buffer.download(host.data(), bytes());
    }
    std::vector<T> download() const
    {
        std::vector<T> host(size());
        m_buffer.download(host.data(), bytes());
        return host;
    }
    /// Sets every element to `value` (device memset for 1-, 2- and 4-byte types).
    void fill(const T& value)
    {
        if constexpr (sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4) {
            using Word = std::conditional_t<
                sizeof(T) == 1, std::uint8_t,
                std::conditional_t<sizeof(T) == 2, std::uint16_t, std::uint32_t>>;
            Word word;
            std::memcpy(&word, &value, sizeof word);
            if constexpr (sizeof(T) == 1)
                m_buffer.fill8(word);
            else if constexpr (sizeof(T) == 2)
                m_buffer.fill16(word);
            else
                m_buffer.fill32(word);
        } else {
            const std::vector<T> host(size(), value);
            m_buffer.upload(host.data(), bytes());
        }
    }

private:
    DeviceArray(int ordinal, const std::array<std::size_t, 3>& shape, std::size_t ndim,
                std::string_view label)
        : m_shape(shape)
        , m_ndim(ndim)
        , m_buffer(DeviceBuffer::pooled(Context::primary(ordinal), count(shape) * sizeof(T), label))
    {
    }
    static std::array<std::size_t, 3> checkedShape(std::initializer_list<std::size_t> shape)
    {
        if (shape.size() == 0 || shape.size() > 3)
            throw Error(Error::Kind::InvalidArgument,
                        "a DeviceArray has 1 to 3 dimensions, not " + std::to_string(shape.size()));
        std::array<std::size_t, 3> out{1, 1, 1};
        std::size_t i = 0;
        for (std::size_t extent : shape)
            out[i++] = extent;
        return out;
    }
    static std::size_t count(const std::array<std::size_t, 3>& s) noexcept
    {
        return s[0] * s[1] * s[2];
    }
    void checkCount(const char* what, std::size_t n) const
    {
        if (n != size())
            throw Error(Error::Kind::InvalidArgument,
                        std::string(what) + " array '" + m_buffer.label() +
                            "': " + std::to_string(n) + " elements given, the array holds " +
                            std::to_string(size()));
    }

    std::array<std::size_t, 3> m_shape{0, 1, 1};
    std::size_t m_ndim = 1;
    DeviceBuffer m_buffer;
};

} // namespace wb::cuda
