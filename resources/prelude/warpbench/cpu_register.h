// SPDX-License-Identifier: GPL-3.0-or-later
// Registration helpers used by the code Warpbench appends to a kernel source: they describe
// each kernel's parameters from its function type and export entry points that unpack a
// cuLaunchKernel-style `void** args` into a call.
#pragma once

#include "warpbench/cuda_prelude.h"

#include <cstring>
#include <new>
#include <tuple>
#include <utility>

namespace wbcpu {

template <typename T> class traced_ptr; // trace mode (cpu_trace.h)
template <typename T> struct TracedElement {
    static constexpr bool value = false;
};
template <typename T> struct TracedElement<traced_ptr<T>> {
    static constexpr bool value = true;
    using type = T;
};

/// The C++ spelling of T, taken from the compiler's own pretty function name.
template <typename T> const char* typeName()
{
    static char name[256] = {};
    if (!name[0]) {
        const char* pretty = __PRETTY_FUNCTION__;
        const char* eq = std::strstr(pretty, "T = ");
        const char* begin = eq ? eq + 4 : pretty;
        const char* end = begin;
        int depth = 0;
        for (; *end; ++end) {
            if (*end == '<' || *end == '(' || *end == '[')
                ++depth;
            else if (*end == '>' || *end == ')')
                --depth;
            else if (*end == ']') {
                if (depth == 0) break;
                --depth;
            } else if ((*end == ';') && depth == 0)
                break;
        }
        std::size_t n = static_cast<std::size_t>(end - begin);
        if (n >= sizeof(name)) n = sizeof(name) - 1;
        std::memcpy(name, begin, n);
        name[n] = '\0';
    }
    return name;
}

template <typename T> abi::ParamDesc paramDesc()
{
    abi::ParamDesc d{};
    d.type = typeName<T>();
    d.size = sizeof(T);
    d.align = alignof(T);
    if constexpr (TracedElement<T>::value) {
        // Trace mode: described as the raw pointer it stands for.
        using E = typename TracedElement<T>::type;
        d.type = typeName<E*>();
        d.isPointer = 1;
        d.isConst = 0;
        d.pointee = typeName<std::remove_cv_t<E>>();
    } else if constexpr (std::is_pointer_v<T>) {
        using P = std::remove_pointer_t<T>;
        d.isPointer = 1;
        d.isConst = std::is_const_v<P> ? 1 : 0;
        d.pointee = typeName<std::remove_cv_t<P>>();
    } else {
        d.pointee = "";
    }
    return d;
}

/// Reports a failed heap allocation in kernel code (std::bad_alloc from new, new[] or a
/// standard container) as what it is. The host adds the kernel, block and thread.
inline void outOfMemory(abi::ThreadState* st)
{
    if (st)
        st->rt->fail(st,
                     "out of memory: a heap allocation in the kernel (new, new[] or a standard "
                     "container) failed with std::bad_alloc; the host could not provide the "
                     "memory asked for",
                     nullptr, 0);
}

template <auto F, typename... A> struct Entry {
    using Tuple = std::tuple<A...>;
    template <std::size_t... I> static Tuple unpack(void** args, std::index_sequence<I...>)
    {
        return Tuple(arg<A>(args[I])...);
    }
    template <typename P> static P arg(void* slot)
    {
        if constexpr (TracedElement<P>::value)
            return P(*static_cast<typename TracedElement<P>::type**>(slot));
        else
            return *static_cast<P*>(slot);
    }
    static int runBlock(void** args, abi::ThreadState* st, unsigned long long first,
                        unsigned long long count)
    {
        Tuple values = unpack(args, std::index_sequence_for<A...>{});
        const Current previous = WB_CUR;
        enter(st);
        const unsigned nx = st->blockSize.x, ny = st->blockSize.y, nz = st->blockSize.z;
        const unsigned gx = st->gridSize.x, gy = st->gridSize.y;
        unsigned bx = static_cast<unsigned>(first % gx);
        unsigned by = static_cast<unsigned>((first / gx) % gy);
        unsigned bz = static_cast<unsigned>(first / (static_cast<unsigned long long>(gx) * gy));
        Current& c = WB_CUR; // one TLS address lookup, not one per thread
        int status = 0;
        try {
            for (unsigned long long k = 0; k < count; ++k) {
                quietCopy(c.block, abi::Dim{bx, by, bz});
                // Only the coordinates change from thread to thread: the kernel, inlined here,
                // reads them like loop variables.
                for (unsigned z = 0; z < nz; ++z) {
                    quietSet(c.thread.z, z);
                    for (unsigned y = 0; y < ny; ++y) {
                        quietSet(c.thread.y, y);
                        for (unsigned x = 0; x < nx; ++x) {
                            quietSet(c.thread.x, x);
#ifdef __SANITIZE_THREAD__
                            // Race-check build: the coordinates must be in memory before the
                            // thread's instrumented accesses (the detector reads them there).
                            __asm__ __volatile__("" ::: "memory");
#endif
                            std::apply(F, values);
                        }
                    }
                }
                if (++bx == gx) {
                    bx = 0;
                    if (++by == gy) {
                        by = 0;
                        ++bz;
                    }
                }
            }
        } catch (const std::bad_alloc&) {
            // new/new[] of more than the process can have: say so, not only where it stopped.
            current();
            st->blockIndex = c.block;
            outOfMemory(st);
            status = 1;
        } catch (...) {
            status = 1;
        }
        current(); // leave the last coordinates in *st
        st->blockIndex = c.block;
        WB_CUR = previous;
        return status;
    }
    static int runThread(void** args, abi::ThreadState* st)
    {
        enter(st);
        try {
            std::apply(F, unpack(args, std::index_sequence_for<A...>{}));
        } catch (const std::bad_alloc&) {
            outOfMemory(current());
            return 1;
        } catch (...) {
            return 1;
        }
        return 0;
    }
};

template <auto F, typename... A>
abi::KernelDesc describe(void (*)(A...), const char* name, int isTemplate, int needsFibers)
{
    static const abi::ParamDesc params[sizeof...(A) + 1] = {paramDesc<A>()..., abi::ParamDesc{}};
    abi::KernelDesc k{};
    k.name = name;
    k.symbol = name;
    k.isTemplate = isTemplate;
    k.needsFibers = needsFibers;
    k.paramCount = sizeof...(A);
    k.params = params;
    k.runBlock = &Entry<F, A...>::runBlock;
    k.runThread = &Entry<F, A...>::runThread;
    return k;
}

inline unsigned char* dynamicSharedBuffer()
{
    return dynamicShared;
}
inline abi::ThreadState* currentThread()
{
    return current();
}

} // namespace wbcpu
