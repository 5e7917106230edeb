// SPDX-License-Identifier: GPL-3.0-or-later
// Integer, unsigned, 64-bit and floating-point atomics from every thread.
__global__ void atomics_mix(const int* in, int n, int* imin, int* imax, unsigned* uor,
                            unsigned long long* ull, double* dsum, float* fsum, int* cas)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const int v = in[i];
    atomicMin(imin, v);
    atomicMax(imax, v);
    atomicOr(uor, 1u << (static_cast<unsigned>(v) & 31u));
    atomicAdd(ull, static_cast<unsigned long long>(v < 0 ? -v : v));
    atomicAdd(dsum, static_cast<double>(v) * 0.5);
    atomicAdd(fsum, 1.0f);
    int old = *cas;
    while (true) {
        const int seen = atomicCAS(cas, old, old + 1);
        if (seen == old) break;
        old = seen;
    }
}
