// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/common/CompileResult.h"
#include "core/common/Error.h"

namespace wb::cuda {

/// Thrown by the PyCUDA-like SourceModule when its source does not compile (elsewhere a failed
/// compile is a CompileResult, not an exception). Carries the whole result, diagnostics included.
class CompileError : public Error {
public:
    explicit CompileError(CompileResult result);
    const CompileResult& result() const noexcept { return m_result; }

private:
    CompileResult m_result;
};

} // namespace wb::cuda
