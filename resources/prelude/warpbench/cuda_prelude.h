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

#if defined(__SANITIZE_THREAD__) && defined(__x86_64__)
/// Race-check build: copies made past the instrumentation (the emulator's own state, which the
/// detector never watches: without this, each thread's start is a dozen calls into the
/// sandbox). The "m" operands order them with the plain accesses of the same memory.
inline void quietCopy(abi::Dim& to, const abi::Dim& from)
{
    unsigned x, y, z;
    __asm__("movl %1, %0" : "=r"(x) : "m"(from.x));
    __asm__("movl %1, %0" : "=r"(y) : "m"(from.y));
    __asm__("movl %1, %0" : "=r"(z) : "m"(from.z));
    __asm__("movl %1, %0" : "=m"(to.x) : "r"(x));
    __asm__("movl %1, %0" : "=m"(to.y) : "r"(y));
    __asm__("movl %1, %0" : "=m"(to.z) : "r"(z));
}
inline void quietStore(abi::ThreadState*& to, abi::ThreadState* from)
{
    __asm__("movq %1, %0" : "=m"(to) : "r"(from));
}
inline abi::ThreadState* quietLoad(abi::ThreadState* const& from)
{
    abi::ThreadState* v;
    __asm__("movq %1, %0" : "=r"(v) : "m"(from));
    return v;
}
inline void quietSet(unsigned& to, unsigned v)
{
    __asm__("movl %1, %0" : "=m"(to) : "r"(v));
}
#else
inline void quietCopy(abi::Dim& to, const abi::Dim& from)
{
    to = from;
}
inline void quietStore(abi::ThreadState*& to, abi::ThreadState* from)
{
    to = from;
}
inline abi::ThreadState* quietLoad(abi::ThreadState* const& from)
{
    return from;
}
inline void quietSet(unsigned& to, unsigned v)
{
    to = v;
}
#endif

/// Makes `st` the running thread (at entry, and after every return from the host scheduler).
inline void enter(abi::ThreadState* st)
{
    quietCopy(WB_CUR.thread, st->threadIndex);
    quietCopy(WB_CUR.block, st->blockIndex);
    quietCopy(WB_CUR.blockSize, st->blockSize);
    quietCopy(WB_CUR.gridSize, st->gridSize);
    quietStore(WB_CUR.st, st);
}

