// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>
#include <sys/types.h>
#include <vector>

namespace wb {

/// Where a spawned child's descriptors lead: some to its end of a socketpair (the requests and
/// answers), some to the write end of a pipe that carries what it prints, stdin optionally to
/// /dev/null. Used by the runner client (core/runner) and the race-check sandbox server
/// (core/cpu), whose children are laid out differently.
struct ChildLayout {
    std::vector<int> socketAt;    ///< the child's descriptors that are its end of the socket
    std::vector<int> outputAt;    ///< the child's descriptors that write into the output pipe
    bool nullStdin = false;       ///< descriptor 0 reads /dev/null
    bool ownProcessGroup = false; ///< a fresh process group (the terminal's Ctrl-C is ours)
    bool searchPath = false;      ///< argv[0] looked up in $PATH (posix_spawnp)
};

/// The parent's side of a spawned child: its pid, the parent's end of the socket and the read
/// end of the output pipe, both close-on-exec and non-blocking. The caller owns the
/// descriptors and reaps the pid.
struct SpawnedChild {
    pid_t pid = -1;
    int socket = -1;
    int output = -1;
};

/// Spawns argv (signal mask empty, every signal at its default) with `environment` (nullptr:
/// this process's environment). Throws Error(Unavailable) naming `what` when the socketpair,
/// the pipe or the spawn fails; nothing is left open then.
SpawnedChild spawnChild(const std::vector<std::string>& argv,
                        const std::vector<std::string>* environment, const ChildLayout& layout,
                        const std::string& what);

} // namespace wb
