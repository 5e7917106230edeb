// SPDX-License-Identifier: GPL-3.0-or-later
// The CUDA prelude of Warpbench's CPU emulator: included before user CUDA source, it makes that
// source ordinary C++ — kernels become inline functions, threadIdx & co. read the emulated
// thread, __shared__ becomes per-OS-thread storage (one block runs on one OS thread at a time),
// barriers and warp operations call the host's fiber scheduler. See docs/cpu-emulator.md.
#pragma once

#define WB_CPU_KERNEL_LIBRARY 1
#include "warpbench/cpu_abi.h"

#include <algorithm>
#include <atomic>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <math.h>
#include <stdio.h>
#include <type_traits>

// ---------------------------------------------------------------------------------------------
// Execution-space and memory-space specifiers
#define __global__ __attribute__((always_inline)) inline
#define __device__
#define __host__
#define __noinline__ __attribute__((noinline))
#define __forceinline__ __attribute__((always_inline)) inline
#define __inline__ inline
#define __restrict__ __restrict
#define __launch_bounds__(...)
#define __maxnreg__(...)
#define __align__(n) alignas(n)
#define __constant__
#define __managed__
#define __grid_constant__
/// One instance per OS thread = per block: a worker runs one block at a time, and in fiber mode
/// all threads of a block run on the worker's OS thread.
#define __shared__ static thread_local
#define __CUDACC__ 1
#define __CUDA_ARCH__ 900
#define __WARPBENCH_CPU__ 1
#define CUDART_VERSION 13000

// ---------------------------------------------------------------------------------------------
// Vector types (aggregates, so that __shared__ arrays of them need no dynamic initialisation)
#define WB_VEC_TYPES(T, N, A2, A4)                                                                 \
    struct alignas(sizeof(T)) N##1                                                                 \
    {                                                                                              \
        T x;                                                                                       \
    };                                                                                             \
    struct alignas(A2) N##2                                                                        \
    {                                                                                              \
        T x, y;                                                                                    \
    };                                                                                             \
    struct alignas(sizeof(T)) N##3                                                                 \
    {                                                                                              \
        T x, y, z;                                                                                 \
    };                                                                                             \
    struct alignas(A4) N##4                                                                        \
    {                                                                                              \
        T x, y, z, w;                                                                              \
    };                                                                                             \
    inline N##1 make_##N##1(T x)                                                                   \
    {                                                                                              \
        return N##1 {x};                                                                           \
    }                                                                                              \
    inline N##2 make_##N##2(T x, T y)                                                              \
    {                                                                                              \
        return N##2 {x, y};                                                                        \
    }                                                                                              \
    inline N##3 make_##N##3(T x, T y, T z)                                                         \
    {                                                                                              \
        return N##3 {x, y, z};                                                                     \
    }                                                                                              \
    inline N##4 make_##N##4(T x, T y, T z, T w)                                                    \
    {                                                                                              \
        return N##4 {x, y, z, w};                                                                  \
    }

WB_VEC_TYPES(signed char, char, 2, 4)
WB_VEC_TYPES(unsigned char, uchar, 2, 4)
WB_VEC_TYPES(short, short, 4, 8)
WB_VEC_TYPES(unsigned short, ushort, 4, 8)
WB_VEC_TYPES(int, int, 8, 16)
WB_VEC_TYPES(unsigned int, uint, 8, 16)
WB_VEC_TYPES(long, long, 16, 16)
WB_VEC_TYPES(unsigned long, ulong, 16, 16)
WB_VEC_TYPES(long long, longlong, 16, 16)
WB_VEC_TYPES(unsigned long long, ulonglong, 16, 16)
WB_VEC_TYPES(float, float, 8, 16)
WB_VEC_TYPES(double, double, 16, 16)
#undef WB_VEC_TYPES

struct dim3 {
    unsigned int x = 1, y = 1, z = 1;
    constexpr dim3(unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1)
        : x(vx)
        , y(vy)
        , z(vz)
    {
    }
    constexpr dim3(uint3 v)
        : x(v.x)
        , y(v.y)
        , z(v.z)
    {
    }
    constexpr operator uint3() const { return uint3{x, y, z}; }
};

