// SPDX-License-Identifier: GPL-3.0-or-later
// Kernels for the race-check tests of what the detector does not record at once (tst_races
// checks line numbers: keep them): buffers reached through `const` pointers, whose reads are not
// recorded unless the launch writes them, and shared-memory accesses held until the end of
// their barrier interval.

// Every thread reads in[0]; thread `writer` of each block writes it through a cast (-1: nobody).
// Thread 0 of block 0 also adds one to in[1], which no other thread touches: no race, added once.
__global__ void const_written(const int* in, int* out, int writer)
{
    const int v = in[0];
    if (static_cast<int>(threadIdx.x) == writer) const_cast<int*>(in)[0] = v + 1;
    if (blockIdx.x == 0 && threadIdx.x == 0) const_cast<int*>(in)[1] += 1;
    out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}

// Thread 0 writes s[0], then every warp syncs, then thread 40 (another warp) reads s[0]: a race
// (no barrier between). The write is checked at the warp sync; the read is held until the
// barrier, where it must still count s[0] as written in its interval.
__global__ void write_sync_read(int* out)
{
    __shared__ int s[64];
    const int t = threadIdx.x;
    if (t == 0) s[0] = 7;
    __syncwarp();
    int v = 0;
    if (t == 40) v = s[0];
    __syncthreads();
    out[blockIdx.x * blockDim.x + t] = v;
}

// Every block reads s in its second interval; only block `writer` (-1: none) also writes s[5]
// there, racing with thread 4's read. A worker that ran another block first has learned that
// the interval writes nothing to s: the write shows it wrong, and the launch runs again.
__global__ void late_writer(int* out, int writer)
{
    __shared__ int s[64];
    const int t = threadIdx.x;
    s[t] = t;
    __syncthreads();
    const int v = s[(t + 1) % 64];
    if (static_cast<int>(blockIdx.x) == writer && t == 0) s[5] = 9;
    __syncthreads();
    out[blockIdx.x * blockDim.x + t] = v + s[t];
}

// Doubles in shared memory (accesses of two words, held like one-word ones): every thread
// writes s[t] and reads its neighbour's, with a barrier between unless `racy`.
__global__ void shared_doubles(double* out, int racy)
{
    __shared__ double s[64];
    const int t = threadIdx.x;
    s[t] = t * 0.5;
    if (!racy) __syncthreads();
    const double v = s[(t + 1) % 64];
    __syncthreads();
    out[blockIdx.x * blockDim.x + t] = v;
}
