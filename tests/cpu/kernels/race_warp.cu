// SPDX-License-Identifier: GPL-3.0-or-later
// Warp-level ordering for the race-check tests (tst_races checks line numbers: keep them).
// warp_sum: the CUDA Programming Guide's warp reduction in shared memory, each step's read and
// write separated by __syncwarp(); `drop` leaves out the __syncwarp() after the read of step
// `drop` (1..5), which makes that read race with the next write.
__global__ void warp_sum(const int* in, int* out, int drop)
{
    __shared__ int s[8 * 48];
    const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    int* t = s + warp * 48; // 32 values and 16 zeros per warp
    t[lane] = in[blockIdx.x * blockDim.x + threadIdx.x];
    if (lane < 16) t[lane + 32] = 0;
    __syncwarp();
    int v = t[lane];
    for (int step = 1, offset = 16; offset > 0; ++step, offset /= 2) {
        v += t[lane + offset];
        if (step != drop) __syncwarp();
        t[lane] = v;
        __syncwarp();
    }
    if (lane == 0) out[blockIdx.x * (blockDim.x / 32) + warp] = v;
}

// Each half of the warp synchronises on its own mask: lane 15 reads what lane 16 wrote and
// lane 31 what lane 0 wrote, neither ordered by the other half's __syncwarp.
__global__ void half_mask(int* out)
{
    __shared__ int s[32];
    const unsigned lane = threadIdx.x;
    s[lane] = lane * 10;
    __syncwarp(lane < 16 ? 0x0000ffffu : 0xffff0000u);
    out[lane] = s[(lane + 1) % 32];
}

// Shuffles and votes are *_sync intrinsics: they order the lanes of their mask too.
__global__ void shuffle_ordered(int* out)
{
    __shared__ int s[32];
    const unsigned lane = threadIdx.x;
    s[lane] = lane + 1;
    const int left = __shfl_sync(0xffffffffu, static_cast<int>(lane), (lane + 31) % 32);
    const unsigned votes = __ballot_sync(0xffffffffu, s[(lane + 1) % 32] > 0);
    out[lane] = left + static_cast<int>(__popc(votes)) + s[(lane + 1) % 32];
}

// More readers of one word than the detector compares: thread 0 (warp 0, its first byte), then
// threads 32 and 33 (warp 1) read s[0] in one phase; warp 1 syncs, then thread 34 writes s[0]. The
// write races with thread 0's read, which the two later reads displaced from the shadow: it goes
// unreported, and the word is counted as crowded instead of silently. (Were thread 0's read like
// the others, of the whole word, the third read would be the one not kept, as a read-shared
// word's, and the race would be reported: race_shared_reads.cu.)
__global__ void crowded(int* out)
{
    __shared__ int s[1];
    if (threadIdx.x == 0) s[0] = 7;
    __syncthreads();
    int v = 0;
    if (threadIdx.x == 0) v = *reinterpret_cast<volatile char*>(s);
    if (threadIdx.x == 32 || threadIdx.x == 33) v = s[0];
    __syncwarp();
    if (threadIdx.x == 34) s[0] = 1;
    out[threadIdx.x] = v;
}
