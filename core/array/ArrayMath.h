// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/array/ElementwiseKernel.h"
#include "core/array/ReductionKernel.h"
#include "core/cuda/DeviceArray.h"

#include <cstddef>
#include <string>
#include <type_traits>
#include <vector>

/// DeviceArray arithmetic (PyCUDA's GPUArray operators): `+ - * /` between arrays and scalars,
/// unary minus, and the reductions sum, max, min, dot. Operators build an expression; it turns
/// into one generated ElementwiseKernel when assigned to a DeviceArray, so `a * b + c` is one
/// kernel, not two:
///
///     DeviceArray<float> r = a * b + 2.0f * c;     // one kernel: out[i] = ((x0[i] * x1[i]) + ...)
///     float s = sum(a * b);                        // one reduction, the product fused into it
///
/// Arrays are captured by reference: evaluate an expression before its arrays go away (do not
/// keep one in `auto` past them). All arrays of an expression have the same element type and
/// size; scalars are converted to that type and passed as kernel arguments, so other values
/// reuse the compiled kernel. Generated kernels are cached per expression shape for the life
/// of the process.
namespace wb::cuda {

namespace expr {

/// What an expression turns into: the ElementwiseKernel (or ReductionKernel map) text, and the
/// arrays and scalars to pass, in argument order.
template <typename T> struct Collected {
    std::vector<const DeviceArray<T>*> arrays;
    std::vector<T> scalars;

    std::string array(const DeviceArray<T>& a)
    {
        for (std::size_t k = 0; k < arrays.size(); ++k)
            if (arrays[k] == &a) return named('x', k);
        arrays.push_back(&a);
        return named('x', arrays.size() - 1);
    }
    std::string scalar(T v)
    {
        scalars.push_back(v);
        return named('s', scalars.size() - 1);
    }
    static std::string named(char prefix, std::size_t k)
    {
        std::string name(1, prefix);
        name += std::to_string(k);
        return name;
    }
    /// "const float *x0, const float *x1, float s0" (prefixed by `first` when given).
    std::string arguments(const std::string& first = {}) const
    {
        const std::string type = scalarTypeName(scalarTypeOf<T>());
        std::string list = first;
        for (std::size_t k = 0; k < arrays.size(); ++k)
            append(list, "const " + type + " *" + named('x', k));
        for (std::size_t k = 0; k < scalars.size(); ++k)
            append(list, type + " " + named('s', k));
        return list;
    }
    static void append(std::string& list, const std::string& item)
    {
        if (!list.empty()) list += ", ";
        list += item;
    }
    void bind(wb::detail::CudaArgs& bound) const
    {
        for (const DeviceArray<T>* a : arrays)
            bound.add(*a);
        for (const T& s : scalars)
            bound.add(s);
    }
};

template <typename T> struct ArrayLeaf {
    const DeviceArray<T>& array;
    std::string emit(Collected<T>& c) const
    {
        std::string text = c.array(array);
        text += "[i]";
        return text;
    }
};
template <typename T> struct ScalarLeaf {
    T value;
    std::string emit(Collected<T>& c) const { return c.scalar(value); }
};
template <char Op, typename L, typename R> struct Binary {
    L left;
    R right;
    template <typename T> std::string emit(Collected<T>& c) const
    {
        std::string text = "(";
        text += left.emit(c);
        text += ' ';
        text += Op;
        text += ' ';
        text += right.emit(c);
        text += ')';
        return text;
    }
};
template <typename E> struct Negate {
    E inner;
    template <typename T> std::string emit(Collected<T>& c) const
    {
        std::string text = "(-";
        text += inner.emit(c);
        text += ')';
        return text;
    }
};

} // namespace expr

/// An arithmetic expression over DeviceArray<T>s, not yet evaluated.
template <typename T, typename Node> class ArrayExpr {
public:
    using value_type = T;
    explicit ArrayExpr(Node node)
        : m_node(std::move(node))
    {
    }
    const Node& node() const noexcept { return m_node; }

    /// The one generated kernel and its arguments.
    expr::Collected<T> collect(std::string& body) const
    {
        expr::Collected<T> c;
        body = m_node.emit(c);
        return c;
    }
    /// Evaluates into a new array (same shape and context as the expression's first array).
    DeviceArray<T> eval() const;
    operator DeviceArray<T>() const { return eval(); }

private:
    Node m_node;
};

namespace detail {
template <typename X> struct ArrayTraits {
    static constexpr bool arrayish = false;
};
template <typename T> struct ArrayTraits<DeviceArray<T>> {
    static constexpr bool arrayish = true;
    using value_type = T;
    static expr::ArrayLeaf<T> node(const DeviceArray<T>& a) { return {a}; }
};
template <typename T, typename N> struct ArrayTraits<ArrayExpr<T, N>> {
    static constexpr bool arrayish = true;
    using value_type = T;
    static const N& node(const ArrayExpr<T, N>& e) { return e.node(); }
};
template <typename X>
inline constexpr bool kArrayish = ArrayTraits<std::remove_cvref_t<X>>::arrayish;

template <typename A, typename B> struct ElementOf;
template <typename A, typename B>
requires(kArrayish<A>&& kArrayish<B>) struct ElementOf<A, B> {
    using type = typename ArrayTraits<A>::value_type;
    static_assert(std::is_same_v<type, typename ArrayTraits<B>::value_type>,
                  "array expressions combine arrays of one element type");
};
template <typename A, typename B>
requires(kArrayish<A>&& std::is_arithmetic_v<B>) struct ElementOf<A, B> {
    using type = typename ArrayTraits<A>::value_type;
};
template <typename A, typename B>
requires(std::is_arithmetic_v<A>&& kArrayish<B>) struct ElementOf<A, B> {
    using type = typename ArrayTraits<B>::value_type;
};

template <typename T, typename X> auto nodeOf(const X& x)
{
    if constexpr (std::is_arithmetic_v<X>)
        return expr::ScalarLeaf<T>{static_cast<T>(x)};
    else
        return ArrayTraits<X>::node(x);
}

template <char Op, typename A, typename B> auto binary(const A& a, const B& b)
{
    using T = typename ElementOf<A, B>::type;
    using Node = expr::Binary<Op, decltype(nodeOf<T>(a)), decltype(nodeOf<T>(b))>;
    return ArrayExpr<T, Node>(Node{nodeOf<T>(a), nodeOf<T>(b)});
}

template <typename A, typename B>
concept ArrayOperands = (kArrayish<A> && (kArrayish<B> || std::is_arithmetic_v<B>)) ||
                        (std::is_arithmetic_v<A> && kArrayish<B>);

/// The process-wide cache of generated kernels, one per expression shape.
const ElementwiseKernel& cachedElementwise(const std::string& arguments,
                                           const std::string& operation);
const wb::detail::Reduction& cachedReduction(ScalarType type, const std::string& neutral,
                                             const std::string& reduce, const std::string& map,
                                             const std::string& arguments);
/// The reduce expressions of sum, max and min (PyCUDA's `a` and `b`).
inline constexpr const char* kSumReduce = "a + b";
inline constexpr const char* kMaxReduce = "a > b ? a : b";
inline constexpr const char* kMinReduce = "a < b ? a : b";
/// The neutral element of max (lowest = true: -inf or the lowest integer) or min.
std::string extremeLiteral(ScalarType type, bool lowest);

template <typename X> auto asExpr(const X& x)
{
    using T = typename ArrayTraits<X>::value_type;
    if constexpr (std::is_same_v<X, DeviceArray<T>>)
        return ArrayExpr<T, expr::ArrayLeaf<T>>(expr::ArrayLeaf<T>{x});
    else
        return x;
}

template <typename X>
typename ArrayTraits<X>::value_type reduce(const X& x, const std::string& neutral,
                                           const std::string& reduceExpr)
{
    using T = typename ArrayTraits<X>::value_type;
    const auto e = asExpr(x);
    std::string map;
    const expr::Collected<T> c = e.collect(map);
    const wb::detail::Reduction& r =
        cachedReduction(scalarTypeOf<T>(), neutral, reduceExpr, map, c.arguments());
    wb::detail::CudaArgs bound(r.name(), r.arguments());
    c.bind(bound);
    bound.finish();
    T result{};
    r.runCuda(bound, &result);
    return result;
}
} // namespace detail

template <typename T, typename Node> DeviceArray<T> ArrayExpr<T, Node>::eval() const
{
    std::string body;
    const expr::Collected<T> c = collect(body);
    const std::string type = scalarTypeName(scalarTypeOf<T>());
    const ElementwiseKernel& kernel =
        detail::cachedElementwise(c.arguments(type + " *out"), "out[i] = " + body);
    DeviceArray<T> out = c.arrays.front()->emptyLike("expression result");
    wb::detail::CudaArgs bound(kernel.name(), kernel.arguments());
    bound.add(out);
    c.bind(bound);
    bound.finish();
    kernel.launchBound(bound);
    return out;
}

template <typename A, typename B>
requires detail::ArrayOperands<A, B>
auto operator+(const A& a, const B& b)
{
    return detail::binary<'+'>(a, b);
}
template <typename A, typename B>
requires detail::ArrayOperands<A, B>
auto operator-(const A& a, const B& b)
{
    return detail::binary<'-'>(a, b);
}
template <typename A, typename B>
requires detail::ArrayOperands<A, B>
auto operator*(const A& a, const B& b)
{
    return detail::binary<'*'>(a, b);
}
template <typename A, typename B>
requires detail::ArrayOperands<A, B>
auto operator/(const A& a, const B& b)
{
    return detail::binary<'/'>(a, b);
}
template <typename A>
requires detail::kArrayish<A>
auto operator-(const A& a)
{
    using T = typename detail::ArrayTraits<A>::value_type;
    using Node = expr::Negate<decltype(detail::nodeOf<T>(a))>;
    return ArrayExpr<T, Node>(Node{detail::nodeOf<T>(a)});
}

/// The sum of an array or of an expression (fused into the reduction's map). T must be int,
/// unsigned, long long, unsigned long long, float or double. Waits for the result.
template <typename X>
requires detail::kArrayish<X>
auto sum(const X& x)
{
    return detail::reduce(x, "0", detail::kSumReduce);
}
/// The largest element (-inf / the lowest value for an empty array). NaNs are not propagated.
template <typename X>
requires detail::kArrayish<X>
auto max(const X& x)
{
    using T = typename detail::ArrayTraits<X>::value_type;
    return detail::reduce(x, detail::extremeLiteral(scalarTypeOf<T>(), true), detail::kMaxReduce);
}
/// The smallest element (+inf / the highest value for an empty array).
template <typename X>
requires detail::kArrayish<X>
auto min(const X& x)
{
    using T = typename detail::ArrayTraits<X>::value_type;
    return detail::reduce(x, detail::extremeLiteral(scalarTypeOf<T>(), false), detail::kMinReduce);
}
/// sum(a * b) in one reduction kernel.
template <typename A, typename B>
requires(detail::kArrayish<A>&& detail::kArrayish<B>) auto dot(const A& a, const B& b)
{
    return sum(a * b);
}

} // namespace wb::cuda
