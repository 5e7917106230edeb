// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cctype>
#include <string_view>

namespace wb {

/// `s` without leading and trailing whitespace; a view into `s`.
inline std::string_view trim(std::string_view s) noexcept
{
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front())))
        s.remove_prefix(1);
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back())))
        s.remove_suffix(1);
    return s;
}

/// The part of `path` after its last '/' (all of it when there is none); a view into `path`.
inline std::string_view fileNameOf(std::string_view path) noexcept
{
    const std::size_t slash = path.find_last_of('/');
    return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

} // namespace wb
