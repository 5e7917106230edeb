// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
#error                                                                                             \
    "cooperative groups are not supported by the Warpbench CPU emulator; run this kernel on the CUDA backend"
