// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <filesystem>
#include <string>

namespace wb::session::detail {

/// Writes through QSaveFile: either the old file or the complete new one, never a torn one.
void writeFileAtomically(const std::filesystem::path& path, const std::string& bytes);

} // namespace wb::session::detail
