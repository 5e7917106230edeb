// SPDX-License-Identifier: GPL-3.0-or-later
// Partitions of a warp that finish their collectives at different times and then meet again
// at the parent group's sync(): binary_partition of a tile (the even half runs two reductions,
// the odd half one), labeled_partition of the coalesced lanes that did not return (groups of
// different sizes run different numbers of shuffle rounds). After the sync the parent shuffles
// again.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

constexpr int kSmallest = -2147483647 - 1;

// stats: [0] how many odd values, [1] their sum, [2] the sum of the even values, [3] the
// largest even value. first[i]: the value of lane 0 of i's tile, shuffled after the sync.
__global__ void cg_parity_stats(const int* in, int* stats, int* first, int n)
{
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
    for (int base = blockIdx.x * blockDim.x; base < n; base += gridDim.x * blockDim.x) {
        const int i = base + static_cast<int>(block.thread_rank());
        const bool valid = i < n;
        const int v = valid ? in[i] : 0;
        const bool odd = (v & 1) != 0;
        cg::coalesced_group half = cg::binary_partition(tile, odd);
        if (odd) {
            const int sum = cg::reduce(half, v, cg::plus<int>());
            if (half.thread_rank() == 0) {
                atomicAdd(&stats[0], static_cast<int>(half.num_threads()));
                atomicAdd(&stats[1], sum);
            }
        } else {
            const int sum = cg::reduce(half, v, cg::plus<int>());
            const int largest = cg::reduce(half, valid ? v : kSmallest, cg::greater<int>());
            if (half.thread_rank() == 0) {
                atomicAdd(&stats[2], sum);
                atomicMax(&stats[3], largest);
            }
        }
        cg::sync(tile);
        const int lane0 = tile.shfl(v, 0);
        if (valid) first[i] = lane0;
    }
}

// Threads whose bucket is out of range return; the others form a coalesced group, split it by
// bucket and fold each bucket's largest value into maxima. last[i]: the bucket maximum of the
// highest-ranked lane of i's coalesced group, shuffled after the group's sync().
__global__ void cg_bucket_max(const int* bucketOf, const int* values, int* maxima, int* last,
                              int n, int buckets)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n || bucketOf[i] >= buckets) return;
    const int bucket = bucketOf[i];
    cg::coalesced_group active = cg::coalesced_threads();
    cg::coalesced_group same = cg::labeled_partition(active, bucket);
    const int largest = cg::reduce(same, values[i], cg::greater<int>());
    if (same.thread_rank() == 0) atomicMax(&maxima[bucket], largest);
    active.sync();
    last[i] = active.shfl(largest, active.num_threads() - 1);
}
