// SPDX-License-Identifier: GPL-3.0-or-later
// A two-launch program (race_guard.wbproj): a guard kernel counts the large inputs with a plain
// += (every thread that finds one reads and writes count[0]: a race), then the main kernel
// scales the data (race-free). tst_cli_races checks that the guard's race is reported though
// it is not the last launch.
__global__ void count_large(const float* in, int* count, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && in[i] > 0.5f) count[0] += 1;
}

__global__ void scale(const float* in, float* out, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = 2.0f * in[i];
}

// A guarded update (race_guard_max.wbproj): a thread writes best[0] only while it is smaller
// than its value, unsynchronised (a race). Once best[0] holds the maximum no thread writes:
// the race happens in the run's first launch only, not in a later one that starts from its
// result.
__global__ void raise_max(const float* in, float* best, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && best[0] < in[i]) best[0] = in[i];
}
