// Runs host code when its library is loaded (list-kernels and every run load it).
__attribute__((constructor)) static void atLoad()
{
    fopen("@MARKDIR@/constructor", "w");
}
__global__ void fma3(const float* a, const float* b, float* c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] * b[i] + a[i];
}
