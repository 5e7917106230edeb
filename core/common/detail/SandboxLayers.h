// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>

namespace wb::sandbox::detail {

/// Defence in depth under the seccomp filter (Sandbox.h), best effort, each layer where the
/// kernel allows it:
/// - Landlock on every thread of the process: no file may be opened, created, removed,
///   renamed, truncated or executed by path (with `allowReadingFiles`, reading stays allowed),
///   no TCP bind or connect (ABI 4), and signals and abstract unix sockets stay inside the
///   process (ABI 6). Descriptors opened before stay usable.
/// - New user, network and IPC namespaces, when the process has one thread (unshare refuses a
///   threaded process a user namespace).
/// Never throws and never refuses: returns one sentence per layer saying what is active and,
/// where a layer is not, why. Called once, by seal(), before the filter goes in.
std::string addDefenceInDepth(bool allowReadingFiles);

} // namespace wb::sandbox::detail
