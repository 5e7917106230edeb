// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/common/KernelInfo.h"
#include "core/session/Session.h"

#include <map>
#include <string>
#include <vector>

namespace wb::session {

/// Which buffer or scalar feeds one parameter.
struct BoundArg {
    std::string param;
    bool isBuffer = false;
    std::size_t index = 0; ///< into Session::buffers or Session::scalars
};

/// Binds parameters to buffers and scalars by name (an explicit `bindings` entry first, else
/// the parameter's own name) and checks them before anything runs: pointer parameters need a
/// buffer, value parameters a scalar, and where the parameter's type names an element type it
/// must be the bound one's (`uint16_t*` is accepted for f16/bf16 buffers, as raw bits; a value
/// parameter of known size must also match in size). Error(Kind::InvalidArgument) names the
/// parameter, e.g. `kernel multiply_them: parameter 'a' is float* but buffer 'a' is f64`.
class Binding {
public:
    static std::vector<BoundArg> bind(const std::vector<KernelParam>& params,
                                      const Session& session,
                                      const std::map<std::string, std::string>& bindings,
                                      const std::string& what);
};

} // namespace wb::session
