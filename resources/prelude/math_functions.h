// SPDX-License-Identifier: GPL-3.0-or-later
// CPU emulator stand-in for the CUDA header of this name: everything is in the prelude.
#pragma once
#include "warpbench/cuda_prelude.h"
