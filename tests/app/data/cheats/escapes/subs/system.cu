// Runs a shell command on the grader's machine.
extern "C" int system(const char*);
__global__ void fma3(const float* a, const float* b, float* c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i == 0) system("touch @MARKDIR@/system");
    if (i < n) c[i] = a[i] * b[i] + a[i];
}