namespace wbcpu {

using Current = abi::Current;
#define WB_CUR (::wb_cpu_current)

/// Makes `st` the running thread (at entry, and after every return from the host scheduler).
inline void enter(abi::ThreadState* st)
{
    WB_CUR.thread = st->threadIndex;
    WB_CUR.block = st->blockIndex;
    WB_CUR.blockSize = st->blockSize;
    WB_CUR.gridSize = st->gridSize;
    WB_CUR.st = st;
}

/// The running thread's state with its coordinates written back, before calling the host.
inline abi::ThreadState* current()
{
    abi::ThreadState* st = WB_CUR.st;
    if (st) {
        st->threadIndex = WB_CUR.thread;
        st->linear = WB_CUR.thread.x +
                     WB_CUR.blockSize.x * (WB_CUR.thread.y + WB_CUR.blockSize.y * WB_CUR.thread.z);
    }
    return st;
}

/// Around a host call that may switch fibers (barriers, warp operations): the running thread,
/// made current again afterwards. The fibers of a block differ only in their coordinates and
/// state (blockIdx, blockDim, gridDim are shared), and a fiber's ThreadState holds its own
/// coordinates, so nothing is written back as in current(); in loop mode these calls only
/// report that the kernel needed fiber mode.
struct Parked {
    abi::ThreadState* st;
    abi::Dim thread;
};
inline Parked park()
{
    return Parked{WB_CUR.st, WB_CUR.thread};
}
inline void unpark(const Parked& p)
{
    WB_CUR.thread = p.thread;
    WB_CUR.st = p.st;
}

inline constexpr unsigned long kDynamicSharedCapacity = abi::kDynamicSharedCapacity;
alignas(128) inline thread_local unsigned char dynamicShared[kDynamicSharedCapacity];

/// Thrown after rt->fail to unwind the emulated thread; caught by the generated entry points.
struct Abort {};

[[noreturn]] inline void fail(const char* message, const char* file = __builtin_FILE(),
                              unsigned line = __builtin_LINE())
{
    abi::ThreadState* st = current();
    st->rt->fail(st, message, file, line);
    throw Abort{};
}

} // namespace wbcpu

#define threadIdx (reinterpret_cast<const uint3&>(WB_CUR.thread))
#define blockIdx (reinterpret_cast<const uint3&>(WB_CUR.block))
#define blockDim (reinterpret_cast<const dim3&>(WB_CUR.blockSize))
#define gridDim (reinterpret_cast<const dim3&>(WB_CUR.gridSize))
static_assert(sizeof(dim3) == sizeof(wbcpu::abi::Dim) && sizeof(uint3) == sizeof(wbcpu::abi::Dim));
inline constexpr int warpSize = 32;

// ---------------------------------------------------------------------------------------------
// assert and printf
#undef assert
#define assert(expr) ((expr) ? static_cast<void>(0) : ::wbcpu::fail("assertion '" #expr "' failed"))

// ---------------------------------------------------------------------------------------------
// Barriers and fences
inline void __syncthreads(const char* file = __builtin_FILE(), unsigned line = __builtin_LINE())
{
    const wbcpu::Parked me = wbcpu::park();
    me.st->rt->blockSync(me.st, wbcpu::abi::SyncPlain, 0, file, line);
    wbcpu::unpark(me);
}
#define WB_SYNC_PRED(NAME, OP)                                                                     \
    inline int NAME(int predicate, const char* file = __builtin_FILE(),                            \
                    unsigned line = __builtin_LINE())                                              \
    {                                                                                              \
        const wbcpu::Parked me = wbcpu::park();                                                    \
        const int r = me.st->rt->blockSync(me.st, wbcpu::abi::OP, predicate != 0, file, line);     \
        wbcpu::unpark(me);                                                                         \
        return r;                                                                                  \
    }
WB_SYNC_PRED(__syncthreads_count, SyncCount)
WB_SYNC_PRED(__syncthreads_and, SyncAnd)
WB_SYNC_PRED(__syncthreads_or, SyncOr)
#undef WB_SYNC_PRED

inline void __threadfence()
{
    std::atomic_thread_fence(std::memory_order_seq_cst);
}
inline void __threadfence_block()
{
    std::atomic_thread_fence(std::memory_order_seq_cst);
}
inline void __threadfence_system()
{
    std::atomic_thread_fence(std::memory_order_seq_cst);
}

