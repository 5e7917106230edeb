// SPDX-License-Identifier: GPL-3.0-or-later
// CPU emulator stand-in for CUDA's math_constants.h.
#pragma once
#define CUDART_INF_F __builtin_inff()
#define CUDART_NAN_F __builtin_nanf("")
#define CUDART_PI_F 3.141592654f
#define CUDART_PI 3.1415926535897931e+0
#define CUDART_PIO2_F 1.570796327f
#define CUDART_SQRT_2PI_F 2.506628275f
#define CUDART_INF __builtin_inf()
#define CUDART_NAN __builtin_nan("")
#define CUDART_MAX_NORMAL_F 3.402823466e38f
#define CUDART_MIN_DENORM_F 1.401298464e-45f
#define CUDART_ZERO_F 0.0f
#define CUDART_ONE_F 1.0f
