// BUG (on purpose): the __syncthreads() inside the loop is missing. A thread reads
// cache[t + stride] before the thread that owns it has added its own partner in this step.
__global__ void block_sum(const float* in, float* partial, int n)
{
    extern __shared__ float cache[];
    const unsigned t = threadIdx.x;
    const unsigned i = blockIdx.x * blockDim.x + t;
    cache[t] = i < n ? in[i] : 0.0f;
    __syncthreads();
    for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {
        if (t < stride) cache[t] += cache[t + stride];
        // missing: __syncthreads();
    }
    if (t == 0) partial[blockIdx.x] = cache[0];
}
