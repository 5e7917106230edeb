#pragma once
__device__ __host__ inline float product(float a, float b)
{
    return a * b;
}
