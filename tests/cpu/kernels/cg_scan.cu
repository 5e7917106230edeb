// SPDX-License-Identifier: GPL-3.0-or-later
// A block-wide inclusive scan in the shuffle-scan idiom with cooperative groups: each warp tile
// scans with shfl_up, the warp totals go to shared memory, the first warp scans them with
// cg::exclusive_scan, and every thread adds its warp's offset.
#include <cooperative_groups.h>
#include <cooperative_groups/scan.h>
namespace cg = cooperative_groups;

__global__ void cg_block_scan(const int* in, int* out, int n)
{
    cg::thread_block cta = cg::this_thread_block();
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(cta);
    __shared__ int sums[32];
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = i < n ? in[i] : 0;
    for (int d = 1; d < 32; d <<= 1) {
        const int t = warp.shfl_up(v, d);
        if (warp.thread_rank() >= d) v += t;
    }
    if (warp.thread_rank() == 31) sums[warp.meta_group_rank()] = v;
    cta.sync();
    if (warp.meta_group_rank() == 0) {
        int s = warp.thread_rank() < warp.meta_group_size() ? sums[warp.thread_rank()] : 0;
        s = cg::exclusive_scan(warp, s);
        if (warp.thread_rank() < warp.meta_group_size()) sums[warp.thread_rank()] = s;
    }
    cta.sync();
    v += sums[warp.meta_group_rank()];
    if (i < n) out[i] = v;
}