/// The running thread's state with its coordinates written back, before calling the host.
inline abi::ThreadState* current()
{
    abi::ThreadState* st = WB_CUR.st;
    if (st) {
        // In loop mode one state serves every block of the chunk: the block runs in WB_CUR.
        st->blockIndex = WB_CUR.block;
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
    Parked p;
    p.st = quietLoad(WB_CUR.st);
    quietCopy(p.thread, WB_CUR.thread);
    return p;
}
inline void unpark(const Parked& p)
{
    quietCopy(WB_CUR.thread, p.thread);
    quietStore(WB_CUR.st, p.st);
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

#if defined(__SANITIZE_THREAD__) && defined(__x86_64__)
/// Race-check build: the coordinates read past the instrumentation (memory the detector never
/// watches, and a kernel's commonest loads: without this, each is a call into the sandbox). The
/// "m" operands order the loads with the block loop's and the fibers' stores of them, as a
/// plain load would be; the values are the running thread's, constant for it.
inline uint3 quietDim(const abi::Dim& d)
{
    unsigned x, y, z;
    __asm__("movl %1, %0" : "=r"(x) : "m"(d.x));
    __asm__("movl %1, %0" : "=r"(y) : "m"(d.y));
    __asm__("movl %1, %0" : "=r"(z) : "m"(d.z));
    return uint3{x, y, z};
}
#endif

} // namespace wbcpu

#if defined(__SANITIZE_THREAD__) && defined(__x86_64__)
#define threadIdx (::wbcpu::quietDim(WB_CUR.thread))
#define blockIdx (::wbcpu::quietDim(WB_CUR.block))
#define blockDim (::dim3(::wbcpu::quietDim(WB_CUR.blockSize)))
#define gridDim (::dim3(::wbcpu::quietDim(WB_CUR.gridSize)))
#else
#define threadIdx (reinterpret_cast<const uint3&>(WB_CUR.thread))
#define blockIdx (reinterpret_cast<const uint3&>(WB_CUR.block))
#define blockDim (reinterpret_cast<const dim3&>(WB_CUR.blockSize))
#define gridDim (reinterpret_cast<const dim3&>(WB_CUR.gridSize))
#endif
static_assert(sizeof(dim3) == sizeof(wbcpu::abi::Dim) && sizeof(uint3) == sizeof(wbcpu::abi::Dim));
inline constexpr int warpSize = 32;

// ---------------------------------------------------------------------------------------------
// assert and printf
#undef assert
#define assert(expr) ((expr) ? static_cast<void>(0) : ::wbcpu::fail("assertion '" #expr "' failed"))
inline void __trap(const char* file = __builtin_FILE(), unsigned line = __builtin_LINE())
{
    wbcpu::fail("__trap() called", file, line);
}
inline void __brkpt(const char* file = __builtin_FILE(), unsigned line = __builtin_LINE())
{
    wbcpu::fail("__brkpt() called", file, line);
}
inline void __prof_trigger(int) {}

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

// Race-check builds (ThreadSanitizer instrumentation, run by warpbench-cpu-sandbox): atomics and
// fences tell the detector their scope and CUDA's order first (cpu_abi.h RaceOrder). The
// sandbox defines these two functions; other builds never call them.
#if defined(__SANITIZE_THREAD__)
#define WB_RACE_BUILD 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define WB_RACE_BUILD 1
#endif
#endif
#ifdef WB_RACE_BUILD
extern "C" int __wb_race_atomic_begin(int mode);
extern "C" void __wb_race_atomic_end(int previous);
namespace wbcpu {
/// The atomic operations and fences in its lifetime are `mode`, unless an enclosing one already
/// said what they are (atomicAdd_block on a float2 calls atomicAdd per component).
struct RaceMode {
    int previous;
    explicit RaceMode(int mode)
        : previous(__wb_race_atomic_begin(mode))
    {
    }
    ~RaceMode() { __wb_race_atomic_end(previous); }
    RaceMode(const RaceMode&) = delete;
    RaceMode& operator=(const RaceMode&) = delete;
};
} // namespace wbcpu
#define WB_RACE_MODE(order, scope)                                                                 \
    const ::wbcpu::RaceMode wbRaceMode_(::wbcpu::abi::raceMode(order, scope))
#else
#define WB_RACE_MODE(order, scope) static_cast<void>(0)
#endif

inline void __threadfence()
{
    WB_RACE_MODE(wbcpu::abi::RaceSeqCst, wbcpu::abi::RaceDevice);
    std::atomic_thread_fence(std::memory_order_seq_cst);
}
inline void __threadfence_block()
{
    WB_RACE_MODE(wbcpu::abi::RaceSeqCst, wbcpu::abi::RaceBlock);
    std::atomic_thread_fence(std::memory_order_seq_cst);
}
inline void __threadfence_system()
{
    WB_RACE_MODE(wbcpu::abi::RaceSeqCst, wbcpu::abi::RaceSystem);
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

/// The lanes of the warp that reach this call together: coalesced_threads() (a lane waits until
/// every lane of the warp that has not exited is here, or else until nothing else in the block
/// can run). A source naming __activemask runs in fiber mode; loop mode (a call from a header
/// the source includes) answers every lane that has not exited.
inline unsigned __activemask(const char* file = __builtin_FILE(), unsigned line = __builtin_LINE())
{
    wbcpu::abi::ThreadState* me = wbcpu::current();
    if (!me->host) return me->rt->activeMask(me);
    return static_cast<unsigned>(
        wbcpu::warpOp(wbcpu::abi::Coalesce, 0xffffffffu, 0, 0, 32, "__activemask", file, line));
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
/// The low 32 bits of the product of the low 24 bits (sign-extended) of a and b.
inline int __mul24(int a, int b)
{
    return static_cast<int>(static_cast<unsigned>(static_cast<long long>(a << 8 >> 8) *
                                                  static_cast<long long>(b << 8 >> 8)));
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

inline unsigned long long int __brevll(unsigned long long int x)
{
    return (static_cast<unsigned long long int>(__brev(static_cast<unsigned>(x))) << 32) |
           __brev(static_cast<unsigned>(x >> 32));
}
inline long long int __mul64hi(long long int a, long long int b)
{
    return static_cast<long long int>((static_cast<__int128>(a) * b) >> 64);
}
/// |x - y| + z
inline unsigned int __sad(int x, int y, unsigned int z)
{
    return static_cast<unsigned>(x > y ? static_cast<long long>(x) - y
                                       : static_cast<long long>(y) - x) +
           z;
}
inline unsigned int __usad(unsigned int x, unsigned int y, unsigned int z)
{
    return (x > y ? x - y : y - x) + z;
}
/// Averages without overflow: (x + y) >> 1 and (x + y + 1) >> 1.
inline int __hadd(int x, int y)
{
    return static_cast<int>((static_cast<long long>(x) + y) >> 1);
}
inline int __rhadd(int x, int y)
{
    return static_cast<int>((static_cast<long long>(x) + y + 1) >> 1);
}
inline unsigned int __uhadd(unsigned int x, unsigned int y)
{
    return static_cast<unsigned>((static_cast<unsigned long long>(x) + y) >> 1);
}
inline unsigned int __urhadd(unsigned int x, unsigned int y)
{
    return static_cast<unsigned>((static_cast<unsigned long long>(x) + y + 1) >> 1);
}
/// The 64-bit hi:lo shifted left (right) by shift & 31 (the _c forms: min(shift, 32)); the
/// upper (lower) 32 bits.
inline unsigned int __funnelshift_l(unsigned int lo, unsigned int hi, unsigned int shift)
{
    const unsigned long long v = (static_cast<unsigned long long>(hi) << 32) | lo;
    return static_cast<unsigned>((v << (shift & 31u)) >> 32);
}
inline unsigned int __funnelshift_lc(unsigned int lo, unsigned int hi, unsigned int shift)
{
    const unsigned long long v = (static_cast<unsigned long long>(hi) << 32) | lo;
    return static_cast<unsigned>((v << (shift < 32u ? shift : 32u)) >> 32);
}
inline unsigned int __funnelshift_r(unsigned int lo, unsigned int hi, unsigned int shift)
{
    const unsigned long long v = (static_cast<unsigned long long>(hi) << 32) | lo;
    return static_cast<unsigned>(v >> (shift & 31u));
}
inline unsigned int __funnelshift_rc(unsigned int lo, unsigned int hi, unsigned int shift)
{
    const unsigned long long v = (static_cast<unsigned long long>(hi) << 32) | lo;
    return static_cast<unsigned>(v >> (shift < 32u ? shift : 32u));
}
/// Dot products of packed bytes (halves) with a 32-bit accumulator.
inline int __dp4a(int a, int b, int c)
{
    for (int i = 0; i < 4; ++i)
        c += static_cast<signed char>(a >> (8 * i)) * static_cast<signed char>(b >> (8 * i));
    return c;
}
inline unsigned int __dp4a(unsigned int a, unsigned int b, unsigned int c)
{
    for (int i = 0; i < 4; ++i)
        c += ((a >> (8 * i)) & 0xffu) * ((b >> (8 * i)) & 0xffu);
    return c;
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

/// CUDA's declared overloads (device_atomic_functions.h, sm_20/32/60_atomic_functions.h,
/// sm_70_rt.h, sm_90_rt.h), each with its _block and _system variant: plain functions, not
/// templates, so that `atomicAdd(unsigned*, 1)` or `atomicExch(int*, 1u)` convert their argument
/// as nvcc does.
#define WB_ATOMIC(NAME, T, EXPR)                                                                   \
    inline T NAME(T* p, T v)                                                                       \
    {                                                                                              \
        WB_RACE_MODE(wbcpu::abi::RaceLegacy, wbcpu::abi::RaceDevice);                              \
        return EXPR;                                                                               \
    }                                                                                              \
    inline T NAME##_block(T* p, T v)                                                               \
    {                                                                                              \
        WB_RACE_MODE(wbcpu::abi::RaceLegacy, wbcpu::abi::RaceBlock);                               \
        return NAME(p, v);                                                                         \
    }                                                                                              \
    inline T NAME##_system(T* p, T v)                                                              \
    {                                                                                              \
        WB_RACE_MODE(wbcpu::abi::RaceLegacy, wbcpu::abi::RaceSystem);                              \
        return NAME(p, v);                                                                         \
    }
#define WB_FETCH(OP) wbcpu::ref(p).OP(v, std::memory_order_relaxed)
#define WB_MIN wbcpu::casLoop(p, [v](auto o) { return v < o ? v : o; })
#define WB_MAX wbcpu::casLoop(p, [v](auto o) { return v > o ? v : o; })
WB_ATOMIC(atomicAdd, int, WB_FETCH(fetch_add))
WB_ATOMIC(atomicAdd, unsigned int, WB_FETCH(fetch_add))
WB_ATOMIC(atomicAdd, unsigned long long int, WB_FETCH(fetch_add))
WB_ATOMIC(atomicAdd, float, WB_FETCH(fetch_add))
WB_ATOMIC(atomicAdd, double, WB_FETCH(fetch_add))
WB_ATOMIC(atomicSub, int, WB_FETCH(fetch_sub))
WB_ATOMIC(atomicSub, unsigned int, WB_FETCH(fetch_sub))
WB_ATOMIC(atomicExch, int, WB_FETCH(exchange))
WB_ATOMIC(atomicExch, unsigned int, WB_FETCH(exchange))
WB_ATOMIC(atomicExch, unsigned long long int, WB_FETCH(exchange))
WB_ATOMIC(atomicExch, float, WB_FETCH(exchange))
WB_ATOMIC(atomicMin, int, WB_MIN)
WB_ATOMIC(atomicMin, unsigned int, WB_MIN)
WB_ATOMIC(atomicMin, long long int, WB_MIN)
WB_ATOMIC(atomicMin, unsigned long long int, WB_MIN)
WB_ATOMIC(atomicMax, int, WB_MAX)
WB_ATOMIC(atomicMax, unsigned int, WB_MAX)
WB_ATOMIC(atomicMax, long long int, WB_MAX)
WB_ATOMIC(atomicMax, unsigned long long int, WB_MAX)
WB_ATOMIC(atomicAnd, int, WB_FETCH(fetch_and))
WB_ATOMIC(atomicAnd, unsigned int, WB_FETCH(fetch_and))
WB_ATOMIC(atomicAnd, long long int, WB_FETCH(fetch_and))
WB_ATOMIC(atomicAnd, unsigned long long int, WB_FETCH(fetch_and))
WB_ATOMIC(atomicOr, int, WB_FETCH(fetch_or))
WB_ATOMIC(atomicOr, unsigned int, WB_FETCH(fetch_or))
WB_ATOMIC(atomicOr, long long int, WB_FETCH(fetch_or))
WB_ATOMIC(atomicOr, unsigned long long int, WB_FETCH(fetch_or))
WB_ATOMIC(atomicXor, int, WB_FETCH(fetch_xor))
WB_ATOMIC(atomicXor, unsigned int, WB_FETCH(fetch_xor))
WB_ATOMIC(atomicXor, long long int, WB_FETCH(fetch_xor))
WB_ATOMIC(atomicXor, unsigned long long int, WB_FETCH(fetch_xor))
// Wrapping counters: inc counts 0..v, then 0 again; dec counts down to 0, then v again (and
// starts at v from anything above it).
WB_ATOMIC(atomicInc, unsigned int,
          wbcpu::casLoop(p, [v](unsigned o) { return o >= v ? 0u : o + 1u; }))
WB_ATOMIC(atomicDec, unsigned int,
          wbcpu::casLoop(p, [v](unsigned o) { return (o == 0u || o > v) ? v : o - 1u; }))
// float2 / float4 (sm_90): component by component.
WB_ATOMIC(atomicAdd, float2, (float2{atomicAdd(&p->x, v.x), atomicAdd(&p->y, v.y)}))
WB_ATOMIC(atomicAdd, float4,
          (float4{atomicAdd(&p->x, v.x), atomicAdd(&p->y, v.y), atomicAdd(&p->z, v.z),
                  atomicAdd(&p->w, v.w)}))
#undef WB_FETCH
#undef WB_MIN
#undef WB_MAX

#define WB_ATOMIC_CAS(T)                                                                           \
    inline T atomicCAS(T* p, T compare, T v)                                                       \
    {                                                                                              \
        WB_RACE_MODE(wbcpu::abi::RaceLegacy, wbcpu::abi::RaceDevice);                              \
        wbcpu::ref(p).compare_exchange_strong(compare, v, std::memory_order_relaxed);              \
        return compare;                                                                            \
    }                                                                                              \
    inline T atomicCAS_block(T* p, T compare, T v)                                                 \
    {                                                                                              \
        WB_RACE_MODE(wbcpu::abi::RaceLegacy, wbcpu::abi::RaceBlock);                               \
        return atomicCAS(p, compare, v);                                                           \
    }                                                                                              \
    inline T atomicCAS_system(T* p, T compare, T v)                                                \
    {                                                                                              \
        WB_RACE_MODE(wbcpu::abi::RaceLegacy, wbcpu::abi::RaceSystem);                              \
        return atomicCAS(p, compare, v);                                                           \
    }
WB_ATOMIC_CAS(int)
WB_ATOMIC_CAS(unsigned int)
WB_ATOMIC_CAS(unsigned long long int)
WB_ATOMIC_CAS(unsigned short int)
#undef WB_ATOMIC_CAS

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

// Mixed-sign and mixed-precision overloads, as CUDA's math_functions.hpp declares them: the
// signed argument converts to the unsigned type, float to double.
#define WB_MINMAX(R, A, B)                                                                         \
    inline R min(A a, B b)                                                                         \
    {                                                                                              \
        return static_cast<R>(a) < static_cast<R>(b) ? static_cast<R>(a) : static_cast<R>(b);      \
    }                                                                                              \
    inline R max(A a, B b)                                                                         \
    {                                                                                              \
        return static_cast<R>(a) > static_cast<R>(b) ? static_cast<R>(a) : static_cast<R>(b);      \
    }
WB_MINMAX(unsigned int, int, unsigned int)
WB_MINMAX(unsigned int, unsigned int, int)
WB_MINMAX(long int, long int, long int)
WB_MINMAX(unsigned long int, unsigned long int, unsigned long int)
WB_MINMAX(unsigned long int, long int, unsigned long int)
WB_MINMAX(unsigned long int, unsigned long int, long int)
WB_MINMAX(unsigned long long int, long long int, unsigned long long int)
WB_MINMAX(unsigned long long int, unsigned long long int, long long int)
#undef WB_MINMAX
inline double min(float a, double b)
{
    return fmin(static_cast<double>(a), b);
}
inline double min(double a, float b)
{
    return fmin(a, static_cast<double>(b));
}
inline double max(float a, double b)
{
    return fmax(static_cast<double>(a), b);
}
inline double max(double a, float b)
{
    return fmax(a, static_cast<double>(b));
}
inline unsigned int umin(unsigned int a, unsigned int b)
{
    return a < b ? a : b;
}
inline unsigned int umax(unsigned int a, unsigned int b)
{
    return a > b ? a : b;
}
inline long long int llmin(long long int a, long long int b)
{
    return a < b ? a : b;
}
inline long long int llmax(long long int a, long long int b)
{
    return a > b ? a : b;
}
inline unsigned long long int ullmin(unsigned long long int a, unsigned long long int b)
{
    return a < b ? a : b;
}
inline unsigned long long int ullmax(unsigned long long int a, unsigned long long int b)
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
inline unsigned __float2uint_rz(float x)
{
    return static_cast<unsigned>(x);
}
inline unsigned __float2uint_rd(float x)
{
    return static_cast<unsigned>(floorf(x));
}
inline unsigned __float2uint_ru(float x)
{
    return static_cast<unsigned>(ceilf(x));
}
inline long long __float2ll_rn(float x)
{
    return static_cast<long long>(nearbyintf(x));
}
inline long long __float2ll_rz(float x)
{
    return static_cast<long long>(x);
}
inline unsigned long long __float2ull_rn(float x)
{
    return static_cast<unsigned long long>(nearbyintf(x));
}
inline unsigned long long __float2ull_rz(float x)
{
    return static_cast<unsigned long long>(x);
}
inline float __ll2float_rn(long long x)
{
    return static_cast<float>(x);
}
inline float __ull2float_rn(unsigned long long x)
{
    return static_cast<float>(x);
}
inline double __int2double_rn(int x)
{
    return x;
}
inline double __uint2double_rn(unsigned x)
{
    return x;
}
inline double __ll2double_rn(long long x)
{
    return static_cast<double>(x);
}
inline int __double2int_rz(double x)
{
    return static_cast<int>(x);
}
inline unsigned __double2uint_rn(double x)
{
    return static_cast<unsigned>(nearbyint(x));
}
inline unsigned __double2uint_rz(double x)
{
    return static_cast<unsigned>(x);
}
inline long long __double2ll_rn(double x)
{
    return static_cast<long long>(nearbyint(x));
}
inline long long __double2ll_rz(double x)
{
    return static_cast<long long>(x);
}
inline int __double2hiint(double x)
{
    return static_cast<int>(wbcpu::fromBits<unsigned long long>(wbcpu::toBits(x)) >> 32);
}
inline int __double2loint(double x)
{
    return static_cast<int>(wbcpu::fromBits<unsigned long long>(wbcpu::toBits(x)) & 0xffffffffu);
}
inline double __hiloint2double(int hi, int lo)
{
    return wbcpu::fromBits<double>(
        (static_cast<unsigned long long>(static_cast<unsigned>(hi)) << 32) |
        static_cast<unsigned>(lo));
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
