// SPDX-License-Identifier: GPL-3.0-or-later
// Warpbench's <string.h> for NVRTC: memcpy and memset (as <cstring>); the host string functions are
// not declared: calling one from a kernel is an error (resources/nvrtc, see docs/compiler.md).
#pragma once
#ifndef WB_NVRTC_STRING_H
#define WB_NVRTC_STRING_H
#include <cstring>
#endif
