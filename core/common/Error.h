// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <stdexcept>
#include <string>

namespace wb {

/// The one error family of core. What went wrong, in words a user can act on; the kind lets
/// callers (CLI exit codes, the runner, the GUI) react without parsing text.
class Error : public std::runtime_error {
public:
    enum class Kind {
        InvalidArgument, ///< the caller asked for something impossible (bad launch config, wrong
                         ///< argument type)
        OutOfMemory,     ///< host or device allocation failed
        Unavailable,     ///< a driver, library, device or tool is missing
        ContextLost,     ///< sticky GPU error: the context is unusable, restart required
        Runtime,         ///< a kernel or driver call failed at run time
        Timeout,
        Cancelled,
        Io, ///< files: reading, writing, formats
        Internal,
    };

    Error(Kind kind, const std::string& message)
        : std::runtime_error(message)
        , m_kind(kind)
    {
    }
    Kind kind() const noexcept { return m_kind; }

private:
    Kind m_kind;
};

/// "invalid argument", "out of memory", ... as shown to users.
const char* errorKindName(Error::Kind kind) noexcept;

} // namespace wb
