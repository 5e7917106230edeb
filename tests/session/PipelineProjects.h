// SPDX-License-Identifier: GPL-3.0-or-later
// Two pipeline projects shared by tst_pipeline (CPU emulator) and tst_pipeline_gpu (CUDA): a
// bitonic sort over loop variables j and k, and a scan in three kernels (block scans, a scan
// of the block sums, the sums added back).
#pragma once

namespace wb::test {

/// n = 256 keys, one bitonic_step launch per (k, j): k = 2, 4, ... 256, j = k/2 ... 1, i.e.
/// 1 + 2 + ... + 8 = 36 launches per pass, j and k bound to the kernel's parameters.
inline constexpr const char* kBitonicProject = R"json({
  "schemaVersion": 1,
  "name": "bitonic",
  "kernel": {"source": "__global__ void bitonic_step(float* keys, unsigned int j, unsigned int k)\n{\n    const unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;\n    const unsigned int partner = i ^ j;\n    if (partner <= i) return;\n    const bool up = (i & k) == 0;\n    const float a = keys[i], b = keys[partner];\n    if ((a > b) == up) { keys[i] = b; keys[partner] = a; }\n}\n"},
  "scalars": [{"name": "n", "type": "u32", "value": 256}],
  "buffers": [{"name": "keys", "type": "f32", "shape": ["n"], "role": "inout",
               "init": {"kind": "uniform", "low": -10, "high": 10, "seed": 4}}],
  "launches": [
    {"kernel": "bitonic_step", "grid": ["n/64"], "block": [64],
     "repeat": [{"var": "k", "type": "u32", "from": 2, "to": "n", "times": 2},
                {"var": "j", "type": "u32", "from": "k/2", "to": 1, "divide": 2}]}
  ],
  "launch": {"warmup": 1, "iterations": 2, "backend": "cpu"},
  "reference": {"kind": "cpp", "source": "#include <algorithm>\nvoid reference(unsigned int n, float* keys) { std::sort(keys, keys + n); }\n"},
  "tolerance": {"atol": 0, "rtol": 0}
})json";

/// An inclusive scan of n = 1000 ints in blocks of 64: scan_block scans each block in shared
/// memory and writes its total to `sums` (an `in` buffer used as scratch), scan_sums scans the
/// 16 totals in one block, add_sums adds the earlier blocks' total to each element.
inline constexpr const char* kScanProject = R"json({
  "schemaVersion": 1,
  "name": "scan",
  "kernel": {"source": "__global__ void scan_block(const int* in, int* out, int* sums, int n)\n{\n    extern __shared__ int s[];\n    const int t = threadIdx.x;\n    const int i = blockIdx.x * blockDim.x + t;\n    s[t] = i < n ? in[i] : 0;\n    __syncthreads();\n    for (int offset = 1; offset < blockDim.x; offset *= 2) {\n        const int v = t >= offset ? s[t - offset] : 0;\n        __syncthreads();\n        s[t] += v;\n        __syncthreads();\n    }\n    if (i < n) out[i] = s[t];\n    if (t == blockDim.x - 1) sums[blockIdx.x] = s[t];\n}\n__global__ void scan_sums(int* sums, int count)\n{\n    extern __shared__ int s[];\n    const int t = threadIdx.x;\n    s[t] = t < count ? sums[t] : 0;\n    __syncthreads();\n    for (int offset = 1; offset < blockDim.x; offset *= 2) {\n        const int v = t >= offset ? s[t - offset] : 0;\n        __syncthreads();\n        s[t] += v;\n        __syncthreads();\n    }\n    if (t < count) sums[t] = s[t];\n}\n__global__ void add_sums(int* out, const int* sums, int n)\n{\n    const int i = blockIdx.x * blockDim.x + threadIdx.x;\n    if (blockIdx.x > 0 && i < n) out[i] += sums[blockIdx.x - 1];\n}\n"},
  "scalars": [{"name": "n", "type": "i32", "value": 1000},
              {"name": "threads", "type": "i32", "value": 64},
              {"name": "blocks", "type": "i32", "value": "ceil(n/threads)"}],
  "buffers": [{"name": "in", "type": "i32", "shape": ["n"],
               "init": {"kind": "uniform", "low": -50, "high": 100, "seed": 9}},
              {"name": "out", "type": "i32", "shape": ["n"], "role": "out"},
              {"name": "sums", "type": "i32", "shape": ["blocks"]}],
  "launches": [
    {"kernel": "scan_block", "grid": ["blocks"], "block": ["threads"], "sharedBytes": "threads*4"},
    {"kernel": "scan_sums", "grid": [1], "block": ["blocks"], "sharedBytes": "blocks*4",
     "bindings": {"count": "blocks"}},
    {"kernel": "add_sums", "grid": ["blocks"], "block": ["threads"]}
  ],
  "launch": {"warmup": 1, "iterations": 3, "backend": "cpu"},
  "reference": {"kind": "cpp", "source": "void reference(int n, const int* in, int* out)\n{\n    int acc = 0;\n    for (int i = 0; i < n; ++i) out[i] = acc += in[i];\n}\n"},
  "tolerance": {"atol": 0, "rtol": 0}
})json";

} // namespace wb::test
