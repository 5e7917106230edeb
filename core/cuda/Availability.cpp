// SPDX-License-Identifier: GPL-3.0-or-later
// wb::cudaUnavailableReason (declared in core/backend/Backend.h) answered by the driver layer.
#include "core/backend/Backend.h"
#include "core/cuda/detail/DriverApi.h"

namespace wb {

std::optional<std::string> cudaUnavailableReason()
{
    const cuda::detail::DriverStatus& status = cuda::detail::driverStatus();
    if (status.state == cuda::detail::DriverStatus::State::Usable) return std::nullopt;
    return status.reason;
}

} // namespace wb
