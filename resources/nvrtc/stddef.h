// SPDX-License-Identifier: GPL-3.0-or-later
// Warpbench's <stddef.h> for NVRTC: size_t, ptrdiff_t, offsetof (as <cstddef>)
// (resources/nvrtc, see docs/compiler.md).
#pragma once
#ifndef WB_NVRTC_STDDEF_H
#define WB_NVRTC_STDDEF_H
#include <cstddef>
#endif
