// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/common/Diagnostic.h"
#include "core/common/DynamicLibrary.h"
#include "core/common/IncludeScan.h"
#include "core/common/KernelInfo.h"
#include "core/session/Session.h"

#include <memory>
#include <string>
#include <vector>

namespace wb::session {

/// One parameter of the user's C++ reference function, as written in its source.
struct CppParam {
    std::string name;
    std::string type; ///< "const float*", "int"
    bool isPointer = false;
    std::string pointee; ///< "float" for "const float*"; empty for values
};

/// The C++ reference of a session: the user's function compiled by wb::HostCompiler into a
/// shared library, plus a generated extern "C" entry point that unpacks an argument array and
/// calls it. `#line` keeps diagnostics at the user's own lines. Arguments are passed by the
/// caller in parameter order: for pointers the buffer's host address, for values the address of
/// the scalar's bytes (its element type must match the parameter's).
class CppReference {
public:
    struct Build {
        bool ok = false;
        std::vector<Diagnostic> diagnostics;
        std::string log;
        std::string compilerVersion;
        double compileMs = 0;
    };

    /// Parses the parameter list of `function` in `source`; Error(Kind::InvalidArgument) when the
    /// function is not found.
    static std::vector<CppParam> parseParameters(const std::string& source,
                                                 const std::string& function);
    /// A reference with the signature `kernel` needs in session `s`, for an empty reference
    /// editor: the kernel's parameters in order, each bound by name — a buffer as a pointer to
    /// its element type (`const` for an `in` buffer; f16/bf16 as std::uint16_t), a scalar as
    /// the kernel's value type —, then the output globals; a comment saying what it is for and
    /// a loop over the size (the first integer scalar) naming each output, to fill in.
    static std::string stub(const Session& s, const KernelInfo& kernel,
                            const std::string& function = "reference");
    /// The translation unit handed to the compiler.
    static std::string wrapperSource(const std::string& source, const std::string& sourceName,
                                     const std::string& function, std::size_t arity);

    /// Compiles. Throws Error(Kind::Unavailable) when no host compiler is installed; a compile
    /// error is returned in Build (ok = false), never thrown. Quoted includes of the user's
    /// headers resolve as in `includes` (scanIncludes: next to the source, then the project
    /// folder; nothing outside it) and reach the compiler as vetted copies.
    Build compile(const std::string& source, const std::string& sourceName,
                  const std::string& function, const std::vector<std::string>& flags,
                  const IncludePaths& includes = {});
    const std::vector<CppParam>& parameters() const noexcept { return m_params; }

    /// Calls the function; a C++ exception thrown by it becomes Error(Kind::Runtime).
    /// `bytes[i]` is the size of the buffer that pointer argument i points to (0 for a
    /// scalar). Under sandbox::Policy::Confine the call runs in a sealed child process (the
    /// buffers travel through shared memory), so that the reference — a stranger's native
    /// code — cannot reach the machine; a forbidden call, a crash or an exit() in it is an
    /// Error(Kind::Runtime) saying so ("C++ reference attempted openat …").
    void call(const std::vector<void*>& args, const std::vector<std::size_t>& bytes) const;

private:
    std::vector<CppParam> m_params;
    std::string m_function;
    std::shared_ptr<const DynamicLibrary> m_library;
    using Entry = const char* (*)(void**);
    Entry m_entry = nullptr;
};

} // namespace wb::session
