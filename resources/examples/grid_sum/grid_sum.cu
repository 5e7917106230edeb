// Whole-array sum in one launch with cooperative groups. Every block reduces its grid-strided
// share (warp tiles with cg::reduce, then the tile leaders through shared memory), writes it to
// partial[], and the whole grid synchronises; then the first warp of block 0 adds the per-block
// sums. grid.sync() needs every block resident at once: "cooperative": true in the launch.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

__global__ void grid_sum(const float* in, float* partial, float* total, int n)
{
    cg::grid_group grid = cg::this_grid();
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    __shared__ float warpSums[32];

    float v = 0.0f;
    for (unsigned long long i = grid.thread_rank(); i < static_cast<unsigned long long>(n);
         i += grid.size())
        v += in[i];
    v = cg::reduce(warp, v, cg::plus<float>());
    if (warp.thread_rank() == 0) warpSums[warp.meta_group_rank()] = v;
    block.sync();
    if (warp.meta_group_rank() == 0) {
        v = warp.thread_rank() < warp.meta_group_size() ? warpSums[warp.thread_rank()] : 0.0f;
        v = cg::reduce(warp, v, cg::plus<float>());
        if (warp.thread_rank() == 0) partial[blockIdx.x] = v;
    }

    grid.sync(); // every block's partial sum is written and visible from here on

    if (blockIdx.x == 0 && warp.meta_group_rank() == 0) {
        float s = 0.0f;
        for (unsigned b = warp.thread_rank(); b < gridDim.x; b += warp.size())
            s += partial[b];
        s = cg::reduce(warp, s, cg::plus<float>());
        if (warp.thread_rank() == 0) total[0] = s;
    }
}
