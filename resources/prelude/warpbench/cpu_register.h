// SPDX-License-Identifier: GPL-3.0-or-later
// Registration helpers used by the code Warpbench appends to a kernel source: they describe
// each kernel's parameters from its function type and export entry points that unpack a
// cuLaunchKernel-style `void** args` into a call.
#pragma once

#include "warpbench/cuda_prelude.h"

#include <cstring>
#include <tuple>
#include <utility>

namespace wbcpu {

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
            if (*end == '<' || *end == '(' || *end == '[') ++depth;
            else if (*end == '>' || *end == ')') --depth;
            else if (*end == ']') {
                if (depth == 0) break;
                --depth;
            } else if ((*end == ';') && depth == 0) break;
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
    if constexpr (std::is_pointer_v<T>) {
        using P = std::remove_pointer_t<T>;
        d.isPointer = 1;
        d.isConst = std::is_const_v<P> ? 1 : 0;
        d.pointee = typeName<std::remove_cv_t<P>>();
    } else {
        d.pointee = "";
    }
    return d;
}

template <auto F, typename... A> struct Entry {
    using Tuple = std::tuple<A...>;
    template <std::size_t... I> static Tuple unpack(void** args, std::index_sequence<I...>)
    {
        return Tuple(*static_cast<A*>(args[I])...);
    }
    static int runBlock(void** args, abi::ThreadState* st)
    {
        Tuple values = unpack(args, std::index_sequence_for<A...>{});
        const Current previous = WB_CUR;
        enter(st);
        const unsigned nx = st->blockSize.x, ny = st->blockSize.y, nz = st->blockSize.z;
        Current& c = WB_CUR; // one TLS address lookup, not one per thread
        int status = 0;
        try {
            // Only the coordinates change from thread to thread: the kernel, inlined here,
            // reads them from `cur` like loop variables.
            for (unsigned z = 0; z < nz; ++z) {
                c.thread.z = z;
                for (unsigned y = 0; y < ny; ++y) {
                    c.thread.y = y;
                    for (unsigned x = 0; x < nx; ++x) {
                        c.thread.x = x;
                        std::apply(F, values);
                    }
                }
            }
        } catch (...) {
            status = 1;
        }
        current(); // leave the last coordinates in *st
        WB_CUR = previous;
        return status;
    }
    static int runThread(void** args, abi::ThreadState* st)
    {
        enter(st);
        try {
            std::apply(F, unpack(args, std::index_sequence_for<A...>{}));
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

inline unsigned char* dynamicSharedBuffer() { return dynamicShared; }
inline abi::ThreadState* currentThread() { return current(); }

} // namespace wbcpu
