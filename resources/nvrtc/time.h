// SPDX-License-Identifier: GPL-3.0-or-later
// Warpbench's <time.h> for NVRTC: as <ctime>: the host time functions are not declared
// (resources/nvrtc, see docs/compiler.md).
#pragma once
#ifndef WB_NVRTC_TIME_H
#define WB_NVRTC_TIME_H
#endif
