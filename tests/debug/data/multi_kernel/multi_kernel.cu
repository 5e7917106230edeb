// Thread debugger test: several kernels in one file, each with its own __shared__ memory (two
// of them name their dynamic array `cache`); the project launches `tile_scale`. The tests
// (tests/debug/tst_debugsession.cpp, tests/app/tst_cli_debug.cpp,
// tests/ui/debug/tst_debugdock.cpp) name lines of this file: keep them where they are.
__shared__ int launches_seen[2];

__global__ void transpose_tile(const float* in, float* out, int n)
{
    __shared__ float tile[8][9];
    const int x = blockIdx.x * 8 + threadIdx.x;
    const int y = blockIdx.y * 8 + threadIdx.y;
    tile[threadIdx.y][threadIdx.x] = in[y * n + x];
    __syncthreads();
    out[x * n + y] = tile[threadIdx.y][threadIdx.x];
}

__global__ void histogram(const int* in, unsigned* bins)
{
    __shared__ unsigned counts[16];
    extern __shared__ float cache[];
    if (threadIdx.x < 16) counts[threadIdx.x] = 0;
    cache[threadIdx.x] = 0.0f;
    __syncthreads();
    atomicAdd(&counts[in[threadIdx.x] & 15], 1u);
    __syncthreads();
    if (threadIdx.x < 16) bins[threadIdx.x] = counts[threadIdx.x];
}

__global__ void tile_scale(const float* in, float* out)
{
    extern __shared__ float cache[];
    __shared__ float total[2];
    const unsigned t = threadIdx.x;
    cache[t] = in[blockIdx.x * blockDim.x + t];
    if (t == 0) launches_seen[0] = 1;
    __syncthreads();
    if (t == 0) {
        float acc = 0.0f;
        for (unsigned k = 0; k < blockDim.x; ++k)
            acc += cache[k];
        total[0] = acc;
    }
    __syncthreads();
    const float mine = cache[t] / total[0];
    const float twice = 2.0f * mine;
    out[blockIdx.x * blockDim.x + t] = twice;
}
