// A performance bug, not a wrong answer: each thread adds its own contiguous chunk of `per`
// elements, so neighbouring threads of a warp touch addresses `per` floats apart and every
// load is a separate memory transaction. vector_add_coalesced (the reference) strides by the
// whole grid instead: neighbouring threads read neighbouring floats.
__global__ void vector_add_chunked(const float* a, const float* b, float* c, int n, int per)
{
    const int t = blockIdx.x * blockDim.x + threadIdx.x;
    for (int k = 0; k < per; ++k) {
        const int i = t * per + k;
        if (i < n) c[i] = a[i] + b[i];
    }
}

__global__ void vector_add_coalesced(const float* a, const float* b, float* c, int n, int per)
{
    const int threads = gridDim.x * blockDim.x;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += threads) c[i] = a[i] + b[i];
    (void)per;
}
