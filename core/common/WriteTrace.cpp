// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/common/WriteTrace.h"

namespace wb {

namespace {
Dim3 unflatten(std::uint32_t linear, const Dim3& d) noexcept
{
    Dim3 r;
    r.x = linear % d.x;
    r.y = (linear / d.x) % d.y;
    r.z = linear / (d.x * d.y);
    return r;
}
} // namespace

Dim3 WriteTrace::lastBlock(std::size_t i) const noexcept
{
    return unflatten(lastBlockLinear(i), grid);
}
Dim3 WriteTrace::lastThread(std::size_t i) const noexcept
{
    return unflatten(lastThreadLinear(i), block);
}

std::size_t WriteTrace::races() const noexcept
{
    std::size_t n = 0;
    for (std::size_t i = 0; i < count(); ++i)
        n += isRace(i) ? 1 : 0;
    return n;
}

std::size_t WriteTrace::unwritten() const noexcept
{
    std::size_t n = 0;
    for (std::size_t i = 0; i < count(); ++i)
        n += written(i) ? 0 : 1;
    return n;
}

std::size_t WriteTrace::writtenMoreThanOnce() const noexcept
{
    std::size_t n = 0;
    for (std::size_t i = 0; i < count(); ++i)
        n += writes[i] > 1 ? 1 : 0;
    return n;
}

} // namespace wb
