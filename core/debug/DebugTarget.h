// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/backend/Backend.h"

#include <filesystem>
#include <string>
#include <vector>

namespace wb::session {
struct Session;
}

namespace wb::debug {

/// A `__shared__` variable of the kernel source, for the debugger's shared-memory view.
struct SharedVariable {
    std::string name;
    bool isExtern = false; ///< `extern __shared__ T name[]`: sized by the launch's sharedBytes
};

/// One launch of a session, prepared for the thread debugger: the kernel built -O0 -g3 for the
/// CPU emulator, and the emulator sandbox's request with the session's inputs (as its result
/// launch would start: inputs initialised, outputs poisoned). Made in a child process
/// (warpbench-cpu-sandbox --prepare-debug) so that neither compiling nor loading a stranger's
/// kernel happens in the window's process.
struct DebugTarget {
    std::filesystem::path workDir; ///< holds `request`, the buffers and `target`
    std::string libraryPath;       ///< the -O0 -g3 kernel library
    std::string sourceName;        ///< the kernel's file name as gdb knows it ("reduction.cu")
    std::string kernel;            ///< "block_sum"
    LaunchConfig launch;
    std::vector<SharedVariable> shared;

    std::filesystem::path requestPath() const { return workDir / "request"; }

    /// Writes/reads `workDir`/target. read() throws Error(Io/InvalidArgument).
    void write() const;
    static DebugTarget read(const std::filesystem::path& workDir);

    /// The `__shared__` declarations of a CUDA source (lexical, comments and literals
    /// ignored).
    static std::vector<SharedVariable> scanShared(const std::string& source);

    /// In this process: compiles `session`'s kernel for debugging and writes the launch's
    /// request into `workDir`. Throws Error; a compile error is Error(InvalidArgument) with the
    /// compiler's diagnostics as text. Called by the sandbox's --prepare-debug mode.
    static DebugTarget prepareHere(const session::Session& session,
                                   const std::filesystem::path& workDir);

    /// In a child process (warpbench-cpu-sandbox --prepare-debug): writes `session` to
    /// `workDir`, prepares it there and reads the result back. Throws Error with the child's
    /// message.
    static DebugTarget prepare(const session::Session& session,
                               const std::filesystem::path& workDir);
};

/// The sandbox's `--prepare-debug SESSION.json BASEDIR WORKDIR [--trusted]` mode (`--trusted`:
/// the user trusts the project's compiler flags, Session::flagsTrusted); returns its exit code.
int prepareDebugMain(int argc, char** argv);

} // namespace wb::debug
