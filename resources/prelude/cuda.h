// SPDX-License-Identifier: GPL-3.0-or-later
// CPU emulator stand-in for the CUDA header of this name (the driver API, which kernel files
// include for their host code): everything device code may use is in the prelude.
#pragma once
#include "warpbench/cuda_prelude.h"
#ifndef CUDA_VERSION
#define CUDA_VERSION 13000
#endif
typedef unsigned long long CUdeviceptr;
