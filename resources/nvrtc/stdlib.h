// SPDX-License-Identifier: GPL-3.0-or-later
// Warpbench's <stdlib.h> for NVRTC: malloc, free and abs (as <cstdlib>); the host functions are not
// declared (resources/nvrtc, see docs/compiler.md).
#pragma once
#ifndef WB_NVRTC_STDLIB_H
#define WB_NVRTC_STDLIB_H
#include <cstdlib>
#endif
