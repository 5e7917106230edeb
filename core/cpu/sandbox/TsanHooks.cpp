// SPDX-License-Identifier: GPL-3.0-or-later
// The entry points of the compiler's ThreadSanitizer instrumentation (-fsanitize=thread), defined
// by warpbench-cpu-sandbox instead of libtsan: a race-checked kernel library calls them for every
// load, store, atomic and fence, and they hand each to the CUDA-aware RaceDetector. libtsan is
// never loaded. Atomic entry points perform the operation (sequentially consistent). The
// prelude's atomics and fences first say their CUDA order and scope (__wb_race_atomic_begin).
#include "core/cpu/detail/RaceDetector.h"

#include <cstddef>
#include <cstring>

using wb::cpu::detail::RaceDetector;
using Kind = RaceDetector::AtomicKind;

namespace {

/// wbcpu::abi::raceMode(order, scope) of the atomics and fences the prelude is in (per OS
/// thread: the emulated thread does not change within one), 0 outside.
thread_local int t_mode = 0;

/// note()'s way for what its first lines do not settle: out of line, so that the entry points
/// keep no frame for it (a tail call).
[[gnu::noinline]] void noteOther(RaceDetector* d, const void* address, std::size_t size, bool write,
                                 const void* pc)
{
    // The emulator's coordinates of the running thread (written for every thread, read by its
    // helpers): never watched.
    const auto a = reinterpret_cast<std::uintptr_t>(address);
    if (a - reinterpret_cast<std::uintptr_t>(&wb_cpu_current) < sizeof wb_cpu_current) return;
    if (!d->mayWatch(address)) return; // the emulator's own state, locals
    d->access(address, size, write, pc);
}

[[gnu::always_inline]] inline void note(const void* address, std::size_t size, bool write,
                                        const void* pc)
{
    RaceDetector* d = RaceDetector::active;
    if (!d) return;
    // A kernel's commonest reads: of a buffer it only reads (const), of its block's shared
    // memory (held for the end of the barrier interval).
    if (!write && (d->holdRead(address, size, pc) || (size <= 16 && d->skipRead(address)))) return;
    noteOther(d, address, size, write, pc);
}

/// ThreadSanitizer's memory orders (relaxed, consume, acquire, release, acq_rel, seq_cst) as
/// wbcpu::abi::RaceOrder.
int orderOf(int mo)
{
    switch (mo) {
    case 0:
        return wbcpu::abi::RaceRelaxed;
    case 1:
    case 2:
        return wbcpu::abi::RaceAcquire;
    case 3:
        return wbcpu::abi::RaceRelease;
    case 4:
        return wbcpu::abi::RaceAcqRel;
    default:
        return wbcpu::abi::RaceSeqCst;
    }
}

[[gnu::always_inline]] inline void noteAtomic(const void* address, std::size_t size, Kind kind,
                                              int mo, const void* pc)
{
    if (RaceDetector* d = RaceDetector::active) {
        const int order = (t_mode & 15) ? (t_mode & 15) : orderOf(mo);
        d->atomic(address, size, kind, order, (t_mode >> 4) & 3, pc);
    }
}

/// While blocks run on several workers: the detector's lock of an atomic location, held around
/// the real operation and the detector's record of it, so that the value an atomic reads and
/// the release/acquire state it takes from the location agree (no other worker's atomic on the
/// location comes between them).
class LocationLock {
public:
    explicit LocationLock(const volatile void* a) noexcept
        : m_detector(RaceDetector::active)
        , m_address(const_cast<const void*>(a))
    {
        if (m_detector) m_detector->lockLocation(m_address);
    }
    ~LocationLock()
    {
        if (m_detector) m_detector->unlockLocation(m_address);
    }
    LocationLock(const LocationLock&) = delete;
    LocationLock& operator=(const LocationLock&) = delete;

private:
    RaceDetector* m_detector;
    const void* m_address;
};

} // namespace

#define WB_PC __builtin_return_address(0)
#define WB_EXPORT extern "C" __attribute__((visibility("default")))

