// SPDX-License-Identifier: GPL-3.0-or-later
// grid.sync() in a cooperative launch: every block sums its grid-strided share into partial[],
// the grid synchronises, every block reads all partial sums; then each block doubles its own
// partial sum and, after another grid.sync(), reads them all again.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void cg_grid_sum(const float* in, float* partial, float* out, int n)
{
    cg::grid_group grid = cg::this_grid();
    cg::thread_block cta = cg::this_thread_block();
    __shared__ float s[256];
    float v = 0.0f;
    for (unsigned long long i = grid.thread_rank(); i < static_cast<unsigned long long>(n);
         i += grid.size())
        v += in[i];
    const unsigned r = cta.thread_rank();
    s[r] = v;
    cta.sync();
    for (unsigned st = cta.size() / 2; st > 0; st >>= 1) {
        if (r < st) s[r] += s[r + st];
        cta.sync();
    }
    if (r == 0) partial[blockIdx.x] = s[0];
    grid.sync();
    if (r == 0) {
        float t = 0.0f;
        for (unsigned b = 0; b < gridDim.x; ++b) t += partial[b];
        out[blockIdx.x] = t;
    }
    grid.sync();
    if (r == 0) partial[blockIdx.x] *= 2.0f;
    grid.sync();
    if (r == 0) {
        float t = 0.0f;
        for (unsigned b = 0; b < grid.num_blocks(); ++b) t += partial[b];
        out[gridDim.x + blockIdx.x] = t + (grid.is_valid() ? 0.0f : 1.0e9f);
    }
}

// Block 0 leaves before the grid synchronises: the others would wait for ever.
__global__ void cg_grid_early_exit(float* partial)
{
    if (blockIdx.x == 0) return;
    partial[blockIdx.x] = 1.0f;
    cg::this_grid().sync();
    partial[0] += partial[blockIdx.x];
}
