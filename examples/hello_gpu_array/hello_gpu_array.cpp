// SPDX-License-Identifier: GPL-3.0-or-later
// The seed's PyCUDA "hello GPU" without writing a kernel: PyCUDA's gpuarray and
// ElementwiseKernel, in C++ against Warpbench's core:
//
//   a_gpu = gpuarray.to_gpu(numpy.random.randn(400).astype(numpy.float32))
//   b_gpu = gpuarray.to_gpu(numpy.random.randn(400).astype(numpy.float32))
//   dest = (a_gpu * b_gpu).get()                      # one generated kernel
//   print dest - a*b
//   multiply_them = ElementwiseKernel("float *dest, float *a, float *b",
//                                     "dest[i] = a[i] * b[i]")
//   multiply_them(dest_gpu, a_gpu, b_gpu); print dest_gpu.get() - a*b
//   print gpuarray.dot(a_gpu, b_gpu).get() - numpy.dot(a, b)    # ~0 (float rounding)
//
// Exit code 0 when both differences are all zeros, 2 when not, 3 without a GPU.
#include "core/array/ArrayMath.h"
#include "core/backend/Backend.h"

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

/// Prints dest - a*b; true when every difference is zero.
bool printDifference(const std::vector<float>& dest, const std::vector<float>& a,
                     const std::vector<float>& b)
{
    bool zeros = true;
    std::printf("[");
    for (std::size_t i = 0; i < dest.size(); ++i) {
        const float d = dest[i] - a[i] * b[i];
        zeros = zeros && d == 0.0f;
        std::printf("%s%g", i == 0 ? "" : (i % 10 == 0 ? "\n " : " "), static_cast<double>(d));
    }
    std::printf("]\n");
    return zeros;
}

} // namespace

int main()
{
    if (const auto reason = wb::cudaUnavailableReason()) {
        std::fprintf(stderr, "hello_gpu_array: the GPU cannot be used: %s\n", reason->c_str());
        return 3;
    }
    try {
        const Context ctx = Context::primary(0);
        std::mt19937 rng(std::random_device{}());
        const std::vector<float> a = randn(400, rng), b = randn(400, rng);
        const auto aGpu = DeviceArray<float>::fromHost(ctx, a);
        const auto bGpu = DeviceArray<float>::fromHost(ctx, b);

        // GPUArray arithmetic: a_gpu * b_gpu is one generated kernel.
        const DeviceArray<float> product = aGpu * bGpu;
        bool zeros = printDifference(product.download(), a, b);

        // The same as an ElementwiseKernel.
        wb::ElementwiseKernel multiplyThem("float *dest, const float *a, const float *b",
                                           "dest[i] = a[i] * b[i]", "multiply_them");
        DeviceArray<float> dest(ctx, {a.size()}, "dest");
        multiplyThem(dest, aGpu, bGpu);
        zeros = printDifference(dest.download(), a, b) && zeros;

        double host = 0;
        for (std::size_t i = 0; i < a.size(); ++i)
            host += static_cast<double>(a[i]) * b[i];
        std::printf("dot(a, b) on the GPU - on the host: %g\n",
                    static_cast<double>(dot(aGpu, bGpu)) - host);
        return zeros ? 0 : 2;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "hello_gpu_array: %s\n", e.what());
        return 1;
    }
}
