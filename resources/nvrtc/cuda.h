// SPDX-License-Identifier: GPL-3.0-or-later
// Warpbench's <cuda.h> for NVRTC: the driver API is host code, which NVRTC refuses to declare, and
// kernel files include this header for their host code. It gives device code what it may use:
// CUDA_VERSION and the runtime's types (resources/nvrtc, see docs/compiler.md).
#pragma once
#ifndef WB_NVRTC_CUDA_H
#define WB_NVRTC_CUDA_H
#include <cuda_runtime_api.h>
#ifndef CUDA_VERSION
#define CUDA_VERSION CUDART_VERSION
#endif
typedef unsigned long long CUdeviceptr;
#endif
