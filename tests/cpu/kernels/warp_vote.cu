// SPDX-License-Identifier: GPL-3.0-or-later
// Warp votes, a butterfly (xor) all-reduce, and __syncthreads_count.
__global__ void warp_vote(const int* in, unsigned* ballots, int* sums, int* counts)
{
    const int t = blockIdx.x * blockDim.x + threadIdx.x;
    const int v = in[t];
    const unsigned ballot = __ballot_sync(0xffffffff, v > 0);
    int s = v;
    for (int m = 16; m > 0; m >>= 1) s += __shfl_xor_sync(0xffffffff, s, m);
    const int positive = __syncthreads_count(v > 0);
    const int lane = threadIdx.x % 32;
    if (lane == 0) ballots[t / 32] = ballot;
    sums[t] = s + (__any_sync(0xffffffff, v > 100) ? 1000000 : 0) + (__all_sync(0xffffffff, v > -100) ? 0 : 2000000);
    if (threadIdx.x == 0) counts[blockIdx.x] = positive;
}
