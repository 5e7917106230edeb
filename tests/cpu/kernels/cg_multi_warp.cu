// SPDX-License-Identifier: GPL-3.0-or-later
// Tiles larger than a warp (the multi-warp reduction idiom): tiles of 64 threads made with
// block_tile_memory scratch, cg::reduce and the scans over them, shfl/any/all across their
// warps, their sync(), and warp tiles partitioned from them.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
namespace cg = cooperative_groups;

__global__ void cg_multi_warp(const int* in, int* out)
{
    __shared__ cg::block_tile_memory<256> scratch;
    __shared__ int staged[256];
    cg::thread_block cta = cg::this_thread_block(scratch);
    cg::thread_block_tile<64> t64 = cg::tiled_partition<64>(cta);
    cg::thread_block_tile<32> t32 = cg::tiled_partition<32>(t64);
    const int v = in[blockIdx.x * cta.size() + cta.thread_rank()];
    int* o = out + 8 * (blockIdx.x * cta.size() + cta.thread_rank());
    o[0] = cg::reduce(t64, v, cg::plus<int>());
    o[1] = cg::inclusive_scan(t64, v);
    o[2] = cg::exclusive_scan(t64, v, cg::greater<int>());
    o[3] = t64.shfl(v, 37);
    o[4] = t64.any(v > 90) * 2 + t64.all(v > -90);
    o[5] = t64.meta_group_rank() * 100 + t64.meta_group_size() * 10 + t32.meta_group_rank();
    staged[cta.thread_rank()] = v;
    t64.sync();
    o[6] = staged[cta.thread_rank() ^ 63];
    o[7] = t64.thread_rank() + 1000 * t64.num_threads();
}
