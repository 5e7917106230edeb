// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/backend/Backend.h"

#include <string>

namespace wb::cuda {

/// NVML (libnvidia-ml.so.1), opened at run time like libcuda: the device's current SM and
/// memory clocks and its temperature, recorded with each run. A machine without NVML gets
/// DeviceConditions with the reason in `source`, never an error.
class Nvml {
public:
    /// The conditions of the device at PCI bus id `pciBusId` ("0000:19:00.0") now.
    static DeviceConditions conditions(const std::string& pciBusId) noexcept;
    /// Why NVML cannot be used here (empty when it can); found once per process.
    static const std::string& unavailableReason() noexcept;
};

} // namespace wb::cuda
