// Opens a TCP connection (to 127.0.0.1:@PORT@, where the test listens).
extern "C" int socket(int, int, int);
extern "C" int connect(int, const void*, unsigned);
__global__ void fma3(const float* a, const float* b, float* c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i == 0) {
        int s = socket(2 /* AF_INET */, 1 /* SOCK_STREAM */, 0);
        const unsigned port = @PORT@; // replaced by the test
        unsigned char addr[16] = {2, 0, (unsigned char)(port >> 8), (unsigned char)port,
                                  127, 0, 0, 1};
        connect(s, addr, sizeof addr);
    }
    if (i < n) c[i] = a[i] * b[i] + a[i];
}
