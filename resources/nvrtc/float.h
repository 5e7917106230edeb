// SPDX-License-Identifier: GPL-3.0-or-later
// Warpbench's <float.h> for NVRTC: FLT_MAX, DBL_EPSILON ... (as <cfloat>)
// (resources/nvrtc, see docs/compiler.md).
#pragma once
#ifndef WB_NVRTC_FLOAT_H
#define WB_NVRTC_FLOAT_H
#include <cfloat>
#endif
