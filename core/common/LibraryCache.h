// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/common/DynamicLibrary.h"

#include <cstddef>
#include <memory>
#include <string>

namespace wb {

/// Libraries that a long-lived process loads again and again — the CPU emulator's compiled
/// kernels and the sessions' C++ references, one `dlopen` per run — stay loaded for the
/// process's life instead, because a `dlopen`/`dlclose` cycle is not free: with glibc 2.39
/// (Ubuntu 24.04) each cycle of such a library leaks about 72 kB of heap in this process, so a
/// warm runner grew by 72–144 kB per run (docs/runner.md, "Soak").
///
/// A reload must still look like a reload: whoever acquires a library that nobody is using gets
/// its writable data (`.data`, `.bss`, GOT; not the read-only-after-relocation part) as it was
/// right after loading, so `__device__` counters, `static` locals and guard variables start
/// from their initial values on every run, as after a fresh `cuModuleLoad`. Users that hold a
/// library at the same time share its state, exactly as two `dlopen`s of one path would.
///
/// Paths are expected to name immutable files (the compile caches are content-addressed):
/// a library that changes on disk while loaded is not reloaded.
class LibraryCache {
public:
    /// The library at `path`, loaded on first use. On failure: nullptr and `why` says what
    /// dlopen said. Thread-safe.
    static std::shared_ptr<const DynamicLibrary> acquire(const std::string& path, std::string& why);

    /// Libraries kept loaded after their last user has gone; beyond it the least recently
    /// used unused one is closed. Default 64.
    static void setCapacity(std::size_t libraries);
    /// Times a library was restored to its loaded state for a new first user (for tests).
    static std::size_t restoreCount();
};

} // namespace wb
