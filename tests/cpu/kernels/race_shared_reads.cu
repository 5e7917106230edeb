// SPDX-License-Identifier: GPL-3.0-or-later
// Read-shared words for the race-check tests (tst_races checks line numbers: keep them). The
// detector keeps two reads per word; a third thread's read like two kept ones (same block,
// barrier phase, code and bytes) is not kept. These kernels check that races with such reads
// are still found.

// Every thread of every block reads data[0]; thread `writerThread` of block `writerBlock`
// writes it after its read (-1: nobody), the others never.
__global__ void read_then_write(int* data, int* out, int writerBlock, int writerThread)
{
    const int v = data[0];
    if (static_cast<int>(blockIdx.x) == writerBlock && static_cast<int>(threadIdx.x) == writerThread)
        data[0] = v + 1;
    out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}

// The same through shared memory: every thread reads s[0], thread `writer` then writes it with
// (`synced`) or without a barrier between.
__global__ void shared_read_then_write(int* out, int writer, int synced)
{
    __shared__ int s[1];
    if (threadIdx.x == 0) s[0] = 3;
    __syncthreads();
    const int v = s[0];
    if (synced) __syncthreads();
    if (static_cast<int>(threadIdx.x) == writer) s[0] = v + 1;
    out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}

// Threads 0, 1 and 2 read data[0]; lanes 0 and 1 then sync on their mask and lane 1 writes:
// ordered after lane 0's read, not after lane 2's.
__global__ void partial_mask_write(int* data, int* out)
{
    int v = 0;
    if (threadIdx.x < 3) v = data[0];
    if (threadIdx.x < 2) __syncwarp(0x3u);
    if (threadIdx.x == 1) data[0] = 7;
    out[threadIdx.x] = v;
}
