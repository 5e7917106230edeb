__global__ void shuffle(const int* in, int* out)
{
    const int lane = threadIdx.x;
    const int v = in[lane];
    const int w = __shfl_xor_sync(0xffffffff, v, 1);
    if (lane < 8) {
        out[lane] = w;
    } else {
        out[lane] = -1;
    }
}
