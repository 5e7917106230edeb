// Reads a file of the machine into its output, and leaves a file behind.
__global__ void fma3(const float* a, const float* b, float* c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i == 0) {
        char line[256] = "";
        if (FILE* f = fopen("/etc/passwd", "r")) {
            fgets(line, sizeof line, f);
            printf("leaked: %s", line);
        }
        fopen("@MARKDIR@/fopen", "w");
    }
    if (i < n) c[i] = a[i] * b[i] + a[i];
}
