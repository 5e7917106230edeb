// A kernel file as course code and public samples write them: standard headers for the host
// half that was cut away, helper macros, printf and assert in device code.
#include <algorithm>
#include <assert.h>
#include <cfloat>
#include <climits>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <cuda.h>
#include <cuda_runtime.h>
#include <device_launch_parameters.h>
#include <fstream>
#include <iostream>
#include <limits>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <type_traits>
#include <utility>
#include <vector>

#define BLOCK_SIZE 64
#define IMUL(a, b) __mul24(a, b)

typedef unsigned int uint;

template <typename T> __device__ T clampValue(T v, T lo, T hi)
{
    return std::min(std::max(v, lo), hi);
}

// out[i] = clamp(sqrt(|in[i]|), 0, limit) + i % 3; counts[0] += number of elements.
__global__ void normalise(float* out, const float* in, uint32_t* counts, int n, float limit)
{
    const uint i = IMUL(blockIdx.x, blockDim.x) + threadIdx.x;
    static_assert(std::is_same<uint32_t, unsigned int>::value, "32-bit counters");
    assert(blockDim.x == BLOCK_SIZE);
    if (i >= static_cast<uint>(n)) return;
    float v = std::sqrt(fabsf(in[i]));
    if (!(v < FLT_MAX)) v = std::numeric_limits<float>::max();
    out[i] = clampValue(v, 0.0f, limit) + static_cast<float>(i % 3);
    int64_t one = INT_MAX > 0 ? 1 : 0;
    atomicAdd(counts, static_cast<uint32_t>(one));
    if (i == 0) printf("normalise: %d elements, first %f\n", n, out[0]);
}
