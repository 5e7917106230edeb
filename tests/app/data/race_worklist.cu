// SPDX-License-Identifier: GPL-3.0-or-later
// A worklist append (race_worklist.wbproj), the idiom of worklist-based graph kernels: each
// thread whose input passes the filter takes a slot with an atomicAdd on count[0] and writes
// its index there. Correct and race-free from the project's inputs; a launch that continued
// from an earlier launch's count would write past the worklist.
__global__ void append(const float* in, int* count, int* worklist, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && in[i] > 0.25f) {
        const int slot = atomicAdd(&count[0], 1);
        worklist[slot] = i;
    }
}
