// SPDX-License-Identifier: GPL-3.0-or-later
// cooperative_groups/reduce.h for Warpbench's CPU emulator: everything lives in
// cooperative_groups.h.
#pragma once

#include "cooperative_groups.h"
