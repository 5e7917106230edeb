// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/common/Error.h"

namespace wb {

const char* errorKindName(Error::Kind kind) noexcept
{
    switch (kind) {
    case Error::Kind::InvalidArgument:
        return "invalid argument";
    case Error::Kind::OutOfMemory:
        return "out of memory";
    case Error::Kind::Unavailable:
        return "unavailable";
    case Error::Kind::ContextLost:
        return "context lost";
    case Error::Kind::Runtime:
        return "runtime error";
    case Error::Kind::Timeout:
        return "timeout";
    case Error::Kind::Cancelled:
        return "cancelled";
    case Error::Kind::Io:
        return "I/O error";
    case Error::Kind::Internal:
        return "internal error";
    }
    return "error";
}

} // namespace wb
