// SPDX-License-Identifier: GPL-3.0-or-later
// CUDA's exact atomic overloads with implicit conversions (atomicAdd(unsigned*, 1),
// atomicExch(int*, unsigned), int values into long long atomics), wrapping atomicInc/Dec,
// 16-bit atomicCAS, scoped variants, and the integer intrinsics public code uses.
__global__ void atomics_overloads(const int* in, int n, unsigned* counters, int* ints,
                                  long long* lls, unsigned short* shorts, unsigned* bits,
                                  float* floats)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const int v = in[i];
    atomicAdd(&counters[0], 1);
    atomicSub(&counters[1], 1);
    atomicInc(&counters[2], 9);
    atomicDec(&counters[3], 6);
    atomicAdd_block(&counters[4], 2u);
    atomicAdd_system(&counters[5], 3);
    atomicMax(&counters[6], v);
    atomicExch(&ints[0], 7u);
    atomicOr(&ints[1], 1 << (i % 31));
    atomicMin(&lls[0], v);
    atomicMax(&lls[1], v);
    atomicAnd(&lls[2], ~(1ll << (i % 63)));
    atomicXor(&lls[3], static_cast<long long>(v) << 20);
    unsigned short old = shorts[0];
    for (;;) {
        const unsigned short seen = atomicCAS(&shorts[0], old, static_cast<unsigned short>(old + 1));
        if (seen == old) break;
        old = seen;
    }

    const unsigned u = static_cast<unsigned>(v);
    const int vn = in[(i + 1) % n];
    const unsigned w = static_cast<unsigned>(vn);
    const unsigned long long uw = (static_cast<unsigned long long>(u) << 32) | w;
    const long long lw = static_cast<long long>(uw);
    unsigned* b = bits + 20 * i;
    b[0] = umin(u, w) ^ umax(u, w);
    b[1] = static_cast<unsigned>(llmin(v, vn) - llmax(v, vn)) ^
           static_cast<unsigned>(ullmin(uw, 12345ull) + ullmax(uw, 7ull));
    b[2] = min(v, w);
    b[3] = max(w, v);
    b[4] = __sad(v, vn, 7u);
    b[5] = __usad(u, w, 1u);
    b[6] = __brev(u);
    b[7] = static_cast<unsigned>(__brevll(uw) >> 7);
    b[8] = __byte_perm(u, w, (static_cast<unsigned>(i) * 2654435761u) & 0x7777u);
    b[9] = __funnelshift_l(u, w, static_cast<unsigned>(i)) ^
           __funnelshift_r(u, w, static_cast<unsigned>(i) * 7u);
    b[10] = __funnelshift_lc(u, w, static_cast<unsigned>(i % 40)) ^
            __funnelshift_rc(u, w, static_cast<unsigned>(i % 41) + 3u);
    b[11] = static_cast<unsigned>(__clz(v) + 64 * __ffs(v) + 4096 * __popc(u));
    b[12] = static_cast<unsigned>(__clzll(lw) + 128 * __ffsll(lw) + 16384 * __popcll(uw));
    b[13] = static_cast<unsigned>(__mul24(v, vn));
    b[14] = __umul24(u, w);
    b[15] = static_cast<unsigned>(__hadd(v, vn) ^ __rhadd(v, vn));
    b[16] = __uhadd(u, w) ^ __urhadd(u, w);
    b[17] = static_cast<unsigned>(__double2hiint(static_cast<double>(v)) ^
                                  __double2loint(static_cast<double>(vn) * 0.5));
    b[18] = static_cast<unsigned>(__float_as_int(static_cast<float>(v))) ^
            __float_as_uint(__int_as_float(vn));
    b[19] = __umulhi(u, w) + static_cast<unsigned>(__mulhi(v, vn));
    floats[i] = __saturatef(static_cast<float>(v) / 100000.0f) +
                __fdividef(static_cast<float>(vn), 1024.0f) + min(1.0f, static_cast<double>(v));
}
