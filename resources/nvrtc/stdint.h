// SPDX-License-Identifier: GPL-3.0-or-later
// Warpbench's <stdint.h> for NVRTC: the fixed-width integer types (as <cstdint>)
// (resources/nvrtc, see docs/compiler.md).
#pragma once
#ifndef WB_NVRTC_STDINT_H
#define WB_NVRTC_STDINT_H
#include <cstdint>
#endif
