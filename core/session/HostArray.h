// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/session/ElementType.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace wb::session {

/// A typed, C-ordered host array of 1–3 dimensions: what buffers hold between the initialiser,
/// the backend, the reference and the diff.
class HostArray {
public:
    HostArray() = default;
    HostArray(ElementType type, std::vector<std::size_t> shape);

    ElementType type() const noexcept { return m_type; }
    const std::vector<std::size_t>& shape() const noexcept { return m_shape; }
    std::size_t count() const noexcept { return m_count; }
    std::size_t bytes() const noexcept { return m_bytes.size(); }
    std::uint8_t* data() noexcept { return m_bytes.data(); }
    const std::uint8_t* data() const noexcept { return m_bytes.data(); }
    template <typename T> T* as() noexcept { return reinterpret_cast<T*>(m_bytes.data()); }
    template <typename T> const T* as() const noexcept
    {
        return reinterpret_cast<const T*>(m_bytes.data());
    }

    double at(std::size_t index) const noexcept { return loadAsDouble(m_type, data(), index); }
    void set(std::size_t index, double value) noexcept
    {
        storeFromDouble(m_type, data(), index, value);
    }
    /// "400" or "64x64x3".
    std::string shapeText() const;
    /// Row-major coordinates of a flat index.
    std::vector<std::size_t> coordinates(std::size_t index) const;

    friend bool operator==(const HostArray&, const HostArray&) = default;

private:
    ElementType m_type = ElementType::F32;
    std::vector<std::size_t> m_shape;
    std::size_t m_count = 0;
    std::vector<std::uint8_t> m_bytes;
};

/// "[3, 4]" style text for shapes in messages.
std::string shapeToText(const std::vector<std::size_t>& shape);

} // namespace wb::session
