// SPDX-License-Identifier: GPL-3.0-or-later
// Warpbench's <limits.h> for NVRTC: CHAR_BIT, INT_MAX ... (as <climits>)
// (resources/nvrtc, see docs/compiler.md).
#pragma once
#ifndef WB_NVRTC_LIMITS_H
#define WB_NVRTC_LIMITS_H
#include <climits>
#endif
