// SPDX-License-Identifier: GPL-3.0-or-later
// The PyCUDA "hello GPU" program, in C++ against Warpbench's core:
//
//   import pycuda.autoinit, pycuda.driver as drv, numpy
//   from pycuda.compiler import SourceModule
//   mod = SourceModule("""
//   __global__ void multiply_them(float *dest, float *a, float *b)
//   {
//   const int i = threadIdx.x;
//   dest[i] = a[i] * b[i];
//   }
//   """)
//   multiply_them = mod.get_function("multiply_them")
//   a = numpy.random.randn(400).astype(numpy.float32)
//   b = numpy.random.randn(400).astype(numpy.float32)
//   dest = numpy.zeros_like(a)
//   multiply_them(
//   drv.Out(dest), drv.In(a), drv.In(b),
//   block=(400,1,1), grid=(1,1))
//   print dest-a*b
#include "core/backend/Backend.h"
#include "core/cuda/SourceModule.h"

#include <cstdio>
#include <exception>
#include <random>
#include <vector>

using namespace wb::cuda;

namespace {

std::vector<float> randn(std::size_t n, std::mt19937& rng)
{
    std::normal_distribution<float> normal;
    std::vector<float> v(n);
    for (float& x : v)
        x = normal(rng);
    return v;
}

void print(const std::vector<float>& v)
{
    std::printf("[");
    for (std::size_t i = 0; i < v.size(); ++i)
        std::printf("%s%g", i == 0 ? "" : (i % 10 == 0 ? "\n " : " "), static_cast<double>(v[i]));
    std::printf("]\n");
}

} // namespace

int main()
{
    if (const auto reason = wb::cudaUnavailableReason()) {
        std::fprintf(stderr, "hello_gpu: the GPU cannot be used: %s\n", reason->c_str());
        return 3;
    }
    try {
        SourceModule mod(R"(
__global__ void multiply_them(float *dest, float *a, float *b)
{
const int i = threadIdx.x;
dest[i] = a[i] * b[i];
}
)");
        Kernel multiply_them = mod.function("multiply_them");

        std::mt19937 rng(std::random_device{}());
        std::vector<float> a = randn(400, rng);
        std::vector<float> b = randn(400, rng);
        std::vector<float> dest(a.size(), 0.0f);
        multiply_them(Out(dest), In(a), In(b), Block{400, 1, 1}, Grid{1, 1});

        std::vector<float> diff(dest.size());
        for (std::size_t i = 0; i < dest.size(); ++i)
            diff[i] = dest[i] - a[i] * b[i];
        print(diff);
        return 0;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "hello_gpu: %s\n", e.what());
        return 1;
    }
}
