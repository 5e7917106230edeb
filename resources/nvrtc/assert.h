// SPDX-License-Identifier: GPL-3.0-or-later
// Warpbench's <assert.h> for NVRTC: assert (as <cassert>)
// (resources/nvrtc, see docs/compiler.md).
#pragma once
#ifndef WB_NVRTC_ASSERT_H
#define WB_NVRTC_ASSERT_H
#include <cassert>
#endif
