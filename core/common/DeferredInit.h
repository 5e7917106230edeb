// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>

namespace wb {

/// Code in a library that the dynamic loader would run while loading it — constructors
/// (`__attribute__((constructor))`, C++ globals with dynamic initialisation, DT_INIT) and
/// indirect-function resolvers — is code of the library's author running before the caller
/// had a say. Libraries that Warpbench builds from a user's source (the CPU emulator's kernel
/// libraries, C++ references) are therefore patched after linking so that `dlopen` runs
/// none of it: their DT_INIT/DT_INIT_ARRAY (and DT_FINI/DT_FINI_ARRAY) entries are renamed
/// to tags of Warpbench's own that the loader ignores, and libraries with indirect functions
/// (IRELATIVE relocations, STT_GNU_IFUNC definitions) or audit libraries are refused.
/// The constructors run later, through run(), when the caller is ready for user code (inside
/// the sandbox: core/common/Sandbox.h); destructors never run.
class DeferredInit {
public:
    /// Patches the ELF shared library at `path` in place. Returns an empty string on success,
    /// else why the library is refused (or cannot be read), for a compile diagnostic.
    static std::string defer(const std::string& path);
    /// Whether the library at `path` was patched by defer() (false for any other file).
    static bool isDeferred(const std::string& path);
    /// Runs the constructors that defer() moved aside, in the loader's order (DT_INIT, then
    /// DT_INIT_ARRAY), for the library opened as `dlopenHandle`. Does nothing for a library
    /// without deferred constructors.
    static void run(void* dlopenHandle);
};

} // namespace wb
