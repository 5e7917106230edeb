// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

namespace wb::ui {

/// The `warpbench` program: parses the command line, shows the main window (opening a project
/// given as argument), offers recovery of work from a crashed session, and runs the event loop.
/// Options for automation and tests: --autosave-dir, --test-type TEXT (types into the kernel
/// editor once shown), --test-restore (accepts a recovery offer), --test-report FILE (writes the
/// window-shown time and recovery state as JSON), --test-quit (exits after the report).
int runApplication(int argc, char** argv);

} // namespace wb::ui
