// SPDX-License-Identifier: GPL-3.0-or-later
// Warpbench's <math.h> for NVRTC: the CUDA math functions (as <cmath>)
// (resources/nvrtc, see docs/compiler.md).
#pragma once
#ifndef WB_NVRTC_MATH_H
#define WB_NVRTC_MATH_H
#include <cmath>
#endif
