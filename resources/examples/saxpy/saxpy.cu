// y = alpha * x + y: y is read and written (role inout), alpha is a scalar parameter.
__global__ void saxpy(int n, float alpha, const float* x, float* y)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        y[i] = alpha * x[i] + y[i];
}
