// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <sys/types.h>

#include <vector>

namespace wb {

/// The processes descended from `root` (children, grandchildren, ...), read from /proc.
std::vector<pid_t> descendantsOf(pid_t root);

/// Stops `root` and every process descended from it (SIGSTOP, so that none starts another
/// while the tree is read), then kills them all with SIGKILL. For tools that run helpers of
/// their own: g++ runs cc1plus, as and collect2/ld, and killing g++ alone leaves a cc1plus
/// blocked on its input running on. The caller still reaps `root`; the others are reparented
/// and reaped by init. Never throws.
void killProcessTree(pid_t root) noexcept;

} // namespace wb