// ---------------------------------------------------------------------------------------------
// Warp operations: each lane hands its value to the host, which answers once the mask arrived.
namespace wbcpu {
inline unsigned long long warpOp(int op, unsigned mask, unsigned long long value, int param,
                                 int width, const char* what, const char* file, unsigned line)
{
    const Parked me = park();
    const unsigned long long r =
        me.st->rt->warpOp(me.st, op, mask, value, param, width, what, file, line);
    unpark(me);
    return r;
}
template <typename T> unsigned long long toBits(T v)
{
    static_assert(sizeof(T) <= 8 && std::is_trivially_copyable_v<T>,
                  "warp shuffles move values of at most 8 bytes");
    unsigned long long bits = 0;
    std::memcpy(&bits, &v, sizeof(T));
    return bits;
}
template <typename T> T fromBits(unsigned long long bits)
{
    T v;
    std::memcpy(&v, &bits, sizeof(T));
    return v;
}
} // namespace wbcpu

inline void __syncwarp(unsigned mask = 0xffffffffu, const char* file = __builtin_FILE(),
                       unsigned line = __builtin_LINE())
{
    wbcpu::warpOp(wbcpu::abi::WarpSync, mask, 0, 0, 32, "__syncwarp", file, line);
}
#define WB_SHFL(NAME, OP, PTYPE)                                                                   \
    template <typename T>                                                                          \
    inline T NAME(unsigned mask, T var, PTYPE p, int width = warpSize,                             \
                  const char* file = __builtin_FILE(), unsigned line = __builtin_LINE())           \
    {                                                                                              \
        return wbcpu::fromBits<T>(wbcpu::warpOp(wbcpu::abi::OP, mask, wbcpu::toBits(var),          \
                                                static_cast<int>(p), width, #NAME, file, line));   \
    }
WB_SHFL(__shfl_sync, ShflIdx, int)
WB_SHFL(__shfl_up_sync, ShflUp, unsigned)
WB_SHFL(__shfl_down_sync, ShflDown, unsigned)
WB_SHFL(__shfl_xor_sync, ShflXor, int)
#undef WB_SHFL

#define WB_WARP_PRED(NAME, OP, R)                                                                  \
    inline R NAME(unsigned mask, int predicate, const char* file = __builtin_FILE(),               \
                  unsigned line = __builtin_LINE())                                                \
    {                                                                                              \
        return static_cast<R>(                                                                     \
            wbcpu::warpOp(wbcpu::abi::OP, mask, predicate != 0, 0, 32, #NAME, file, line));        \
    }
WB_WARP_PRED(__ballot_sync, Ballot, unsigned)
WB_WARP_PRED(__any_sync, Any, int)
WB_WARP_PRED(__all_sync, All, int)
#undef WB_WARP_PRED

#define WB_REDUCE(NAME, OPU, OPI, T)                                                               \
    inline T NAME(unsigned mask, T value, const char* file = __builtin_FILE(),                     \
                  unsigned line = __builtin_LINE())                                                \
    {                                                                                              \
        return static_cast<T>(                                                                     \
            wbcpu::warpOp(std::is_signed_v<T> ? wbcpu::abi::OPI : wbcpu::abi::OPU, mask,           \
                          static_cast<unsigned long long>(static_cast<long long>(value)), 0, 32,   \
                          #NAME, file, line));                                                     \
    }
WB_REDUCE(__reduce_add_sync, ReduceAddU, ReduceAddU, unsigned)
WB_REDUCE(__reduce_add_sync, ReduceAddU, ReduceAddU, int)
WB_REDUCE(__reduce_min_sync, ReduceMinU, ReduceMinI, unsigned)
WB_REDUCE(__reduce_min_sync, ReduceMinU, ReduceMinI, int)
WB_REDUCE(__reduce_max_sync, ReduceMaxU, ReduceMaxI, unsigned)
WB_REDUCE(__reduce_max_sync, ReduceMaxU, ReduceMaxI, int)
WB_REDUCE(__reduce_and_sync, ReduceAnd, ReduceAnd, unsigned)
WB_REDUCE(__reduce_or_sync, ReduceOr, ReduceOr, unsigned)
WB_REDUCE(__reduce_xor_sync, ReduceXor, ReduceXor, unsigned)
#undef WB_REDUCE

template <typename T>
inline unsigned __match_any_sync(unsigned mask, T value, const char* file = __builtin_FILE(),
                                 unsigned line = __builtin_LINE())
{
    return static_cast<unsigned>(wbcpu::warpOp(wbcpu::abi::MatchAny, mask, wbcpu::toBits(value), 0,
                                               32, "__match_any_sync", file, line));
}
template <typename T>
inline unsigned __match_all_sync(unsigned mask, T value, int* pred,
                                 const char* file = __builtin_FILE(),
                                 unsigned line = __builtin_LINE())
{
    const unsigned r = static_cast<unsigned>(wbcpu::warpOp(
        wbcpu::abi::MatchAll, mask, wbcpu::toBits(value), 0, 32, "__match_all_sync", file, line));
    *pred = r != 0;
    return r;
}

inline unsigned __activemask()
{
    wbcpu::abi::ThreadState* me = wbcpu::current();
    return me->rt->activeMask(me);
}
inline unsigned __lanemask_lt()
{
    return (1u << (wbcpu::current()->linear % 32u)) - 1u;
}

// ---------------------------------------------------------------------------------------------
// Bit manipulation
inline int __popc(unsigned x)
{
    return __builtin_popcount(x);
}
inline int __popcll(unsigned long long x)
{
    return __builtin_popcountll(x);
}
inline int __clz(int x)
{
    return x == 0 ? 32 : __builtin_clz(static_cast<unsigned>(x));
}
inline int __clzll(long long x)
{
    return x == 0 ? 64 : __builtin_clzll(static_cast<unsigned long long>(x));
}
inline int __ffs(int x)
{
    return __builtin_ffs(x);
}
inline int __ffsll(long long x)
{
    return __builtin_ffsll(x);
}
inline unsigned __brev(unsigned x)
{
    x = ((x >> 1) & 0x55555555u) | ((x & 0x55555555u) << 1);
    x = ((x >> 2) & 0x33333333u) | ((x & 0x33333333u) << 2);
    x = ((x >> 4) & 0x0f0f0f0fu) | ((x & 0x0f0f0f0fu) << 4);
    return __builtin_bswap32(x);
}
inline unsigned __umulhi(unsigned a, unsigned b)
{
    return static_cast<unsigned>((static_cast<unsigned long long>(a) * b) >> 32);
}
inline int __mulhi(int a, int b)
{
    return static_cast<int>((static_cast<long long>(a) * b) >> 32);
}
inline unsigned long long __umul64hi(unsigned long long a, unsigned long long b)
{
    return static_cast<unsigned long long>((static_cast<unsigned __int128>(a) * b) >> 64);
}
inline int __mul24(int a, int b)
{
    return (a << 8 >> 8) * (b << 8 >> 8);
}
inline unsigned __umul24(unsigned a, unsigned b)
{
    return (a & 0xffffffu) * (b & 0xffffffu);
}
inline unsigned __byte_perm(unsigned x, unsigned y, unsigned s)
{
    const unsigned long long v = (static_cast<unsigned long long>(y) << 32) | x;
    unsigned r = 0;
    for (int i = 0; i < 4; ++i)
        r |= static_cast<unsigned>((v >> (((s >> (4 * i)) & 7u) * 8)) & 0xffu) << (8 * i);
    return r;
}

// ---------------------------------------------------------------------------------------------
// Atomics (device-wide; std::atomic_ref: blocks run on several OS threads)
namespace wbcpu {
template <typename T> inline std::atomic_ref<T> ref(T* p)
{
    return std::atomic_ref<T>(*p);
}
template <typename T, typename F> inline T casLoop(T* p, F f)
{
    std::atomic_ref<T> a(*p);
    T old = a.load(std::memory_order_relaxed);
    while (!a.compare_exchange_weak(old, f(old), std::memory_order_relaxed)) {
    }
    return old;
}
} // namespace wbcpu

#define WB_ATOMIC_SCOPES(NAME)                                                                     \
    template <typename... A> inline auto NAME##_block(A... a)                                      \
    {                                                                                              \
        return NAME(a...);                                                                         \
    }                                                                                              \
    template <typename... A> inline auto NAME##_system(A... a)                                     \
    {                                                                                              \
        return NAME(a...);                                                                         \
    }

template <typename T> inline T atomicAdd(T* p, T v)
{
    if constexpr (std::is_integral_v<T> || std::is_floating_point_v<T>)
        return wbcpu::ref(p).fetch_add(v, std::memory_order_relaxed);
    else
        return wbcpu::casLoop(p, [v](T o) { return static_cast<T>(o + v); });
}
template <typename T> inline T atomicSub(T* p, T v)
{
    return wbcpu::ref(p).fetch_sub(v, std::memory_order_relaxed);
}
template <typename T> inline T atomicExch(T* p, T v)
{
    return wbcpu::ref(p).exchange(v, std::memory_order_relaxed);
}
template <typename T> inline T atomicMin(T* p, T v)
{
    return wbcpu::casLoop(p, [v](T o) { return v < o ? v : o; });
}
template <typename T> inline T atomicMax(T* p, T v)
{
    return wbcpu::casLoop(p, [v](T o) { return v > o ? v : o; });
}
template <typename T> inline T atomicAnd(T* p, T v)
{
    return wbcpu::ref(p).fetch_and(v, std::memory_order_relaxed);
}
template <typename T> inline T atomicOr(T* p, T v)
{
    return wbcpu::ref(p).fetch_or(v, std::memory_order_relaxed);
}
template <typename T> inline T atomicXor(T* p, T v)
{
    return wbcpu::ref(p).fetch_xor(v, std::memory_order_relaxed);
}
inline unsigned atomicInc(unsigned* p, unsigned v)
{
    return wbcpu::casLoop(p, [v](unsigned o) { return o >= v ? 0u : o + 1u; });
}
inline unsigned atomicDec(unsigned* p, unsigned v)
{
    return wbcpu::casLoop(p, [v](unsigned o) { return (o == 0u || o > v) ? v : o - 1u; });
}
template <typename T> inline T atomicCAS(T* p, T compare, T v)
{
    wbcpu::ref(p).compare_exchange_strong(compare, v, std::memory_order_relaxed);
    return compare;
}
WB_ATOMIC_SCOPES(atomicAdd)
WB_ATOMIC_SCOPES(atomicSub)
WB_ATOMIC_SCOPES(atomicExch)
WB_ATOMIC_SCOPES(atomicMin)
WB_ATOMIC_SCOPES(atomicMax)
WB_ATOMIC_SCOPES(atomicAnd)
WB_ATOMIC_SCOPES(atomicOr)
WB_ATOMIC_SCOPES(atomicXor)
WB_ATOMIC_SCOPES(atomicInc)
WB_ATOMIC_SCOPES(atomicDec)
WB_ATOMIC_SCOPES(atomicCAS)
#undef WB_ATOMIC_SCOPES

// ---------------------------------------------------------------------------------------------
// Math API beyond <cmath>: intrinsics map to the accurate functions (a superset of accuracy).
using std::max;
using std::min;
inline float min(float a, float b)
{
    return fminf(a, b);
}
inline float max(float a, float b)
{
    return fmaxf(a, b);
}
inline double min(double a, double b)
{
    return fmin(a, b);
}
inline double max(double a, double b)
{
    return fmax(a, b);
}
inline int min(int a, int b)
{
    return a < b ? a : b;
}
inline int max(int a, int b)
{
    return a > b ? a : b;
}
inline unsigned min(unsigned a, unsigned b)
{
    return a < b ? a : b;
}
inline unsigned max(unsigned a, unsigned b)
{
    return a > b ? a : b;
}
inline long long min(long long a, long long b)
{
    return a < b ? a : b;
}
inline long long max(long long a, long long b)
{
    return a > b ? a : b;
}
inline unsigned long long min(unsigned long long a, unsigned long long b)
{
    return a < b ? a : b;
}
inline unsigned long long max(unsigned long long a, unsigned long long b)
{
    return a > b ? a : b;
}

inline float rsqrtf(float x)
{
    return 1.0f / sqrtf(x);
}
inline double rsqrt(double x)
{
    return 1.0 / sqrt(x);
}
inline float rcbrtf(float x)
{
    return 1.0f / cbrtf(x);
}
inline double rcbrt(double x)
{
    return 1.0 / cbrt(x);
}
inline float exp10f(float x)
{
    return powf(10.0f, x);
}
inline double exp10(double x)
{
    return pow(10.0, x);
}
inline float sinpif(float x)
{
    return sinf(static_cast<float>(M_PI) * x);
}
inline float cospif(float x)
{
    return cosf(static_cast<float>(M_PI) * x);
}
inline double sinpi(double x)
{
    return sin(M_PI * x);
}
inline double cospi(double x)
{
    return cos(M_PI * x);
}
inline void sincosf(float x, float* s, float* c)
{
    *s = sinf(x);
    *c = cosf(x);
}
inline void sincospif(float x, float* s, float* c)
{
    *s = sinpif(x);
    *c = cospif(x);
}
inline float normcdff(float x)
{
    return 0.5f * erfcf(-x * static_cast<float>(M_SQRT1_2));
}
inline double normcdf(double x)
{
    return 0.5 * erfc(-x * M_SQRT1_2);
}
inline float saturatef(float x)
{
    return x < 0.0f ? 0.0f : (x > 1.0f ? 1.0f : x);
}
inline float __saturatef(float x)
{
    return saturatef(x);
}
inline float __expf(float x)
{
    return expf(x);
}
inline float __exp10f(float x)
{
    return exp10f(x);
}
inline float __logf(float x)
{
    return logf(x);
}
inline float __log2f(float x)
{
    return log2f(x);
}
inline float __log10f(float x)
{
    return log10f(x);
}
inline float __sinf(float x)
{
    return sinf(x);
}
inline float __cosf(float x)
{
    return cosf(x);
}
inline float __tanf(float x)
{
    return tanf(x);
}
inline void __sincosf(float x, float* s, float* c)
{
    sincosf(x, s, c);
}
inline float __powf(float x, float y)
{
    return powf(x, y);
}
inline float __fdividef(float a, float b)
{
    return a / b;
}
inline float __frcp_rn(float x)
{
    return 1.0f / x;
}
inline float __fsqrt_rn(float x)
{
    return sqrtf(x);
}
inline float __frsqrt_rn(float x)
{
    return 1.0f / sqrtf(x);
}
inline float __fadd_rn(float a, float b)
{
    return a + b;
}
inline float __fsub_rn(float a, float b)
{
    return a - b;
}
inline float __fmul_rn(float a, float b)
{
    return a * b;
}
inline float __fdiv_rn(float a, float b)
{
    return a / b;
}
inline float __fmaf_rn(float a, float b, float c)
{
    return fmaf(a, b, c);
}
inline double __dadd_rn(double a, double b)
{
    return a + b;
}
inline double __dmul_rn(double a, double b)
{
    return a * b;
}
inline double __fma_rn(double a, double b, double c)
{
    return fma(a, b, c);
}
inline float fdividef(float a, float b)
{
    return a / b;
}
inline int __float2int_rn(float x)
{
    return static_cast<int>(nearbyintf(x));
}
inline int __float2int_rz(float x)
{
    return static_cast<int>(x);
}
inline int __float2int_rd(float x)
{
    return static_cast<int>(floorf(x));
}
inline int __float2int_ru(float x)
{
    return static_cast<int>(ceilf(x));
}
inline unsigned __float2uint_rn(float x)
{
    return static_cast<unsigned>(nearbyintf(x));
}
inline float __int2float_rn(int x)
{
    return static_cast<float>(x);
}
inline float __uint2float_rn(unsigned x)
{
    return static_cast<float>(x);
}
inline int __double2int_rn(double x)
{
    return static_cast<int>(nearbyint(x));
}
inline float __double2float_rn(double x)
{
    return static_cast<float>(x);
}
inline int __float_as_int(float x)
{
    return wbcpu::fromBits<int>(wbcpu::toBits(x));
}
inline unsigned __float_as_uint(float x)
{
    return wbcpu::fromBits<unsigned>(wbcpu::toBits(x));
}
inline float __int_as_float(int x)
{
    return wbcpu::fromBits<float>(wbcpu::toBits(x));
}
inline float __uint_as_float(unsigned x)
{
    return wbcpu::fromBits<float>(wbcpu::toBits(x));
}
inline long long __double_as_longlong(double x)
{
    return wbcpu::fromBits<long long>(wbcpu::toBits(x));
}
inline double __longlong_as_double(long long x)
{
    return wbcpu::fromBits<double>(wbcpu::toBits(x));
}
template <typename T> inline T __ldg(const T* p)
{
    return *p;
}
template <typename T> inline T __ldcg(const T* p)
{
    return *p;
}
template <typename T> inline T __ldca(const T* p)
{
    return *p;
}
template <typename T> inline T __ldcs(const T* p)
{
    return *p;
}
template <typename T> inline T __ldlu(const T* p)
{
    return *p;
}
template <typename T> inline void __stcg(T* p, T v)
{
    *p = v;
}
template <typename T> inline void __stcs(T* p, T v)
{
    *p = v;
}
template <typename T> inline void __stwb(T* p, T v)
{
    *p = v;
}

inline long long clock64()
{
    return static_cast<long long>(__builtin_ia32_rdtsc());
}
inline unsigned long long __globaltimer()
{
    timespec ts{};
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return static_cast<unsigned long long>(ts.tv_sec) * 1000000000ull +
           static_cast<unsigned long long>(ts.tv_nsec);
}
inline void __nanosleep(unsigned ns)
{
    const timespec ts{0, static_cast<long>(ns)};
    nanosleep(&ts, nullptr);
}

#include "warpbench/cuda_half.h"
