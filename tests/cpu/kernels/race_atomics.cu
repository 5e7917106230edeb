// SPDX-License-Identifier: GPL-3.0-or-later
// Fences, atomics and scopes for the race-check tests (tst_races checks line numbers: keep them).
#include <cuda/atomic>

__device__ unsigned int retired = 0;

// Each block sums its part, publishes the partial sum and takes a ticket; the block that takes
// the last ticket sums the partials (CUDA's threadFenceReduction idiom). With `fenced` the
// partial is written before a __threadfence() and the ticket's atomicInc: correct. Without it,
// the last block's reads of the partials race with their writes.
__global__ void fence_sum(const float* in, float* partial, float* total, int fenced)
{
    __shared__ float s[128];
    __shared__ bool amLast;
    const unsigned t = threadIdx.x;
    s[t] = in[blockIdx.x * blockDim.x + t];
    __syncthreads();
    for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {
        if (t < stride) s[t] += s[t + stride];
        __syncthreads();
    }
    if (t == 0) {
        partial[blockIdx.x] = s[0];
        if (fenced) __threadfence();
        const unsigned ticket = atomicInc(&retired, gridDim.x);
        amLast = ticket == gridDim.x - 1;
    }
    __syncthreads();
    if (amLast) {
        float sum = 0.0f;
        for (unsigned b = t; b < gridDim.x; b += blockDim.x)
            sum += partial[b];
        s[t] = sum;
        __syncthreads();
        for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {
            if (t < stride) s[t] += s[t + stride];
            __syncthreads();
        }
        if (t == 0) {
            total[0] = s[0];
            retired = 0;
        }
    }
}

// Block 0 publishes data[0..3] through a flag, block 1 reads them once it sees the flag.
// mode 0: relaxed store, relaxed load (races); 1: release store, acquire load; 2: release
// store, relaxed load (races); 3: relaxed atomics between a release fence and an acquire fence;
// 4: release/acquire at block scope, across blocks (races); 5: seq_cst (cuda::atomic default).
__global__ void publish(int* data, int* flag, int* seen, int mode)
{
    if (threadIdx.x != 0) return;
    cuda::atomic_ref<int, cuda::thread_scope_device> f(*flag);
    cuda::atomic_ref<int, cuda::thread_scope_block> fb(*flag);
    if (blockIdx.x == 0) {
        for (int i = 0; i < 4; ++i)
            data[i] = 10 + i;
        if (mode == 0) f.store(1, cuda::memory_order_relaxed);
        if (mode == 1 || mode == 2) f.store(1, cuda::memory_order_release);
        if (mode == 3) {
            cuda::atomic_thread_fence(cuda::memory_order_release, cuda::thread_scope_device);
            f.store(1, cuda::memory_order_relaxed);
        }
        if (mode == 4) fb.store(1, cuda::memory_order_release);
        if (mode == 5) f = 1;
    } else {
        int up = 0;
        if (mode == 0 || mode == 2 || mode == 3) up = f.load(cuda::memory_order_relaxed);
        if (mode == 1) up = f.load(cuda::memory_order_acquire);
        if (mode == 3) cuda::atomic_thread_fence(cuda::memory_order_acquire);
        if (mode == 4) up = fb.load(cuda::memory_order_acquire);
        if (mode == 5) up = f;
        if (up) seen[0] = data[0] + data[1] + data[2] + data[3];
    }
}

// Scoped atomics: mode 0: atomicAdd_block on one word from every block (block scope does not
// reach other blocks: a race); 1: atomicAdd_system; 2: atomicAdd_block on a word per block.
__global__ void scoped_count(int* count, int mode)
{
    if (mode == 0) atomicAdd_block(&count[0], 1);
    if (mode == 1) atomicAdd_system(&count[0], 1);
    if (mode == 2) atomicAdd_block(&count[blockIdx.x], 1);
}

// A block-scope cuda::atomic in shared memory: thread 0 sets it, every thread adds to it
// between barriers, then every thread reads it. No race; out[block] = blockDim.x.
__global__ void shared_counter(int* out)
{
    __shared__ cuda::atomic<int, cuda::thread_scope_block> count;
    if (threadIdx.x == 0) count.store(0, cuda::memory_order_relaxed);
    __syncthreads();
    count.fetch_add(1, cuda::memory_order_relaxed);
    __syncthreads();
    if (threadIdx.x == blockDim.x - 1) out[blockIdx.x] = count.load();
}

// A spin lock around a plain update: lane 0 of every warp takes the lock with atomicCAS, adds
// to total[0], and frees it with atomicExch. With `fenced` a __threadfence() before the release
// publishes the update to the next holder; without it the updates race.
__global__ void locked_sum(int* lock, int* total, int fenced)
{
    if (threadIdx.x % 32 != 0) return;
    while (atomicCAS(lock, 0, 1) != 0) {
    }
    total[0] += 1;
    if (fenced) __threadfence();
    atomicExch(lock, 0);
}
