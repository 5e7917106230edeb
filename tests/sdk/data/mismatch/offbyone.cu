// SPDX-License-Identifier: GPL-3.0-or-later
// A 2-D kernel with two planted wrong elements, at (row 1, column 3) and (row 2, column 5).
extern "C" __global__ void fill(int* out, int rows, int cols)
{
    const int c = blockIdx.x * blockDim.x + threadIdx.x;
    const int r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r >= rows || c >= cols) return;
    int v = r * 100 + c;
    if ((r == 1 && c == 3) || (r == 2 && c == 5)) v += 7;
    out[r * cols + c] = v;
}

extern "C" __global__ void fill_reference(int* out, int rows, int cols)
{
    const int c = blockIdx.x * blockDim.x + threadIdx.x;
    const int r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r < rows && c < cols) out[r * cols + c] = r * 100 + c;
}
