// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/backend/Backend.h"

namespace wb {

const char* backendName(BackendKind kind) noexcept
{
    switch (kind) {
    case BackendKind::Auto:
        return "auto";
    case BackendKind::Cuda:
        return "cuda";
    case BackendKind::Cpu:
        return "cpu";
    }
    return "auto";
}

std::optional<BackendKind> parseBackendKind(std::string_view text) noexcept
{
    if (text == "auto") return BackendKind::Auto;
    if (text == "cuda" || text == "gpu") return BackendKind::Cuda;
    if (text == "cpu") return BackendKind::Cpu;
    return std::nullopt;
}

} // namespace wb
