// SPDX-License-Identifier: GPL-3.0-or-later
// Warpbench's <fcntl.h> for NVRTC: a host-only header that kernel files include for their host
// code. It declares nothing: host code cannot run in a kernel, and a use in device code is an error
// at its line (resources/nvrtc, see docs/compiler.md).
#pragma once
#ifndef WB_NVRTC_FCNTL_H
#define WB_NVRTC_FCNTL_H
#endif
