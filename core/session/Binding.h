// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/common/KernelInfo.h"
#include "core/session/Session.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace wb::session {

/// Which buffer or scalar feeds one parameter.
struct BoundArg {
    std::string param;
    bool isBuffer = false;
    std::size_t index = 0; ///< into Session::buffers, Session::scalars or Session::globals
    /// A buffer bound at an element offset ("d_in + RADIUS"): the offset's expression, empty
    /// for none. The runner evaluates it into offsetElements and checks it against the buffer.
    std::string offset;
    std::optional<std::uint64_t> offsetElements; ///< set once evaluated and checked
    /// The C++ reference's parameter takes a module global (Session::globals[index]).
    bool isGlobal = false;
};

/// Binds parameters to buffers and scalars by name (an explicit `bindings` entry first, else
/// the parameter's own name) and checks them before anything runs: pointer parameters need a
/// buffer, value parameters a scalar, and where the parameter's type names an element type it
/// must be the bound one's (`uint16_t*` is accepted for f16/bf16 buffers, as raw bits; a value
/// parameter of known size must also match in size). Error(Kind::InvalidArgument) names the
/// parameter, e.g. `kernel multiply_them: parameter 'a' is float* but buffer 'a' is f64`.
///
/// A binding's target may be `buffer + offset` (see LaunchSpec::bindings); `allowGlobals` lets
/// a pointer parameter take a module global by name (the C++ reference's parameters: a kernel
/// reads its globals by name, never as an argument).
class Binding {
public:
    static std::vector<BoundArg> bind(const std::vector<KernelParam>& params,
                                      const Session& session,
                                      const std::map<std::string, std::string>& bindings,
                                      const std::string& what, bool allowGlobals = false);

    /// "d_in + RADIUS" → {"d_in", "RADIUS"}; "d_in" → {"d_in", ""}; nullopt when the text
    /// before the first '+' is not an identifier or nothing follows it.
    struct Target {
        std::string name;
        std::string offset;
    };
    static std::optional<Target> parseTarget(const std::string& text);
};

} // namespace wb::session
