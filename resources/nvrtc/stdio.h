// SPDX-License-Identifier: GPL-3.0-or-later
// Warpbench's <stdio.h> for NVRTC: printf (as <cstdio>); the host functions are not declared
// (resources/nvrtc, see docs/compiler.md).
#pragma once
#ifndef WB_NVRTC_STDIO_H
#define WB_NVRTC_STDIO_H
#include <cstdio>
#endif
