// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/array/ArrayMath.h"

#include <map>
#include <memory>
#include <mutex>

namespace wb::cuda::detail {

namespace {
// Leaked on purpose: compiled modules must not be unloaded during static destruction, after
// the driver may have gone.
template <typename V> struct Cache {
    std::mutex mutex;
    std::map<std::string, std::unique_ptr<V>> entries;
};
} // namespace

const ElementwiseKernel& cachedElementwise(const std::string& arguments,
                                           const std::string& operation)
{
    static auto* cache = new Cache<ElementwiseKernel>;
    std::lock_guard lock(cache->mutex);
    auto& slot = cache->entries[arguments + '\n' + operation];
    if (!slot) slot = std::make_unique<ElementwiseKernel>(arguments, operation, "array_expr");
    return *slot;
}

const wb::detail::Reduction& cachedReduction(ScalarType type, const std::string& neutral,
                                             const std::string& reduce, const std::string& map,
                                             const std::string& arguments)
{
    static auto* cache = new Cache<wb::detail::Reduction>;
    std::lock_guard lock(cache->mutex);
    auto& slot = cache->entries[std::string(scalarTypeName(type)) + '\n' + neutral + '\n' + reduce +
                                '\n' + map + '\n' + arguments];
    if (!slot)
        slot = std::make_unique<wb::detail::Reduction>(type, neutral, reduce, map, arguments,
                                                       "array_reduce", std::string_view{});
    return *slot;
}

std::string extremeLiteral(ScalarType type, bool lowest)
{
    switch (type) {
    case ScalarType::Float:
        return lowest ? "-__int_as_float(0x7f800000)" : "__int_as_float(0x7f800000)";
    case ScalarType::Double:
        return lowest ? "-__longlong_as_double(0x7ff0000000000000LL)"
                      : "__longlong_as_double(0x7ff0000000000000LL)";
    case ScalarType::Int:
        return lowest ? "(-2147483647 - 1)" : "2147483647";
    case ScalarType::UnsignedInt:
        return lowest ? "0u" : "4294967295u";
    case ScalarType::LongLong:
        return lowest ? "(-9223372036854775807LL - 1)" : "9223372036854775807LL";
    case ScalarType::UnsignedLongLong:
        return lowest ? "0ull" : "18446744073709551615ull";
    default:
        break;
    }
    throw Error(Error::Kind::InvalidArgument,
                std::string("max/min of ") + scalarTypeName(type) + " arrays is not supported");
}

} // namespace wb::cuda::detail
