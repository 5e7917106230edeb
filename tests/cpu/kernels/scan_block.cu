// SPDX-License-Identifier: GPL-3.0-or-later
// Inclusive scan of each block's segment (Hillis–Steele, double buffered), blockDim.x = 128.
__global__ void scan_block(const unsigned* in, unsigned* out, int n)
{
    __shared__ unsigned buf[2][128];
    const int tid = threadIdx.x;
    const int i = blockIdx.x * blockDim.x + tid;
    int src = 0;
    buf[0][tid] = i < n ? in[i] : 0u;
    __syncthreads();
    for (int offset = 1; offset < blockDim.x; offset <<= 1) {
        const int dst = 1 - src;
        buf[dst][tid] = buf[src][tid] + (tid >= offset ? buf[src][tid - offset] : 0u);
        __syncthreads();
        src = dst;
    }
    if (i < n) out[i] = buf[src][tid];
}