WB_EXPORT int __wb_race_atomic_begin(int mode)
{
    const int previous = t_mode;
    if (!previous) t_mode = mode; // an enclosing operation already said what this is
    return previous;
}
WB_EXPORT void __wb_race_atomic_end(int previous)
{
    t_mode = previous;
}

WB_EXPORT void __tsan_init() {}
WB_EXPORT void __tsan_func_entry(void*) {}
WB_EXPORT void __tsan_func_exit() {}
WB_EXPORT void __tsan_vptr_update(void**, void*) {}
WB_EXPORT void __tsan_vptr_read(void**) {}
WB_EXPORT void __tsan_ignore_thread_begin() {}
WB_EXPORT void __tsan_ignore_thread_end() {}

#define WB_TSAN_PLAIN(N)                                                                           \
    WB_EXPORT void __tsan_read##N(void* a)                                                         \
    {                                                                                              \
        note(a, N, false, WB_PC);                                                                  \
    }                                                                                              \
    WB_EXPORT void __tsan_write##N(void* a)                                                        \
    {                                                                                              \
        note(a, N, true, WB_PC);                                                                   \
    }                                                                                              \
    WB_EXPORT void __tsan_unaligned_read##N(void* a)                                               \
    {                                                                                              \
        note(a, N, false, WB_PC);                                                                  \
    }                                                                                              \
    WB_EXPORT void __tsan_unaligned_write##N(void* a)                                              \
    {                                                                                              \
        note(a, N, true, WB_PC);                                                                   \
    }                                                                                              \
    WB_EXPORT void __tsan_volatile_read##N(void* a)                                                \
    {                                                                                              \
        note(a, N, false, WB_PC);                                                                  \
    }                                                                                              \
    WB_EXPORT void __tsan_volatile_write##N(void* a)                                               \
    {                                                                                              \
        note(a, N, true, WB_PC);                                                                   \
    }                                                                                              \
    WB_EXPORT void __tsan_read##N##_pc(void* a, void* pc)                                          \
    {                                                                                              \
        note(a, N, false, pc);                                                                     \
    }                                                                                              \
    WB_EXPORT void __tsan_write##N##_pc(void* a, void* pc)                                         \
    {                                                                                              \
        note(a, N, true, pc);                                                                      \
    }
WB_TSAN_PLAIN(1)
WB_TSAN_PLAIN(2)
WB_TSAN_PLAIN(4)
WB_TSAN_PLAIN(8)
WB_TSAN_PLAIN(16)

WB_EXPORT void __tsan_read_range(void* a, unsigned long n)
{
    note(a, n, false, WB_PC);
}
WB_EXPORT void __tsan_write_range(void* a, unsigned long n)
{
    note(a, n, true, WB_PC);
}
WB_EXPORT void* __tsan_memcpy(void* d, const void* s, unsigned long n)
{
    note(s, n, false, WB_PC);
    note(d, n, true, WB_PC);
    return std::memcpy(d, s, n);
}
WB_EXPORT void* __tsan_memmove(void* d, const void* s, unsigned long n)
{
    note(s, n, false, WB_PC);
    note(d, n, true, WB_PC);
    return std::memmove(d, s, n);
}
WB_EXPORT void* __tsan_memset(void* d, int c, unsigned long n)
{
    note(d, n, true, WB_PC);
    return std::memset(d, c, n);
}

WB_EXPORT void __tsan_atomic_thread_fence(int mo)
{
    if (RaceDetector* d = RaceDetector::active)
        d->fence((t_mode & 15) ? (t_mode & 15) : orderOf(mo), (t_mode >> 4) & 3);
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
}
WB_EXPORT void __tsan_atomic_signal_fence(int)
{
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
}

