// SPDX-License-Identifier: GPL-3.0-or-later
// Trace mode of the CPU emulator: the mutable pointer parameters of every __global__ function
// become wbcpu::traced_ptr<T>, whose element references record each store (and each atomic)
// with the host (wb_cpu_trace_store, in libwarpbench-core), so that the buffer viewer can show
// who wrote what. Reads cost nothing extra. A traced pointer converts to T* where a function
// wants one; stores through that raw pointer are not recorded (the host notices the changed
// bytes and reports them as untraced).
#pragma once

#include <cstddef>
#include <type_traits>

extern "C" void wb_cpu_trace_store(const void* address, unsigned long bytes, int atomic);

namespace wbcpu {

template <typename T> class traced_ptr;

/// One element of a traced buffer: converts to T for reads, records assignments.
template <typename T> class traced_ref {
public:
    explicit traced_ref(T* p) noexcept
        : m_p(p)
    {
    }
    traced_ref(const traced_ref&) = default;
    operator T() const { return *m_p; }
    traced_ref& operator=(const T& v)
    {
        *m_p = v;
        record();
        return *this;
    }
    traced_ref& operator=(const traced_ref& o) { return *this = static_cast<T>(o); }
#define WB_TRACED_COMPOUND(OP)                                                                     \
    template <typename U> traced_ref& operator OP(const U& v)                                      \
    {                                                                                              \
        *m_p OP v;                                                                                 \
        record();                                                                                  \
        return *this;                                                                              \
    }
    WB_TRACED_COMPOUND(+=)
    WB_TRACED_COMPOUND(-=)
    WB_TRACED_COMPOUND(*=)
    WB_TRACED_COMPOUND(/=)
    WB_TRACED_COMPOUND(%=)
    WB_TRACED_COMPOUND(&=)
    WB_TRACED_COMPOUND(|=)
    WB_TRACED_COMPOUND(^=)
    WB_TRACED_COMPOUND(<<=)
    WB_TRACED_COMPOUND(>>=)
#undef WB_TRACED_COMPOUND
    traced_ref& operator++()
    {
        ++*m_p;
        record();
        return *this;
    }
    traced_ref& operator--()
    {
        --*m_p;
        record();
        return *this;
    }
    T operator++(int)
    {
        T old = *m_p;
        ++*m_p;
        record();
        return old;
    }
    T operator--(int)
    {
        T old = *m_p;
        --*m_p;
        record();
        return old;
    }
    /// Members of struct elements (stores through it are not recorded).
    T* operator->() const noexcept
    {
        return m_p;
    }
    traced_ptr<T> operator&() const noexcept
    {
        return traced_ptr<T>(m_p);
    }

private:
    void record() const
    {
        wb_cpu_trace_store(m_p, sizeof(T), 0);
    }
    T* m_p;
};

/// A kernel's mutable pointer parameter in trace mode.
template <typename T> class traced_ptr {
public:
    using element_type = T;
    traced_ptr() noexcept = default;
    traced_ptr(T* p) noexcept
        : m_p(p)
    {
    }
    traced_ptr(std::nullptr_t) noexcept {}
    operator T*() const noexcept { return m_p; }
    template <typename U, typename = std::enable_if_t<std::is_void_v<U>>>
    operator U*() const noexcept
    {
        return m_p;
    }
    T* get() const noexcept { return m_p; }
    explicit operator bool() const noexcept { return m_p != nullptr; }

    /// A struct element is the struct itself: `p[i].weight = w` must compile, and a member
    /// store cannot be intercepted (the host reports the changed bytes as untraced).
    using element_ref =
        std::conditional_t<std::is_class_v<T> || std::is_union_v<T>, T&, traced_ref<T>>;
    element_ref operator*() const noexcept { return element(m_p); }
    template <typename I, typename = std::enable_if_t<std::is_integral_v<I> || std::is_enum_v<I>>>
    element_ref operator[](I i) const noexcept
    {
        return element(m_p + i);
    }
    T* operator->() const noexcept { return m_p; }

    template <typename I, typename = std::enable_if_t<std::is_integral_v<I>>>
    friend traced_ptr operator+(traced_ptr p, I i) noexcept
    {
        return traced_ptr(p.m_p + i);
    }
    template <typename I, typename = std::enable_if_t<std::is_integral_v<I>>>
    friend traced_ptr operator+(I i, traced_ptr p) noexcept
    {
        return traced_ptr(p.m_p + i);
    }
    template <typename I, typename = std::enable_if_t<std::is_integral_v<I>>>
    friend traced_ptr operator-(traced_ptr p, I i) noexcept
    {
        return traced_ptr(p.m_p - i);
    }
    friend std::ptrdiff_t operator-(traced_ptr a, traced_ptr b) noexcept { return a.m_p - b.m_p; }
    template <typename I> traced_ptr& operator+=(I i) noexcept
    {
        m_p += i;
        return *this;
    }
    template <typename I> traced_ptr& operator-=(I i) noexcept
    {
        m_p -= i;
        return *this;
    }
    traced_ptr& operator++() noexcept
    {
        ++m_p;
        return *this;
    }
    traced_ptr operator++(int) noexcept { return traced_ptr(m_p++); }
    traced_ptr& operator--() noexcept
    {
        --m_p;
        return *this;
    }
    traced_ptr operator--(int) noexcept { return traced_ptr(m_p--); }

private:
    static element_ref element(T* p) noexcept
    {
        if constexpr (std::is_class_v<T> || std::is_union_v<T>)
            return *p;
        else
            return traced_ref<T>(p);
    }
    T* m_p = nullptr;
};

// Atomics on traced elements: recorded as atomic stores (never a race), then done as usual.
// Found by argument-dependent lookup.
#define WB_TRACED_ATOMIC1(NAME)                                                                    \
    template <typename T, typename... A> inline T NAME(traced_ptr<T> p, A... a)                    \
    {                                                                                              \
        wb_cpu_trace_store(p.get(), sizeof(T), 1);                                                 \
        return ::NAME(p.get(), static_cast<T>(a)...);                                              \
    }
#define WB_TRACED_ATOMIC(NAME)                                                                     \
    WB_TRACED_ATOMIC1(NAME)                                                                        \
    WB_TRACED_ATOMIC1(NAME##_block)                                                                \
    WB_TRACED_ATOMIC1(NAME##_system)
WB_TRACED_ATOMIC(atomicAdd)
WB_TRACED_ATOMIC(atomicSub)
WB_TRACED_ATOMIC(atomicExch)
WB_TRACED_ATOMIC(atomicMin)
WB_TRACED_ATOMIC(atomicMax)
WB_TRACED_ATOMIC(atomicInc)
WB_TRACED_ATOMIC(atomicDec)
WB_TRACED_ATOMIC(atomicCAS)
WB_TRACED_ATOMIC(atomicAnd)
WB_TRACED_ATOMIC(atomicOr)
WB_TRACED_ATOMIC(atomicXor)
#undef WB_TRACED_ATOMIC
#undef WB_TRACED_ATOMIC1

} // namespace wbcpu
