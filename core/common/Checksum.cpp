// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/common/Checksum.h"

#include <cstring>

namespace wb {

std::uint64_t fastChecksum(std::string_view data) noexcept
{
    constexpr std::uint64_t kMul = 0x9E3779B97F4A7C15ULL;
    std::uint64_t h = 0xCBF29CE484222325ULL ^ data.size();
    std::size_t i = 0;
    for (; i + 8 <= data.size(); i += 8) {
        std::uint64_t w;
        std::memcpy(&w, data.data() + i, 8);
        h = (h ^ w) * kMul;
        h ^= h >> 29;
    }
    std::uint64_t tail = 0;
    std::memcpy(&tail, data.data() + i, data.size() - i);
    h = (h ^ tail) * kMul;
    h ^= h >> 32;
    return h;
}

} // namespace wb