// Sizes 8 to 64 bits (the prelude's atomics), performed sequentially consistent under the
// location's lock; the order they were given goes to the detector.
#define WB_TSAN_RMW(N, T, NAME, OP)                                                                \
    WB_EXPORT T __tsan_atomic##N##_##NAME(volatile T* a, T v, int mo)                              \
    {                                                                                              \
        const LocationLock hold(a);                                                                \
        noteAtomic(const_cast<T*>(a), sizeof(T), Kind::ReadModifyWrite, mo, WB_PC);                \
        return OP(a, v, __ATOMIC_SEQ_CST);                                                         \
    }
#define WB_TSAN_ATOMICS(N, T)                                                                      \
    WB_EXPORT T __tsan_atomic##N##_load(const volatile T* a, int mo)                               \
    {                                                                                              \
        const LocationLock hold(a);                                                                \
        noteAtomic(const_cast<T*>(a), sizeof(T), Kind::Load, mo, WB_PC);                           \
        return __atomic_load_n(a, __ATOMIC_SEQ_CST);                                               \
    }                                                                                              \
    WB_EXPORT void __tsan_atomic##N##_store(volatile T* a, T v, int mo)                            \
    {                                                                                              \
        const LocationLock hold(a);                                                                \
        noteAtomic(const_cast<T*>(a), sizeof(T), Kind::Store, mo, WB_PC);                          \
        __atomic_store_n(a, v, __ATOMIC_SEQ_CST);                                                  \
    }                                                                                              \
    WB_TSAN_RMW(N, T, exchange, __atomic_exchange_n)                                               \
    WB_TSAN_RMW(N, T, fetch_add, __atomic_fetch_add)                                               \
    WB_TSAN_RMW(N, T, fetch_sub, __atomic_fetch_sub)                                               \
    WB_TSAN_RMW(N, T, fetch_and, __atomic_fetch_and)                                               \
    WB_TSAN_RMW(N, T, fetch_or, __atomic_fetch_or)                                                 \
    WB_TSAN_RMW(N, T, fetch_xor, __atomic_fetch_xor)                                               \
    WB_TSAN_RMW(N, T, fetch_nand, __atomic_fetch_nand)                                             \
    /* A compare-exchange that fails only reads (with the failure order). */                       \
    WB_EXPORT int __tsan_atomic##N##_compare_exchange_strong(volatile T* a, T* c, T v, int mo,     \
                                                             int fmo)                              \
    {                                                                                              \
        const LocationLock hold(a);                                                                \
        const bool done =                                                                          \
            __atomic_compare_exchange_n(a, c, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);       \
        noteAtomic(const_cast<T*>(a), sizeof(T), done ? Kind::ReadModifyWrite : Kind::Load,        \
                   done ? mo : fmo, WB_PC);                                                        \
        return done;                                                                               \
    }                                                                                              \
    WB_EXPORT int __tsan_atomic##N##_compare_exchange_weak(volatile T* a, T* c, T v, int mo,       \
                                                           int fmo)                                \
    {                                                                                              \
        const LocationLock hold(a);                                                                \
        const bool done =                                                                          \
            __atomic_compare_exchange_n(a, c, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);       \
        noteAtomic(const_cast<T*>(a), sizeof(T), done ? Kind::ReadModifyWrite : Kind::Load,        \
                   done ? mo : fmo, WB_PC);                                                        \
        return done;                                                                               \
    }                                                                                              \
    WB_EXPORT T __tsan_atomic##N##_compare_exchange_val(volatile T* a, T c, T v, int mo, int fmo)  \
    {                                                                                              \
        const LocationLock hold(a);                                                                \
        const T expected = c;                                                                      \
        __atomic_compare_exchange_n(a, &c, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);          \
        noteAtomic(const_cast<T*>(a), sizeof(T),                                                   \
                   c == expected ? Kind::ReadModifyWrite : Kind::Load, c == expected ? mo : fmo,   \
                   WB_PC);                                                                         \
        return c;                                                                                  \
    }
WB_TSAN_ATOMICS(8, unsigned char)
WB_TSAN_ATOMICS(16, unsigned short)
WB_TSAN_ATOMICS(32, unsigned int)
WB_TSAN_ATOMICS(64, unsigned long long)
