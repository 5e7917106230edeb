// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <string_view>

namespace wb {

/// A fast 64-bit checksum over 8-byte words (multiply-xor), several GB/s: detects truncated or
/// corrupted cache files. Not cryptographic: it does not stand up to someone who wants a
/// collision (the cache folders are private to their user for that).
std::uint64_t fastChecksum(std::string_view data) noexcept;

} // namespace wb
