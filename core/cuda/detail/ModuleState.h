// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/common/KernelInfo.h"
#include "core/cuda/detail/ContextState.h"

#include <cuda.h>

#include <memory>
#include <vector>

namespace wb::cuda::detail {

/// A loaded module and the kernels the compiler found in it. Kernels share ownership, and the
/// module holds its context: Kernel → Module → Context.
struct ModuleState {
    ContextRef context;
    CUmodule module = nullptr;
    std::vector<KernelInfo> kernels;

    ModuleState() = default;
    ModuleState(const ModuleState&) = delete;
    ModuleState& operator=(const ModuleState&) = delete;
    ~ModuleState();
};

using ModuleRef = std::shared_ptr<ModuleState>;

} // namespace wb::cuda::detail
