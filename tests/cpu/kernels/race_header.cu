// SPDX-License-Identifier: GPL-3.0-or-later
// A ticket counter taken in a helper of race_header.cuh while thread 0 resets it with a plain
// store: the race's atomic side is the helper's line (race_header.cuh:8), not the C++ library's
// atomic_base.h where the compare-exchange loop of atomicInc runs. tst_races checks the lines.
#include "race_header.cuh"

__global__ void tickets(unsigned* counter, unsigned* got)
{
    if (threadIdx.x == 0) reset_counter(counter);
    else got[threadIdx.x] = take_ticket(counter, 1000u);
}
