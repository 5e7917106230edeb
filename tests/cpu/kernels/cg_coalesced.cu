// SPDX-License-Identifier: GPL-3.0-or-later
// Coalesced groups in divergent code: a warp-aggregated atomic increment (one atomicAdd per
// group of active lanes, the leader's result shuffled to the others) filtering the positive
// values, and what the groups of a divergent branch look like (sizes, ranks, labeled and
// binary partitions, reductions and scans over them), also in a partial last warp.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
namespace cg = cooperative_groups;

__device__ int atomicAggInc(int* counter)
{
    cg::coalesced_group active = cg::coalesced_threads();
    int prev = 0;
    if (active.thread_rank() == 0) prev = atomicAdd(counter, active.num_threads());
    return active.shfl(prev, 0) + active.thread_rank();
}

__global__ void cg_filter(int* dst, int* count, const int* src, int n)
{
    const int i = threadIdx.x + blockIdx.x * blockDim.x;
    if (i < n && src[i] > 0) dst[atomicAggInc(count)] = src[i];
}

__global__ void cg_coalesced_info(int* out)
{
    const int i = threadIdx.x + blockIdx.x * blockDim.x;
    const int lane = threadIdx.x % 32;
    int* o = out + 8 * i;
    if (lane % 3 == 0) {
        cg::coalesced_group g = cg::coalesced_threads();
        o[0] = g.size();
        o[1] = g.thread_rank();
        cg::coalesced_group odd = cg::labeled_partition(g, lane % 2);
        o[2] = odd.size() * 100 + odd.thread_rank();
        cg::coalesced_group low = cg::binary_partition(g, lane < 16);
        o[3] = low.size() * 100 + low.thread_rank();
        o[4] = cg::reduce(g, lane, cg::plus<int>());
        o[5] = cg::inclusive_scan(g, 1) * 100 + cg::exclusive_scan(g, lane);
        o[6] = static_cast<int>(g.ballot(lane > 10));
        o[7] = g.shfl_down(lane, 1) * 100 + g.shfl_up(lane, 2);
    } else {
        for (int k = 0; k < 8; ++k) o[k] = -1;
    }
}
