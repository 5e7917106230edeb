// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/session/HostArray.h"

#include "core/common/Error.h"

#include <limits>

namespace wb::session {

HostArray::HostArray(ElementType type, std::vector<std::size_t> shape)
    : m_type(type)
    , m_shape(std::move(shape))
{
    std::size_t n = 1;
    for (std::size_t d : m_shape) {
        if (d != 0 && n > std::numeric_limits<std::size_t>::max() / d / elementSize(type))
            throw Error(Error::Kind::OutOfMemory,
                        "array of shape " + shapeToText(m_shape) + " is too large");
        n *= d;
    }
    m_count = n;
    m_bytes.assign(n * elementSize(type), 0);
}

std::string HostArray::shapeText() const
{
    std::string s;
    for (std::size_t i = 0; i < m_shape.size(); ++i) {
        if (i) s += 'x';
        s += std::to_string(m_shape[i]);
    }
    return s;
}

std::vector<std::size_t> HostArray::coordinates(std::size_t index) const
{
    std::vector<std::size_t> c(m_shape.size(), 0);
    for (std::size_t i = m_shape.size(); i-- > 0;) {
        const std::size_t d = m_shape[i] ? m_shape[i] : 1;
        c[i] = index % d;
        index /= d;
    }
    return c;
}

std::string shapeToText(const std::vector<std::size_t>& shape)
{
    std::string s = "[";
    for (std::size_t i = 0; i < shape.size(); ++i) {
        if (i) s += ", ";
        s += std::to_string(shape[i]);
    }
    return s + "]";
}

} // namespace wb::session
