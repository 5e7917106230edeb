// SPDX-License-Identifier: GPL-3.0-or-later
// Stores ints at an odd byte offset: misaligned for int.
__global__ void misaligned(char* bytes)
{
    int* p = reinterpret_cast<int*>(bytes + 1);
    p[threadIdx.x] = static_cast<int>(threadIdx.x);
}
