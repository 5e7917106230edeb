// Cheat: computes once, keeps the answer in device memory and replays it in every later launch
// (it writes every element, so poisoned outputs alone do not catch it: fresh inputs do).
#define N (1 << 20)
__device__ float g_answer[N];
__device__ unsigned int g_blocksStarted = 0;

__global__ void fma3(const float* a, const float* b, float* c, int n)
{
    __shared__ unsigned int launchNo;
    if (threadIdx.x == 0) launchNo = atomicAdd(&g_blocksStarted, 1u) / gridDim.x;
    __syncthreads();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n || i >= N) return;
    if (launchNo == 0) g_answer[i] = a[i] * b[i] + a[i];
    c[i] = g_answer[i];
}
