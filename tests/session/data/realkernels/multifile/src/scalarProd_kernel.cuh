#ifndef SCALARPROD_KERNEL_CUH
#define SCALARPROD_KERNEL_CUH
#include <vec_helpers.h>

// One vector per block-stride step; each thread sums a strided part, thread 0 adds them up.
__global__ void scalarProdGPU(float* d_C, float* d_A, float* d_B, int vectorN, int elementN)
{
    __shared__ float accumResult[64];
    for (int vec = blockIdx.x; vec < vectorN; vec += gridDim.x) {
        const int vectorBase = vec * elementN;
        float sum = 0;
        for (int pos = threadIdx.x; pos < elementN; pos += blockDim.x)
            sum += product(d_A[vectorBase + pos], d_B[vectorBase + pos]);
        accumResult[threadIdx.x] = sum;
        __syncthreads();
        if (threadIdx.x == 0) {
            float total = 0;
            for (int t = 0; t < (int)blockDim.x; ++t)
                total += accumResult[t];
            d_C[vec] = total;
        }
        __syncthreads();
    }
}

#endif // SCALARPROD_KERNEL_CUH
