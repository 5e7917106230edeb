// SPDX-License-Identifier: GPL-3.0-or-later
// Helpers of race_header.cu (tst_races checks their line numbers: keep them), out of line as a
// kernel library's helpers often are.
#pragma once

__device__ __noinline__ unsigned take_ticket(unsigned* counter, unsigned limit)
{
    return atomicInc(counter, limit);
}

__device__ __noinline__ void reset_counter(unsigned* counter)
{
    counter[0] = 0;
}
