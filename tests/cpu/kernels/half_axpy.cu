// SPDX-License-Identifier: GPL-3.0-or-later
#include <cuda_fp16.h>

// y = a * x + y in half precision, one rounding per operation: __hmul_rn keeps the GPU from
// contracting the multiply and the add into one fma (which rounds once).
__global__ void half_axpy(float a, const __half* x, __half* y, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        const __half ha = __float2half(a);
        y[i] = __hadd(__hmul_rn(ha, x[i]), y[i]);
    }
}
