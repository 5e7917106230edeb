// SPDX-License-Identifier: GPL-3.0-or-later
// Cooperative groups in the idioms of a block reduction: a grid-strided sum per thread, warp
// tiles reduced with cg::reduce, the tile leaders meet in shared memory after a block sync, and
// the first tile finishes. cg_tile_ops exercises the reduce/scan operators and the votes and
// shuffles of tiles of 16 in a block whose last warp is half full.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
namespace cg = cooperative_groups;

__global__ void cg_block_sum(const float* in, float* partial, int n)
{
    cg::thread_block cta = cg::this_thread_block();
    cg::thread_block_tile<32> tile = cg::tiled_partition<32>(cta);
    __shared__ float warpSums[32];
    float sum = 0.0f;
    for (int i = blockIdx.x * cta.size() + cta.thread_rank(); i < n; i += gridDim.x * cta.size())
        sum += in[i];
    sum = cg::reduce(tile, sum, cg::plus<float>());
    if (tile.thread_rank() == 0) warpSums[tile.meta_group_rank()] = sum;
    cg::sync(cta);
    if (tile.meta_group_rank() == 0) {
        float v = tile.thread_rank() < tile.meta_group_size() ? warpSums[tile.thread_rank()] : 0.0f;
        v = cg::reduce(tile, v, cg::plus<float>());
        if (tile.thread_rank() == 0) partial[blockIdx.x] = v;
    }
}

__global__ void cg_tile_ops(const int* in, int* out)
{
    cg::thread_block cta = cg::this_thread_block();
    cg::thread_block_tile<16> tile = cg::tiled_partition<16>(cta);
    const int t = blockIdx.x * cta.num_threads() + cta.thread_rank();
    const int v = in[t];
    int* o = out + t * 13;
    o[0] = cg::reduce(tile, v, cg::less<int>());
    o[1] = cg::reduce(tile, v, cg::greater<int>());
    o[2] = cg::reduce(tile, v, cg::bit_and<int>());
    o[3] = cg::reduce(tile, v, cg::bit_or<int>());
    o[4] = cg::reduce(tile, v, cg::bit_xor<int>());
    o[5] = cg::inclusive_scan(tile, v);
    o[6] = cg::exclusive_scan(tile, v);
    o[7] = cg::inclusive_scan(tile, v, cg::greater<int>());
    o[8] = static_cast<int>(tile.ballot(v > 0));
    o[9] = tile.any(v > 900) * 2 + tile.all(v > -900);
    o[10] = tile.shfl(v, 3) + tile.shfl_xor(v, 5) + tile.shfl_down(v, 2) + tile.shfl_up(v, 1);
    o[11] = tile.meta_group_rank() * 1000 + tile.meta_group_size() * 100 + tile.thread_rank();
    o[12] = static_cast<int>(tile.match_any(v & 3));
}
