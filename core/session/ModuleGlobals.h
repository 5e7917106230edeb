// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/common/Diagnostic.h"
#include "core/session/Session.h"

#include <string>
#include <vector>

namespace wb::session {

/// The module globals a kernel source declares, found by reading it (before any compile): what
/// the run needs to warn about a `__constant__` table the kernel reads but the project never
/// sets — it holds zeros, and every output computed from it is silently wrong.
class ModuleGlobals {
public:
    struct Declared {
        std::string name;
        int line = 0;             ///< 1-based, of the declaration
        bool isConstant = false;  ///< __constant__ (else a namespace-scope __device__ variable)
        bool initialised = false; ///< `= ...` or `{...}`: the source gives its value
        bool used = false;        ///< the name appears outside its declaration
    };
    /// Declarations at namespace scope, comments and literals ignored.
    static std::vector<Declared> scan(const std::string& source);
    /// One warning per `__constant__` without an initialiser that the source uses and the
    /// session's `globals` do not set, located at its declaration.
    static std::vector<Diagnostic> unsetConstantWarnings(const std::string& source,
                                                         const std::string& sourceName,
                                                         const Session& session);
};

} // namespace wb::session
