// SPDX-License-Identifier: GPL-3.0-or-later
// The simple cooperative-groups idiom: one reduction function over any thread_group, used for
// the whole block and for tiles of 16 made at run time, through shared memory with the group's
// sync() between the steps.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__device__ int sumReduction(cg::thread_group g, int* x, int val)
{
    const int lane = g.thread_rank();
    for (int i = g.size() / 2; i > 0; i /= 2) {
        x[lane] = val;
        g.sync();
        if (lane < i) val += x[lane + i];
        g.sync();
    }
    return g.thread_rank() == 0 ? val : -1;
}

__global__ void cg_group_sums(int* out)
{
    extern __shared__ int workspace[];
    cg::thread_block block = cg::this_thread_block();
    const int input = block.thread_rank();
    const int blockSum = sumReduction(block, workspace, input);
    if (block.thread_rank() == 0) out[0] = blockSum;
    block.sync();
    cg::thread_group tile16 = cg::tiled_partition(block, 16);
    const int offset = block.thread_rank() - tile16.thread_rank();
    const int tileSum = sumReduction(tile16, workspace + offset, input);
    if (tile16.thread_rank() == 0) out[1 + block.thread_rank() / 16] = tileSum;
    const dim3 b = block.group_index(), t = block.thread_index(), d = block.dim_threads();
    if (block.thread_rank() == 0)
        out[1 + block.size() / 16] = static_cast<int>(b.x + t.x + d.x * 1000 + block.num_threads());
}
