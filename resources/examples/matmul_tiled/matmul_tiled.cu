// C = A * B, one thread per element of C (x = column, y = row), with tiles of A and B staged
// through shared memory TILE steps of k at a time, plus the naive kernel that serves as its
// reference (same launch shape). The block may be any shape up to MAX_BLOCK × MAX_BLOCK
// (16×16, 8×16, 32×8, ...): a block computes blockDim.y rows × blockDim.x columns of C.
#define TILE 16
#define MAX_BLOCK 32

__global__ void matmul_tiled(const float* A, const float* B, float* C, int n)
{
    __shared__ float As[MAX_BLOCK][TILE]; // this block's rows of A, TILE columns of them
    __shared__ float Bs[TILE][MAX_BLOCK]; // this block's columns of B, TILE rows of them
    const int bw = blockDim.x, bh = blockDim.y;
    if (bw > MAX_BLOCK || bh > MAX_BLOCK) return; // the tiles would not fit: C stays unwritten
    const int row = blockIdx.y * bh + threadIdx.y;
    const int col = blockIdx.x * bw + threadIdx.x;
    const int tid = threadIdx.y * bw + threadIdx.x;
    float acc = 0.0f;
    for (int t = 0; t < (n + TILE - 1) / TILE; ++t) {
        // Each thread loads its share of both tiles (several elements when the block has
        // fewer threads than a tile has elements).
        for (int e = tid; e < bh * TILE; e += bw * bh) {
            const int r = blockIdx.y * bh + e / TILE, k = t * TILE + e % TILE;
            As[e / TILE][e % TILE] = (r < n && k < n) ? A[r * n + k] : 0.0f;
        }
        for (int e = tid; e < TILE * bw; e += bw * bh) {
            const int k = t * TILE + e / bw, c = blockIdx.x * bw + e % bw;
            Bs[e / bw][e % bw] = (k < n && c < n) ? B[k * n + c] : 0.0f;
        }
        __syncthreads();
        for (int k = 0; k < TILE; ++k) acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];
        __syncthreads();
    }
    if (row < n && col < n) C[row * n + col] = acc;
}

__global__ void matmul_naive(const float* A, const float* B, float* C, int n)
{
    const int row = blockIdx.y * blockDim.y + threadIdx.y;
    const int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= n || col >= n) return;
    float acc = 0.0f;
    for (int k = 0; k < n; ++k) acc += A[row * n + k] * B[k * n + col];
    C[row * n + col] = acc;
}
