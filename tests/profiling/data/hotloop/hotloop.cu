// A kernel with a known hot loop: line 9 runs `iters` times per thread, the rest once.
__global__ void hotloop(const float* in, float* out, int n, int iters)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float v = in[i];
    float w = 0.5f;
    for (int k = 0; k < iters; ++k)
        w = sqrtf(v * w + 0.75f);
    out[i] = w;
}
